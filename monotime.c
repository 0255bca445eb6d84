/* monotime.c - the monotonic clock; see monotime.h. */
#include <time.h>

#include "monotime.h"

uint64_t monotime_us(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000 + (uint64_t)t.tv_nsec / 1000;
}

uint64_t monotime_coarse_ms(void)
{
#if defined CLOCK_MONOTONIC_COARSE && !defined MD5SUM_SMALL	/* Linux; small: one clock */
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC_COARSE, &t);
	return (uint64_t)t.tv_sec * 1000 + (uint64_t)t.tv_nsec / 1000000;
#else
	return monotime_us() / 1000;
#endif
}
