/* schedule.c - one by one, or many at once: threads that each claim and
 * hash batches of jobs; see schedule.h. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <sys/resource.h>

#include "batches.h"
#include "cores.h"
#include "disk.h"
#include "fds.h"
#include "hasher.h"
#include "feed.h"
#include "monotime.h"
#include "msg.h"
#include "pace.h"
#include "progress.h"
#include "schedule.h"
#include "storage.h"
#include "stream.h"
#include "thread.h"

/* The descriptors a run of many files asks to have free (fds_free), the
 * soft limit raised for them if need be. */
enum { FDS_WANTED = 4096 };

/* The lane engines for hashing many files: all that this CPU runs, or
 * only the one that MD5SUM_ENGINE names. */
static const struct md5_engine *const *choose_engines(const char *prog)
{
	static const struct md5_engine *named[2];
	const char *name = getenv("MD5SUM_ENGINE");

	if (!name || !*name)
		return md5_engines();
	named[0] = md5_engine_pick(name);
	if (!named[0]) {
		complain(prog, "MD5SUM_ENGINE: no engine '", name, "' on this machine",
			 (char *)NULL);
		exit(EXIT_FAILURE);
	}
	return named;
}

struct schedule schedule_for(const struct schedule_asked *a, struct out *out,
			     const char *prog)
{
	/* One file is hashed by the plain path; more, or a list, in lanes. */
	bool lanes = a->many || a->threads > 0;

	return (struct schedule){ .engines = lanes ? choose_engines(prog) : NULL,
				  .threads = a->threads, .read_ahead = a->threads != 1,
				  .disk = a->disk, .stdin_closed = a->stdin_closed,
				  .out = out, .prog = prog };
}

/* A small buffer that a run short of memory can always fall back on:
 * small, since the address space it takes is taken from the start, and
 * a limit on that (ulimit -v) may be close to GNU's needs. */
enum { FALLBACK_SIZE = 4096 };

/* GNU's way. */
static void run_one_by_one(const struct schedule *s, const struct job_source *src)
{
	static uint8_t fallback[FALLBACK_SIZE];
	uint8_t *buf = malloc(READ_SIZE);
	size_t size = buf ? READ_SIZE : FALLBACK_SIZE;
	struct outbox rec;
	struct job j;

	if (!buf)
		buf = fallback;
	outbox_init(&rec);
	while (src->next(src->ctx, &j, true) == JOB_MADE) {
		progress_waiting_for(j.name);
		if (!j.bad_line)
			j.err = stream_hash_file(j.name, s->stdin_closed, s->read_ahead, buf,
						 size, j.digest);
		src->format(src->ctx, &j, &rec);
		outbox_play(&rec, s->out, s->prog);
		src->account(src->ctx, &j);
		out_flush(s->out);
	}
	outbox_free(&rec);
	if (buf != fallback)
		free(buf);
}

/* ------------------------------------------------------ many at once */

/* Files a thread keeps opened ahead of its lanes, in lanes' worth, at
 * most; and all threads together, at most. */
enum { QUEUE_LANES = 5, QUEUED_MAX = 256 };

/* Threads in all, at most, while they wait on the storage more than they
 * hash (pace.h), and the lanes and queue of each past the CPUs' worth:
 * one read in flight a thread, so few files each.  None in the small
 * build. */
#ifdef MD5SUM_SMALL
enum { WAITING_THREADS_MAX = 0 };
#else
enum { WAITING_THREADS_MAX = 64 };
#endif
enum { WAITING_LANES = 4, WAITING_QUEUE = 4 };

/* Files waiting for a disk reader, at most: the wider the window it
 * sorts, the fewer the seeks.  A quarter of the descriptors free go to
 * them (share_descriptors). */
enum { DISK_WAITING_MAX = FDS_WANTED / 4 };

/* One thread that hashes, and what it holds. */
struct worker {
	struct run *run;
	struct hasher *hasher;
	struct cursor cursor;	/* in the batch it claimed last */
	unsigned index;		/* among the helpers */
	pthread_t id;
};

