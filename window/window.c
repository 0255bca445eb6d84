/* window.c - jobs claimed a batch at a time, written in order; see
 * window.h.  What is one batch's own is window_batch.c's (window_batch.h).
 *
 * Two locks, neither taken per file: claim_lock while a batch is made
 * from names, write_lock while batches are written, by one thread
 * for all that finish one meanwhile (write_finished), and while threads
 * wait for the writing to move on. */
#include <pthread.h>
#include <stdlib.h>

#include "window/window_batch.h"
#include "window/window.h"
#include "out/progress.h"
#include "os/features.h"

enum {
	/* Claimed and not written, at most: batches, and their jobs.  A
	 * large file at head stalls the writing while it is hashed in one
	 * lane; the other lanes and threads go on as far as these let them. */
	WINDOW = 4096,
	CLAIMED_MAX = 32768,
	SHOW_MS = 100,		/* written lines wait in the buffer at most */
};

struct window {
	struct batch_run run;
	struct batch **ring;	/* batch seq is ring[seq % WINDOW] */

	pthread_mutex_t claim_lock;	/* guards what follows, and run.names */
	atomic_uint_fast64_t next_seq;	/* the next batch to claim */
	size_t claimed;		/* jobs handed out so far */
	bool over;		/* names has no more, or memory ran out */
	uint64_t all_handed;	/* batches before it have every task handed
				 * out (steal) */

	pthread_mutex_t write_lock;	/* guards run.out, and batches' writing */
	pthread_cond_t moved;	/* head moved, or a task awaited was done */
	atomic_uint writes_asked;	/* by threads that finished a batch, not
					 * yet seen by the one that writes */
	atomic_uint_fast64_t head;	/* the oldest batch not written */
	size_t written;		/* jobs written so far */
	struct batch *spare;	/* batches written, to be claimed anew */

	struct batch_sizes sizes;	/* for the size of batches to come */
};

struct window *window_new(struct job_source *names, struct results *results, unsigned threads,
			    struct out *out, const char *prog)
{
	struct window *all = calloc(1, sizeof *all);

	if (!all)
		return NULL;
	*all = (struct window){ .run = { .names = names, .results = results, .out = out, .prog = prog } };
	batch_sizes_set_threads(&all->sizes, threads);
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

/* The batch at head, when it is claimed. */
static struct batch *head_batch(struct window *all)
{
	uint64_t head = atomic_load(&all->head);

