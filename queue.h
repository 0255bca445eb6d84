/* queue.h - the jobs of a parallel run, between the thread that makes and
 * reports them and the threads that hash them.
 *
 * A ring of slots: the reporting thread fills it at the tail from a job
 * source, hashing threads take jobs from it in order and publish their
 * results in any order, and the reporting thread reports the slot at the
 * head once it is hashed, so that results come out in input order.  The
 * reporting thread alone moves the head and the tail. */
#ifndef QUEUE_H
#define QUEUE_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>

#include "jobs.h"
#include "out.h"

/* A job in the queue, and whether it has been hashed. */
struct slot {
	struct job job;
	atomic_bool hashed;	/* job.err and job.digest are set */
	bool deferred;		/* left, opened, for the reporter to read in
				 * its turn: a file that is not regular */
	int fd;			/* when deferred */
};

/* Slots reported at head, handed out at next, filled at tail.  The
 * counters only grow; a slot is counter % size. */
struct queue {
	pthread_mutex_t lock;
	pthread_cond_t more;	/* jobs were added, or the end came */
	pthread_cond_t hashed;	/* the awaited slot was hashed */
	struct slot *ring;
	size_t size;
	size_t head, next, tail;
	bool end;		/* no job will be added */
	unsigned idle;		/* hashing threads waiting for jobs */
	struct slot *_Atomic awaited;	/* the slot the reporter waits for */
};

/* A queue of size slots; false when out of memory. */
bool queue_init(struct queue *q, size_t size);
void queue_free(struct queue *q);

/* Whether hashing threads take the job: not standard input, which the
 * reporting thread reads in its turn, and not a bad list line. */
bool queue_for_hashers(const struct job *j);

/* Reporting side.  Fill the free slots from src and hand them out at
 * once; false when src has no more. */
bool queue_fill(struct queue *q, const struct job_source *src);
/* The slot at the head: the next to report. */
struct slot *queue_head(struct queue *q);
/* Wait until slot s is hashed; the output gathered in out is flushed if
 * that takes a while, so that it is not held back. */
void queue_wait(struct queue *q, struct slot *s, struct out *out);
/* Hand out no more the head slot, which the reporter deals with itself:
 * once reported, its slot is filled again and must not be looked at. */
void queue_pass_head(struct queue *q);

/* Hashing side.  Up to max jobs that hashers take, into got; wait for
 * some only when told to.  How many; 0 when there are none now, or
 * (waiting) none to come. */
unsigned queue_take(struct queue *q, struct slot **got, unsigned max, bool wait);
/* Mark the n slots hashed, at once, so that the reporter wakes once for
 * them. */
void queue_publish(struct queue *q, struct slot *const *done, unsigned n);

#endif
