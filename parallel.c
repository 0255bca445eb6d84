/* parallel.c - threads that each claim and hash batches of jobs; see
 * parallel.h. */
#include <stdatomic.h>
#include <pthread.h>
#include <stdlib.h>
#include <time.h>

#include "batches.h"
#include "cpus.h"
#include "disk.h"
#include "fds.h"
#include "hasher.h"
#include "parallel.h"
#include "spawn.h"

/* Threads are added while they pay, as measured: after WARMUP_US, the
 * work the run does (bytes, and FILE_COST a file) is measured over
 * MEASURE_US with the threads it has, then over as long with twice as
 * many.  A step that makes the run SLOWER_PERCENT slower is undone: its
 * helpers are told to stop once they have finished what they hold, as
 * where other programs keep the CPUs busy.  One
 * that brings less than FASTER_PERCENT more is the last.  The files of a
 * tree differ from one part of it to the next, so that two measures
 * differ by some percent with the threads unchanged: a step is undone
 * only when it costs clearly.  A helper must also find, at the run's pace
 * so far, MEASURE_US of work left. */
enum { WARMUP_US = 1000, MEASURE_US = 3000, SLOWER_PERCENT = 10, FASTER_PERCENT = 10 };

/* Files a thread keeps opened ahead of its lanes, in lanes' worth, at
 * most; and all threads together, at most. */
enum { STAGE_LANES = 5, STAGED_MAX = 256 };

/* Files waiting for a disk reader, at most: the wider the window it
 * sorts, the fewer the seeks.  A quarter of the descriptors free go to
 * them (share_descriptors). */
enum { DISK_WAITING_MAX = PARALLEL_FDS_WANTED / 4 };

/* One thread that hashes, and what it holds. */
struct thread {
	struct run *run;
	struct hasher *hasher;
	struct cursor cursor;	/* in the batch it claimed last */
	unsigned index;		/* among the helpers */
	pthread_t id;
};

/* Where the adding of threads is. */
struct pace {
	enum { WARMING, MEASURING, SETTLED } state;
	int64_t since;		/* when the measure began, in us */
	uint64_t work;		/* the work done by then */
	uint64_t rate;		/* work a ms with the threads kept */
	unsigned kept;		/* helpers kept */
};

struct run {
	const struct schedule *s;
	struct batches *all;
	struct hasher_plan plan;
	unsigned want;		/* threads, the calling one included */
	struct pace pace;	/* SETTLED with -j: want exactly, at once */
	struct thread *helper;	/* want - 1 of them */
	atomic_uint started;	/* helpers started */
	atomic_uint keep;	/* helpers that may claim jobs */
	struct disks *disks;
	unsigned disk_files;	/* files the disk readers may hold; 0: no
				 * readers, files on spinning disks are read
				 * one at a time as they come */
	struct thread *self;	/* the calling thread's */
	size_t count;		/* jobs in all, when the source says */
	struct timespec began;
};

/* Share out the descriptors free, so that a run never runs out of them
 * where GNU's would not: half for the files the threads hold in lanes and
 * stages (a file a thread at least: fewer threads when there are very
 * few), a quarter for the files waiting for the disk readers (none: no
 * readers), the rest for lists and the look-ups of device.c. */
static void share_descriptors(struct run *r)
{
	struct hasher_plan *p = &r->plan;
	unsigned free = fds_free(PARALLEL_FDS_WANTED), hashing = free / 2, each;

	if (hashing == 0)
		hashing = 1;
	if (r->want > hashing)
		r->want = hashing;
	each = hashing / r->want;
	p->lanes = md5_lanes_width(p->engines);
	if (p->lanes > HASHER_LANES_MAX)
		p->lanes = HASHER_LANES_MAX;
	if (p->lanes > each)
		p->lanes = each;	/* fewer lanes than the engine has */
	p->stage = STAGE_LANES * p->lanes;
	if (p->stage > STAGED_MAX / r->want)
		p->stage = STAGED_MAX / r->want;
	if (p->stage > each - p->lanes)
		p->stage = each - p->lanes;
	r->disk_files = free / 4 < DISK_WAITING_MAX ? free / 4 : DISK_WAITING_MAX;
	if (r->want > 1)
		fds_make_room(r->want * (p->lanes + p->stage) + r->disk_files);
}

/* Whether a thread or a disk reader holds files that it will close: a
 * file that could not be opened for want of descriptors waits for one. */
static bool run_holds_files(void *arg)
{
	struct run *r = arg;
	unsigned started = atomic_load(&r->started);

	if (hasher_held(r->self->hasher))
		return true;
	for (unsigned i = 0; i < started; i++)
		if (hasher_held(r->helper[i].hasher))
			return true;
	return r->disks && disks_held(r->disks);
}

static void pace(struct run *r);

/* Claim tasks and hash them until there are none left: claim while the
 * hasher has room, waiting for the window to move only when it has
 * nothing else to do.  A helper told to stop claims no more, and ends
 * once it has hashed what it holds. */
static void hash_tasks(struct thread *t)
{
	struct run *r = t->run;
	struct hasher *h = t->hasher;
	struct task *task;

	for (;;) {
		bool claim = t == r->self || t->index < atomic_load(&r->keep);

		if (t == r->self)
			pace(r);
		task = NULL;
		if (hasher_room(h) > 0)
			task = claim ? batches_next(r->all, &t->cursor, !hasher_busy(h))
				     : batches_rest(&t->cursor);
		if (task) {
			hasher_add(h, task);
			continue;
		}
		if (!hasher_busy(h))
			return;	/* none left to claim, or none it may */
		hasher_step(h);
		batches_tick(r->all);
	}
}

