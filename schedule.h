/* schedule.h - hashing the jobs of a source and writing their output in
 * input order.
 *
 * One by one on the calling thread, or many at once, in the lanes of a
 * SIMD engine on one thread or several (parallel.h), when the schedule
 * gives engines and memory for them can be had.  Either way each job's
 * output is recorded by the source's format and written in input order,
 * and the output is flushed before any wait for an input that may be
 * slow to come. */
#ifndef SCHEDULE_H
#define SCHEDULE_H

#include "jobs.h"

/* Grow the kernel's table of descriptors for runs of s (fds.h), while
 * the program has one thread: before it starts a thread of its own
 * (progress.h). */
void run_prepare(const struct schedule *s);

/* Take every job from src, hash it, and write its output. */
void run_jobs(const struct schedule *s, const struct job_source *src);

#endif