struct run {
	const struct schedule *s;
	struct batches *all;
	struct hasher_plan plan;
	unsigned want;		/* threads at most, busy or waiting on the
				 * storage (pace.h) */
	struct worker *helper;	/* want - 1 of them; the first busy - 1 with
				 * plan, the rest with waiting_plan */
	atomic_uint started;	/* helpers started */
	atomic_uint keep;	/* helpers that may claim jobs */
	struct disks *disks;
	unsigned disk_files;	/* files the disk readers may hold; 0: no
				 * readers, files on spinning disks are read
				 * one at a time as they come */
	struct worker *self;	/* the calling thread's */
	uint64_t began;		/* monotime_us */
	struct pace pace;	/* settled with -j: want exactly, at once */

	/* Files given by threads that hold work to threads that have run
	 * out of it, once there are no jobs left to claim. */
	pthread_mutex_t handover_lock;	/* guards what follows */
	pthread_cond_t handed_over;	/* gifts came, or no thread works */
	struct handover *shelf;	/* want * HASHER_LANES_MAX of them */
	unsigned shelved;		/* given, not yet taken */
	unsigned working;	/* threads that hash or may claim */
	atomic_uint waiting;	/* threads waiting for gifts */

	unsigned busy;		/* threads that keep the CPUs busy, the
				 * calling one included */
	struct hasher_plan waiting_plan;	/* of the threads past busy */
};

/* Work a thread keeps rather than give any of it away: it would be done
 * before the thread that takes it had woken. */
enum { GIFT_WORK_MIN = 1024 * 1024 };

/* The small static build (MD5SUM_SMALL) has no room for gifts: there a
 * thread that has run out of work ends, as before they were. */
#ifdef MD5SUM_SMALL
#define HANDOVERS 0
#else
#define HANDOVERS 1
#endif

/* Share out the descriptors free, so that a run never runs out of them
 * where GNU's would not: half for the files the threads hold in lanes and
 * queues (a file a thread at least: fewer threads when there are very
 * few), the busy threads' first, what they leave to the threads that
 * wait; a quarter for the files waiting for the disk readers (none: no
 * readers), the rest for lists and the look-ups of sysfs.c. */
static void share_descriptors(struct run *r)
{
	struct hasher_plan *p = &r->plan, *w = &r->waiting_plan;
	unsigned free = fds_free(FDS_WANTED), hashing = free / 2, each, held, waiting;

	if (hashing == 0)
		hashing = 1;
	if (r->busy > hashing)
		r->busy = hashing;
	each = hashing / r->busy;
	if (p->lanes > each)
		p->lanes = each;	/* fewer lanes than the engine has */
	p->queue = QUEUE_LANES * p->lanes;
	if (p->queue > QUEUED_MAX / r->busy)
		p->queue = QUEUED_MAX / r->busy;
	if (p->queue > each - p->lanes)
		p->queue = each - p->lanes;
	held = r->busy * (p->lanes + p->queue);
	if (WAITING_THREADS_MAX == 0) {
		r->want = r->busy;
	} else {
		waiting = (hashing - held) / (w->lanes + w->queue);
		if (r->want > r->busy + waiting)
			r->want = r->busy + waiting;
		held += (r->want - r->busy) * (w->lanes + w->queue);
	}
	r->disk_files = free / 4 < DISK_WAITING_MAX ? free / 4 : DISK_WAITING_MAX;
	if (r->want > 1)
		fds_make_room(held + r->disk_files);
}

/* Under a limit on address space (ulimit -v), the threads' buffers take
 * a quarter of it at most, so that the rest of the run (its batches, its
 * lists, the C library's arenas) has room: half the lanes a thread, then
 * fewer threads.  Not in the small build, whose few lanes always fit. */
static void fit_address_space(struct run *r)
{
#ifndef MD5SUM_SMALL
	struct hasher_plan *p = &r->plan;
	struct rlimit lim;
	rlim_t budget;

	if (getrlimit(RLIMIT_AS, &lim) != 0 || lim.rlim_cur == RLIM_INFINITY)
		return;
	budget = lim.rlim_cur / 4;
	while (p->lanes > HASHER_LANES_MAX / 2 &&
	       r->busy * hasher_buffer_bytes(p->lanes) > budget)
		p->lanes /= 2;
	while (r->busy > 1 && r->busy * hasher_buffer_bytes(p->lanes) > budget)
		r->busy--;
	budget = budget > r->busy * hasher_buffer_bytes(p->lanes) ?
			 budget - r->busy * hasher_buffer_bytes(p->lanes) : 0;
	if (r->want > r->busy + budget / hasher_buffer_bytes(r->waiting_plan.lanes))
		r->want = r->busy + (unsigned)(budget / hasher_buffer_bytes(r->waiting_plan.lanes));
#else
	(void)r;
#endif
}

