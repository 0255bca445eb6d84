/* hasher_shelf.h - files handed over between the hashers of a run
 * (crew.h), with hasher_hand_over and hasher_take_over, at its end: a
 * worker with nothing left to claim waits, idle, on the shelf, and
 * workers that still hold files put some there, each with its hash so
 * far, until each has about as much work.  The shelf counts the workers
 * that work, so that an idle one stops waiting once none does.  The small
 * build has no room for it: a worker out of work ends.  Thread-safe: one
 * lock, taken alone. */
#ifndef HASHER_SHELF_H
#define HASHER_SHELF_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>

#include "run/hasher.h"
#include "os/features.h"

struct shelf {
	pthread_mutex_t lock;	/* guards what follows */
	pthread_cond_t changed;	/* files handed over, or no worker works */
	struct handover *slot;	/* workers * lanes of them */
	unsigned lanes;		/* files a worker is handed at most */
	unsigned shelved;	/* handed over, not yet taken */
	unsigned working;	/* workers that hash or may claim */
	atomic_uint idle;	/* workers waiting for files handed over */
};

/* An empty shelf for a run of workers threads at most, each taking lanes
 * files at most, the calling thread working; false when it cannot be
 * had. */
bool shelf_init(struct shelf *s, unsigned workers, unsigned lanes);
void shelf_free(struct shelf *s);

/* A worker starts working. */
void shelf_join(struct shelf *s);

/* A worker no longer works: it may not claim. */
void shelf_leave(struct shelf *s);

/* Whether files handed over wait on it. */
bool shelf_holds(struct shelf *s);

/* Whether workers wait on it, idle; a value a moment old. */
bool shelf_wanted(struct shelf *s);

/* The worker has run out of work and there are no jobs to claim: wait,
 * idle, for files that the workers still hashing hand over, and take its
 * share of them into the lanes of h, lanes at most; false when no worker
 * works, so none will come. */
bool shelf_take(struct shelf *s, struct hasher *h, unsigned lanes);

/* Workers are idle: hand them part of h's work, the files with the most
 * bytes left first, so that each has about as much, unless there is too
 * little to share or files handed over are already on the shelf. */
void shelf_give(struct shelf *s, struct hasher *h);

#endif
