/* disk.h - reading files that live on spinning disks.
 *
 * A spinning disk pays a seek for every read that does not follow on
 * from the last, so files on one are read one at a time, each to its
 * end, by a thread of that disk's own, in the order the disk holds them
 * (physical offset where the file system tells it, else inode number)
 * among the files handed in so far; small files ahead in that order that
 * follow on from it on the disk are read ahead into the page cache, so
 * that the disk's queue can merge them, but none past a gap where files
 * are still coming in.  Each disk is read independently of the others
 * and of the threads that hash other files.  A file handed in is hashed, closed and
 * its task done (window.h). */
#ifndef DISK_H
#define DISK_H

#include <stdbool.h>
#include <sys/types.h>

#include "window/window.h"
#include "lib/md5.h"
#include "read/storage.h"

struct disks;

/* The disks of a run, each holding at most waiting files open while they
 * wait; NULL when there is no memory for them. */
struct disks *disks_start(unsigned waiting);

/* A regular file handed in. */
struct disk_file {
	int fd;
	dev_t dev;
	ino_t ino;
	off_t size;
	struct storage *storage;	/* told of the reads timed */
	const struct md5 *begun;	/* what was hashed of it already, up to
					 * fd's offset; NULL: nothing */
};

/* Hash the file f for task t on its disk's thread, which closes f->fd;
 * false when no thread or memory can be had for it.  Waits while that
 * disk has many files waiting.  The reads that jump far across the disk
 * are timed for the storage's measure (storage.h); while the disk's kind
 * is unsure, the reader jumps far on purpose, to a file at an end of
 * those waiting, to measure it.  Thread-safe. */
bool disks_submit(struct disks *d, struct task *t, const struct disk_file *f);

/* The work the disks' readers have done: bytes, and FILE_COST a file
 * (window.h); any thread. */
uint64_t disks_work(struct disks *d);

/* Whether the disks' readers hold files; any thread. */
bool disks_held(struct disks *d);

/* Wait for every file handed in to be hashed; end the disks' threads. */
void disks_stop(struct disks *d);

#endif
