/* monotime.c - the monotonic clock; see monotime.h. */
#include <sys/resource.h>
#include <time.h>

#include "os/monotime.h"

uint64_t monotime_us(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000 + (uint64_t)t.tv_nsec / 1000;
}

uint64_t monotime_coarse_ms(void)
{
#if defined CLOCK_MONOTONIC_COARSE	/* Linux */
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC_COARSE, &t);
	return (uint64_t)t.tv_sec * 1000 + (uint64_t)t.tv_nsec / 1000000;
#else
	return monotime_us() / 1000;
#endif
}

struct cpu_use monotime_cpu_use(void)
{
	struct rusage ru;
	struct cpu_use u = { 0, 0 };

	if (getrusage(RUSAGE_SELF, &ru) != 0)
		return u;
	u.us = (uint64_t)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000000 +
	       (uint64_t)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec);
#if defined __linux__ || defined __FreeBSD__ || defined __OpenBSD__ || defined __NetBSD__ || \
	defined __APPLE__
	/* Not POSIX's, but where these systems keep it. */
	u.waits = (uint64_t)ru.ru_nvcsw;
#endif
	return u;
}
