/* lanes.h - MD5 block engines that compress several independent streams of
 * whole 64-byte blocks at once, one stream per SIMD lane.
 *
 * An engine is the raw transform of md5_blocks (md5.h) done `width` times
 * side by side: no buffering, no padding.  Callers run it over the blocks
 * every lane has and finish each message with md5.h's API or their own
 * padding; a lane with nothing left can point at another lane's blocks
 * and ignore its state.  Engines hold no state and are thread-safe.
 *
 * Keep the lanes' buffers from starting at one offset modulo 4 KiB, as
 * equal-sized page-aligned buffers do: the blocks read together would fall
 * in the same L1 cache sets (lanes_bench -a).  A line a lane is enough. */
#ifndef LANES_H
#define LANES_H

#include <stddef.h>
#include <stdint.h>

#define MD5_LANES_MAX 32	/* the most lanes an engine has */

struct md5_engine {
	const char *name;	/* "scalar", "sse2", "avx2x2", ... (doc/engines.md) */
	unsigned width;		/* lanes, at most MD5_LANES_MAX */
	/* Advance state[i] over nblocks blocks read from p[i], for every lane
	 * i < width; each p[i] points at nblocks * 64 readable bytes, at any
	 * alignment.  Lanes may share or repeat pointers. */
	void (*blocks)(uint32_t (*state)[4], const uint8_t *const *p,
		       size_t nblocks);
	unsigned needs;		/* the CPU features it needs (lanes.c) */
	unsigned speed;		/* MB/s with every lane busy, one core,
				 * measured: lanes_speeds.h says where */
};

/* The fastest engine this CPU runs with every lane busy (name NULL), or
 * the one called name (NULL when unknown or not supported here). */
const struct md5_engine *md5_engine_pick(const char *name);

/* All engines this CPU runs, fastest first, NULL-terminated; "scalar"
 * (width 1, md5_blocks) is always among them. */
const struct md5_engine *const *md5_engines(void);

/* The same for a CPU with the features have (md5_cpu.h's mask, CPU_INTEL or
 * CPU_AMD among them): md5_engines() is md5_engines_of(cpu_features()).
 * For tests and benchmarks; the engines need not run here. */
const struct md5_engine *const *md5_engines_of(unsigned have);

/* For n busy streams (n >= 1) and engines e (NULL-terminated, as
 * md5_engines() gives), the engine to run on the first min(n, its width),
 * such that calling this again for the rest hashes all n in the least
 * time by the speeds, a call costing width / speed however few of its
 * lanes are busy.  n counts as at most MD5_LANES_MAX; NULL for n 0. */
const struct md5_engine *md5_engine_for(const struct md5_engine *const *e,
					unsigned n);

/* How many streams a caller should keep busy for engines e: the smallest
 * n, at most MD5_LANES_MAX, for which the calls md5_engine_for plans hash
 * the most bytes a second.  0 for no engine. */
unsigned md5_lanes_width(const struct md5_engine *const *e);

/* The MB/s at which the calls md5_engine_for plans for n busy streams
 * (1 <= n <= MD5_LANES_MAX) hash all n, by the speeds; 0 for no engine. */
unsigned md5_lanes_speed(const struct md5_engine *const *e, unsigned n);

#endif
