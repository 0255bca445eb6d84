/* lane.h - one file in one lane of a hasher (hasher.h), or staged for
 * one, and the compressing of what the busy lanes have read, in the
 * engines that the plan for their number gives (lanes.h).  The lanes are
 * the hasher's: one thread uses them. */
#ifndef LANE_H
#define LANE_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "batches.h"
#include "lanes.h"
#include "storage.h"

/* Bytes read at a time for one lane: enough that a read(2) costs little
 * beside hashing what it brings, few enough that the lanes stay in L2. */
enum { LANE_BUF = 32 * 1024 };

/* Lane buffers start 64 bytes apart modulo 4 KiB: blocks that the engine
 * loads together then fall in different cache sets (lanes.h). */
enum { LANE_STAGGER = 64 };

/* How many lanes to keep busy for engines e: as many as the engines are
 * fastest with (md5_lanes_width), but half as many while that is not
 * much faster than half: each lane is a buffer that the cache must hold
 * and a read to make, which the engines' figures do not count
 * (doc/engines.md). */
unsigned lanes_to_keep_busy(const struct md5_engine *const *e);

/* One file in one lane, or staged for one. */
struct lane {
	struct task *task;	/* NULL when the lane is free */
	int fd;
	bool eof;
	bool padded;		/* read to its end, and its padding in buf */
	bool probe;		/* the first read takes only what is in memory */
	bool missed;		/* its data comes from the device, and the way
				 * to read it is decided again at each read */
	bool asked_ahead;	/* the device was asked for it when staged */
	off_t size;		/* the file's size when opened */
	dev_t dev;
	ino_t ino;
	struct storage *storage;
	off_t asked;		/* bytes asked of the device ahead of reading */
	uint64_t count;		/* bytes compressed so far */
	size_t pos, len;	/* bytes read, not yet compressed: buf[pos..len) */
	uint8_t *buf;		/* LANE_BUF bytes */
};

/* The lane's file is read to its end, less than a block of it left in
 * buf, at its start: write its padding after it, to be compressed in the
 * lane as its blocks were, not apart. */
void lane_pad(struct lane *lane);

/* Compress the blocks that the busy lanes (a task each) among lane[0..
 * lanes) all have, busy of them: as many to an engine call as
 * engine_for[n] says for n busy (md5_engine_for); state[l] is lane l's
 * chaining words.  Idle lanes of an engine repeat the first lane's data. */
void lanes_compress(struct lane *lane, uint32_t (*state)[4], unsigned lanes, unsigned busy,
		    const struct md5_engine *const *engine_for);

#endif
