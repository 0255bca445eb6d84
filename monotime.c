/* monotime.c - the monotonic clock; see monotime.h. */
#include <time.h>

#include "monotime.h"

uint64_t monotime_us(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000 + (uint64_t)t.tv_nsec / 1000;
}
