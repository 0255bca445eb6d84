/* crew.c - the workers of a run, their loop and their counts; crew.h. */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <time.h>

#include "window/window.h"
#include "run/crew.h"
#include "read/disk.h"
#include "run/hasher.h"
#include "run/judge.h"
#include "os/monotime.h"
#include "read/storage.h"
#include "os/thread.h"

/* One thread that hashes, and what it holds. */
struct worker {
	struct crew *crew;
	struct hasher *hasher;
	struct cursor cursor;	/* in the batch it claimed last */
	unsigned index;		/* among the helpers */
	pthread_t id;
};

/* The workers, and every count of them, under one rule: started and
 * kept change on the calling thread only, which alone starts helpers and
 * takes the steps of pace.h; working, idle and the shelf change under
 * the lock only.  A worker reads started, kept or idle without the lock
 * where a value a moment old does no harm: a helper told to stop claims
 * once more; a worker looks again under the lock before it waits. */
struct crew {
	const struct budget *b;
	struct window *all;
	struct worker *self;	/* the calling thread */
	struct worker *helper;	/* b->most - 1 of them; the first b->busy - 1
				 * with b->plan, the rest with waiting_plan */
	atomic_uint started;	/* helpers started */
	atomic_uint kept;	/* helpers that may claim jobs */
	struct disks *disks;	/* with the first helper, if b->disk_files */
	uint64_t began;		/* monotime_us */
	struct pace pace;

	/* Files handed over by workers that hold work to workers that have
	 * run out of it, once there are no jobs left to claim. */
	pthread_mutex_t lock;	/* guards what follows */
	pthread_cond_t changed;	/* files handed over, or no worker works */
	struct handover *shelf;	/* b->most * HASHER_LANES_MAX of them */
	unsigned shelved;	/* handed over, not yet taken */
	unsigned working;	/* workers that hash or may claim */
	atomic_uint idle;	/* workers waiting for files handed over */
};

/* Work a worker keeps rather than hand any of it over: it would be done
 * before the worker that takes it had woken. */
enum { HANDOVER_WORK_MIN = 1024 * 1024 };

/* No room for handing over in the small build: a worker out of work ends. */
#ifdef MD5SUM_SMALL
#define HANDOVERS 0
#else
#define HANDOVERS 1
#endif

/* Whether a worker or a disk reader holds files that it will close: a
 * file that could not be opened for want of descriptors waits for one. */
static bool holds_files(struct crew *c)
{
	unsigned started = atomic_load(&c->started);
	bool held;

	if (hasher_holds_open(c->self->hasher))
		return true;
	for (unsigned i = 0; i < started; i++)
		if (hasher_holds_open(c->helper[i].hasher))
			return true;
	if (c->disks && disks_held(c->disks))
		return true;
	if (!HANDOVERS)
		return false;
	pthread_mutex_lock(&c->lock);
	held = c->shelved > 0;
	pthread_mutex_unlock(&c->lock);
	return held;
}

static const struct hasher_plan *plan_of(const struct crew *c, const struct worker *w)
{
	return w == c->self ? &c->b->plan : budget_helper_plan(c->b, w->index);
}

/* The worker no longer works (nothing to hash, or ended); under the lock. */
static void stop_working(struct crew *c)
{
	if (--c->working == 0)
		pthread_cond_broadcast(&c->changed);
}

/* The same, from outside the lock: for a helper that may not claim. */
static void leave_work(struct crew *c)
{
	if (!HANDOVERS)
		return;
	pthread_mutex_lock(&c->lock);
	stop_working(c);
	pthread_mutex_unlock(&c->lock);
}

/* The worker has run out of work and there are no jobs to claim: wait,
 * idle, for files that the workers still hashing hand over, and take its
 * share of them into the lanes of h; false when no worker works, so none
 * will come. */
static bool take_handed_over(struct crew *c, struct hasher *h, unsigned lanes)
{
	unsigned n;

	pthread_mutex_lock(&c->lock);
	stop_working(c);
	atomic_fetch_add(&c->idle, 1);
	while (c->shelved == 0 && c->working > 0)
		pthread_cond_wait(&c->changed, &c->lock);
	atomic_fetch_sub(&c->idle, 1);
	/* A share for each worker still idle, as many as its lanes. */
	n = (c->shelved + atomic_load(&c->idle)) / (atomic_load(&c->idle) + 1);
	if (n > lanes)
		n = lanes;
	for (unsigned i = 0; i < n; i++)
		hasher_take_over(h, &c->shelf[--c->shelved]);
	if (n > 0)
		c->working++;
	pthread_mutex_unlock(&c->lock);
	return n > 0;
}

/* Workers are idle: hand them part of h's work, the files with the most
 * bytes left first, so that each has about as much, unless there is too
 * little to share or files handed over are already on the shelf. */
