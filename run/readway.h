/* readway.h - how each input is read: one decision, from what is known of
 * the input, the storage under it and the run's readers.
 *
 * Only data that must come from a device is worth ordering by its place
 * on the disk: data already in memory is hashed in the lanes of every
 * thread, whatever the device.  Whether it is in memory is asked of the
 * page cache when the first read is made (no system call of its own), or,
 * on a thread whose reads have lately missed the cache, before the file
 * is queued, so that what is missing can be asked for ahead; on such a
 * thread, flash is asked for the file at once instead, and the page cache
 * only now and then, to learn when files come from memory again.  A decision
 * that waits on a fact (READ_PROBE, READ_ASK_CACHE) is taken again once
 * the fact is known.  Data that must come from a device not measured yet
 * (STORAGE_UNSURE: it says it rotates) is read as if it spins until its
 * first reads are timed: a spinning disk pays a seek for each file that
 * lanes would ask for at once, flash only the few reads of its measure.
 * Pure: the mechanisms are hasher.c's and disk.c's. */
#ifndef READWAY_H
#define READWAY_H

#include <stdbool.h>

#include "read/storage.h"

/* Which kind of storage to read files as (--disk): as measured
 * (storage.h), or as the user says for all. */
enum disk_choice { DISK_AUTO, DISK_HDD, DISK_SSD };

/* Whether the file's data is in memory. */
enum cache_answer {
	CACHE_UNASKED,		/* not asked yet */
	CACHE_HIT,
	CACHE_MISS,		/* it must come from the device */
	CACHE_UNKNOWABLE,	/* this system cannot tell */
};

struct read_facts {
	bool is_stdin;		/* "-" */
	bool regular;		/* a regular file (after fstat) */
	enum disk_choice disk;
	enum cache_answer cache;
	enum storage_kind storage;
	bool cold;		/* this thread's reads have lately missed */
	bool ask_due;		/* the page cache is due a question again */
	bool sample_due;	/* the device's kind is due a measure */
	bool readers;		/* a disk reader can take files */
};

enum read_way {
	READ_IN_TURN,		/* plain reads, once the inputs before it are
				 * done: standard input, pipes, devices */
	READ_NOW,		/* plain reads to its end, here and now */
	READ_BY_DISK,		/* by its disk's reader, in disk order */
	READ_LANES,		/* in lanes, nothing asked of the device */
	READ_LANES_ASKED,	/* in lanes, the device asked ahead */
	READ_LANES_TIMED,	/* in lanes, the first read timed for the
				 * device's measure (storage_sample) */
	READ_PROBE,		/* in lanes, the first read from memory only;
				 * then decided again */
	READ_ASK_CACHE,		/* ask the page cache now; then decide again */
};

enum read_way read_way_for(const struct read_facts *f);

/* Whether the way reads the file in lanes. */
bool read_way_in_lanes(enum read_way w);

#endif
