/* monotime.h - the time of the monotonic clock, which no change of the
 * date moves: for measuring how long something takes; and the CPU the
 * process has used.  A leaf. */
#ifndef MONOTIME_H
#define MONOTIME_H

#include <stdint.h>

/* Microseconds since some fixed moment in the past. */
uint64_t monotime_us(void);

/* Milliseconds since some fixed moment, to within the clock's tick where
 * the system keeps a coarse clock: cheap enough to ask at every step.  To
 * be compared only with what it gave before. */
uint64_t monotime_coarse_ms(void);

/* What the process's threads have used, all together: microseconds of
 * CPU time, and times one gave up its CPU to wait (for a read, a lock),
 * not counting those it was made to by the scheduler.  Zeros where the
 * system cannot tell. */
struct cpu_use {
	uint64_t us;
	uint64_t waits;
};
struct cpu_use monotime_cpu_use(void);

#endif
