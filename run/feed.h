/* feed.h - one file in a lane of a hasher (laneset.h), or queued for one
 * (queue.h): where its reading has got to, what of it waits in the lane's
 * buffer, its padding at the end, and what of it is hashed, taken out of
 * a lane or put back in one with its chaining words.  A feed is its
 * hasher's: one thread uses it. */
#ifndef FEED_H
#define FEED_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "lib/md5.h"

/* A feed only points to its task (window.h) and its storage (storage.h):
 * their headers are its users' to include. */
struct task;
struct storage;

/* Bytes read at a time for one lane: enough that a read(2) costs little
 * beside hashing what it brings, few enough that the lanes stay in L2. */
enum { LANE_BUF = 32 * 1024 };

/* Lane buffers start 64 bytes apart modulo 4 KiB: blocks that the engine
 * loads together then fall in different cache sets (lanes.h). */
enum { LANE_STAGGER = 64 };

/* How far ahead of reading a lane asks a non-rotating device for its
 * file: past the kernel's own read-ahead, which starts small. */
enum { ASK_AHEAD = 1024 * 1024 };

/* One file in one lane, or queued for one. */
struct feed {
	struct task *task;	/* NULL when the lane is free */
	int fd;
	bool eof;
	bool padded;		/* read to its end, and its padding in buf */
	bool probe;		/* the first read takes only what is in memory */
	bool missed;		/* its data comes from the device, and the way
				 * to read it is decided again at each read */
	bool asked_ahead;	/* the device was asked for it when queued */
	off_t size;		/* the file's size when opened */
	dev_t dev;
	ino_t ino;
	struct storage *storage;
	off_t asked;		/* bytes asked of the device ahead of reading */
	uint64_t count;		/* bytes compressed so far */
	size_t pos, len;	/* bytes read, not yet compressed: buf[pos..len) */
	uint8_t *buf;		/* LANE_BUF bytes */
};

/* Ask the device, ahead of reading, for the part of f's file past what
 * it has asked for that reading from offset at will want next, so that
 * many reads are in flight at once however few threads read; the part
 * asked for is bounded, and so is the page cache it takes. */
void feed_ask_ahead(struct feed *f, uint64_t at);

/* Bytes of f's file not yet compressed, by the size it had when opened. */
uint64_t feed_bytes_left(const struct feed *f);

/* f's file is read to its end, less than a block of it left in buf, at
 * its start: write its padding after it, to be compressed in the lane as
 * its blocks were, not apart. */
void feed_pad(struct feed *f);

/* What of f's file has come in, hashed into *ctx: the blocks compressed
 * in its lane, whose chaining words are state, and what its buffer
 * holds. */
void feed_hashed(const struct feed *f, const uint32_t state[4], struct md5 *ctx);

/* Put file (a queue entry, or a lane's file as feed_hashed left it, with
 * what of it is hashed) in the free lane's feed f, whose chaining words
 * are state: the buffer stays f's, and takes the partial block. */
void feed_resume(struct feed *f, uint32_t state[4], const struct feed *file,
		 const struct md5 *hashed);

#endif
