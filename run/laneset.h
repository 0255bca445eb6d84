/* laneset.h - a hasher's lanes, each the place of one file: lane[l] its
 * feed (feed.h), state[l] its chaining words; a lane whose feed has a
 * task is filled.  The blocks that the filled lanes all have are
 * compressed together in the library's engines (lanes.h), and what they
 * have left is weighed, to choose a file to give away.  The lanes are
 * their hasher's: one thread uses them. */
#ifndef LANESET_H
#define LANESET_H

#include <stdint.h>

#include "run/feed.h"
#include "lib/lanes.h"

/* Of lane[0..n): the bytes their files have left, in all; the lane whose
 * file has the most left of those not read to their end (n when none). */
uint64_t laneset_bytes_left(const struct feed *lane, unsigned n);
unsigned laneset_longest(const struct feed *lane, unsigned n);

/* Compress the blocks that the filled lanes among lane[0..lanes) all
 * have, filled of them: as many to an engine call as engine_for[n] says
 * for n filled (md5_engine_for); state[l] is lane l's chaining words.
 * Idle lanes of an engine repeat the first lane's data. */
void laneset_compress(struct feed *lane, uint32_t (*state)[4], unsigned lanes,
		      unsigned filled, const struct md5_engine *const *engine_for);

#endif
