/* term.c - whole writes, and the terminal's status line; see term.h. */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "out/term.h"

static const char clear_seq[] = "\r\033[K";
/* How long a signal handler waits for a line being drawn. */
enum { DRAW_WAIT_NS = 100 * 1000 * 1000 };

/* Set once, by term_share, before any thread that reads it. */
static bool shared;

/* The line on the terminal, under line_lock. */
static pthread_mutex_t line_lock = PTHREAD_MUTEX_INITIALIZER;
static bool midline;		/* what was written last did not end its line */
/* The status line is on the terminal.  Atomic, not a volatile
 * sig_atomic_t: the signal handler that reads it may run on another
 * thread than the one that writes it, and a lock-free atomic is safe
 * in a handler too. */
static atomic_bool drawn;
_Static_assert(ATOMIC_BOOL_LOCK_FREE == 2, "a signal handler reads drawn");
/* A handler runs on any thread, while another may be drawing: the drawer
 * says it is about to draw and then looks whether the run is ending; the
 * handler says the run is ending and then waits for a draw under way.
 * Sequentially consistent, one of the two sees the other, and no line is
 * drawn after the handler cleared it. */
static atomic_bool drawing, ending;
/* The status line as last drawn: from the start of the terminal's line,
 * and what was there after it erased. */
static char shown[TERM_LINE_MAX + sizeof clear_seq];
static size_t shown_len;

/* What could not be written is dropped, as stdio drops it. */
int write_all(int fd, const void *buf, size_t n)
{
	const char *p = buf;

	while (n > 0) {
		ssize_t w = write(fd, p, n);

		if (w < 0 && errno != EINTR)
			return errno;
		if (w > 0) {
			p += w;
			n -= (size_t)w;
		}
	}
	return 0;
}

/* With line_lock held.  A failure has nowhere to be told. */
static void clear_line(void)
{
	if (atomic_load(&drawn)) {
		(void)write_all(STDERR_FILENO, clear_seq, sizeof clear_seq - 1);
		atomic_store(&drawn, false);
	}
}

void term_share(void)
{
	shared = true;
}

void term_pause(void)
{
	if (!shared)
		return;
	pthread_mutex_lock(&line_lock);
	clear_line();
}

void term_resume(bool line_ended)
{
	if (!shared)
		return;
	midline = !line_ended;
	pthread_mutex_unlock(&line_lock);
}

/* Whether line is the status line on the terminal now. */
static bool is_shown(const char *line, size_t len)
{
	return atomic_load(&drawn) && shown_len == len + 4 && memcmp(shown + 1, line, len) == 0;
}

void term_show(const char *line, size_t len)
{
	pthread_mutex_lock(&line_lock);
	if (len == 0 || len > TERM_LINE_MAX) {
		clear_line();
	} else if (!midline && !is_shown(line, len)) {
		shown[0] = '\r';
		memcpy(shown + 1, line, len);
		memcpy(shown + 1 + len, "\033[K", 3);
		shown_len = len + 4;
		atomic_store(&drawing, true);
		if (!atomic_load(&ending)) {
			atomic_store(&drawn, true);
			(void)write_all(STDERR_FILENO, shown, shown_len);
		}
		atomic_store(&drawing, false);
	}
	pthread_mutex_unlock(&line_lock);
}

void term_clear(void)
{
	pthread_mutex_lock(&line_lock);
	clear_line();
	pthread_mutex_unlock(&line_lock);
}

/* A write to a terminal can wait for ever (a stopped output, ^S): the
 * handler waits for a draw under way a little, then clears anyway. */
static void wait_for_drawer(void)
{
	struct timespec t0, t;

	if (clock_gettime(CLOCK_MONOTONIC, &t0) != 0)
		return;
	while (atomic_load(&drawing) && clock_gettime(CLOCK_MONOTONIC, &t) == 0 &&
	       (t.tv_sec - t0.tv_sec) * 1000000000L + (t.tv_nsec - t0.tv_nsec) < DRAW_WAIT_NS)
		;
}

void term_clear_at_signal(void)
{
	atomic_store(&ending, true);
	wait_for_drawer();
	if (atomic_load(&drawn)) {
		ssize_t w = write(STDERR_FILENO, clear_seq, sizeof clear_seq - 1);

		(void)w;
	}
}