/* Whether a thread or a disk reader holds files that it will close: a
 * file that could not be opened for want of descriptors waits for one. */
static bool run_holds_files(void *arg)
{
	struct run *r = arg;
	unsigned started = atomic_load(&r->started);
	bool held;

	if (hasher_holds_open(r->self->hasher))
		return true;
	for (unsigned i = 0; i < started; i++)
		if (hasher_holds_open(r->helper[i].hasher))
			return true;
	if (r->disks && disks_held(r->disks))
		return true;
	if (!HANDOVERS)
		return false;
	pthread_mutex_lock(&r->handover_lock);
	held = r->shelved > 0;
	pthread_mutex_unlock(&r->handover_lock);
	return held;
}

static void pace(struct run *r);

/* The plan of helper i's hasher: the busy threads', or, past them, the
 * waiting threads'. */
static const struct hasher_plan *helper_plan(const struct run *r, unsigned i)
{
	return WAITING_THREADS_MAX > 0 && i + 1 >= r->busy ? &r->waiting_plan : &r->plan;
}

static const struct hasher_plan *plan_of(const struct run *r, const struct worker *t)
{
	return t == r->self ? &r->plan : helper_plan(r, t->index);
}

/* The thread no longer works: it has nothing to hash, or has ended.
 * Under handover_lock. */
static void stop_working(struct run *r)
{
	if (--r->working == 0)
		pthread_cond_broadcast(&r->handed_over);
}

/* The same, from outside handover_lock: for a thread that may not claim. */
static void leave_work(struct run *r)
{
	if (!HANDOVERS)
		return;
	pthread_mutex_lock(&r->handover_lock);
	stop_working(r);
	pthread_mutex_unlock(&r->handover_lock);
}

/* The thread has run out of work and there are no jobs to claim: wait
 * for files that the threads still hashing give, and take its share of
 * them into the lanes of h; false, when no thread works, none will come. */
static bool take_handed_over(struct run *r, struct hasher *h, unsigned lanes)
{
	unsigned n;

	pthread_mutex_lock(&r->handover_lock);
	stop_working(r);
	atomic_fetch_add(&r->waiting, 1);
	while (r->shelved == 0 && r->working > 0)
		pthread_cond_wait(&r->handed_over, &r->handover_lock);
	atomic_fetch_sub(&r->waiting, 1);
	/* A share for each thread still waiting, as many as its lanes. */
	n = (r->shelved + atomic_load(&r->waiting)) / (atomic_load(&r->waiting) + 1);
	if (n > lanes)
		n = lanes;
	for (unsigned i = 0; i < n; i++)
		hasher_take_over(h, &r->shelf[--r->shelved]);
	if (n > 0)
		r->working++;
	pthread_mutex_unlock(&r->handover_lock);
	return n > 0;
}

/* Threads wait for gifts: give them part of h's work, the files with the
 * most bytes left first, so that each thread has about as much, unless
 * there is too little to share or gifts are already on their way. */
static void hand_over_to_idle(struct run *r, struct hasher *h)
{
	uint64_t left = hasher_work_left(h), share, given = 0;
	unsigned waiting;

	if (left < GIFT_WORK_MIN)
		return;
	pthread_mutex_lock(&r->handover_lock);
	waiting = atomic_load(&r->waiting);
	share = left / (waiting + 1) * waiting;
	while (given < share && r->shelved < waiting * r->plan.lanes &&
	       (given > 0 || r->shelved == 0)) {
		struct handover *g = &r->shelf[r->shelved];

		if (!hasher_hand_over(h, g))
			break;
		given += feed_bytes_left(&g->file) + FILE_COST;
		r->shelved++;
	}
	if (given > 0)
		pthread_cond_broadcast(&r->handed_over);
	pthread_mutex_unlock(&r->handover_lock);
}

