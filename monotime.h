/* monotime.h - the time of the monotonic clock, which no change of the
 * date moves: for measuring how long something takes.  A leaf. */
#ifndef MONOTIME_H
#define MONOTIME_H

#include <stdint.h>

/* Microseconds since some fixed moment in the past. */
uint64_t monotime_us(void);

/* Milliseconds since some fixed moment, to within the clock's tick where
 * the system keeps a coarse clock: cheap enough to ask at every step.  To
 * be compared only with what it gave before. */
uint64_t monotime_coarse_ms(void);

#endif
