/* judge.h - how a run reads its storage, judged from what it measured:
 * the way (one reader in disk order, or side by side in lanes) and the
 * depth (how many threads read at once).  One pure function of the facts,
 * called as they come in: by storage.c after each timed read of a device,
 * for the way its files are read; by crew.c now and then, for the way and
 * the depth of the whole run.
 *
 * The way follows the latencies of the device's reads that did not
 * follow on from the last (its far reads): a median of milliseconds is a
 * seek, tens to hundreds of microseconds are flash.  Until a few are
 * timed, the device's own flag is the guess: one that says it does not
 * rotate is SOLID, one that says it rotates is UNSURE (virtual machines'
 * disks all say so, whatever is behind them), and is read as if it spins
 * until its first far reads say otherwise: a spinning disk pays a seek
 * for each file read side by side, flash only those few first reads.
 *
 * The depth follows the pace of the run as threads are added (pace.h):
 * up to a thread per CPU while the threads hash, and past the CPUs while
 * they wait on the storage and each step pays (a network file system,
 * flash: twice the CPUs at most there, its reads asked for ahead) - but
 * never past the CPUs where the device spins or may (a read more in
 * flight there is a seek more), nor while it is not measured. */
#ifndef JUDGE_H
#define JUDGE_H

#include <stdbool.h>
#include <stdint.h>

#include "pace.h"

enum storage_kind {
	STORAGE_NONE,		/* no block device under it: tmpfs, FUSE, NFS */
	STORAGE_SOLID,		/* reads cost no seek */
	STORAGE_SPINNING,	/* reads that do not follow on pay a seek */
	STORAGE_UNSURE,		/* says it rotates; not measured yet */
};

/* A read slower than this, in microseconds, paid a seek. */
enum { STORAGE_SEEK_US = 2000 };

/* Reads timed before the way is the measure's, and how many of the
 * latest it follows. */
enum { STORAGE_SAMPLES_MIN = 3, STORAGE_SAMPLES = 8 };

/* What is known of a device: for a run, its device that spins or may,
 * else one of its others. */
struct device_facts {
	bool block;		/* a block device is under the files; else
				 * none: memory, a network file system */
	bool rotates;		/* it says it rotates */
	const uint32_t *us;	/* its far reads' latencies, in microseconds:
				 * the latest min(timed, STORAGE_SAMPLES) */
	unsigned timed;		/* far reads timed (at least
				 * STORAGE_SAMPLES: that many or more) */
};

struct judgment {
	enum storage_kind kind;	/* the way */
	struct pace_step step;	/* the depth: what to do now */
};

/* The judgment of device d, and with run, the next step of the run's
 * depth from *p (which moves on); without it (NULL), step is PACE_WAIT
 * and p is not looked at.  run->most_waiting is what the run may have
 * past the CPUs: made 0 where d spins or may, and run->unsure set while
 * d is not measured (pace.h). */
struct judgment judge(const struct device_facts *d, struct pace *p, struct pace_facts *run);

#endif
