/* bench/clock.h - time and cycles for the benchmarks.  Time is the CPU
 * time of the calling thread, so that the other work of a shared machine
 * takes none of it; the clock is what a chain of dependent adds shows, one
 * add a cycle, measured the same way. */
#ifndef BENCH_CLOCK_H
#define BENCH_CLOCK_H

#include <time.h>

static double cpu_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* x + y, made one add at a time: the empty asm claims to change the sum. */
static inline unsigned long chain_add(unsigned long x, unsigned long y)
{
	x += y;
	__asm__("" : "+r"(x));
	return x;
}

/* Cycles a second: 4 * 10^8 dependent adds, 8 to a loop turn so that the
 * loop's own work runs beside them, over the seconds they take. */
static double clock_hz(void)
{
	enum { TURNS = 50000000 };
	unsigned long x = 0, y = 1;
	double start;

	__asm__("" : "+r"(y));	/* y unknown: no add folds into another */
	start = cpu_seconds();
	for (long i = 0; i < TURNS; i++) {
		x = chain_add(chain_add(chain_add(chain_add(x, y), y), y), y);
		x = chain_add(chain_add(chain_add(chain_add(x, y), y), y), y);
	}
	__asm__("" : : "r"(x));
	return 8.0 * TURNS / (cpu_seconds() - start);
}

#endif
