/* batches.c - jobs claimed a batch at a time, written in order; see
 * batches.h.
 *
 * Two locks, neither taken per file: claim_lock while a batch is made
 * from the source, write_lock while batches are written and while threads
 * wait for the writing to move on.  The threads that finish batches do
 * not wait for each other's writing: the first to ask writes for all who
 * ask while it writes (write_finished). */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "batches.h"
#include "diag.h"
#include "grow.h"
#include "progress.h"

enum {
	BATCH_MAX = 64,		/* jobs in a batch, at most */
	BATCH_FIRST = 1,	/* before the size of files is known: a
				 * thread claims no more than it starts */
	BATCH_BYTES = 1024 * 1024,	/* a batch's work, about */
	SHRINK = 4,		/* a batch is at most 1/SHRINK of a thread's
				 * share of the jobs left */
	/* Claimed and not written, at most: batches, and their jobs.  A
	 * large file at head holds the writing back while it is hashed in
	 * one lane; the other lanes and threads go on meanwhile as far as
	 * these let them. */
	WINDOW = 4096,
	HELD_MAX = 32768,
	SIZES_EARLY = 64,	/* files sized as opened that count, at most */
	SHOW_MS = 100,		/* written lines wait in the buffer at most */
};

struct batch {
	struct batches *all;
	uint64_t seq;		/* its place among the batches of the run */
	unsigned n;		/* tasks in it */
	struct task *task;	/* BATCH_MAX */
	/* n in the upper half, the tasks handed out in the lower: any
	 * thread takes the next (hand_out).  Set once the tasks are made. */
	atomic_uint_fast64_t handing;
	atomic_uint pending;	/* tasks not done */
	atomic_bool finished;	/* every task is done and recorded */
	atomic_uint turn_waits;	/* tasks of it that wait for their turn:
				 * taken by different threads, several may */
	struct batch *next_spare;
	unsigned recorded;	/* tasks whose output is in rec */
	unsigned written;	/* tasks whose output went out */
	struct outbox rec;
	char *names;		/* the tasks' names, unless they last the run */
	size_t names_len, names_size;
};

struct batches {
	const struct job_source *src;
	struct out *out;
	const char *prog;
	atomic_uint threads;	/* that claim, at most */
	struct batch **ring;	/* batch seq is ring[seq % WINDOW] */

	pthread_mutex_t claim_lock;	/* guards what follows, and src */
	atomic_uint_fast64_t next_seq;	/* the next batch to claim */
	size_t claimed;		/* jobs handed out so far */
	bool over;		/* the source has no more */
	uint64_t all_handed;	/* batches before it have every task handed
				 * out (steal) */

	pthread_mutex_t write_lock;	/* guards out, and batches' writing */
	pthread_cond_t moved;	/* head moved, or a task awaited was done */
	atomic_uint writes_asked;	/* by threads that finished a batch, not
					 * yet seen by the one that writes */
	atomic_uint_fast64_t head;	/* the oldest batch not written */
	size_t written;		/* jobs written so far */
	struct batch *spare;	/* batches written, to be claimed anew */

	/* Finished batches' files, and the first files whose size is
	 * known, for the size of batches to come. */
	atomic_uint_fast64_t files_done, bytes_done;
	atomic_uint_fast64_t files_sized, bytes_sized;
};

struct batches *batches_new(const struct job_source *src, unsigned threads,
			    struct out *out, const char *prog)
{
	struct batches *all = calloc(1, sizeof *all);

	if (!all)
		return NULL;
	*all = (struct batches){ .src = src, .out = out, .prog = prog };
	atomic_init(&all->threads, threads);
	all->ring = calloc(WINDOW, sizeof *all->ring);
	if (!all->ring || pthread_mutex_init(&all->claim_lock, NULL) != 0 ||
	    pthread_mutex_init(&all->write_lock, NULL) != 0 ||
	    pthread_cond_init(&all->moved, NULL) != 0) {
		free(all->ring);
		free(all);
		return NULL;
	}
	return all;
}

/* ------------------------------------------------------------ writing */

/* Record the output of b's tasks before task k, in order. */
static void record_tasks(struct batch *b, unsigned k)
{
	const struct job_source *src = b->all->src;

	for (; b->recorded < k; b->recorded++)
		src->format(src->ctx, &b->task[b->recorded].job, &b->rec);
}