	return head == atomic_load(&all->next_seq) ? NULL : all->ring[head % WINDOW];
}

/* Write the finished batches at head, in order; false once memory has run
 * out (batch_write).  Under write_lock. */
static bool write_head(struct window *all)
{
	struct batch *b;
	bool moved = false;

	while ((b = head_batch(all)) &&
	       atomic_load_explicit(&b->finished, memory_order_acquire)) {
		batch_write(b, b->n);
		atomic_store_explicit(&b->finished, false, memory_order_relaxed);
		all->written += b->n;
		batch_add_spare(&all->spare, b);
		atomic_store(&all->head, b->seq + 1);
		moved = true;
	}
	out_flush_waited(all->run.out, SHOW_MS);
	/* Said as head moves, not as each file is done, which would take a
	 * lock a file. */
	if (progress_shown() && (b = head_batch(all)))
		batch_say_what_delays(b);
	if (moved)
		pthread_cond_broadcast(&all->moved);
	return !atomic_load(&all->run.no_memory);
}

/* A batch was finished: write what can be written.  The thread that
 * asks first writes, and writes again as long as others asked while it
 * wrote; the others go back to hashing at once. */
static void write_finished(struct window *all)
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

bool window_write_rest_and_free(struct window *all)
{
	bool whole = write_head(all);

	out_flush(all->run.out);
	batch_free(all->spare);
	free(all->ring);
	pthread_mutex_destroy(&all->claim_lock);
	pthread_mutex_destroy(&all->write_lock);
	pthread_cond_destroy(&all->moved);
	free(all);
	return whole;
}

void window_task_sized(struct task *t, uint64_t size)
{
	t->size = size;
	batch_sizes_opened(&t->batch->all->sizes, size);
}

void window_task_done_may_write(struct task *t)
{
	struct batch *b = t->batch;
	struct window *all = b->all;

	/* Sequentially consistent, as turn_waits: either a thread waiting
	 * for its turn sees t done, or this one sees it waiting. */
	if (batch_task_done(t)) {
		batch_finish(b, &all->sizes);
		write_finished(all);
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

void window_tick_may_write(struct window *all)
{
	if (out_waited(all->run.out, SHOW_MS)) {
		pthread_mutex_lock(&all->write_lock);
		out_flush_waited(all->run.out, SHOW_MS);
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
	return batch_done_before(b, t);
}

void window_wait_turn_and_write(struct task *t)
{
	struct batch *b = t->batch;
	struct window *all = b->all;
	unsigned k = (unsigned)(t - b->task);

	pthread_mutex_lock(&all->write_lock);
	if (!at_front(t)) {
		out_flush(all->run.out);
		atomic_fetch_add(&b->turn_waits, 1);
		while (!at_front(t))
			pthread_cond_wait(&all->moved, &all->write_lock);
		atomic_fetch_sub(&b->turn_waits, 1);
	}
	/* Nobody else writes b before t is done. */
	batch_record(b, k);
	batch_write(b, k);
	out_flush(all->run.out);
	progress_waiting_for(t->job.name);
	pthread_mutex_unlock(&all->write_lock);
}

/* ------------------------------------------------------------ claiming */

void window_set_threads(struct window *all, unsigned threads)
{
	batch_sizes_set_threads(&all->sizes, threads);
}

/* A batch for seq, head being the oldest not written: one written
 * before, or a new one; NULL when the window has no room for it or for its
 * jobs, or there is no memory for it (then no job is taken).  Under
 * claim_lock. */
static struct batch *take_batch(struct window *all, uint64_t seq, uint64_t head)
{
	struct batch *b;
	bool room;

	pthread_mutex_lock(&all->write_lock);
	room = seq - head < WINDOW && all->claimed - all->written < CLAIMED_MAX;
	b = room ? batch_take_spare(&all->spare) : NULL;
	pthread_mutex_unlock(&all->write_lock);
	if (!room)
		return NULL;
	if (!b && !(b = batch_new(all, &all->run))) {
		atomic_store(&all->run.no_memory, true);
		all->over = true;
		return NULL;
	}
	b->seq = seq;
	all->ring[seq % WINDOW] = b;
	return b;
}

/* Sleep until the first n jobs are written, and show them: names
 * may then wait for a list's writer, having delayed no line that GNU's
 * md5sum, which checks a line before it reads the next, would have
 * written. */
static void wait_written(struct window *all, size_t n)
{
	pthread_mutex_lock(&all->write_lock);
	while (all->written < n)
		pthread_cond_wait(&all->moved, &all->write_lock);
	out_flush(all->run.out);
	pthread_mutex_unlock(&all->write_lock);
}

/* Sleep until head moves past seen, having shown what is written. */
static void wait_for_room(struct window *all, uint64_t seen)
{
	pthread_mutex_lock(&all->write_lock);
	out_flush(all->run.out);
	while (atomic_load(&all->head) == seen)
		pthread_cond_wait(&all->moved, &all->write_lock);
	pthread_mutex_unlock(&all->write_lock);
}

/* A new batch for the calling thread, which may wait for one when it
 * has no work of its own; NULL when there is none now or none to come.
 * Names are made without waiting for a list's writer, and when that would
 * wait, a thread that may wait first sees every job claimed written. */
static struct batch *claim(struct window *all, bool wait)
{
	struct batch *b = NULL;
	bool all_written = false;	/* every job claimed is: names may
					 * wait for a list's writer */

	pthread_mutex_lock(&all->claim_lock);
	while (!all->over && !atomic_load(&all->run.no_memory)) {
		uint64_t seq = atomic_load(&all->next_seq), head = atomic_load(&all->head);
		enum next_job got;
		size_t claimed;

		if (!(b = take_batch(all, seq, head))) {
			if (!wait || all->over)
				break;
			pthread_mutex_unlock(&all->claim_lock);
			wait_for_room(all, head);
			pthread_mutex_lock(&all->claim_lock);
			continue;
		}
		got = batch_fill(b, batch_size(&all->sizes, source_count(all->run.names), all->claimed),
				 all_written);
		all->claimed += b->n;
		/* Not asked again once it has no more: a terminal would wait
		 * for a second end of file. */
		all->over = got == JOB_NONE;
		if (b->n > 0) {
			atomic_store(&all->next_seq, seq + 1);
			if (progress_shown() && atomic_load(&all->head) == seq)
				batch_say_what_delays(b);
			break;
		}
		pthread_mutex_lock(&all->write_lock);
		batch_add_spare(&all->spare, b);
		pthread_mutex_unlock(&all->write_lock);
		b = NULL;
		/* Without reads that would not wait (the small build), the
		 * names never say later: they wait. */
		if (got != JOB_LATER || !wait || !HAS_NO_WAIT_READS)
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

/* The first batch that may have tasks no thread has reached: all_handed,
 * moved up to the oldest not written.  Under claim_lock. */
static uint64_t first_not_reached(struct window *all)
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
static struct task *steal(struct window *all, struct cursor *c)
{
	struct task *t = NULL;
	uint64_t end;

	pthread_mutex_lock(&all->claim_lock);
	end = atomic_load(&all->next_seq);
	for (first_not_reached(all); all->all_handed < end; all->all_handed++) {
		struct batch *b = all->ring[all->all_handed % WINDOW];

		if (b->seq == all->all_handed && (t = batch_hand_out(b))) {
			c->batch = b;
			break;
		}
	}
	pthread_mutex_unlock(&all->claim_lock);
	return t;
}

/* The tasks of the batches claimed that no thread has reached yet, which
 * any may take (steal).  Under claim_lock. */
static size_t not_reached(struct window *all)
{
	uint64_t end = atomic_load(&all->next_seq);
	size_t n = 0;

	for (uint64_t seq = first_not_reached(all); seq < end; seq++) {
		struct batch *b = all->ring[seq % WINDOW];

		if (b->seq == seq)
			n += batch_not_handed(b);
	}
	return n;
}

struct task *window_next(struct window *all, struct cursor *c, bool wait)
{
	struct task *t = window_rest(c);

	if (t)
		return t;
	c->batch = claim(all, wait);
	if (c->batch && (t = batch_hand_out(c->batch)))
		return t;
	return HAS_SHARED_BATCHES ? steal(all, c) : NULL;
}

size_t window_left(struct window *all, size_t *handed)
{
	size_t left, waiting, count = source_count(all->run.names);

	pthread_mutex_lock(&all->claim_lock);
	left = all->over ? 0 : count ? count - all->claimed : SIZE_MAX;
	if (left != SIZE_MAX) {
		waiting = HAS_SHARED_BATCHES ? not_reached(all) : 0;
		left += waiting;
		*handed = all->claimed - waiting;
	}
	pthread_mutex_unlock(&all->claim_lock);
	return left;
}
