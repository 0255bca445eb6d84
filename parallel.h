/* parallel.h - many files at once: worker threads each hash several files
 * side by side, one per lane of a SIMD engine (lanes.h), while the calling
 * thread makes the jobs and reports them in input order.
 *
 * Standard input is read on the calling thread, in its turn; so are files
 * that are not regular (pipes, devices), by plain reads, unless a worker
 * opened one: then it finishes the files in its other lanes first.  The
 * calling thread hashes alone until there is work enough to repay worker
 * threads, and for good when s->threads is 1. */
#ifndef PARALLEL_H
#define PARALLEL_H

#include <stdbool.h>

#include "jobs.h"
#include "schedule.h"

/* run_jobs with up to s->threads workers choosing from s->engines; on the
 * calling thread alone while that is all it can have. */
void run_parallel(const struct schedule *s, const struct job_source *src);

#endif
