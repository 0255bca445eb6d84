/* queue.c - a hasher's files waiting for a lane, in a ring; see
 * queue.h. */
#include <stdint.h>
#include <stdlib.h>

#include "run/queue.h"

bool queue_init(struct queue *s, unsigned size)
{
	s->ring = calloc(size, sizeof *s->ring);
	s->size = size;
	return s->ring != NULL;
}

void queue_free(struct queue *s)
{
	free(s->ring);
}

void queue_push(struct queue *s, const struct feed *f)
{
	s->ring[(s->first + s->n++) % s->size] = *f;
	s->bytes += (uint64_t)f->size;
}

const struct feed *queue_take_first(struct queue *s)
{
	const struct feed *f = &s->ring[s->first];

	s->first = (s->first + 1) % s->size;
	s->n--;
	s->bytes -= (uint64_t)f->size;
	return f;
}

uint64_t queue_longest(const struct queue *s)
{
	uint64_t most = 0;

	for (unsigned i = 0; i < s->n; i++) {
		uint64_t size = (uint64_t)s->ring[(s->first + i) % s->size].size;

		if (size > most)
			most = size;
	}
	return most;
}

const struct feed *queue_last(const struct queue *s)
{
	return &s->ring[(s->first + s->n - 1) % s->size];
}

struct feed *queue_at(struct queue *s, unsigned i)
{
	return &s->ring[(s->first + i) % s->size];
}

struct feed queue_take_last(struct queue *s)
{
	struct feed f = *queue_last(s);

	s->n--;
	s->bytes -= (uint64_t)f.size;
	return f;
}
