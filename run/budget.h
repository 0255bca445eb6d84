/* budget.h - what a run of many files at once can have, decided once
 * before any thread starts: how many threads, how many lanes and queued
 * files each, and how many files may wait for the disk readers.
 *
 * Threads are as many as the CPUs this process may use (cores.h), or as
 * -j says (the CPUs' threads); while they wait on the storage rather
 * than hash (decide.h), up to WAITING_THREADS_MAX: as many again as the
 * CPUs' threads planned as they are, where there is room (on flash, whose
 * reads are asked for ahead, threads past the CPUs hash while others
 * wait), the rest each with few lanes and a short queue, so that they
 * make more reads in flight rather than hold more files.  The descriptors
 * free are shared out so that a run never runs out of them where GNU's
 * would not, and under a limit on address space the buffers take a
 * quarter of what it leaves free at most.  The threads are crew.h's. */
#ifndef BUDGET_H
#define BUDGET_H

#include "run/plan.h"
#include "os/features.h"

/* The descriptors a run of many files asks to have free (fds_free), the
 * soft limit raised for them if need be. */
enum { FDS_WANTED = 4096 };

/* Threads in all, at most, while they wait on the storage more than they
 * hash (decide.h).  None in the small build. */
enum { WAITING_THREADS_MAX = HAS_THREADS_PAST_CPUS ? 64 : 0 };

struct budget {
	unsigned threads;	/* the CPUs' threads: those that keep the
				 * CPUs hashing, the calling one included;
				 * 0 when not even one thread's lanes fit
				 * under the limit on address space: the run
				 * goes one by one, as GNU's */
	unsigned threads_max;	/* threads at most, the CPUs' or waiting on
				 * the storage; == threads: none waits */
	struct hasher_plan plan;	/* of the CPUs' threads */
	unsigned full_past;	/* threads past those with the same plan */
	struct hasher_plan waiting_plan;	/* of the threads past those */
	unsigned disk_files;	/* files the disk readers may hold; 0: no
				 * readers, files on spinning disks are read
				 * one at a time as they come */
};

/* The budget of a run in exactly threads threads (-j), or in as many as
 * pay (0), their hashers planned as base is, but for their lanes and
 * queues.  The descriptor table is grown for the files it holds. */
struct budget budget_for(const struct hasher_plan *base, unsigned threads);

/* The plan of helper i's hasher: the CPUs' threads', or, past them and
 * the full_past more, the waiting threads'. */
const struct hasher_plan *budget_helper_plan(const struct budget *b, unsigned i);

#endif
