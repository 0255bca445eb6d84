/* feed.h - one file in one lane of a hasher (hasher.h), or queued for
 * one, and the compressing of what the busy lanes have read, in the
 * engines that the plan for their number gives (lanes.h).  The lanes are
 * the hasher's: one thread uses them. */
#ifndef FEED_H
#define FEED_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "window/window.h"
#include "lib/lanes.h"
#include "lib/md5.h"
#include "read/storage.h"

/* Bytes read at a time for one lane: enough that a read(2) costs little
 * beside hashing what it brings, few enough that the lanes stay in L2. */
enum { LANE_BUF = 32 * 1024 };

/* How far ahead of reading a lane asks a non-rotating device for its
 * file: past the kernel's own read-ahead, which starts small. */
enum { ASK_AHEAD = 1024 * 1024 };

/* Lane buffers start 64 bytes apart modulo 4 KiB: blocks that the engine
 * loads together then fall in different cache sets (lanes.h). */
enum { LANE_STAGGER = 64 };

/* How many lanes to keep busy for engines e: as many as the engines are
 * fastest with (md5_lanes_width), but half as many while that is not
 * much faster than half: each lane is a buffer that the cache must hold
 * and a read to make, which the engines' figures do not count
 * (doc/engines.md). */
unsigned busy_lanes_for(const struct md5_engine *const *e);

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

/* Ask the device, ahead of reading, for the part of the lane's file past
 * what it has asked for that reading from offset at will want next, so
 * that many reads are in flight at once however few threads read; the
 * part asked for is bounded, and so is the page cache it takes. */
void feed_ask_ahead(struct feed *lane, uint64_t at);

/* Bytes of f's file not yet compressed, by the size it had when opened. */
uint64_t feed_bytes_left(const struct feed *f);

/* Of lane[0..n): the bytes their files have left, in all; the lane whose
 * file has the most left of those not read to their end (n when none). */
uint64_t feeds_bytes_left(const struct feed *lane, unsigned n);
unsigned feeds_longest(const struct feed *lane, unsigned n);

/* What of the lane's file has come in, hashed into *ctx: the blocks
 * compressed in the lane, whose chaining words are state, and what its
 * buffer holds. */
void lane_hashed(const struct feed *lane, const uint32_t state[4], struct md5 *ctx);

/* Put file (a queue entry, or a lane's file as lane_hashed left it, with
 * what of it is hashed) in the free lane, whose chaining words are
 * state: its buffer stays the lane's, and takes the partial block. */
void lane_resume(struct feed *lane, uint32_t state[4], const struct feed *file,
		 const struct md5 *hashed);

/* Files opened and waiting for a lane, in a ring: the first queued
 * goes first; the last can be taken too, to be given away. */
struct queue {
	struct feed *ring;	/* size of them; no buffers */
	unsigned size, first, n;
	uint64_t bytes;		/* the size of their files, in all */
};

/* Room for size files in s, which is zeroed: false when there is no
 * memory for it. */
bool queue_init(struct queue *s, unsigned size);
void queue_free(struct queue *s);
/* Add f; there must be room (n < size). */
void queue_push(struct queue *s, const struct feed *f);
/* Take the first file (in the ring until the next queue_push), or the
 * last, or see the last: n must be > 0. */
const struct feed *queue_take_first(struct queue *s);
struct feed queue_take_last(struct queue *s);
const struct feed *queue_last(const struct queue *s);
/* The i-th file queued, first to last: i < n. */
struct feed *queue_at(struct queue *s, unsigned i);
/* The size of its largest file (0 when it has none). */
uint64_t queue_longest(const struct queue *s);

/* The lane's file is read to its end, less than a block of it left in
 * buf, at its start: write its padding after it, to be compressed in the
 * lane as its blocks were, not apart. */
void lane_pad(struct feed *lane);

/* Compress the blocks that the busy lanes (a task each) among lane[0..
 * lanes) all have, busy of them: as many to an engine call as
 * engine_for[n] says for n busy (md5_engine_for); state[l] is lane l's
 * chaining words.  Idle lanes of an engine repeat the first lane's data. */
void compress_lanes(struct feed *lane, uint32_t (*state)[4], unsigned lanes, unsigned busy,
		    const struct md5_engine *const *engine_for);

#endif