/* Write what b has recorded, and count its tasks before task k. */
static void write_recorded(struct batch *b, unsigned k)
{
	const struct job_source *src = b->all->src;

	outbox_play(&b->rec, b->all->out, b->all->prog);
	for (; b->written < k; b->written++)
		src->account(src->ctx, &b->task[b->written].job);
}

/* The batch at head, when it is claimed. */
static struct batch *head_batch(struct batches *all)
{
	uint64_t head = atomic_load(&all->head);

	if (head == atomic_load(&all->next_seq))
		return NULL;
	return all->ring[head % WINDOW];
}

/* For --progress, when b, batch seq, is at head: its first file not
 * hashed yet, which the run waits for; told when head moves, not each
 * time a file is done, which would take a lock a file.  Under
 * write_lock, or by b's claimer before it hands out a task: b is not
 * written meanwhile. */
static void say_what_holds_up(struct batches *all, struct batch *b, uint64_t seq)
{
	if (!b || !progress_shown() || atomic_load(&all->head) != seq)
		return;
	for (unsigned i = 0; i < b->n; i++) {
		if (!atomic_load_explicit(&b->task[i].done, memory_order_relaxed)) {
			progress_waiting_for(b->task[i].job.name);
			return;
		}
	}
}

/* Keep b, written or left empty, to be claimed anew.  Under write_lock. */
static void keep_spare(struct batches *all, struct batch *b)
{
	b->next_spare = all->spare;
	all->spare = b;
}

/* Write the finished batches at head, in order.  Under write_lock. */
static void write_head(struct batches *all)
{
	struct batch *b;
	bool moved = false;

	while ((b = head_batch(all)) &&
	       atomic_load_explicit(&b->finished, memory_order_acquire)) {
		write_recorded(b, b->n);
		atomic_store_explicit(&b->finished, false, memory_order_relaxed);
		all->written += b->n;
		keep_spare(all, b);
		atomic_store(&all->head, b->seq + 1);
		moved = true;
	}
	out_flush_held(all->out, SHOW_MS);
	say_what_holds_up(all, head_batch(all), atomic_load(&all->head));
	if (moved)
		pthread_cond_broadcast(&all->moved);
}

/* A batch was finished: write what can be written.  The thread that
 * asks first writes, and writes again as long as others asked while it
 * wrote; the others go back to hashing at once. */
static void write_finished(struct batches *all)
{
	unsigned asked;

	if (atomic_fetch_add(&all->writes_asked, 1) > 0)
		return;
	do {
		asked = atomic_load(&all->writes_asked);
		pthread_mutex_lock(&all->write_lock);
		write_head(all);
		pthread_mutex_unlock(&all->write_lock);
	} while (atomic_fetch_sub(&all->writes_asked, asked) != asked);
}

void batches_free(struct batches *all)
{
	struct batch *b;

	write_head(all);
	out_flush(all->out);
	while ((b = all->spare)) {
		all->spare = b->next_spare;
		outbox_free(&b->rec);
		free(b->names);
		free(b->task);
		free(b);
	}
	free(all->ring);
	pthread_mutex_destroy(&all->claim_lock);
	pthread_mutex_destroy(&all->write_lock);
	pthread_cond_destroy(&all->moved);
	free(all);
}

/* b's last task is done: record it all, and write what can be. */
static void finish_batch(struct batch *b)
{
	struct batches *all = b->all;
	uint64_t bytes = 0;

	record_tasks(b, b->n);
	for (unsigned i = 0; i < b->n; i++)
		bytes += b->task[i].size;
	atomic_fetch_add_explicit(&all->files_done, b->n, memory_order_relaxed);
	atomic_fetch_add_explicit(&all->bytes_done, bytes, memory_order_relaxed);
	atomic_store_explicit(&b->finished, true, memory_order_release);
	write_finished(all);
}

