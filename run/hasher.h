/* hasher.h - one worker's files, hashed many at once on its thread, one
 * in each lane of a SIMD engine (lanes.h).
 *
 * Tasks (window.h) come in input order.  Each is opened when it comes,
 * and read the way decide.h decides: most wait, opened, in a queue until
 * a lane is free, so that more reads are in flight than there are lanes.
 * Each step reads for every filled lane and compresses the blocks they all
 * have, in the engines fastest for that many lanes; a file read to its
 * end is done (window_task_done_may_write).  A file whose data must come from a
 * spinning disk goes to that disk's reader (disk.h), or is read here and
 * now without one, from where its lane had got to when its device was
 * judged to spin.  Two tasks the hasher does not take, but gives back to
 * its caller, whose loop has the waits they need: an input to read by
 * plain reads in its turn (standard input, a pipe, a device), and a file
 * that cannot be opened, which may wait for a descriptor.  One thread
 * uses a hasher. */
#ifndef HASHER_H
#define HASHER_H

#include <stdbool.h>
#include <stddef.h>

#include "window/window.h"
#include "read/disk.h"
#include "jobs/job.h"
#include "run/feed.h"
#include "lib/lanes.h"
#include "lib/md5.h"
#include "run/decide.h"
#include "run/plan.h"
#include "read/stream.h"

struct hasher;

/* A hasher, or NULL when there is no memory for one; the far reads it
 * times are told to the run's devices. */
struct hasher *hasher_new(const struct hasher_plan *p, struct devices *devices);
void hasher_free(struct hasher *h);

/* From now on, hand files that must come from spinning disks to their
 * readers. */
void hasher_use_disks(struct hasher *h, struct disks *d);

/* Whether its caller may yet add threads between its steps (crew.c):
 * then a step ends once it has read a file to its end out of the lanes,
 * here and now, rather than read its whole queue so; else (as it starts)
 * a step reads its queue through, in order, as a spinning disk wants. */
void hasher_short_steps(struct hasher *h, bool on);

/* How many tasks it takes now. */
unsigned hasher_room(const struct hasher *h);

/* What hasher_add did with a task. */
enum hasher_took {
	HASHER_TOOK,		/* queued, in a lane, handed on, or done */
	HASHER_IN_TURN,		/* to be read plainly in its turn, from the
				 * descriptor given back (-1: by its name):
				 * hash the hasher's files to their end,
				 * wait for the turn (window_wait_turn_and_write),
				 * then hasher_read_in_turn */
	HASHER_NOT_OPENED,	/* not opened, errno says why: hasher_fail
				 * it, or, for want of a descriptor while
				 * files of the run will be closed, add it
				 * again once one is */
};

/* Take t: open it and queue it, or deal with it otherwise (see above);
 * again when t was given back as HASHER_NOT_OPENED (its cost is counted
 * once); *in_turn_fd is the descriptor given back with HASHER_IN_TURN. */
enum hasher_took hasher_add(struct hasher *h, struct task *t, bool again, int *in_turn_fd);

/* Hash every file it holds to its end. */
void hasher_finish_all(struct hasher *h);

/* Read t, given back as HASHER_IN_TURN with fd, by plain reads now. */
void hasher_read_in_turn(struct hasher *h, struct task *t, int fd);

/* t failed with err. */
void hasher_fail(struct hasher *h, struct task *t, int err);

/* Whether it holds files to hash. */
bool hasher_has_files(const struct hasher *h);

/* The work it has done: bytes read, and FILE_COST a file taken; any thread. */
uint64_t hasher_work(const struct hasher *h);

/* Whether it holds files open in lanes or queued for them; any thread. */
bool hasher_holds_open(const struct hasher *h);

/* Read and compress once for every filled lane. */
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
