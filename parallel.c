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

/* How long the calling thread hashes alone before helpers may join it,
 * and how much work, at its pace, a helper must find left to be worth
 * starting: starting one, with its lanes, costs a small part of this. */
enum { ALONE_US = 1000 };

/* Files a thread keeps opened ahead of its lanes, in lanes' worth, at
 * most; and all threads together, at most. */
enum { STAGE_LANES = 5, STAGED_MAX = 256 };

/* Files waiting for a disk reader, at most: the wider the window it
 * sorts, the fewer the seeks. */
enum { DISK_WAITING_MAX = 1024 };

/* One thread that hashes, and what it holds. */
struct thread {
	struct run *run;
	struct hasher *hasher;
	struct cursor cursor;	/* in the batch it claimed last */
	pthread_t id;
};

struct run {
	const struct schedule *s;
	struct batches *all;
	struct hasher_plan plan;
	unsigned want;		/* threads, the calling one included */
	bool asked;		/* -j: want exactly, from the start */
	bool tried;		/* helpers were started, or judged not worth it */
	struct thread *helper;	/* want - 1 of them */
	atomic_uint started;	/* helpers running */
	struct disks *disks;
	unsigned disk_files;	/* files the disk readers may hold; 0: no
				 * readers, files on spinning disks are read
				 * one at a time as they come */
	struct thread *self;	/* the calling thread's */
	size_t count;		/* jobs in all, when the source says */
	struct timespec began;
};

/* The most lanes any of the engines has. */
static unsigned widest(const struct md5_engine *const *engines)
{
	unsigned width = 0;

	for (size_t i = 0; engines[i]; i++)
		if (engines[i]->width > width)
			width = engines[i]->width;
	return width;
}

/* Share out the descriptors free, so that a run never runs out of them
 * where GNU's would not: half for the files the threads hold in lanes and
 * stages (a file a thread at least: fewer threads when there are very
 * few), a quarter for the files waiting for the disk readers (none: no
 * readers), the rest for lists and the look-ups of device.c. */
static void share_descriptors(struct run *r)
{
	struct hasher_plan *p = &r->plan;
	unsigned free = fds_free(4 * DISK_WAITING_MAX), hashing = free / 2, each;

	if (hashing == 0)
		hashing = 1;
	if (r->want > hashing)
		r->want = hashing;
	each = hashing / r->want;
	p->lanes = widest(p->engines);
	if (p->lanes > each)
		p->lanes = each;	/* fewer lanes than the engine has */
	p->stage = STAGE_LANES * p->lanes;
	if (p->stage > STAGED_MAX / r->want)
		p->stage = STAGED_MAX / r->want;
	if (p->stage > each - p->lanes)
		p->stage = each - p->lanes;
	r->disk_files = free / 4 < DISK_WAITING_MAX ? free / 4 : DISK_WAITING_MAX;
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

/* Claim tasks and hash them until there are none left: claim while the
 * hasher has room, waiting for the window to move only when it has
 * nothing else to do. */
static void hash_tasks(struct thread *t, void (*now_and_then)(struct run *))
{
	struct batches *all = t->run->all;
	struct hasher *h = t->hasher;
	struct task *task;

	for (;;) {
		if (now_and_then)
			now_and_then(t->run);
		while (hasher_room(h) > 0 &&
		       (task = batches_next(all, &t->cursor, !hasher_busy(h))))
			hasher_add(h, task);
		if (!hasher_busy(h))
			return;	/* batches_next waited, and there are no more */
		hasher_step(h);
		batches_tick(all);
	}
}

static void *helper_main(void *arg)
{
	hash_tasks(arg, NULL);
	return NULL;
}

static int64_t elapsed_us(const struct run *r)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (int64_t)(now.tv_sec - r->began.tv_sec) * 1000000 +
	       (now.tv_nsec - r->began.tv_nsec) / 1000;
}

/* Helpers worth starting after us of work: one for each ALONE_US that
 * the jobs left would take the calling thread at its pace so far, when
 * the source says how many there are, and one a CPU at most. */
static unsigned helpers_worth(struct run *r, int64_t us)
{
	size_t left = batches_left(r->all), claimed = r->count - left;
	uint64_t us_left;
	unsigned n = r->want - 1;

	if (left == SIZE_MAX || claimed == 0)
		return left ? n : 0;
	us_left = (uint64_t)us * left / claimed;
	return us_left / ALONE_US < n ? (unsigned)(us_left / ALONE_US) : n;
}

/* Start n helpers, and the disks' readers: as many as can be had. */
static void start_helpers(struct run *r, unsigned n)
{
	if (n == 0)
		return;
	if (r->disk_files > 0)
		r->disks = disks_start(r->disk_files);
	hasher_use_disks(r->self->hasher, r->disks);
	for (unsigned i = 0; i < n; i++) {
		struct thread *t = &r->helper[i];

		*t = (struct thread){ .run = r, .hasher = hasher_new(&r->plan) };
		if (!t->hasher)
			break;
		hasher_use_disks(t->hasher, r->disks);
		if (spawn(&t->id, helper_main, t) != 0) {
			hasher_free(t->hasher);
			break;
		}
		atomic_store(&r->started, i + 1);
	}
}

/* On the calling thread: start the helpers once they are worth it. */
static void start_when_worth(struct run *r)
{
	int64_t us;

	if (r->tried || (us = elapsed_us(r)) < ALONE_US)
		return;
	r->tried = true;
	start_helpers(r, helpers_worth(r, us));
}

bool run_parallel(const struct schedule *s, const struct job_source *src)
{
	struct run r = { .s = s, .want = s->threads ? s->threads : cpus_usable(),
			 .asked = s->threads > 0, .count = src->count };
	struct thread self = { .run = &r };

	r.plan = (struct hasher_plan){ .engines = s->engines, .disk = s->disk,
				       .stdin_closed = s->stdin_closed,
				       .others_hold = run_holds_files, .run = &r };
	share_descriptors(&r);
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
	r.tried = r.want == 1;
	if (r.asked && r.want > 1) {
		r.tried = true;
		start_helpers(&r, r.want - 1);
	}
	hash_tasks(&self, r.tried ? NULL : start_when_worth);
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
