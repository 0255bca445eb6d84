/* seen.h - what a hashing thread has learnt of the storage it reads:
 * the storage of the device its last file was on, whether its latest
 * files were in the page cache, and when a read of a solid device is due
 * to be timed.  From these, with what the run is told (--disk, whether
 * there are disk readers), route.h decides how each file is read.  One
 * thread uses a struct seen. */
#ifndef SEEN_H
#define SEEN_H

#include <stdbool.h>
#include <sys/types.h>

#include "route.h"
#include "storage.h"

struct seen {
	dev_t dev;		/* the device of the last file opened ... */
	struct storage *storage;	/* ... and its storage, or NULL */
	unsigned char misses;	/* the latest files asked of the page cache:
				 * a bit each, 1 where it missed */
	unsigned unsampled;	/* files from a solid device since one was timed */
	bool cache_unknowable;	/* this system cannot tell what is in memory */
};

/* The storage of a file on device dev.  The last is remembered: files of
 * a run mostly share one, and storage_of takes a lock that every thread
 * would otherwise take for every file. */
struct storage *seen_storage(struct seen *s, dev_t dev);

/* Whether the latest files mostly missed the page cache: then each is
 * asked of before it is staged, so that what is missing can be asked of
 * the device ahead. */
bool seen_cold(const struct seen *s);

/* What the page cache answered for a file of storage st. */
void seen_cache(struct seen *s, enum cache_answer a, const struct storage *st);

/* A read of a solid device was timed: the next is due later. */
void seen_sampled(struct seen *s);

/* The way to read a regular file of storage st, the page cache having
 * answered a; disk as --disk says, readers when the run has disk
 * readers. */
enum read_way seen_way(const struct seen *s, const struct storage *st,
		       enum cache_answer a, enum disk_choice disk, bool readers);

/* Whether the page cache holds the start of the open file fd. */
enum cache_answer seen_ask_cache(int fd);

#endif
