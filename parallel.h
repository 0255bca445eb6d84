/* parallel.h - many files at once: worker threads each hash several files
 * side by side, one per lane of a SIMD engine (lanes.h), while the calling
 * thread makes the jobs and reports them in input order.
 *
 * Standard input is read on the calling thread, in its turn; files that
 * are not regular (pipes, devices) are read by plain reads on a worker,
 * after the files in its other lanes are done. */
#ifndef PARALLEL_H
#define PARALLEL_H

#include <stdbool.h>

#include "jobs.h"
#include "schedule.h"

/* run_jobs with s->threads workers choosing from s->engines.  False, with
 * no job taken from src, when no worker thread could be started. */
bool run_parallel(const struct schedule *s, const struct job_source *src);

#endif
