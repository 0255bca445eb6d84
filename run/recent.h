/* recent.h - what a hashing thread has learnt of the storage it reads:
 * the storage of the device its last file was on, whether its latest
 * files were in the page cache, and when a read of a solid device is due
 * to be timed.  From these, with what the run is told (--disk, whether
 * there are disk readers), decide.h decides how each file is read.  One
 * thread uses a struct recent_reads. */
#ifndef RECENT_H
#define RECENT_H

#include <stdbool.h>
#include <sys/types.h>

#include "run/decide.h"
#include "read/storage.h"

struct recent_reads {
	struct devices *devices;	/* the run's, that storage comes from */
	dev_t dev;		/* the device of the last file opened ... */
	struct storage *storage;	/* ... and its storage, or NULL */
	unsigned char misses;	/* the latest files asked of the page cache:
				 * a bit each, 1 where it missed */
	unsigned unsampled;	/* files from a solid device since one was timed */
	unsigned unasked;	/* files asked of a solid device without the
				 * page cache asked, since it was last */
	bool cache_unknowable;	/* this system cannot tell what is in memory */
};

/* What a thread knows before its first file: nothing but the run's
 * devices. */
struct recent_reads recent_begin(struct devices *devices);

/* The storage of a file on device dev, of s's devices.  The last is
 * remembered: files of a run mostly share one, and storage_of takes a
 * lock that every thread would otherwise take for every file. */
struct storage *recent_storage(struct recent_reads *s, dev_t dev);

/* Whether the latest files mostly missed the page cache: then each is
 * asked of before it is queued, so that what is missing can be asked of
 * the device ahead. */
bool recent_cold(const struct recent_reads *s);

/* What the page cache answered for a file of storage st. */
void recent_cache(struct recent_reads *s, enum cache_answer a, const struct storage *st);

/* A file of storage st is to be read by way w, the page cache not
 * asked. */
void recent_unasked(struct recent_reads *s, enum read_way w, const struct storage *st);

/* A read of a solid device was timed: the next is due later. */
void recent_sampled(struct recent_reads *s);

/* The way to read a regular file of storage st, the page cache having
 * answered a; disk as --disk says, readers when the run has disk
 * readers. */
enum read_way recent_way(const struct recent_reads *s, const struct storage *st,
		       enum cache_answer a, enum disk_choice disk, bool readers);

/* Whether the page cache holds the start of the open file fd. */
enum cache_answer recent_ask_cache(int fd);

#endif