static void hand_over_to_idle(struct crew *c, struct hasher *h)
{
	uint64_t left = hasher_work_left(h), share, given = 0;
	unsigned idle;

	if (left < HANDOVER_WORK_MIN)
		return;
	pthread_mutex_lock(&c->lock);
	idle = atomic_load(&c->idle);
	share = left / (idle + 1) * idle;
	while (given < share && c->shelved < idle * c->b->plan.lanes &&
	       (given > 0 || c->shelved == 0)) {
		struct handover *g = &c->shelf[c->shelved];

		if (!hasher_hand_over(h, g))
			break;
		given += feed_bytes_left(&g->file) + FILE_COST;
		c->shelved++;
	}
	if (given > 0)
		pthread_cond_broadcast(&c->changed);
	pthread_mutex_unlock(&c->lock);
}

/* Give t to the worker's hasher, and wait where it asks: for the turn of
 * an input read plainly, once the worker's own files are hashed (their
 * results must not wait for it, nor be lost with it when the run is
 * killed while it waits); for a descriptor, while the run holds files
 * that it will close, hashing the worker's own until one ends. */
static void add_task(struct crew *c, struct hasher *h, struct task *t)
{
	static const struct timespec nap = { .tv_nsec = 1000 * 1000 };
	enum hasher_took took;
	bool again = false;
	int err, fd;

	while ((took = hasher_add(h, t, again, &fd)) != HASHER_TOOK) {
		if (took == HASHER_IN_TURN) {
			hasher_finish_all(h);
			window_wait_turn_and_write(t);
			hasher_read_in_turn(h, t, fd);
			return;
		}
		err = errno;
		if (err != EMFILE && err != ENFILE)
			break;
		if (hasher_has_files(h))
			hasher_step(h);	/* until a file of its own ends */
		else if (holds_files(c))
			nanosleep(&nap, NULL);
		else
			break;
		again = true;
	}
	if (took != HASHER_TOOK)
		hasher_fail(h, t, err);
}

static void take_pace_step(struct crew *c);

/* Claim tasks and hash them until there are none left: claim while the
 * hasher has room, waiting for the window to move only when it has
 * nothing else to do.  A helper told to stop claims no more, and ends
 * once it has hashed what it holds. */
static void work(struct worker *w)
{
	struct crew *c = w->crew;
	struct hasher *h = w->hasher;
	struct task *task;

	for (;;) {
		bool claim = w == c->self || w->index < atomic_load(&c->kept);

		if (w == c->self)
			take_pace_step(c);
		task = NULL;
		if (hasher_room(h) > 0)
			task = claim ? window_next(c->all, &w->cursor, !hasher_has_files(h))
				     : window_rest(&w->cursor);
		if (task) {
			add_task(c, h, task);
			continue;
		}
		if (!hasher_has_files(h) &&
		    !(HANDOVERS && claim && take_handed_over(c, h, plan_of(c, w)->lanes))) {
			if (!claim)
				leave_work(c);
			return;	/* none left to claim, or none it may */
		}
		hasher_step(h);
		if (HANDOVERS && atomic_load_explicit(&c->idle, memory_order_relaxed) > 0)
			hand_over_to_idle(c, h);
		window_tick_may_write(c->all);
	}
}

static void *helper_main(void *arg)
{
	work(arg);
	return NULL;
}

/* The work done so far: bytes read, and FILE_COST a file taken. */
static uint64_t work_done(struct crew *c)
{
	uint64_t done = hasher_work(c->self->hasher);
	unsigned started = atomic_load(&c->started);

	for (unsigned i = 0; i < started; i++)
		done += hasher_work(c->helper[i].hasher);
	return done + (c->disks ? disks_work(c->disks) : 0);
}

/* Start helpers up to n in all, and the disks' readers with the first:
 * as many as can be had.  Not sooner: a run of a few files reads them on
 * the calling thread, as GNU's does (a test that injects faults into the
 * reads of GNU's one thread sees ours fail alike). */
static void start_helpers(struct crew *c, unsigned n)
{
	unsigned i = atomic_load(&c->started);

	if (i == 0 && n > 0 && c->b->disk_files > 0) {
		c->disks = disks_start(c->b->disk_files);
		hasher_use_disks(c->self->hasher, c->disks);
	}
	atomic_store(&c->kept, n);
	for (; i < n; i++) {
		struct worker *w = &c->helper[i];

		*w = (struct worker){ .crew = c, .index = i,
				      .hasher = hasher_new(budget_helper_plan(c->b, i)) };
		if (!w->hasher)
			break;
		hasher_use_disks(w->hasher, c->disks);
		if (HANDOVERS) {
			pthread_mutex_lock(&c->lock);
			c->working++;
			pthread_mutex_unlock(&c->lock);
		}
		if (thread_start(&w->id, helper_main, w) != 0) {
			leave_work(c);
			hasher_free(w->hasher);
			break;
		}
		atomic_store(&c->started, i + 1);
	}
	atomic_store(&c->kept, i);
	/* Past the threads planned as the busy ones, smaller batches, so
	 * that each worker finds some: a worker that waits on each file
	 * reads one at a time.  Not before: a batch costs a write, which a
	 * run of small files in memory, or on flash, feels. */
	if (WAITING_THREADS_MAX > 0 && i + 1 > c->b->busy + c->b->full_past)
		window_set_threads(c->all, i + 1);
}

