/* window_batch.h - one batch of a parallel run (window.h): consecutive jobs of
 * names (source.h) made into tasks, handed out one at a time to any thread, and
 * the output of those done recorded in its outbox until its turn.  Private
 * to window.c, which has the window of batches claimed and not yet
 * written, and decides when a batch is made, recorded and written.
 *
 * A batch written is made anew: its tasks, the names it copied and its
 * outbox reuse their memory for the jobs it takes next; the lines it took
 * are freed.  Its tasks are
 * handed out without a lock, so the functions on that path are inline.
 *
 * How many jobs a batch takes is this module's rule too: fewer when files
 * are larger, as far as the files seen tell, and fewer toward the end of
 * a run whose length is known. */
#ifndef WINDOW_BATCH_H
#define WINDOW_BATCH_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "jobs/job.h"
#include "jobs/source.h"
#include "jobs/results.h"
#include "out/out.h"
#include "out/outbox.h"

struct batch;
struct window;

/* What a file costs beyond its bytes, in bytes of work: opening, reading
 * and closing it, and its line of output, which take about as long as
 * hashing this much in lanes (doc/performance.md); for the size of
 * batches and the measure of a run's pace. */
enum { FILE_COST = 16 * 1024 };

/* A job handed out to a thread. */
struct task {
	struct job job;
	uint64_t size;		/* bytes, once known: window_task_sized */
	struct batch *batch;
	atomic_bool done;
};

enum {
	BATCH_MAX = 64,		/* jobs in a batch, at most */
	SIZES_EARLY = 64,	/* files sized as opened that count, at most */
};

/* What the batches of a run share: where their jobs come from, how
 * their results are worded and counted, where their output goes, the
 * program's name for messages, and whether memory ran out. */
struct batch_run {
	struct job_source *names;	/* under the claim lock */
	struct results *results;	/* worded by any thread; counted under
					 * the write lock */
	struct out *out;
	const char *prog;
	atomic_bool no_memory;	/* no job is taken from now on */
	bool record_lost;	/* under the write lock: a batch's output was
				 * lost; no output after it is written */
};

/* The fields that threads touch on each file come first, together.
 * Those marked "window" are window.c's, stored here. */
struct batch {
	struct window *all;	/* window: the run it is claimed in */
	uint64_t seq;		/* window: its place among the run's batches */
	unsigned n;		/* tasks in it; window.c reads it */
	struct task *task;	/* BATCH_MAX; window.c reads them */
	/* n in the upper half, the tasks handed out in the lower: any
	 * thread takes the next (batch_hand_out).  Set once the tasks are
	 * made. */
	atomic_uint_fast64_t handing;
	atomic_uint pending;	/* tasks not done */
	atomic_bool finished;	/* every task is done and recorded: set by
				 * batch_finish, cleared by the window */
	atomic_uint turn_waits;	/* window: tasks of it that wait for their
				 * turn: taken by different threads, several
				 * may */
	struct batch *next_spare;	/* the spare after it (batch_add_spare) */
	struct batch_run *run;
	unsigned recorded;	/* tasks whose output is in rec */
	unsigned written;	/* tasks whose output went out */
	struct outbox rec;
	char *names;		/* the tasks' short names, unless they last
				 * the run */
	size_t names_len, names_size;
	unsigned n_lines;	/* the lines taken, whose memory b frees */
	char *lines[BATCH_MAX];	/* a list's lines that hold the other names */
};

/* What the size of batches follows: the files of batches finished, the
 * first files whose size is known, and the threads that claim, at most.
 * Any thread adds to it. */
struct batch_sizes {
	atomic_uint_fast64_t files_done, bytes_done;
	atomic_uint_fast64_t files_sized, bytes_sized;
	atomic_uint threads;
};

/* A new batch, empty, for all, sharing run; NULL when there is no
 * memory. */
struct batch *batch_new(struct window *all, struct batch_run *run);

/* Batches written, or left empty, are spares on a list, *spare, to be made
 * anew; whoever has the list guards it. */
static inline void batch_add_spare(struct batch **spare, struct batch *b)
{
	b->next_spare = *spare;
	*spare = b;
}

