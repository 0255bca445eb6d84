/* cores.c - the CPUs this process may use; see cores.h.  Files are read
 * with read(2) and parsed by hand: stdio's formatted input would double
 * the size of the static build. */
#if defined(__linux__)
#define _GNU_SOURCE	/* sched_getaffinity */
#include <sched.h>
#endif
#include <fcntl.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "os/cores.h"
#include "os/features.h"

/* Where the cgroup says its quota (Linux). */
#if defined(__linux__) && defined(CPU_COUNT)
enum { GROUPS_BYTES = 4096 };

/* The start of the file name in the directory dir under root (dir as
 * /proc/self/cgroup gives it: "" or from "/"), as a string in buf; false
 * when it cannot be read.  Opened a directory at a time, so that no path
 * is put together on the stack, which ulimit -s may keep small. */
static bool read_start(const char *root, const char *dir, const char *name,
		       char *buf, size_t size)
{
	int top = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC), at = top, fd = -1;
	ssize_t n = -1;

	dir += *dir == '/';
	if (top >= 0 && *dir)
		at = openat(top, dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (at >= 0)
		fd = openat(at, name, O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		n = read(fd, buf, size - 1);
		close(fd);
	}
	if (at >= 0 && at != top)
		close(at);
	if (top >= 0)
		close(top);
	buf[n > 0 ? n : 0] = '\0';
	return n > 0;
}

/* The decimal number at *p, which is moved past it; negative or absent
 * ("max"): -1.  Not strtol, which would bring the static build its
 * whole number scanner. */
static long number(const char **p)
{
	long n = -1;

	while (**p == ' ')
		(*p)++;
	for (; **p >= '0' && **p <= '9' && n < 1000000000L; (*p)++)
		n = (n < 0 ? 0 : 10 * n) + (**p - '0');
	return n;
}

/* The CPUs that the quota of the group dir under root allows, rounded up;
 * 0 when it has none: "max PERIOD" in v2's cpu.max, -1 in v1's
 * cpu.cfs_quota_us. */
static unsigned long group_quota(const char *root, const char *dir, bool v2)
{
	char buf[64];
	const char *p = buf;
	long quota = -1, period = -1;

	if (v2 && read_start(root, dir, "cpu.max", buf, sizeof buf)) {
		quota = number(&p);
		period = number(&p);
	} else if (!v2 && read_start(root, dir, "cpu.cfs_quota_us", buf, sizeof buf)) {
		quota = number(&p);
		p = buf;
		if (read_start(root, dir, "cpu.cfs_period_us", buf, sizeof buf))
			period = number(&p);
	}
	if (quota <= 0 || period <= 0)
		return 0;
	return (unsigned long)((quota + period - 1) / period);
}

/* limit, or fewer when the group dir or one above it has a quota that
 * allows fewer CPUs. */
static unsigned quota_limit(const char *root, char *dir, unsigned limit, bool v2)
{
	for (char *slash; ; *slash = '\0') {
		unsigned long n = group_quota(root, dir, v2);

		if (n > 0 && n < limit)
			limit = (unsigned)n;
		if (!(slash = strrchr(dir, '/')) || slash == dir)
			return limit;
	}
}

/* limit, or fewer as the groups of /proc/self/cgroup allow: a line
 * "ID:CONTROLLERS:PATH" each, v2's without controllers, v1's cpu with
 * "cpu" among them. */
static unsigned cgroup_limit(unsigned limit)
{
	char *groups, *line, *next, *controllers, *dir;

	if (!HAS_CPU_QUOTA)
		return limit;
	groups = malloc(GROUPS_BYTES);
	if (!groups || !read_start("/proc/self", "", "cgroup", groups, GROUPS_BYTES)) {
		free(groups);
		return limit;
	}
	for (line = groups; *line; line = next) {
		next = line + strcspn(line, "\n");
		if (*next)
			*next++ = '\0';
		if (!(controllers = strchr(line, ':')) || !(dir = strchr(++controllers, ':')))
			continue;
		*dir++ = '\0';
		if (*controllers == '\0')
			limit = quota_limit("/sys/fs/cgroup", dir, limit, true);
		else if (strcmp(controllers, "cpu") == 0 || strncmp(controllers, "cpu,", 4) == 0)
			limit = quota_limit("/sys/fs/cgroup/cpu", dir, limit, false);
	}
	free(groups);
	return limit;
}
#else
static unsigned cgroup_limit(unsigned limit)
{
	return limit;
}
#endif

#if defined(__linux__) && defined(CPU_COUNT)
/* An affinity that cannot be read means one CPU, which always works. */
unsigned cores_usable(void)
{
	cpu_set_t set;
	unsigned n = 1;

	if (sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 1)
		n = (unsigned)CPU_COUNT(&set);
	return cgroup_limit(n);
}
#else
unsigned cores_usable(void)
{
	long online = sysconf(_SC_NPROCESSORS_ONLN);

	return online > 1 ? (unsigned)online : 1;
}
#endif
