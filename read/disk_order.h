/* disk_order.h - part of module disk (disk.h): the files waiting for a
 * disk's reader, and the order it reads them in; private to disk.c and
 * disk_order.c, which hold the disk's lock while they call these. */
#ifndef DISK_ORDER_H
#define DISK_ORDER_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "read/disk.h"
#include "read/diskplace.h"

enum {
	MAX_DISKS = 16,		/* more disks share the last one's reader */
	MAX_WAITING = 1024,	/* files waiting per disk, each holding a
				 * descriptor, at most */
	AHEAD_FILES = 16,	/* small files read ahead of the one being read */
	SMALL_FILE = 256 * 1024,	/* read ahead whole; larger ones stream */
	/* A read this far ahead of the end of the last one is timed as one
	 * that does not follow on: well past a drive's cache and track. */
	FAR_GAP = 4 * 1024 * 1024,
	/* A read this far behind the start of the last one is timed too: a
	 * spinning disk seeks back, over STORAGE_SEEK_US.  Only far reads:
	 * files in disk order read as fast from a drive's cache as from
	 * flash. */
	PROBE_GAP = 1024 * 1024,
	/* Files read while it is not measured with none asked for ahead (a
	 * file asked for ahead is not one to time); after them, with no
	 * verdict yet, the sweep asks ahead as on a spinning disk. */
	PROBE_FILES = 64,
	/* Files that may wait while it is not measured: few, so that flash,
	 * once measured, is read in lanes soon, but enough to span the
	 * PROBE_GAP of a far read among small files. */
	UNSURE_WAITING = 512,
};

/* A file handed in, waiting for its turn. */
struct waiting {
	struct task *task;
	int fd;
	off_t size;
	struct storage *storage;
	struct md5 *begun;	/* see disk_file; owned */
	uint64_t where;		/* its place on the disk (diskplace.h) */
	bool placed;		/* where is a physical offset, not an inode */
	bool ahead;		/* already asked for, ahead of its turn */
	uint64_t came;		/* the disk's count of files handed in, when
				 * it was */
};

struct disk {
	dev_t dev;
	struct disks *all;
	pthread_t thread;
	pthread_cond_t more;	/* a file was handed in, or the end came */
	pthread_cond_t room;	/* a file was taken */
	struct waiting file[MAX_WAITING];	/* in order of where */
	unsigned n;
	bool reading;		/* a file taken, not yet closed */
	atomic_uint_fast64_t work;	/* bytes read (a file's FILE_COST is
					 * its hasher's, who took it) */
	uint64_t at;		/* where the file read last begins ... */
	uint64_t end;		/* ... and ends */
	unsigned unsure_files;	/* files read while its kind was unsure */
	uint64_t came;		/* files handed in so far */
	struct diskplace_order order;	/* of the files handed in */
	uint8_t *buf;		/* READ_SIZE bytes */
};

/* Whether the file's first read, made next, times the disk. */
bool disk_times_disk(const struct disk *d, const struct waiting *w);

/* Whether the disk is in its first files while not measured yet, when
 * none is asked for ahead. */
bool disk_probing(const struct disk *d, const struct waiting *w);

/* The index of the next file to read; d has files waiting. */
unsigned disk_next_to_read(const struct disk *d);

/* The small files to ask for ahead of file i: their descriptors into fd
 * and sizes into size, AHEAD_FILES at most.  How many. */
unsigned disk_files_ahead(struct disk *d, unsigned i, int *fd, off_t *size);

/* Take file i out of the waiting ones, as the one read now. */
struct waiting disk_take_file(struct disk *d, unsigned i);

#endif