/* A spare batch, taken off the list; NULL when there is none. */
static inline struct batch *batch_take_spare(struct batch **spare)
{
	struct batch *b = *spare;

	if (b)
		*spare = b->next_spare;
	return b;
}

/* Free b, if any, and the spares after it. */
void batch_free(struct batch *b);

/* Make up to size jobs of the run's names into b, waiting for a list's
 * writer for the first only if wait: what names said last.  Names that do not
 * last the run are kept by b: a short one copied, a long one, or one there
 * is no memory to copy, in the list's line that holds it, taken whole
 * (source_take_name), so that no name is copied that GNU would not copy,
 * and none costs memory that GNU's one line does not. */
enum next_job batch_fill(struct batch *b, unsigned size, bool wait);

/* The next task of b not handed out yet, to any thread: NULL when all
 * are.  A thread whose pointer is older than b's last making takes a task
 * of it as it is now, which is as much a task to be done. */
static inline struct task *batch_hand_out(struct batch *b)
{
	uint_fast64_t h = atomic_load_explicit(&b->handing, memory_order_acquire);

	while ((uint32_t)h < (uint32_t)(h >> 32))
		if (atomic_compare_exchange_weak_explicit(&b->handing, &h, h + 1,
							  memory_order_acquire,
							  memory_order_acquire))
			return &b->task[(uint32_t)h];
	return NULL;
}

/* How many tasks of b are not handed out yet; for a count, not a claim. */
static inline unsigned batch_not_handed(struct batch *b)
{
	uint_fast64_t h = atomic_load_explicit(&b->handing, memory_order_relaxed);

	return (uint32_t)h < (uint32_t)(h >> 32) ? (uint32_t)(h >> 32) - (uint32_t)h : 0;
}

/* t is done, as sequentially consistent a store as window.c needs
 * (window_task_done_may_write): whether it was the last of its batch. */
static inline bool batch_task_done(struct task *t)
{
	struct batch *b = t->batch;	/* read once: the store is a barrier */

	atomic_store(&t->done, true);
	return atomic_fetch_sub_explicit(&b->pending, 1, memory_order_acq_rel) == 1;
}

/* Whether the tasks of b before t, one of them, are done. */
bool batch_done_before(const struct batch *b, const struct task *t);

/* For --progress, when it is shown and b is at head: its first file not
 * hashed yet, which the run waits for.  By b's writer, or its claimer
 * before it hands out a task: b is not written meanwhile. */
void batch_say_what_delays(const struct batch *b);

/* b's last task is done: record the output of its tasks, count their
 * files in s, and mark b finished. */
void batch_finish(struct batch *b, struct batch_sizes *s);

/* Record the output of b's tasks before task k, in order, as the run's
 * results word it. */
void batch_record(struct batch *b, unsigned k);

/* Write what b has recorded (window_play), and have the run's results
 * count its tasks before task k.  Once a batch's record was lost, for want
 * of memory, this and later batches write nothing more, and the run says
 * no_memory. */
void batch_write(struct batch *b, unsigned k);

/* A file opened has size bytes: it counts until enough batches are
 * finished to tell. */
static inline void batch_sizes_opened(struct batch_sizes *s, uint64_t size)
{
	/* Until the first batches finish, which may take long when their
	 * files wait for a disk, one-job batches would soon fill the window. */
	if (atomic_load_explicit(&s->files_sized, memory_order_relaxed) < SIZES_EARLY) {
		atomic_fetch_add_explicit(&s->files_sized, 1, memory_order_relaxed);
		atomic_fetch_add_explicit(&s->bytes_sized, size, memory_order_relaxed);
	}
}

/* From now on, up to threads threads claim: batches are sized for them. */
static inline void batch_sizes_set_threads(struct batch_sizes *s, unsigned threads)
{
	atomic_store_explicit(&s->threads, threads, memory_order_relaxed);
}

/* How many jobs the next batch takes, claimed jobs being handed out of a
 * run of count (0: not known). */
unsigned batch_size(const struct batch_sizes *s, size_t count, size_t claimed);

#endif
