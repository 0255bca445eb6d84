/* storage.h - what reading a file's data costs: whether it is in memory,
 * and whether the device under it pays a seek for a read that does not
 * follow on from the last.
 *
 * A device's kind is measured, not taken on its word: the reads that miss
 * the page cache are timed by whoever makes them (storage_sample), and a
 * seek-bound device shows milliseconds a read where flash shows tens to
 * hundreds of microseconds.  Until a few reads are timed, the device's
 * own flag (sysfs.h) is the guess: a device that says it does not rotate
 * is SOLID, one that says it rotates is UNSURE (virtual machines' disks
 * all say so, whatever is behind them).  The verdict follows the latest
 * reads, so it can change during a run.  Thread-safe. */
#ifndef STORAGE_H
#define STORAGE_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

enum storage_kind {
	STORAGE_NONE,		/* no block device under it: tmpfs, FUSE, NFS */
	STORAGE_SOLID,		/* reads cost no seek */
	STORAGE_SPINNING,	/* reads that do not follow on pay a seek */
	STORAGE_UNSURE,		/* says it rotates; not measured yet */
};

/* A read slower than this, in microseconds, paid a seek. */
enum { STORAGE_SEEK_US = 2000 };

/* Reads timed before the verdict is the measure's, and how many of the
 * latest the verdict follows. */
enum { STORAGE_SAMPLES_MIN = 3, STORAGE_SAMPLES = 8 };

struct storage;

/* The storage of the file system of device dev: never NULL.  A record is
 * kept for each device, up to the few a run has; past them, the last
 * record serves all the rest. */
struct storage *storage_of(dev_t dev);

/* What it is judged to be now; any thread, without a lock. */
enum storage_kind storage_kind(const struct storage *s);

/* A read of it that missed the page cache, and did not follow on from
 * the last read of the file, took us microseconds. */
void storage_sample(struct storage *s, uint32_t us);

/* Whether a device of the run's files is judged to spin, or says it
 * rotates and is not measured yet; any thread. */
bool storage_seen_rotating(void);

/* Read the first page of the open file fd (STORAGE_TIMED_BYTES) into
 * buf, timed for s's measure (storage_sample): a read that is to miss the
 * page cache and not follow on from the last; what follows then comes
 * from memory. */
enum { STORAGE_TIMED_BYTES = 4096 };
void storage_time_first_read(struct storage *s, int fd, void *buf);

/* The verdict: from the device's flag (rotates) alone while fewer than
 * STORAGE_SAMPLES_MIN reads are timed, else from the median of the latest
 * of the n reads timed, us[0..min(n, STORAGE_SAMPLES)).  Pure. */
enum storage_kind storage_judge(bool rotates, const uint32_t *us, unsigned n);

/* Read up to n bytes at fd's offset into buf, but only from the page
 * cache: the count (0 at the end), or -1 with errno EAGAIN when the data
 * is not in memory, or ENOTSUP when this system cannot tell.  Linux then
 * starts reading it in (read-ahead), where the device is free to order
 * it: fine on flash, a seek on a spinning disk. */
ssize_t storage_read_cached(int fd, void *buf, size_t n);

/* Whether the start of the open file is in memory: 1, 0, or -1 when this
 * system cannot tell.  Starts no read, and moves no offset. */
int storage_has_start(int fd);

#endif
