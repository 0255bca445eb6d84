/* hasher_shelf.c - files handed over between a run's hashers; see
 * hasher_shelf.h. */
#include <stdlib.h>

#include "run/hasher_shelf.h"

/* Work a worker keeps rather than hand any of it over: it would be done
 * before the worker that takes it had woken. */
enum { HANDOVER_WORK_MIN = 1024 * 1024 };

bool shelf_init(struct shelf *s, unsigned workers, unsigned lanes)
{
	*s = (struct shelf){ .lanes = lanes, .working = 1 };
	if (!HAS_HANDOVERS)
		return true;
	s->slot = calloc((size_t)workers * HASHER_LANES_MAX, sizeof *s->slot);
	if (!s->slot)
		return false;
	if (pthread_mutex_init(&s->lock, NULL) != 0) {
		free(s->slot);
		return false;
	}
	if (pthread_cond_init(&s->changed, NULL) != 0) {
		pthread_mutex_destroy(&s->lock);
		free(s->slot);
		return false;
	}
	return true;
}

void shelf_free(struct shelf *s)
{
	if (!HAS_HANDOVERS)
		return;
	pthread_cond_destroy(&s->changed);
	pthread_mutex_destroy(&s->lock);
	free(s->slot);
}

void shelf_join(struct shelf *s)
{
	if (!HAS_HANDOVERS)
		return;
	pthread_mutex_lock(&s->lock);
	s->working++;
	pthread_mutex_unlock(&s->lock);
}

/* The worker no longer works (nothing to hash, or ended); under the lock. */
static void stop_working(struct shelf *s)
{
	if (--s->working == 0)
		pthread_cond_broadcast(&s->changed);
}

void shelf_leave(struct shelf *s)
{
	if (!HAS_HANDOVERS)
		return;
	pthread_mutex_lock(&s->lock);
	stop_working(s);
	pthread_mutex_unlock(&s->lock);
}

bool shelf_holds(struct shelf *s)
{
	bool shelved;

	if (!HAS_HANDOVERS)
		return false;
	pthread_mutex_lock(&s->lock);
	shelved = s->shelved > 0;
	pthread_mutex_unlock(&s->lock);
	return shelved;
}

bool shelf_wanted(struct shelf *s)
{
	return HAS_HANDOVERS && atomic_load_explicit(&s->idle, memory_order_relaxed) > 0;
}

bool shelf_take(struct shelf *s, struct hasher *h, unsigned lanes)
{
	unsigned n;

	if (!HAS_HANDOVERS)
		return false;
	pthread_mutex_lock(&s->lock);
	stop_working(s);
	atomic_fetch_add(&s->idle, 1);
	while (s->shelved == 0 && s->working > 0)
		pthread_cond_wait(&s->changed, &s->lock);
	atomic_fetch_sub(&s->idle, 1);
	/* A share for each worker still idle, as many as its lanes. */
	n = (s->shelved + atomic_load(&s->idle)) / (atomic_load(&s->idle) + 1);
	if (n > lanes)
		n = lanes;
	for (unsigned i = 0; i < n; i++)
		hasher_take_over(h, &s->slot[--s->shelved]);
	if (n > 0)
		s->working++;
	pthread_mutex_unlock(&s->lock);
	return n > 0;
}

void shelf_give(struct shelf *s, struct hasher *h)
{
	uint64_t left = hasher_work_left(h), share, given = 0;
	unsigned idle;

	if (left < HANDOVER_WORK_MIN)
		return;
	pthread_mutex_lock(&s->lock);
	idle = atomic_load(&s->idle);
	share = left / (idle + 1) * idle;
	while (given < share && s->shelved < idle * s->lanes &&
	       (given > 0 || s->shelved == 0)) {
		struct handover *g = &s->slot[s->shelved];

		if (!hasher_hand_over(h, g))
			break;
		given += feed_bytes_left(&g->file) + FILE_COST;
		s->shelved++;
	}
	if (given > 0)
		pthread_cond_broadcast(&s->changed);
	pthread_mutex_unlock(&s->lock);
}
