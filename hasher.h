/* hasher.h - many files hashed at once on one thread, one in each lane of
 * a SIMD engine (lanes.h).
 *
 * Tasks (batches.h) come in input order.  Each is opened when it comes,
 * and read the way readway.h decides: most wait, opened, in a queue until a
 * lane is free, so that more reads are in flight than there are lanes.
 * Each step reads for every busy lane and compresses the blocks they all
 * have, in the engines fastest for that many lanes; a file read to its
 * end is done (batches_task_done).  Not in lanes: a file that is not regular (a
 * pipe, a device) and standard input, read by plain reads in their turn
 * once the files before them are done (batches_wait_turn); a file whose
 * data must come from a spinning disk, handed to that disk's reader
 * (disk.h), or read here and now without one, from where its lane had
 * got to when its device was judged to spin.  A file that cannot be
 * opened for want of descriptors (EMFILE, ENFILE) is opened again once
 * one of the run's files is closed.  One thread uses a hasher. */
#ifndef HASHER_H
#define HASHER_H

#include <stdbool.h>
#include <stddef.h>

#include "batches.h"
#include "disk.h"
#include "job.h"
#include "feed.h"
#include "lanes.h"
#include "md5.h"
#include "readway.h"
#include "stream.h"

/* What a hasher needs of the run. */
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
	/* Whether the run holds files elsewhere that it will close: a file
	 * that cannot be opened for want of descriptors waits for one to be
	 * closed then, and fails only when none will be. */
	bool (*others_hold_open)(void *run);
	void *run;
};

struct hasher;

/* The most lanes a hasher keeps busy (busy_lanes_for, feed.h). */
enum { HASHER_LANES_MAX = MD5_LANES_MAX };

/* The bytes of buffers a hasher of so many lanes allocates: one for
 * plain reads, and the lanes'. */
static inline size_t hasher_buffer_bytes(unsigned lanes)
{
	return READ_SIZE + (size_t)lanes * (LANE_BUF + LANE_STAGGER);
}

/* A hasher, or NULL when there is no memory for one. */
struct hasher *hasher_new(const struct hasher_plan *p);
void hasher_free(struct hasher *h);

/* From now on, hand files that must come from spinning disks to their
 * readers. */
void hasher_use_disks(struct hasher *h, struct disks *d);

/* How many tasks it takes now. */
unsigned hasher_room(const struct hasher *h);

/* Take t: open it and queue it, or deal with it otherwise (see above). */
void hasher_add(struct hasher *h, struct task *t);

/* Whether it holds files to hash. */
bool hasher_has_files(const struct hasher *h);

/* The work it has done: bytes read, and FILE_COST a file taken; any thread. */
uint64_t hasher_work(const struct hasher *h);

/* Whether it holds files open in lanes or queued for them; any thread. */
bool hasher_holds_open(const struct hasher *h);

/* Read and compress once for every busy lane. */
void hasher_step(struct hasher *h);

/* A file handed from one thread's hasher to another's, open, with what
 * of it is hashed: a thread whose work has run out takes files that
 * another holds, rather than wait for it at the end of a run. */
struct handover {
	struct feed file;	/* its lane or queue entry, without a buffer */
	struct md5 hashed;	/* what of it is hashed, the partial block
				 * with it */
};

/* The work h has left: bytes to hash, and FILE_COST a file. */
uint64_t hasher_work_left(const struct hasher *h);

/* Of that work, what h could give away, keeping the file with the most
 * left: 0 when it holds fewer than two files. */
uint64_t hasher_work_to_hand_over(const struct hasher *h);

/* Give away the file with the most bytes left of those it holds, in a
 * lane or queued, but not one read to its end: false when it holds fewer
 * than two files, or none to give. */
bool hasher_hand_over(struct hasher *h, struct handover *g);

/* Take g into a free lane, which h must have: it has fewer files in
 * lanes than plan.lanes. */
void hasher_take_over(struct hasher *h, const struct handover *g);

#endif
