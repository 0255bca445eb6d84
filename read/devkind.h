/* devkind.h - the kind of a device, judged from the latencies of its far
 * reads (those that did not follow on from the last): a median of
 * milliseconds is a seek, tens to hundreds of microseconds are flash.
 * Until a few are timed, the device's own flag is the guess: one that
 * says it does not rotate is SOLID, one that says it rotates is UNSURE
 * (virtual machines' disks all say so, whatever is behind them), and is
 * read as if it spins until its first far reads say otherwise.  Pure. */
#ifndef DEVKIND_H
#define DEVKIND_H

#include <stdbool.h>
#include <stdint.h>

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

/* The kind of device d: from its flag while too few far reads are
 * timed, else from the median of the latest. */
enum storage_kind devkind_of(const struct device_facts *d);

#endif
