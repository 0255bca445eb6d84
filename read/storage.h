/* storage.h - what reading a file's data costs: whether it is in memory,
 * and whether the device under it pays a seek for a read that does not
 * follow on from the last.
 *
 * A device's kind is measured, not taken on its word: the reads that miss
 * the page cache and do not follow on are timed by whoever makes them,
 * and handed to the record of their device (storage_sample), kept in a
 * struct devices that the command's schedule holds for all its runs
 * (schedule.h: each list of -c starts from what those before it learnt)
 * and gives to each of their workers; the kind is judged with the
 * device's own flag (sysfs.h) as devkind.h says.  The verdict follows the
 * latest reads, so it can change during a run.  A run's step of threads
 * reads the devices' facts back (devices_facts) for decide.h.
 * Thread-safe: one lock a struct devices, under which storage_of may take
 * sysfs.c's, and no other lock of ours. */
#ifndef STORAGE_H
#define STORAGE_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "read/devkind.h"

struct devices;
struct storage;

/* Devices, none known yet; NULL when there is no memory. */
struct devices *devices_new(void);
void devices_free(struct devices *all);

/* The storage of the file system of device dev, among the run's devices
 * all: never NULL.  A record is kept for each device, up to the few a run
 * has; past them, the last record serves all the rest. */
struct storage *storage_of(struct devices *all, dev_t dev);

/* What it is judged to be now; any thread, without a lock. */
enum storage_kind storage_kind(const struct storage *s);

/* A read of it that missed the page cache, and did not follow on from
 * the last read of the file, took us microseconds: told to the devices
 * that s is of. */
void storage_sample(struct storage *s, uint32_t us);

/* The facts of the run's devices all for decide.h: of the first that is
 * judged to spin or says it rotates and is not measured yet, else of the
 * first; its latencies copied to us.  Any thread. */
struct device_facts devices_facts(struct devices *all, uint32_t us[STORAGE_SAMPLES]);

/* Read the first page of the open file fd (STORAGE_TIMED_BYTES) into
 * buf, timed for s's measure (storage_sample): a read that is to miss the
 * page cache and not follow on from the last; what follows then comes
 * from memory. */
enum { STORAGE_TIMED_BYTES = 4096 };
void storage_time_first_read(struct storage *s, int fd, void *buf);

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