/* Claim tasks and hash them until there are none left: claim while the
 * hasher has room, waiting for the window to move only when it has
 * nothing else to do.  A helper told to stop claims no more, and ends
 * once it has hashed what it holds. */
static void hash_tasks(struct worker *t)
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
			task = claim ? batches_next(r->all, &t->cursor, !hasher_has_files(h))
				     : batches_rest(&t->cursor);
		if (task) {
			hasher_add(h, task);
			continue;
		}
		if (!hasher_has_files(h) &&
		    !(HANDOVERS && claim && take_handed_over(r, h, plan_of(r, t)->lanes))) {
			if (!claim)
				leave_work(r);
			return;	/* none left to claim, or none it may */
		}
		hasher_step(h);
		if (HANDOVERS && atomic_load_explicit(&r->waiting, memory_order_relaxed) > 0)
			hand_over_to_idle(r, h);
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
	return (int64_t)(monotime_us() - r->began);
}

/* The work done so far: bytes read, and FILE_COST a file taken. */
static uint64_t work_done(struct run *r)
{
	uint64_t work = hasher_work(r->self->hasher);
	unsigned started = atomic_load(&r->started);

	for (unsigned i = 0; i < started; i++)
		work += hasher_work(r->helper[i].hasher);
	return work + (r->disks ? disks_work(r->disks) : 0);
}

/* Start helpers up to n in all, and the disks' readers with the first:
 * as many as can be had.  Not sooner: a run of a few files reads them on
 * the calling thread, as GNU's does (a test that injects faults into the
 * reads of GNU's one thread sees ours fail alike). */
static void start_helpers(struct run *r, unsigned n)
{
	unsigned i = atomic_load(&r->started);

	if (i == 0 && n > 0 && r->disk_files > 0) {
		r->disks = disks_start(r->disk_files);
		hasher_use_disks(r->self->hasher, r->disks);
	}
	atomic_store(&r->keep, n);
	for (; i < n; i++) {
		struct worker *t = &r->helper[i];

		*t = (struct worker){ .run = r, .index = i,
				      .hasher = hasher_new(helper_plan(r, i)) };
		if (!t->hasher)
			break;
		hasher_use_disks(t->hasher, r->disks);
		if (HANDOVERS) {
			pthread_mutex_lock(&r->handover_lock);
			r->working++;
			pthread_mutex_unlock(&r->handover_lock);
		}
		if (thread_start(&t->id, helper_main, t) != 0) {
			leave_work(r);
			hasher_free(t->hasher);
			break;
		}
		atomic_store(&r->started, i + 1);
	}
	atomic_store(&r->keep, i);
	/* Past the CPUs, smaller batches, so that each thread finds some: a
	 * thread that waits on each file reads one at a time.  Not before: a
	 * batch costs a write, which a run of small files in memory feels. */
	if (WAITING_THREADS_MAX > 0 && i + 1 > r->busy)
		batches_set_threads(r->all, i + 1);
}

/* On the calling thread, now and then: the next step of adding threads
 * (pace.h), taken. */
static void pace(struct run *r)
{
	struct pace_facts f;
	struct pace_step step;
	size_t left, handed = 0;
	int64_t now;
	bool deep;

	if (r->pace.state == PACE_SETTLED)
		return;
	now = elapsed_us(r);
	if (WAITING_THREADS_MAX > 0 && !pace_due(&r->pace, now))
		return;	/* no facts gathered: pace_next would wait */
	left = batches_left(r->all, &handed);
	/* More threads than CPUs wait for reads in flight: not on a disk
	 * that rotates, or may, where each costs a seek. */
	deep = WAITING_THREADS_MAX > 0 && r->want > r->busy && !storage_seen_rotating();
	/* The work held counts only where the jobs left are known (pace.h):
	 * not looked at otherwise. */
	f = (struct pace_facts){ .now = now, .work = work_done(r),
				 .running = atomic_load(&r->started), .most = r->busy - 1,
				 .most_waiting = deep ? r->want - 1 : 0,
				 .cpu = deep ? monotime_cpu_use() : (struct cpu_use){ 0, 0 },
				 .left = left, .claimed = handed,
				 .held = HANDOVERS && left != SIZE_MAX ?
						 hasher_work_to_hand_over(r->self->hasher) : 0 };
	step = pace_next(&r->pace, &f);
	if (step.act == PACE_START)
		start_helpers(r, step.helpers);
	else if (step.act == PACE_KEEP)
		atomic_store(&r->keep, step.helpers);
}

