/* progress.c - the counters of --progress; see progress.h.
 *
 * Three sides meet at the counters.  The threads that read count bytes
 * in an atomic counter, and the thread that writes the output says what
 * the run waits for, under the counters' lock: neither ever waits on the
 * terminal.  The drawing thread (progress_draw.h) only reads them.  The
 * counters count only while it runs: else every call returns after
 * testing one flag. */
#include <pthread.h>
#include <stdatomic.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "os/grow.h"
#include "out/progress.h"
#include "out/progress_draw.h"

/* Set once, by progress_start, before any thread that reads it. */
static bool active;

/* The counters, which the drawing thread reads. */
static struct progress_counters counted = { .lock = PTHREAD_MUTEX_INITIALIZER };

/* --------------------------------------------------------- the counters */

void progress_read(size_t n)
{
	if (active)
		atomic_fetch_add_explicit(&counted.bytes_read, n, memory_order_relaxed);
}

void progress_file_done(void)
{
	if (active)
		atomic_fetch_add_explicit(&counted.files_done, 1, memory_order_relaxed);
}

bool progress_shown(void)
{
	return active;
}

void progress_waiting_for(const char *name)
{
	size_t n;

	if (!active)
		return;
	n = name ? strlen(name) + 1 : 1;
	pthread_mutex_lock(&counted.lock);
	/* Out of memory, the line shows no name: it must not end the run. */
	if (grow(&counted.waiting, &counted.waiting_size, 0, n))
		memcpy(counted.waiting, name ? name : "", n);
	else if (counted.waiting)
		counted.waiting[0] = '\0';
	pthread_mutex_unlock(&counted.lock);
}

void progress_list_begin(int fd)
{
	struct stat st;
	uint64_t size = 0;
	struct timespec now;

	if (!active)
		return;
	if (fd >= 0 && fstat(fd, &st) == 0 && S_ISREG(st.st_mode))
		size = (uint64_t)st.st_size;
	clock_gettime(CLOCK_MONOTONIC, &now);
	pthread_mutex_lock(&counted.lock);
	counted.lists_begun++;
	counted.list_size = size;
	counted.list_began = now;
	atomic_store_explicit(&counted.list_offset, 0, memory_order_relaxed);
	pthread_mutex_unlock(&counted.lock);
}

void progress_list_at(uintmax_t offset)
{
	if (active)
		atomic_store_explicit(&counted.list_offset, offset, memory_order_relaxed);
}

/* ------------------------------------------------ starting and ending */

void progress_start(const struct progress_plan *p)
{
	if (PROGRESS_DRAW_BUILT)
		active = progress_draw_start(&counted, p->check, p->names, p->count);
}

void progress_end(void)
{
	if (active)
		progress_draw_end();
}