void batches_task_sized(struct task *t, uint64_t size)
{
	struct batches *all = t->batch->all;

	t->size = size;
	/* Until the first batches finish, which may take long when their
	 * files wait for a disk, one-job batches would soon fill the window. */
	if (atomic_load_explicit(&all->files_sized, memory_order_relaxed) < SIZES_EARLY) {
		atomic_fetch_add_explicit(&all->files_sized, 1, memory_order_relaxed);
		atomic_fetch_add_explicit(&all->bytes_sized, size, memory_order_relaxed);
	}
}

void batches_task_done(struct task *t)
{
	struct batch *b = t->batch;
	struct batches *all = b->all;

	/* Sequentially consistent, as turn_waits: either a thread waiting
	 * for its turn sees t done, or this one sees it waiting. */
	atomic_store(&t->done, true);
	if (atomic_fetch_sub_explicit(&b->pending, 1, memory_order_acq_rel) == 1) {
		finish_batch(b);
		return;
	}
	/* From here b may be written and made anew, unless a task of it
	 * waits for its turn: then a wake-up is one too many, no more. */
	if (atomic_load(&b->turn_waits) > 0) {
		pthread_mutex_lock(&all->write_lock);
		pthread_cond_broadcast(&all->moved);
		pthread_mutex_unlock(&all->write_lock);
	}
}

void batches_tick(struct batches *all)
{
	if (out_held(all->out, SHOW_MS)) {
		pthread_mutex_lock(&all->write_lock);
		out_flush_held(all->out, SHOW_MS);
		pthread_mutex_unlock(&all->write_lock);
	}
}

/* Whether t is at the front: its batch at head, and the tasks before it
 * in the batch done. */
static bool at_front(const struct task *t)
{
	const struct batch *b = t->batch;

	if (atomic_load(&b->all->head) != b->seq)
		return false;
	for (const struct task *p = b->task; p < t; p++)
		if (!atomic_load(&p->done))
			return false;
	return true;
}

void batches_wait_turn(struct task *t)
{
	struct batch *b = t->batch;
	struct batches *all = b->all;
	unsigned k = (unsigned)(t - b->task);

	pthread_mutex_lock(&all->write_lock);
	if (!at_front(t)) {
		out_flush(all->out);
		atomic_fetch_add(&b->turn_waits, 1);
		while (!at_front(t))
			pthread_cond_wait(&all->moved, &all->write_lock);
		atomic_fetch_sub(&b->turn_waits, 1);
	}
	/* Nobody else writes b before t is done. */
	record_tasks(b, k);
	write_recorded(b, k);
	out_flush(all->out);
	progress_waiting_for(t->job.name);
	pthread_mutex_unlock(&all->write_lock);
}

/* ------------------------------------------------------------ claiming */

void batches_set_threads(struct batches *all, unsigned threads)
{
	atomic_store_explicit(&all->threads, threads, memory_order_relaxed);
}

/* How many jobs the next batch takes: fewer for larger files, and at
 * most a fraction of a thread's share of what is left.  Under claim_lock. */
static unsigned batch_size(const struct batches *all)
{
	uint64_t files = atomic_load_explicit(&all->files_done, memory_order_relaxed) +
			 atomic_load_explicit(&all->files_sized, memory_order_relaxed);
	uint64_t bytes = atomic_load_explicit(&all->bytes_done, memory_order_relaxed) +
			 atomic_load_explicit(&all->bytes_sized, memory_order_relaxed);
	uint64_t size = BATCH_FIRST;

	if (files > 0)
		size = BATCH_BYTES / (bytes / files + FILE_COST);
	if (all->src->count) {
		uint64_t share = (all->src->count - all->claimed) /
				 (SHRINK * (uint64_t)atomic_load_explicit(&all->threads,
									 memory_order_relaxed));

		if (size > share)
			size = share;
	}
	return size < 1 ? 1 : size > BATCH_MAX ? BATCH_MAX : (unsigned)size;
}

/* A batch to hold seq, head being the oldest not written: one written
 * before, or a new one; NULL when the window has no room for it or for its
 * jobs.  Under claim_lock. */
static struct batch *take_batch(struct batches *all, uint64_t seq, uint64_t head)
{
	struct batch *b = NULL;
	bool room;