static unsigned at_least(unsigned n, unsigned least)
{
	return n > least ? n : least;
}

/* The threads, lanes and descriptors of a run of s. */
static void plan_run(struct run *r, const struct schedule *s)
{
	r->s = s;
	r->busy = s->threads ? s->threads : cores_usable();
	r->want = s->threads ? r->busy : at_least(r->busy, WAITING_THREADS_MAX);
	r->plan = (struct hasher_plan){ .engines = s->engines, .disk = s->disk,
					.stdin_closed = s->stdin_closed,
					.read_ahead = s->read_ahead,
					.others_hold_open = run_holds_files, .run = r };
	r->plan.lanes = busy_lanes_for(s->engines);
	if (WAITING_THREADS_MAX > 0) {
		r->waiting_plan = r->plan;
		if (r->waiting_plan.lanes > WAITING_LANES)
			r->waiting_plan.lanes = WAITING_LANES;
		r->waiting_plan.queue = WAITING_QUEUE;
	}
	fit_address_space(r);
	share_descriptors(r);
#ifndef MD5SUM_SMALL	/* which reads such files in lanes (readway.c) */
	/* The disks' readers come with the first of the busy threads' helpers. */
	r->plan.time_unsure = r->waiting_plan.time_unsure = r->busy == 1;
#endif
}

/* Room for the gifts of r's threads, and the lock they are given under;
 * false when they cannot be had. */
static bool handovers_init(struct run *r)
{
	if (!HANDOVERS)
		return true;
	r->shelf = calloc((size_t)r->want * HASHER_LANES_MAX, sizeof *r->shelf);
	if (!r->shelf)
		return false;
	if (pthread_mutex_init(&r->handover_lock, NULL) != 0) {
		free(r->shelf);
		return false;
	}
	if (pthread_cond_init(&r->handed_over, NULL) != 0) {
		pthread_mutex_destroy(&r->handover_lock);
		free(r->shelf);
		return false;
	}
	return true;
}

static void gifts_free(struct run *r)
{
	if (!HANDOVERS)
		return;
	pthread_cond_destroy(&r->handed_over);
	pthread_mutex_destroy(&r->handover_lock);
	free(r->shelf);
}

/* Hash every job of src and write its output, in input order, many at
 * once; false, having taken no job, when there is no memory for even one
 * thread's lanes. */
static bool run_many_at_once(const struct schedule *s, const struct job_source *src)
{
	struct run r = { .working = 1 };
	struct worker self = { .run = &r };

	plan_run(&r, s);
	r.self = &self;
	if (!handovers_init(&r))
		return false;
	self.hasher = hasher_new(&r.plan);
	r.helper = calloc(r.want, sizeof *r.helper);
	r.all = batches_new(src, r.busy, s->out, s->prog);
	if (!self.hasher || !r.helper || !r.all) {
		hasher_free(self.hasher);
		free(r.helper);
		if (r.all)
			batches_free(r.all);
		gifts_free(&r);
		return false;
	}
	r.began = monotime_us();
	r.pace = pace_begin(s->threads > 0 || r.want == 1);
	if (r.pace.state == PACE_SETTLED)
		start_helpers(&r, r.want - 1);
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
	gifts_free(&r);
	return true;
}

/* ------------------------------------------------------------ the run */

/* The table grown to hold the descriptors that a run of many files asks
 * to have free, the soft limit raised first as the run raises it: all
 * that it holds, but on a machine of very many CPUs, where the run grows
 * the table further for itself. */
void schedule_prepare(const struct schedule *s)
{
	if (!s->engines)
		return;
	(void)fds_free(FDS_WANTED);
	fds_make_room(FDS_WANTED);
}

void schedule_run(const struct schedule *s, const struct job_source *src)
{
	if (!s->engines || !run_many_at_once(s, src))
		run_one_by_one(s, src);
}
