/* crew.h - the workers of a run of many files at once: the calling
 * thread and the helpers it starts, and every count of them.
 *
 * Each worker runs the same loop: it claims its next tasks itself
 * (window.h) while its hasher has room, hashes them in the lanes of its
 * own hasher (hasher.h), and waits where a task asks it to: for the turn
 * of an input read plainly, for a descriptor that the run will close.
 * Whichever worker finishes the oldest batch writes it.  Helpers are
 * added as decide.h decides, by the calling thread alone, up to the
 * budget's (budget.h); with -j N, all at once.  At the end of a run, a
 * worker with nothing left to claim waits, idle, and workers that still
 * hold files hand some over, each with its hash so far, until each has
 * about as much work.  The disk readers (disk.h) start with the first
 * helper. */
#ifndef CREW_H
#define CREW_H

#include <stdbool.h>

#include "run/budget.h"
#include "jobs/source.h"
#include "jobs/results.h"
#include "out/out.h"
#include "read/storage.h"

/* How a run of a crew ended. */
enum crew_end {
	CREW_DONE,		/* every job hashed and written */
	CREW_NO_LANES,		/* no job taken: no memory for even one
				 * worker's lanes */
	CREW_NO_MEMORY,		/* memory ran out in the run: the jobs before
				 * are written, none after (window.h) */
};

/* Hash every job of n and write what r words of it, in input order, many
 * at once, as b allows, helpers added as they pay, or all at once when
 * settled (-j); how it ended.  The workers measure the storage they read
 * into devices (storage.h), and the steps of threads read it back. */
enum crew_end crew_run(const struct budget *b, bool settled, struct devices *devices,
		       struct job_source *n, struct results *r, struct out *out,
		       const char *prog);

#endif
