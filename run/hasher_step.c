/* hasher_step.c - a step of a hasher: each filled lane fed from its file,
 * probed or routed again as the device is judged, then compressed; see
 * hasher.h. */
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "run/hasher_state.h"
#include "os/monotime.h"
#include "out/progress.h"
#include "read/storage.h"
#include "read/stream.h"

/* Start the first queued file in the free lane l. */
void hasher_start_queued(struct hasher *h, unsigned l)
{
	const struct feed *first = queue_take_first(&h->queue);
	struct md5 fresh;

	md5_init(&fresh);
	start_in_lane(h, l, first, &fresh);
}

/* n bytes came into the lane, of want asked for. */
static void took_bytes(struct hasher *h, struct feed *lane, size_t n, size_t want)
{
	lane->len += n;
	progress_read(n);
	add_work(h, n);
	/* A regular file that gave less than asked, having given all the
	 * size it had, is at its end: spare the read that returns 0.
	 * (/proc files give short reads, but claim a size of 0.) */
	lane->eof = n == 0 || (n < want && lane->size > 0 &&
			       lane->count + lane->len == (uint64_t)lane->size);
}

/* The lane's file is done, its padding compressed (err 0), or failed:
 * close it, finish. */
static void finish_lane(struct hasher *h, unsigned l, int err)
{
	struct feed *lane = &h->lane[l];

	if (err == 0)
		md5_digest_of(h->state[l], lane->task->job.digest);
	if (close(lane->fd) != 0 && err == 0)
		err = errno;
	finish_task_may_write(h, lane->task, err, 0);
	release_lane(h, l);
}

/* The lane's file leaves the lanes, to be read by way w from where the
 * lane is. */
static void leave_lanes(struct hasher *h, unsigned l, enum read_way w)
{
	struct md5 ctx;

	feed_hashed(&h->lane[l], h->state[l], &ctx);
	hasher_read_elsewhere(h, &h->lane[l], w, &ctx);
	release_lane(h, l);
}

/* A probe missed: the files queued to be probed, whose data comes from
 * the same device as far as this thread has seen, are asked of it now,
 * as they would have been had the thread known when it queued them,
 * rather than each as it reaches a lane, one read in flight at a time. */
static void ask_queued(struct hasher *h)
{
	for (unsigned i = 0; i < h->queue.n; i++) {
		struct feed *f = queue_at(&h->queue, i);

		if (!f->probe || way_for(h, f->storage, CACHE_MISS) != READ_LANES_ASKED)
			continue;
		f->probe = false;
		f->missed = true;
		f->asked = 0;
		feed_ask_ahead(f, 0);
		f->asked_ahead = true;
	}
}

/* Take what is in memory of the probed lane's file, or learn that it
 * must come from the device: false when it has left the lane. */
static bool probe_lane(struct hasher *h, unsigned l)
{
	struct feed *lane = &h->lane[l];
	enum cache_answer a;
	ssize_t n;
	int err;

	lane->probe = false;
	/* A read from memory only starts the reading of what it misses:
	 * on a cold thread, where reads are to be ordered, only ask. */
	if (recent_cold(&h->recent) && storage_kind(lane->storage) != STORAGE_SOLID) {
		a = recent_ask_cache(lane->fd);
		recent_cache(&h->recent, a, lane->storage);
		lane->missed = a != CACHE_HIT;
		return true;
	}
	n = storage_read_cached(lane->fd, lane->buf + lane->len, LANE_BUF - lane->len);
	if (n >= 0) {
		recent_cache(&h->recent, CACHE_HIT, lane->storage);
		took_bytes(h, lane, (size_t)n, LANE_BUF - lane->len);
		return true;
	}
	err = errno;
	if (err != EAGAIN && err != ENOTSUP) {
		finish_lane(h, l, err);
		return false;
	}
	recent_cache(&h->recent, err == EAGAIN ? CACHE_MISS : CACHE_UNKNOWABLE, lane->storage);
	lane->missed = true;
	ask_queued(h);
	return true;
}

/* Decide again how to read the lane's file, whose data comes from the
 * device, as the device is judged now: false when it has left the lane;
 * *timed, whether its next read is timed for the device's measure. */
