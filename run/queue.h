/* queue.h - the files a hasher has opened, waiting for a free lane, in a
 * ring: the first queued goes first; the last can be taken too, to be
 * given away.  Entries are feeds (feed.h) without buffers; the lane that
 * takes one gives it its own.  A queue is its hasher's: one thread uses
 * it. */
#ifndef QUEUE_H
#define QUEUE_H

#include <stdbool.h>
#include <stdint.h>

#include "run/feed.h"

struct queue {
	struct feed *ring;	/* size of them; no buffers */
	unsigned size, first, n;
	uint64_t bytes;		/* the size of their files, in all */
};

/* Room for size files in s, which is zeroed: false when there is no
 * memory for it. */
bool queue_init(struct queue *s, unsigned size);
void queue_free(struct queue *s);
/* Add f; there must be room (n < size). */
void queue_push(struct queue *s, const struct feed *f);
/* Take the first file (in the ring until the next queue_push), or the
 * last, or see the last: n must be > 0. */
const struct feed *queue_take_first(struct queue *s);
struct feed queue_take_last(struct queue *s);
const struct feed *queue_last(const struct queue *s);
/* The i-th file queued, first to last: i < n. */
struct feed *queue_at(struct queue *s, unsigned i);
/* The size of its largest file (0 when it has none). */
uint64_t queue_longest(const struct queue *s);

#endif
