/* fds.c - descriptors free; see fds.h. */
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <sys/resource.h>
#include <unistd.h>

#include "os/fds.h"
#include "os/features.h"

/* Descriptors looked at in one poll(2) (few: the poll list is on the
 * stack, which ulimit -s may keep small), and in all: a run holds a few
 * thousand at most, so that under a higher limit the open ones beyond
 * are not worth the polls that would count them. */
enum { PROBE = 64, PROBE_MAX = 8192 };

/* How many of the descriptors below n are open: poll(2) says POLLNVAL of
 * the others, many at a time. */
static rlim_t count_open(rlim_t n)
{
	struct pollfd p[PROBE];
	rlim_t open = 0;

	for (rlim_t base = 0; base < n; base += PROBE) {
		unsigned k = n - base < PROBE ? (unsigned)(n - base) : PROBE;

		for (unsigned i = 0; i < k; i++)
			p[i] = (struct pollfd){ .fd = (int)(base + i) };
		if (poll(p, k, 0) < 0)
			return n;	/* cannot tell: count none free */
		for (unsigned i = 0; i < k; i++)
			open += !(p[i].revents & POLLNVAL);
	}
	return open;
}

static void raise_limit(struct rlimit *files, rlim_t more)
{
	struct rlimit raised = *files;

	if (!HAS_FD_LIMIT_RAISE || files->rlim_max <= files->rlim_cur)
		return;
	raised.rlim_cur = files->rlim_max - files->rlim_cur < more ? files->rlim_max
								  : files->rlim_cur + more;
	if (setrlimit(RLIMIT_NOFILE, &raised) == 0)
		*files = raised;
}

unsigned fds_free(unsigned want)
{
	struct rlimit files;
	rlim_t open, free;

	if (getrlimit(RLIMIT_NOFILE, &files) != 0 || files.rlim_cur == RLIM_INFINITY)
		return UINT_MAX;
	open = count_open(files.rlim_cur < PROBE_MAX ? files.rlim_cur : PROBE_MAX);
	free = files.rlim_cur > open ? files.rlim_cur - open : 0;
	if (free < want) {
		raise_limit(&files, want - free);
		free = files.rlim_cur > open ? files.rlim_cur - open : 0;
	}
	return free < UINT_MAX ? (unsigned)free : UINT_MAX;
}

/* A descriptor duplicated at number n, the lowest free at or above it,
 * and closed at once. */
void fds_make_room(unsigned n)
{
	struct rlimit files;
	int fd = -1;

	if (getrlimit(RLIMIT_NOFILE, &files) == 0 && files.rlim_cur != RLIM_INFINITY &&
	    files.rlim_cur < (rlim_t)n + 4)
		n = files.rlim_cur > 4 ? (unsigned)files.rlim_cur - 4 : 0;
	if (n == 0 || n > INT_MAX - 3)
		return;
	for (int from = 0; from < 3 && fd < 0; from++)
		fd = fcntl(from, F_DUPFD_CLOEXEC, (int)n + 3);
	if (fd >= 0)
		close(fd);
}
