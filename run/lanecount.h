/* lanecount.h - how many lanes a hasher fills, for the engines it has
 * (lanes.h): the plan's choice, made once before any thread starts. */
#ifndef LANECOUNT_H
#define LANECOUNT_H

#include "lib/lanes.h"

/* How many lanes to fill for engines e: as many as the engines are
 * fastest with (md5_lanes_width), but half as many while that is not
 * much faster than half: each lane is a buffer that the cache must hold
 * and a read to make, which the engines' figures do not count
 * (doc/engines.md). */
unsigned lanecount_for(const struct md5_engine *const *e);

#endif
