/* parallel.h - many files at once: every thread, the calling one
 * included, claims batches of jobs itself (batches.h) and hashes their
 * files side by side in the lanes of its own hasher (hasher.h); whichever
 * thread finishes the oldest batch writes it.
 *
 * The calling thread starts alone.  Helper threads join it once the run
 * has lasted long enough to repay starting them and work is left: as
 * many as the CPUs this process may use (cpus.h), fewer when what is left
 * would not keep them busy; with s->threads set, exactly that many
 * threads from the start, and with one, every input is read on the
 * calling thread, as GNU does. */
#ifndef PARALLEL_H
#define PARALLEL_H

#include <stdbool.h>

#include "schedule.h"

/* The descriptors a run asks to have free (fds_free), the soft limit
 * raised for them if need be. */
enum { PARALLEL_FDS_WANTED = 4096 };

/* Hash every job of src and write its output, in input order, as
 * schedule_run does (schedule.h); false, having taken no job, when there is
 * no memory for even one thread's lanes. */
bool parallel_run(const struct schedule *s, const struct job_source *src);

#endif
