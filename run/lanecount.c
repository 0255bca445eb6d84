/* lanecount.c - the lanes a hasher fills; see lanecount.h. */
#include <stdint.h>

#include "run/lanecount.h"
#include "os/features.h"

/* Twice the lanes pay where the engines hash at least this many times as
 * fast with them, in percent: a threshold between what was measured
 * (doc/engines.md): on an Intel CPU with AVX-512, where 32 lanes gain
 * little in the engines, they were slower than 16 from end to end; on
 * Zen 5, where they hash nearly twice as fast, they were faster. */
enum { LANES_DOUBLED_GAIN = 125 };

unsigned lanecount_for(const struct md5_engine *const *e)
{
	unsigned n = md5_lanes_width(e);

	while (HAS_LANES_HALVED && n > 1 && n % 2 == 0 &&
	       (uint64_t)md5_lanes_speed(e, n) * 100 <
		       (uint64_t)md5_lanes_speed(e, n / 2) * LANES_DOUBLED_GAIN)
		n /= 2;
	return n;
}
