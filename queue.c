/* queue.c - the ring of jobs of a parallel run; see queue.h. */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "queue.h"

bool queue_init(struct queue *q, size_t size)
{
	*q = (struct queue){
		.lock = PTHREAD_MUTEX_INITIALIZER,
		.more = PTHREAD_COND_INITIALIZER,
		.hashed = PTHREAD_COND_INITIALIZER,
		.size = size,
		.ring = calloc(size, sizeof *q->ring),
	};
	return q->ring != NULL;
}

void queue_free(struct queue *q)
{
	free(q->ring);
}

bool queue_for_hashers(const struct job *j)
{
	return !j->bad_line && strcmp(j->name, "-") != 0;
}

bool queue_fill(struct queue *q, const struct job_source *src)
{
	size_t tail = q->tail;
	bool more = true;

	/* Hashers do not look at slots past the tail until it moves. */
	while (tail - q->head < q->size &&
	       (more = src->next(src->ctx, &q->ring[tail % q->size].job))) {
		struct slot *s = &q->ring[tail++ % q->size];

		s->deferred = false;
		atomic_init(&s->hashed, false);
	}
	pthread_mutex_lock(&q->lock);
	q->tail = tail;
	q->end = !more;
	if (q->idle)
		pthread_cond_broadcast(&q->more);
	pthread_mutex_unlock(&q->lock);
	return more;
}

struct slot *queue_head(struct queue *q)
{
	return &q->ring[q->head % q->size];
}

/* Output waits in the buffer for a while; after a tenth of a second it is
 * shown, and waiting goes on. */
void queue_wait(struct queue *q, struct slot *s, struct out *out)
{
	struct timespec until;
	bool shown = false;

	if (atomic_load(&s->hashed))
		return;
	clock_gettime(CLOCK_REALTIME, &until);
	until.tv_nsec += 100 * 1000 * 1000;
	if (until.tv_nsec >= 1000 * 1000 * 1000) {
		until.tv_sec++;
		until.tv_nsec -= 1000 * 1000 * 1000;
	}
	pthread_mutex_lock(&q->lock);
	atomic_store(&q->awaited, s);
	while (!atomic_load(&s->hashed)) {
		if (shown) {
			pthread_cond_wait(&q->hashed, &q->lock);
		} else if (pthread_cond_timedwait(&q->hashed, &q->lock, &until) != 0) {
			pthread_mutex_unlock(&q->lock);
			out_flush(out);
			shown = true;
			pthread_mutex_lock(&q->lock);
		}
	}
	atomic_store(&q->awaited, NULL);
	pthread_mutex_unlock(&q->lock);
}

/* next never falls behind head. */
void queue_pass_head(struct queue *q)
{
	pthread_mutex_lock(&q->lock);
	if (q->next == q->head)
		q->next++;
	pthread_mutex_unlock(&q->lock);
}

unsigned queue_take(struct queue *q, struct slot **got, unsigned max, bool wait)
{
	unsigned n = 0;

	pthread_mutex_lock(&q->lock);
	for (;;) {
		for (; q->next < q->tail && n < max; q->next++) {
			struct slot *s = &q->ring[q->next % q->size];

			if (queue_for_hashers(&s->job))
				got[n++] = s;
		}
		if (n > 0 || !wait || q->end)
			break;
		q->idle++;
		pthread_cond_wait(&q->more, &q->lock);
		q->idle--;
	}
	pthread_mutex_unlock(&q->lock);
	return n;
}

/* The lock is taken only when the reporter waits for one of the slots:
 * hashed and awaited are stored and loaded in opposite orders, so one of
 * the two threads always sees the other's store. */
void queue_publish(struct queue *q, struct slot *const *done, unsigned n)
{
	struct slot *awaited;

	for (unsigned i = 0; i < n; i++)
		atomic_store(&done[i]->hashed, true);
	awaited = atomic_load(&q->awaited);
	for (unsigned i = 0; i < n; i++) {
		if (done[i] == awaited) {
			pthread_mutex_lock(&q->lock);
			pthread_cond_signal(&q->hashed);
			pthread_mutex_unlock(&q->lock);
		}
	}
}