	pthread_mutex_lock(&all->write_lock);
	room = seq - head < WINDOW && all->claimed - all->written < HELD_MAX;
	if (room && (b = all->spare))
		all->spare = b->next_spare;
	pthread_mutex_unlock(&all->write_lock);
	if (!room)
		return NULL;
	if (!b) {
		if (!(b = calloc(1, sizeof *b)) || !(b->task = calloc(BATCH_MAX, sizeof *b->task)))
			die_no_memory(all->prog);
		b->all = all;
		outbox_init(&b->rec);
	}
	b->seq = seq;
	all->ring[seq % WINDOW] = b;
	return b;
}

/* Keep a copy of name in b; where, as an offset into b->names. */
static size_t keep_name(struct batches *all, struct batch *b, const char *name)
{
	size_t n = strlen(name) + 1, at = b->names_len;

	if (!grow(&b->names, &b->names_size, at, n))
		die_no_memory(all->prog);
	memcpy(b->names + at, name, n);
	b->names_len += n;
	return at;
}

/* Make up to size jobs of the source into b, the source waiting for its
 * input for the first only if wait: what it said last.  JOB_NONE once it
 * has no more, and it is not asked again (a terminal would wait for a
 * second end of file).  Under claim_lock. */
static enum next_job fill_batch(struct batches *all, struct batch *b, unsigned size,
				bool wait)
{
	size_t at[BATCH_MAX];
	struct job j;
	enum next_job got = JOB_MADE;

	b->n = 0;
	b->names_len = 0;
	while (b->n < size &&
	       (got = all->src->next(all->src->ctx, &j, wait && b->n == 0)) == JOB_MADE) {
		at[b->n] = j.name && !all->src->names_last ? keep_name(all, b, j.name) : SIZE_MAX;
		b->task[b->n++] = (struct task){ .job = j, .batch = b };
	}
	for (unsigned i = 0; i < b->n; i++)
		if (at[i] != SIZE_MAX)
			b->task[i].job.name = b->names + at[i];
	b->recorded = b->written = 0;
	atomic_store_explicit(&b->pending, b->n, memory_order_relaxed);
	atomic_store_explicit(&b->handing, (uint64_t)b->n << 32, memory_order_release);
	all->claimed += b->n;
	return got;
}

/* The small build (make static) reads lists without asking whether a read
 * would wait (listread.c): it has no room for what follows. */
#ifdef MD5SUM_SMALL
#define SOURCE_MAY_WAIT 0
#else
#define SOURCE_MAY_WAIT 1
#endif

/* Sleep until the first n jobs are written, and show them: the source
 * may then wait for its input, having held back no line that GNU's
 * md5sum, which checks a line before it reads the next, would have
 * written. */
static void wait_written(struct batches *all, size_t n)
{
	pthread_mutex_lock(&all->write_lock);
	while (all->written < n)
		pthread_cond_wait(&all->moved, &all->write_lock);
	out_flush(all->out);
	pthread_mutex_unlock(&all->write_lock);
}

/* Sleep until head moves past seen, having shown what is written. */
static void wait_for_room(struct batches *all, uint64_t seen)
{
	pthread_mutex_lock(&all->write_lock);
	out_flush(all->out);
	while (atomic_load(&all->head) == seen)
		pthread_cond_wait(&all->moved, &all->write_lock);
	pthread_mutex_unlock(&all->write_lock);
}

/* A new batch for the calling thread, which may wait for one when it
 * holds no work of its own; NULL when there is none now or none to come.
 * The source is read without waiting for its input, and when that would
 * wait, a thread that may wait first sees every job claimed written. */
static struct batch *claim(struct batches *all, bool wait)
{
	struct batch *b = NULL;
	bool all_written = false;	/* every job claimed is: the source may
					 * wait for its input */