static bool route_again(struct hasher *h, unsigned l, bool *timed)
{
	struct feed *lane = &h->lane[l];
	bool first = lane->count == 0 && lane->len == 0;
	enum read_way w = way_for(h, lane->storage, CACHE_MISS);

	*timed = false;
	if (!read_way_in_lanes(w)) {
		leave_lanes(h, l, w);
		return false;
	}
	if (w == READ_LANES_TIMED && first && !lane->asked_ahead)
		*timed = true;
	else if (w == READ_LANES_ASKED && !lane->asked_ahead) {
		lane->asked = (off_t)(lane->count + lane->len);
		lane->asked_ahead = true;
	}
	return true;
}

/* Read until the lane has a whole block, or finish it at its file's end
 * or on an error, or hand it on where it is read best now. */
static void feed_lane(struct hasher *h, unsigned l)
{
	struct feed *lane = &h->lane[l];
	bool timed = false;

	if (lane->len - lane->pos >= MD5_BLOCK_LENGTH)
		return;
	memmove(lane->buf, lane->buf + lane->pos, lane->len - lane->pos);
	lane->len -= lane->pos;
	lane->pos = 0;
	if (lane->probe && !probe_lane(h, l))
		return;
	if (lane->missed && lane->len < MD5_BLOCK_LENGTH && !lane->eof &&
	    !route_again(h, l, &timed))
		return;
	feed_ask_ahead(lane, lane->count);
	while (lane->len < MD5_BLOCK_LENGTH && !lane->eof) {
		size_t want = LANE_BUF - lane->len;
		uint64_t began = timed ? monotime_us() : 0;
		ssize_t n = read(lane->fd, lane->buf + lane->len, want);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			finish_lane(h, l, errno);
			return;
		}
		if (timed && n > 0) {
			storage_sample(lane->storage, (uint32_t)(monotime_us() - began));
			recent_sampled(&h->recent);
			timed = false;
		}
		took_bytes(h, lane, (size_t)n, want);
	}
	if (lane->len >= MD5_BLOCK_LENGTH)
		return;
	if (lane->padded)
		finish_lane(h, l, 0);
	else
		feed_pad(lane);
}

void hasher_step(struct hasher *h)
{
	unsigned read_now = h->read_now;

	/* A lane whose file ends is given the next queued file at once, so
	 * that the blocks compressed below have every lane filled. */
	for (unsigned l = 0; l < h->plan.lanes; l++) {
		if (h->lane[l].task)
			feed_lane(h, l);
		while (!h->lane[l].task && h->queue.n > 0) {
			hasher_start_queued(h, l);
			feed_lane(h, l);
			/* But not after a file read to its end here, where
			 * steps are short; files handed to a disk's reader go
			 * on at once, in the order they came. */
			if (h->short_steps && h->read_now != read_now)
				break;
		}
	}
	if (h->filled > 0)
		laneset_compress(h->lane, h->state, h->plan.lanes, h->filled, h->engine_for);
}

void hasher_read_elsewhere(struct hasher *h, const struct feed *f, enum read_way w,
			   const struct md5 *ctx)
{
	struct disk_file d = { .fd = f->fd, .dev = f->dev, .ino = f->ino, .size = f->size,
			       .storage = f->storage, .begun = ctx };
	struct job *j = &f->task->job;
	struct md5 fresh;
	int err;

	if (w == READ_BY_DISK && disks_submit(h->disks, f->task, &d))
		return;
	/* Read now as if on a spinning disk, with no reader to measure it
	 * ever (one thread): measured here, one file at a time.  Otherwise
	 * the readers, which come with the first helper, measure it: files
	 * in input order are read near one another, and a drive's cache
	 * would pass them for flash.  (Without disk readers, an unsure disk
	 * is never read now: decide_way.c.) */
	if (HAS_DISK_READERS && h->plan.time_unsure && !ctx && f->size > 0 &&
	    storage_kind(f->storage) == STORAGE_UNSURE)
		storage_time_first_read(f->storage, f->fd, h->buf);
	if (ctx)
		fresh = *ctx;
	else
		md5_init(&fresh);
	err = stream_hash_fd_from(f->fd, &fresh, j->digest, h->buf, READ_SIZE,
				  h->plan.read_ahead);
	h->read_now++;
	if (close(f->fd) != 0 && err == 0)
		err = errno;
	finish_task_may_write(h, f->task, err, f->task->size);
}