static void *helper_main(void *arg)
{
	hash_tasks(arg);
	return NULL;
}

static int64_t elapsed_us(const struct run *r)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (int64_t)(now.tv_sec - r->began.tv_sec) * 1000000 +
	       (now.tv_nsec - r->began.tv_nsec) / 1000;
}

/* The work done so far: bytes read, and FILE_COST a file. */
static uint64_t work_done(struct run *r)
{
	uint64_t work = hasher_work(r->self->hasher);
	unsigned started = atomic_load(&r->started);

	for (unsigned i = 0; i < started; i++)
		work += hasher_work(r->helper[i].hasher);
	return work + (r->disks ? disks_work(r->disks) : 0);
}

/* Helpers to have after those started, for a next step: twice the
 * threads, as many as there are CPUs at most, and no more than find
 * MEASURE_US of work each at the run's pace so far, when the source says
 * how many jobs it has. */
static unsigned next_step(struct run *r, int64_t us)
{
	size_t left = batches_left(r->all), claimed = r->count - left;
	unsigned started = atomic_load(&r->started), n = 2 * started + 1;

	if (n > r->want - 1)
		n = r->want - 1;
	if (left != SIZE_MAX && claimed > 0) {
		uint64_t worth = (uint64_t)us * left / claimed / MEASURE_US;

		if (worth < n)
			n = (unsigned)worth;
	}
	return left == 0 ? 0 : n;
}

/* Start helpers up to n in all, and the disks' readers with the first:
 * as many as can be had. */
static void start_helpers(struct run *r, unsigned n)
{
	unsigned i = atomic_load(&r->started);

	if (i == 0 && n > 0 && r->disk_files > 0) {
		r->disks = disks_start(r->disk_files);
		hasher_use_disks(r->self->hasher, r->disks);
	}
	atomic_store(&r->keep, n);
	for (; i < n; i++) {
		struct thread *t = &r->helper[i];

		*t = (struct thread){ .run = r, .index = i, .hasher = hasher_new(&r->plan) };
		if (!t->hasher)
			break;
		hasher_use_disks(t->hasher, r->disks);
		if (spawn(&t->id, helper_main, t) != 0) {
			hasher_free(t->hasher);
			break;
		}
		atomic_store(&r->started, i + 1);
	}
	atomic_store(&r->keep, i);
}

/* The work a ms since the measure began. */
static uint64_t rate_since(struct run *r, int64_t us, uint64_t work)
{
	return (work - r->pace.work) * 1000 / (uint64_t)(us > r->pace.since + 1 ? us - r->pace.since : 1);
}

/* On the calling thread, now and then: take the next step of adding
 * threads, or undo the last, when its measure is over. */
static void pace(struct run *r)
{
	struct pace *p = &r->pace;
	int64_t us;
	uint64_t work;

	if (p->state == SETTLED || (us = elapsed_us(r)) < p->since + (p->state == WARMING ? WARMUP_US : MEASURE_US))
		return;
	work = work_done(r);
	if (p->state == MEASURING) {
		uint64_t rate = rate_since(r, us, work);
		bool tried = atomic_load(&r->started) > p->kept;

		if (tried && rate * 100 < p->rate * (100 - SLOWER_PERCENT)) {
			atomic_store(&r->keep, p->kept);	/* they cost */
			p->state = SETTLED;
			return;
		}
		if (tried && rate * 100 < p->rate * (100 + FASTER_PERCENT)) {
			p->state = SETTLED;	/* they bring too little for more */
			return;
		}
		p->rate = rate;
		p->kept = atomic_load(&r->started);
		start_helpers(r, next_step(r, us));
		if (atomic_load(&r->started) == p->kept) {
			p->state = SETTLED;
			return;
		}
	}
	p->state = MEASURING;
	p->since = elapsed_us(r);
	p->work = work_done(r);
}

/* The threads, lanes and descriptors of a run of s. */
static void plan_run(struct run *r, const struct schedule *s)
{
	r->s = s;
	r->want = s->threads ? s->threads : cpus_usable();
	r->plan = (struct hasher_plan){ .engines = s->engines, .disk = s->disk,
					.stdin_closed = s->stdin_closed,
					.read_ahead = s->threads != 1,
					.others_hold = run_holds_files, .run = r };
	share_descriptors(r);
}

bool run_parallel(const struct schedule *s, const struct job_source *src)
{
	struct run r = { .count = src->count };
	struct thread self = { .run = &r };

	plan_run(&r, s);
	r.self = &self;
	self.hasher = hasher_new(&r.plan);
	r.helper = calloc(r.want, sizeof *r.helper);
	r.all = batches_new(src, r.want, s->out, s->prog);
	if (!self.hasher || !r.helper || !r.all) {
		hasher_free(self.hasher);
		free(r.helper);
		if (r.all)
			batches_free(r.all);
		return false;
	}
	clock_gettime(CLOCK_MONOTONIC, &r.began);
	if (s->threads > 0 || r.want == 1) {
		start_helpers(&r, r.want - 1);
		r.pace.state = SETTLED;
	}
	hash_tasks(&self);
	for (unsigned i = 0; i < atomic_load(&r.started); i++) {
		pthread_join(r.helper[i].id, NULL);
		hasher_free(r.helper[i].hasher);
	}
	if (r.disks)
		disks_stop(r.disks);
	batches_free(r.all);
	hasher_free(self.hasher);
	free(r.helper);
	return true;
}