/* On the calling thread, now and then: the next step of adding helpers,
 * judged (judge.h) and taken. */
static void take_pace_step(struct crew *c)
{
	const struct budget *b = c->b;
	struct pace_facts f;
	struct pace_step step;
	size_t left, handed = 0;
	int64_t now;
	bool deep;

	/* Its steps short while a helper may yet be added, so that a step
	 * reading files one at a time does not hold the next one back. */
	hasher_short_steps(c->self->hasher, c->pace.state != PACE_SETTLED);
	if (c->pace.state == PACE_SETTLED)
		return;
	now = (int64_t)(monotime_us() - c->began);
	if (WAITING_THREADS_MAX > 0 && !pace_due(&c->pace, now))
		return;	/* no facts gathered: pace_next would wait */
	left = window_left(c->all, &handed);
	/* Workers past the CPUs, where the budget has them. */
	deep = WAITING_THREADS_MAX > 0 && b->most > b->busy;
	/* The work held counts only where the jobs left are known (pace.h):
	 * not looked at otherwise. */
	f = (struct pace_facts){ .now = now, .work = work_done(c),
				 .running = atomic_load(&c->started), .most = b->busy - 1,
				 .most_waiting = deep ? b->most - 1 : 0,
				 .cpu = deep ? monotime_cpu_use() : (struct cpu_use){ 0, 0 },
				 .left = left, .claimed = handed,
				 .held = HANDOVERS && left != SIZE_MAX ?
						 hasher_work_to_hand_over(c->self->hasher) : 0 };
	if (deep) {
		/* Whether the storage wants them. */
		uint32_t us[STORAGE_SAMPLES];
		struct device_facts device = storage_of_run(us);

		step = judge(&device, &c->pace, &f).step;
	} else {
		step = pace_next(&c->pace, &f);	/* no more than the CPUs */
	}
	if (step.act == PACE_START)
		start_helpers(c, step.helpers);
	else if (step.act == PACE_KEEP)
		atomic_store(&c->kept, step.helpers);
}

/* The shelf for files handed over, and the lock; false when they cannot
 * be had. */
static bool shelf_init(struct crew *c)
{
	if (!HANDOVERS)
		return true;
	c->shelf = calloc((size_t)c->b->most * HASHER_LANES_MAX, sizeof *c->shelf);
	if (!c->shelf)
		return false;
	if (pthread_mutex_init(&c->lock, NULL) != 0) {
		free(c->shelf);
		return false;
	}
	if (pthread_cond_init(&c->changed, NULL) != 0) {
		pthread_mutex_destroy(&c->lock);
		free(c->shelf);
		return false;
	}
	return true;
}

static void shelf_free(struct crew *c)
{
	if (!HANDOVERS)
		return;
	pthread_cond_destroy(&c->changed);
	pthread_mutex_destroy(&c->lock);
	free(c->shelf);
}

/* Every helper joined, what is left written, and what the run had freed;
 * false when memory ran out in the run (window.h). */
static bool crew_end(struct crew *c)
{
	bool whole;

	for (unsigned i = 0; i < atomic_load(&c->started); i++) {
		pthread_join(c->helper[i].id, NULL);
		hasher_free(c->helper[i].hasher);
	}
	if (c->disks)
		disks_stop(c->disks);
	whole = window_write_rest_and_free(c->all);
	hasher_free(c->self->hasher);
	free(c->helper);
	shelf_free(c);
	return whole;
}

enum crew_end crew_run(const struct budget *b, bool settled, struct job_source *n,
		       struct results *r, struct out *out, const char *prog)
{
	struct crew c = { .b = b, .working = 1 };
	struct worker self = { .crew = &c };

	c.self = &self;
	if (!shelf_init(&c))
		return CREW_NO_LANES;
	self.hasher = hasher_new(&b->plan);
	c.helper = calloc(b->most, sizeof *c.helper);
	c.all = window_new(n, r, b->busy, out, prog);
	if (!self.hasher || !c.helper || !c.all) {
		hasher_free(self.hasher);
		free(c.helper);
		if (c.all)
			window_write_rest_and_free(c.all);
		shelf_free(&c);
		return CREW_NO_LANES;
	}
	c.began = monotime_us();
	c.pace = pace_begin(settled || b->most == 1);
	if (c.pace.state == PACE_SETTLED)
		start_helpers(&c, b->most - 1);
	work(&self);
	return crew_end(&c) ? CREW_DONE : CREW_NO_MEMORY;
}
