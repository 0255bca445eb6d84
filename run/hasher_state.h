/* hasher_state.h - the state of a hasher (hasher.h), shared by the two
 * files that make it, and by no other: hasher.c takes tasks, queues them
 * and hands files over; hasher_step.c feeds the filled lanes, probes and
 * routes again what they read, and compresses. */
#ifndef HASHER_STATE_H
#define HASHER_STATE_H

#include <stdatomic.h>

#include "run/laneset.h"
#include "run/queue.h"
#include "run/hasher.h"
#include "run/decide.h"
#include "run/recent.h"
#include "os/features.h"

/* Bytes of files queued, beyond which no more are: one large file asked
 * ahead keeps a device as busy as many, and files queued are work that
 * other threads cannot take until the end of the run (handed over). */
enum { QUEUED_BYTES = 4 * ASK_AHEAD };

struct hasher {
	struct hasher_plan plan;
	struct disks *disks;	/* readers of spinning disks, or NULL */
	struct feed *lane;	/* plan.lanes of them */
	unsigned filled;	/* lanes that hold a file */
	struct queue queue;	/* files opened, waiting for a lane: plan.queue
				 * + 1 of them at most */
	atomic_uint held;	/* filled + queued, for other threads to read */
	uint64_t work;		/* bytes read, and FILE_COST a file taken */
	atomic_uint_fast64_t work_seen;	/* work, for other threads to read */
	/* For n filled lanes, the engine to run on the first of them, from
	 * md5_engine_for once for each n. */
	const struct md5_engine *engine_for[MD5_LANES_MAX + 1];
	struct recent_reads recent;	/* of the storage it reads */
	struct lister_memo lister_memo;	/* its last device, networked or not */
	unsigned read_now;	/* files read to their end out of the lanes */
	bool short_steps;	/* see hasher_short_steps */
	uint32_t (*state)[4];	/* each lane's chaining words */
	uint8_t *buf;		/* READ_SIZE bytes for plain reads, then the
				 * lanes' buffers */
};

/* The files held open changed. */
static inline void publish_held(struct hasher *h)
{
	atomic_store_explicit(&h->held, h->filled + h->queue.n, memory_order_relaxed);
}

/* n bytes more of work done. */
static inline void add_work(struct hasher *h, uint64_t n)
{
	h->work += n;
	atomic_store_explicit(&h->work_seen, h->work, memory_order_relaxed);
}

/* Set t's result and make it known, which may write standard output
 * (window.h); bytes of it were read by plain reads. */
static inline void finish_task_may_write(struct hasher *h, struct task *t, int err,
					 uint64_t bytes)
{
	t->job.err = err;
	window_task_done_may_write(t);
	add_work(h, bytes);
}

/* Put file, of which hashed is hashed, in the free lane l. */
static inline void start_in_lane(struct hasher *h, unsigned l, const struct feed *file,
			  const struct md5 *hashed)
{
	feed_resume(&h->lane[l], h->state[l], file, hashed);
	h->filled++;
}

/* The way to read a regular file of storage st, the page cache having
 * answered a. */
static inline enum read_way way_for(const struct hasher *h, const struct storage *st,
			     enum cache_answer a)
{
	return recent_way(&h->recent, st, a, h->plan.disk, h->disks != NULL);
}

/* The lane is free again. */
static inline void release_lane(struct hasher *h, unsigned l)
{
	h->lane[l].task = NULL;
	h->filled--;
	publish_held(h);
}

/* Start the first queued file in the free lane l. */
void hasher_start_queued(struct hasher *h, unsigned l);

/* Hash the file of the lane or queue entry f, begun as ctx (NULL: not
 * begun), by way w (READ_BY_DISK or READ_NOW); f's task is done or handed
 * over. */
void hasher_read_elsewhere(struct hasher *h, const struct feed *f, enum read_way w,
			   const struct md5 *ctx);

#endif
