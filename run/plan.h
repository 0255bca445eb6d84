/* plan.h - what a hasher needs of the run: its engines, its lanes and
 * queue, and how it reads; and the memory that so many lanes take.
 * Planned by budget.h for each thread of a run, carried out by hasher.h;
 * a header of its own so that the budget needs nothing else of the
 * hasher. */
#ifndef PLAN_H
#define PLAN_H

#include <stdbool.h>
#include <stddef.h>

#include "lib/md5.h"
#include "read/stream.h"
#include "run/decide.h"
#include "lib/lanes.h"
#include "run/feed.h"
#include "run/lister.h"

struct hasher_plan {
	const struct md5_engine *const *engines;	/* to choose from */
	unsigned lanes;		/* files hashed at once, HASHER_LANES_MAX at most */
	unsigned queue;		/* files opened ahead of a free lane, at most */
	enum disk_choice disk;
	bool stdin_closed;	/* "-" fails with EBADF */
	bool read_ahead;	/* inputs read plainly may be read on a second
				 * thread (stream.h): not with -j 1 */
	bool time_unsure;	/* time the first read of a file read now on
				 * a device not measured yet (storage.h): no
				 * disk reader will come to measure it */
	struct lister *lister;	/* to tell of the files opened, or NULL */
};

/* The most lanes a hasher fills (lanecount_for, lanecount.h). */
enum { HASHER_LANES_MAX = MD5_LANES_MAX };

/* The bytes of buffers a hasher of so many lanes allocates: one for
 * plain reads, and the lanes'. */
static inline size_t hasher_buffer_bytes(unsigned lanes)
{
	return READ_SIZE + (size_t)lanes * (LANE_BUF + LANE_STAGGER);
}

#endif
