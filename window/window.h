/* window.h - the jobs of a parallel run, handed out a batch at a time and
 * written back in input order.
 *
 * Every thread that hashes claims its next jobs itself: a batch of
 * consecutive jobs made by names (source.h) under one lock, so that no
 * lock, wake-up or queue operation is paid per file.  Batches are smaller
 * when files are larger, and shrink toward the end of a run whose length
 * is known, so that no thread is left with a long tail.  A job handed out
 * is a task; threads finish tasks in any order and say so
 * (window_task_done_may_write).  A thread with none left to claim takes
 * the tasks of others' batches that they have not reached, one at a time.
 * The thread that finishes a batch's last task records its output (as
 * results.h words it), and if it is the oldest batch not yet written,
 * writes it and the finished ones after it (and results counts them): so
 * window_task_done_may_write may write to standard output, and no thread
 * waits for another to write.  At most a window of batches is claimed and
 * not yet written, which bounds a run's memory however long its list; a
 * thread with nothing to hash waits for the window to move (window_next,
 * when it may wait), having flushed the output.
 *
 * Out of memory, for a batch, a name's copy or a batch's output, the run
 * takes no job after the one it ran out at, and writes nothing after it:
 * the output of the jobs before it is written, in order, and
 * window_write_rest_and_free says so.  Nothing here exits. */
#ifndef WINDOW_H
#define WINDOW_H

#include <stdbool.h>
#include <stdint.h>

#include "jobs/source.h"
#include "jobs/results.h"
#include "out/out.h"
#include "window/window_batch.h"

/* The batch a thread takes its tasks from: the one it claimed last, or
 * one it shares (window_next).  Another thread may take its tasks too,
 * and once they are all handed out, the batch may be written and made
 * anew at any time: a task taken from it then is one of its new tasks. */
struct cursor {
	struct batch *batch;
};

/* The batches of a run over the jobs of names, claimed by up to threads
 * threads, worded and counted by results, written to out; NULL when
 * there is no memory for them. */
struct window *window_new(struct job_source *names, struct results *results, unsigned threads,
			    struct out *out, const char *prog);

/* From now on, up to threads threads claim: the batches are sized for
 * them.  Any thread. */
void window_set_threads(struct window *all, unsigned threads);

/* Once every task is done: write what is left and free it all; false
 * when memory ran out in the run (see below). */
bool window_write_rest_and_free(struct window *all);

/* The thread's next task, from the batch it has or a new one, or, when
 * there is none to claim, one of another thread's batch that it
 * has not reached; NULL when there is none now (the window is full and
 * it may not wait: wait false) or none left to hand out.  With wait, it
 * may block until the window moves, the output flushed first. */
struct task *window_next(struct window *all, struct cursor *c, bool wait);

/* The next task of the batch the thread has, without claiming another:
 * NULL when it has handed them all out. */
static inline struct task *window_rest(struct cursor *c)
{
	return c->batch ? batch_hand_out(c->batch) : NULL;
}

/* How many jobs are left to hand out, those of batches claimed that no
 * thread has reached among them: 0 once there are none; SIZE_MAX when
 * the names may have more and did not say how many.  Where it is not,
 * *handed is how many were handed out. */
size_t window_left(struct window *all, size_t *handed);

/* t has its result; any thread.  It may write, to standard output and
 * error, its batch and the finished ones after it (see above). */
void window_task_done_may_write(struct task *t);

/* The hashing thread has learnt t's size, which sizes the batches to come
 * until enough are finished to tell. */
void window_task_sized(struct task *t, uint64_t size);

/* Wait until every task before t is written, then write them and flush
 * the output, so that t can be read in its turn: standard input, or a
 * pipe whose writer may wait for what came before. */
void window_wait_turn_and_write(struct task *t);

/* Now and then, from threads that hash: write to standard output the
 * lines waiting in the output buffer for a while. */
void window_tick_may_write(struct window *all);

/* Write what r holds of the jobs ended (outbox_end_job), in order: its
 * lines through out, and each message as diag.h words it, once the lines
 * before it are written; then empty r.  False when r was lost, for want of
 * memory.  A run one by one writes its records through it too. */
bool window_play(struct outbox *r, struct out *out, const char *prog);

#endif
