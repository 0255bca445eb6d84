/* disk.h - reading files that live on spinning disks.
 *
 * A spinning disk pays a seek for every read that does not follow on
 * from the last, so files on one are read one at a time, each to its
 * end, by a thread of that disk's own, in the order the disk holds them
 * (physical offset where the file system tells it, else inode number)
 * among the files handed in so far; small files ahead in that order are
 * read ahead into the page cache, so that the disk's queue can merge
 * them.  Each disk is read independently of the others and of the
 * threads that hash other files.  A file handed in is hashed, closed and
 * its task done (batches.h). */
#ifndef DISK_H
#define DISK_H

#include <stdbool.h>
#include <sys/stat.h>

#include "batches.h"

struct disks;

/* The disks of a run, each holding at most waiting files open while they
 * wait; NULL when there is no memory for them. */
struct disks *disks_start(unsigned waiting);

/* Hash the regular file open at fd, of status st, for task t, on its
 * disk's thread, which closes fd; false when no thread can be had for
 * that disk.  Waits while that disk has many files waiting.
 * Thread-safe. */
bool disks_submit(struct disks *d, struct task *t, int fd, const struct stat *st);

/* The work the disks' readers have done: bytes, and FILE_COST a file
 * (batches.h); any thread. */
uint64_t disks_work(struct disks *d);

/* Whether the disks' readers hold files; any thread. */
bool disks_held(struct disks *d);

/* Wait for every file handed in to be hashed; end the disks' threads. */
void disks_stop(struct disks *d);

#endif
