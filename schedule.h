/* schedule.h - hashing the jobs of a source and reporting them in order.
 *
 * One by one on the calling thread, or on worker threads that each hash
 * several files side by side in the lanes of a SIMD engine (parallel.h).
 * Either way every job is reported through its source, in input order,
 * and the output is flushed after each report that may be followed by a
 * wait. */
#ifndef SCHEDULE_H
#define SCHEDULE_H

#include <stdbool.h>

#include "jobs.h"
#include "lanes.h"
#include "out.h"

/* Which kind of storage to read files as (--disk): as each file's
 * device says (device.h), or as the user says for all. */
enum disk_choice { DISK_AUTO, DISK_HDD, DISK_SSD };

/* How to hash, decided once for the run. */
struct schedule {
	/* Lane engines to choose from, NULL-terminated: the narrowest that
	 * holds the files at hand is used.  NULL: one by one. */
	const struct md5_engine *const *engines;
	unsigned threads;	/* worker threads, when engines are given */
	bool threads_asked;	/* -j N: start them at once, not once the
				 * run shows work enough for them */
	enum disk_choice disk;
	bool stdin_closed;	/* "-" fails with EBADF (see main) */
	struct out *out;	/* flushed before a wait for a result */
	const char *prog;	/* for "memory exhausted" */
};

/* Take every job from src, hash it and report it, in input order. */
void run_jobs(const struct schedule *s, const struct job_source *src);

#endif