	pthread_mutex_lock(&all->claim_lock);
	while (!all->over) {
		uint64_t seq = atomic_load(&all->next_seq), head = atomic_load(&all->head);
		enum next_job got;
		size_t claimed;

		if (!(b = take_batch(all, seq, head))) {
			if (!wait)
				break;
			pthread_mutex_unlock(&all->claim_lock);
			wait_for_room(all, head);
			pthread_mutex_lock(&all->claim_lock);
			continue;
		}
		got = fill_batch(all, b, batch_size(all), all_written);
		all->over = got == JOB_NONE;
		if (b->n > 0) {
			atomic_store(&all->next_seq, seq + 1);
			say_what_holds_up(all, b, seq);
			break;
		}
		pthread_mutex_lock(&all->write_lock);
		keep_spare(all, b);
		pthread_mutex_unlock(&all->write_lock);
		b = NULL;
		if (got != JOB_LATER || !wait || !SOURCE_MAY_WAIT)
			break;
		claimed = all->claimed;
		pthread_mutex_unlock(&all->claim_lock);
		wait_written(all, claimed);
		pthread_mutex_lock(&all->claim_lock);
		all_written = all->claimed == claimed;
	}
	pthread_mutex_unlock(&all->claim_lock);
	return b;
}

/* The next task of b not handed out yet, to any thread: NULL when all
 * are.  A thread whose pointer is older than b's last making takes a task
 * of it as it is now, which is as much a task to be done. */
static struct task *hand_out(struct batch *b)
{
	uint_fast64_t h = atomic_load_explicit(&b->handing, memory_order_acquire);

	while ((uint32_t)h < (uint32_t)(h >> 32))
		if (atomic_compare_exchange_weak_explicit(&b->handing, &h, h + 1,
							  memory_order_acquire,
							  memory_order_acquire))
			return &b->task[(uint32_t)h];
	return NULL;
}

/* The small build (make static) has no room for taking other threads'
 * tasks. */
#ifndef MD5SUM_SMALL
/* The first batch that may hold tasks no thread has reached: all_handed,
 * moved up to the oldest not written.  Under claim_lock. */
static uint64_t first_not_reached(struct batches *all)
{
	uint64_t head = atomic_load(&all->head);

	if (all->all_handed < head)
		all->all_handed = head;
	return all->all_handed;
}

/* Once none are left to claim: a task of a batch claimed by another
 * thread that has not reached it, from the oldest such batch, which the
 * cursor then shares.  A thread that waits on each file (a network file
 * system) would otherwise read the rest of its batch one file at a time
 * while others have nothing to do. */
static struct task *steal(struct batches *all, struct cursor *c)
{
	struct task *t = NULL;
	uint64_t end;

	pthread_mutex_lock(&all->claim_lock);
	end = atomic_load(&all->next_seq);
	for (first_not_reached(all); all->all_handed < end; all->all_handed++) {
		struct batch *b = all->ring[all->all_handed % WINDOW];

		if (b->seq == all->all_handed && (t = hand_out(b))) {
			c->batch = b;
			break;
		}
	}
	pthread_mutex_unlock(&all->claim_lock);
	return t;
}
#else
#define steal(all, c) NULL
#endif

struct task *batches_next(struct batches *all, struct cursor *c, bool wait)
{
	struct task *t = batches_rest(c);

	if (t)
		return t;
	c->batch = claim(all, wait);
	if (c->batch && (t = hand_out(c->batch)))
		return t;
	return steal(all, c);
}

struct task *batches_rest(struct cursor *c)
{
	return c->batch ? hand_out(c->batch) : NULL;
}

#ifndef MD5SUM_SMALL
/* The tasks of the batches claimed that no thread has reached yet, which
 * any may take (steal).  Under claim_lock. */
static size_t not_reached(struct batches *all)
{
	uint64_t end = atomic_load(&all->next_seq);
	size_t n = 0;

	for (uint64_t seq = first_not_reached(all); seq < end; seq++) {
		struct batch *b = all->ring[seq % WINDOW];
		uint_fast64_t h = atomic_load_explicit(&b->handing, memory_order_relaxed);

		if (b->seq == seq && (uint32_t)h < (uint32_t)(h >> 32))
			n += (uint32_t)(h >> 32) - (uint32_t)h;
	}
	return n;
}
#else
#define not_reached(all) 0
#endif

size_t batches_left(struct batches *all, size_t *handed)
{
	size_t left, waiting;

	pthread_mutex_lock(&all->claim_lock);
	left = all->over ? 0 : all->src->count ? all->src->count - all->claimed : SIZE_MAX;
	if (left != SIZE_MAX) {
		waiting = not_reached(all);
		left += waiting;
		*handed = all->claimed - waiting;
	}
	pthread_mutex_unlock(&all->claim_lock);
	return left;
}
