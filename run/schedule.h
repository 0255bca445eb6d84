/* schedule.h - how a run is hashed, decided once: one by one, or many at
 * once; and the hashing of the jobs that names make (source.h), what
 * results word of each (results.h) written in input order.
 *
 * One by one on the calling thread, as GNU does: a single input, and any
 * run with no memory for lanes.  Else many at once by a crew of workers
 * (crew.h), in the lanes of a SIMD engine, within what budget.h says the
 * run may have: as many workers as pay (decide.h), or exactly N with -j N;
 * with one, every input is read on the calling thread.  Either way the
 * output is flushed before any wait for an input that may be slow to
 * come. */
#ifndef SCHEDULE_H
#define SCHEDULE_H

#include <stdbool.h>

#include "jobs/source.h"
#include "lib/lanes.h"
#include "out/out.h"
#include "run/decide.h"
#include "run/lister.h"
#include "jobs/results.h"

/* How to hash, decided once for the run. */
struct schedule {
	/* Lane engines to choose from, NULL-terminated (lanes.h).  NULL:
	 * one by one. */
	const struct md5_engine *const *engines;
	unsigned threads;	/* -j N: hash in exactly N threads, started at
				 * once; 0: in as many as pay (decide.h) */
	bool read_ahead;	/* inputs read plainly may be read on a second
				 * thread (stream.h): not with -j 1 */
	enum disk_choice disk;
	bool stdin_closed;	/* "-" fails with EBADF (see main) */
	struct out *out;	/* where lines go, in input order */
	const char *prog;	/* for messages */
	struct devices *devices;	/* what the runs have measured of the
					 * storage, so that each list of -c
					 * starts from what those before it
					 * learnt; NULL: each run its own */
	struct lister *lister;	/* the directories of the names opened,
				 * read ahead on network storage (lister.h);
				 * NULL: none */
};

/* What the command asks for. */
struct schedule_asked {
	unsigned threads;	/* -j: 0 for as many as pay */
	enum disk_choice disk;	/* --disk */
	bool many;		/* more than one input, or checksum lists */
	bool stdin_closed;
	const char *engine;	/* MD5SUM_ENGINE, if any: the one lane
				 * engine to use (for tests and benchmarks) */
};

/* Set *s to the schedule of a run: one by one for a single input, else in
 * lanes, with every engine this CPU runs, or only the one a->engine names.
 * False, said on standard error, when that one is not on this machine;
 * else schedule_end frees what it holds, once its runs are over. */
bool schedule_for(struct schedule *s, const struct schedule_asked *a, struct out *out,
		  const char *prog);

/* Free what s holds, once its runs are over. */
void schedule_end(struct schedule *s);

/* Grow the kernel's table of descriptors for runs of s (fds.h), while
 * the program has one thread: before it starts a thread of its own
 * (progress.h). */
void schedule_grow_fd_table(const struct schedule *s);

/* Take every job from n, hash it, and write what r words of it, in
 * input order; r counts each.  A list's line that does not fit beside the
 * run's memory is tried again one job at a time, after it; one that does
 * not fit then ends the jobs (source_short_of_memory tells).  False when
 * memory ran out otherwise: the output of the jobs before that point is
 * written, in order, and no job after it is taken (GNU's md5sum then says
 * "memory exhausted"; the caller says it). */
bool schedule_run(const struct schedule *s, struct job_source *n, struct results *r);

/* How a command's files came out: all as they should, some not, or
 * memory ran out (schedule_run). */
enum outcome { OUTCOME_OK, OUTCOME_FAILED, OUTCOME_NO_MEMORY };

#endif
