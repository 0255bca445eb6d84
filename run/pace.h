/* pace.h - when a parallel run adds threads: one decision, a step at a
 * time, from how long the run has lasted, the work done, the helper
 * threads running and the jobs left.
 *
 * A run whose names say they hold enough jobs for every CPU starts its
 * helpers at once, as many as it may have.  Otherwise the calling thread
 * starts alone, and helpers are added while they pay, as measured: after
 * a warm-up, the work done is measured over a while with the threads the
 * run has, then over as long with twice as many.  A step that makes the
 * run clearly slower, measured twice, is undone (its helpers finish what they hold and
 * stop), as where other programs keep the CPUs busy; one that brings
 * little more is the last; a helper must find, at the run's pace so far,
 * a measure's worth of work left: in the jobs left, or in the files the
 * calling thread holds and could hand over, when they would last a few
 * measures (a few large files all claimed at once).
 *
 * Helpers are as many as the CPUs while the threads keep the CPUs busy.
 * Where they wait on the storage instead (over the calling thread's
 * measure alone, or one after the first with helpers, which holds their
 * start, their CPU time is less than three quarters of theirs to have,
 * and each gave up its CPU to wait at least once, and often: a network
 * file system, flash; not a machine whose CPUs are busy with other
 * work), the steps go on past the CPUs, up to most_waiting: first at once
 * to as many threads as would keep the CPUs busy at the share they used,
 * kept unless they cost as a step within the CPUs does; then twice as
 * many a step, measured over longer, enough to see files done, each kept
 * only if it brings FASTER_PERCENT more, in the measure after it or,
 * where that held the new threads' start, in the next; else it is
 * undone.  Within the CPUs, threads that mostly wait are not judged by
 * the few files a measure sees them finish.  Pure: crew.c starts and
 * stops the threads. */
#ifndef PACE_H
#define PACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "os/monotime.h"

/* Where the adding of threads is. */
struct pace {
	enum pace_state { PACE_WARMING, PACE_MEASURING, PACE_SETTLED } state;
	int64_t since;		/* when the measure began, in us */
	uint64_t work;		/* the work done by then */
	struct cpu_use cpu;	/* and the CPU used (monotime.h) */
	unsigned judged;	/* measures judged */
	bool past;		/* this one with threads past the CPUs */
	uint64_t rate;		/* work a ms with the helpers kept */
	unsigned kept;		/* helpers kept */
	unsigned asked;		/* helpers asked for by the last step */
	unsigned fill;		/* helpers that keep the CPUs busy where the
				 * threads wait, as measured at the CPUs */
	int doubted;		/* the last measure found them slower */
};

/* What the run knows now. */
struct pace_facts {
	int64_t now;		/* us since the run began */
	uint64_t work;		/* work done by all its threads (window.h) */
	unsigned running;	/* helpers started */
	unsigned most;		/* helpers it may have */
	unsigned most_waiting;	/* the same while its threads wait on the
				 * storage: more than most, else ignored */
	struct cpu_use cpu;	/* the CPU its threads used; read only
				 * where most_waiting counts */
	size_t left;		/* jobs not yet handed out; SIZE_MAX: unknown */
	size_t claimed;		/* jobs handed out */
	uint64_t held;		/* work the calling thread holds that a helper
				 * could take from it (its files but the one
				 * with the most left); 0 where none can be */
	bool unsure;		/* whether the storage wants threads past the
				 * CPUs is not known yet (judge.h): a step
				 * that would be the last is measured again */
};

/* What to do now. */
struct pace_step {
	enum pace_act {
		PACE_WAIT,	/* nothing, for now */
		PACE_START,	/* start helpers up to .helpers in all */
		PACE_KEEP,	/* let .helpers of them go on; the others stop
				 * once they have hashed what they hold */
		PACE_SETTLE,	/* nothing, ever again */
	} act;
	unsigned helpers;
};

/* The pace of a run before it starts: settled with -j (every thread
 * started at once by the caller), else warming. */
struct pace pace_begin(int settled);

/* The next step, from *p and f; *p moves on.  Cheap when there is
 * nothing to do: call it often. */
struct pace_step pace_next(struct pace *p, const struct pace_facts *f);

/* Whether pace_next, at now, could do anything but wait: the facts are
 * worth gathering. */
bool pace_due(const struct pace *p, int64_t now);

#endif
