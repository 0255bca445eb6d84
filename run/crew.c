/* crew.c - the workers of a run, their loop and their counts; crew.h. */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <time.h>

#include "window/window.h"
#include "run/crew.h"
#include "read/disk.h"
#include "run/decide.h"
#include "run/hasher.h"
#include "os/monotime.h"
#include "read/storage.h"
#include "run/hasher_shelf.h"
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
 * claiming change on the calling thread only, which alone starts helpers
 * and takes the steps decide.h says; the shelf's, under its lock only.  A
 * worker reads started or claiming without the lock where a value a
 * moment old does no harm: a helper told to stop claims once more. */
struct crew {
	const struct budget *b;
	struct window *all;
	struct worker *self;	/* the calling thread */
	struct worker *helper;	/* b->threads_max - 1 of them; the first
				 * b->threads - 1 with b->plan, the rest
				 * with waiting_plan */
	atomic_uint started;	/* helpers started */
	atomic_uint claiming;	/* helpers that may claim jobs */
	struct disks *disks;	/* with the first helper, if b->disk_files */
	struct devices *devices;	/* the run's, measured by its workers */
	uint64_t began;		/* monotime_us */
	struct pace pace;	/* where the adding of helpers is */

	/* Files handed over by workers that hold work to workers that have
	 * run out of it, once there are no jobs left to claim. */
	struct shelf shelf;
};

/* Whether a worker or a disk reader holds files that it will close: a
 * file that could not be opened for want of descriptors waits for one. */
static bool holds_files(struct crew *c)
{
	unsigned started = atomic_load(&c->started);

	if (hasher_holds_open(c->self->hasher))
		return true;
	for (unsigned i = 0; i < started; i++)
		if (hasher_holds_open(c->helper[i].hasher))
			return true;
	if (c->disks && disks_held(c->disks))
		return true;
	return shelf_holds(&c->shelf);
}

static const struct hasher_plan *plan_of(const struct crew *c, const struct worker *w)
{
	return w == c->self ? &c->b->plan : budget_helper_plan(c->b, w->index);
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
		bool claim = w == c->self || w->index < atomic_load(&c->claiming);

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
		    !(claim && shelf_take(&c->shelf, h, plan_of(c, w)->lanes))) {
			if (!claim)
				shelf_leave(&c->shelf);
			return;	/* none left to claim, or none it may */
		}
		hasher_step(h);
		if (shelf_wanted(&c->shelf))
			shelf_give(&c->shelf, h);
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
	atomic_store(&c->claiming, n);
	for (; i < n; i++) {
		struct worker *w = &c->helper[i];

		*w = (struct worker){ .crew = c, .index = i,
				      .hasher = hasher_new(budget_helper_plan(c->b, i),
							   c->devices) };
		if (!w->hasher)
			break;
		hasher_use_disks(w->hasher, c->disks);
		shelf_join(&c->shelf);
		if (thread_start(&w->id, helper_main, w) != 0) {
			shelf_leave(&c->shelf);
			hasher_free(w->hasher);
			break;
		}
		atomic_store(&c->started, i + 1);
	}
	atomic_store(&c->claiming, i);
	/* Past the threads planned as the first ones, smaller batches, so
	 * that each worker finds some: a worker that waits on each file
	 * reads one at a time.  Not before: a batch costs a write, which a
	 * run of small files in memory, or on flash, feels. */
	if (WAITING_THREADS_MAX > 0 && i + 1 > c->b->threads + c->b->full_past)
		window_set_threads(c->all, i + 1);
}

/* The facts of the run now for decide.h's step of helpers, at now. */
static struct pace_facts run_facts(struct crew *c, int64_t now, bool past_cpus)
{
	const struct budget *b = c->b;
	size_t left, handed = 0;

	left = window_left(c->all, &handed);
	/* The work to hand over counts only where the jobs left are known
	 * (decide.h): not looked at otherwise. */
	return (struct pace_facts){
		.now = now, .work = work_done(c), .running = atomic_load(&c->started),
		.helpers_max = b->threads - 1, .helpers_max_waiting = past_cpus ? b->threads_max - 1 : 0,
		.cpu = past_cpus ? monotime_cpu_use() : (struct cpu_use){ 0, 0 },
		.left = left, .claimed = handed,
		.to_hand_over = HAS_HANDOVERS && left != SIZE_MAX ?
					hasher_work_to_hand_over(c->self->hasher) : 0 };
}

/* On the calling thread, now and then: the next step of adding helpers,
 * as decide.h says from the run's facts and its devices', taken. */
static void take_pace_step(struct crew *c)
{
	struct pace_step step;
	struct pace_facts f;
	int64_t now;
	bool past_cpus;

	/* Its steps short while a helper may yet be added, so that a step
	 * reading files one at a time does not hold the next one back. */
	hasher_short_steps(c->self->hasher, c->pace.state != PACE_SETTLED);
	if (c->pace.state == PACE_SETTLED)
		return;
	now = (int64_t)(monotime_us() - c->began);
	if (WAITING_THREADS_MAX > 0 && !decide_due(&c->pace, now))
		return;	/* no facts gathered: the step would wait */
	/* Workers past the CPUs, where the budget has them: then whether
	 * the storage wants them is the devices' to say. */
	past_cpus = WAITING_THREADS_MAX > 0 && c->b->threads_max > c->b->threads;
	f = run_facts(c, now, past_cpus);
	if (past_cpus) {
		uint32_t us[STORAGE_SAMPLES];
		struct device_facts device = devices_facts(c->devices, us);

		step = decide_threads(&c->pace, &f, &device);
	} else {
		step = decide_threads(&c->pace, &f, NULL);	/* no more than the CPUs */
	}
	if (step.act == PACE_START)
		start_helpers(c, step.helpers);
	else if (step.act == PACE_CUT)
		atomic_store(&c->claiming, step.helpers);
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
	shelf_free(&c->shelf);
	return whole;
}

enum crew_end crew_run(const struct budget *b, bool settled, struct devices *devices,
		       struct job_source *n, struct results *r, struct out *out, const char *prog)
{
	struct crew c = { .b = b, .devices = devices };
	struct worker self = { .crew = &c };

	c.self = &self;
	if (!shelf_init(&c.shelf, b->threads_max, b->plan.lanes))
		return CREW_NO_LANES;
	self.hasher = hasher_new(&b->plan, devices);
	c.helper = calloc(b->threads_max, sizeof *c.helper);
	c.all = window_new(n, r, b->threads, out, prog);
	if (!self.hasher || !c.helper || !c.all) {
		hasher_free(self.hasher);
		free(c.helper);
		if (c.all)
			window_write_rest_and_free(c.all);
		shelf_free(&c.shelf);
		return CREW_NO_LANES;
	}
	c.began = monotime_us();
	c.pace = decide_begin(settled || b->threads_max == 1);
	if (c.pace.state == PACE_SETTLED)
		start_helpers(&c, b->threads_max - 1);
	work(&self);
	return crew_end(&c) ? CREW_DONE : CREW_NO_MEMORY;
}
