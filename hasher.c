/* hasher.c - many files at once in SIMD lanes, on one thread; see
 * hasher.h. */
#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "open.h"
#include "hasher.h"
#include "stream.h"
#include "feed.h"
#include "lanes.h"
#include "monotime.h"
#include "progress.h"
#include "readway.h"
#include "router.h"
#include "storage.h"

/* Bytes of files queued, beyond which no more are: one large file asked
 * ahead keeps a device as busy as many, and files queued are work that
 * other threads cannot take until the end of the run (gifts). */
enum { QUEUED_BYTES = 4 * ASK_AHEAD };

struct hasher {
	struct hasher_plan plan;
	struct disks *disks;	/* readers of spinning disks, or NULL */
	struct feed *lane;	/* plan.lanes of them */
	unsigned busy;		/* lanes in use */
	struct queue queue;	/* files opened, waiting for a lane: plan.queue
				 * + 1 of them at most */
	atomic_uint held;	/* busy + queued, for other threads to read */
	uint64_t work;		/* bytes read, and FILE_COST a file taken */
	atomic_uint_fast64_t work_seen;	/* work, for other threads to read */
	/* For n busy lanes, the engine to run on the first of them, from
	 * md5_engine_for once for each n. */
	const struct md5_engine *engine_for[MD5_LANES_MAX + 1];
	struct router seen;	/* of the storage it reads */
	uint32_t (*state)[4];	/* each lane's chaining words */
	uint8_t *buf;		/* READ_SIZE bytes for plain reads, then the
				 * lanes' buffers */
};

struct hasher *hasher_new(const struct hasher_plan *p)
{
	struct hasher *h = calloc(1, sizeof *h);
	unsigned lanes = p->lanes;

	if (!h)
		return NULL;
	h->plan = *p;
	h->lane = calloc(lanes, sizeof *h->lane);
	h->state = calloc(lanes, sizeof *h->state);
	h->buf = malloc(hasher_buffer_bytes(lanes));
	if (!queue_init(&h->queue, p->queue + 1) || !h->lane || !h->state || !h->buf) {
		hasher_free(h);
		return NULL;
	}
	for (unsigned l = 0; l < lanes; l++)
		h->lane[l].buf = h->buf + READ_SIZE + l * (LANE_BUF + LANE_STAGGER);
	for (unsigned n = 1; n <= lanes; n++)
		h->engine_for[n] = md5_engine_for(p->engines, n);
	return h;
}

void hasher_free(struct hasher *h)
{
	if (!h)
		return;
	free(h->lane);
	queue_free(&h->queue);
	free(h->state);
	free(h->buf);
	free(h);
}

void hasher_use_disks(struct hasher *h, struct disks *d)
{
	h->disks = d;
}

bool hasher_has_files(const struct hasher *h)
{
	return h->queue.n > 0 || h->busy > 0;
}

bool hasher_holds_open(const struct hasher *h)
{
	return atomic_load_explicit(&h->held, memory_order_relaxed) > 0;
}

/* The files held open changed. */
static void publish_held(struct hasher *h)
{
	atomic_store_explicit(&h->held, h->busy + h->queue.n, memory_order_relaxed);
}

unsigned hasher_room(const struct hasher *h)
{
	unsigned room = h->plan.lanes - h->busy;

	if (h->queue.bytes < QUEUED_BYTES)
		room += h->plan.queue - h->queue.n;
	return room;
}

uint64_t hasher_work(const struct hasher *h)
{
	return atomic_load_explicit(&h->work_seen, memory_order_relaxed);
}

/* n bytes more of work done. */
static void add_work(struct hasher *h, uint64_t n)
{
	h->work += n;
	atomic_store_explicit(&h->work_seen, h->work, memory_order_relaxed);
}

/* Set t's result and make it known; bytes of it were read by plain reads. */
static void finish_task(struct hasher *h, struct task *t, int err, uint64_t bytes)
{
	t->job.err = err;
	batches_task_done(t);
	add_work(h, bytes);
}

/* Put file, of which hashed is hashed, in the free lane l. */
static void start_in_lane(struct hasher *h, unsigned l, const struct feed *file,
			  const struct md5 *hashed)
{
	lane_resume(&h->lane[l], h->state[l], file, hashed);
	h->busy++;
}

/* Start the first queued file in the free lane l. */
static void start_queued(struct hasher *h, unsigned l)
{
	const struct feed *first = queue_take_first(&h->queue);
	struct md5 fresh;

	md5_init(&fresh);
	start_in_lane(h, l, first, &fresh);
}

/* Start the queued files in the free lanes, first queued first. */
static void fill_from_stage(struct hasher *h)
{
	for (unsigned l = 0; l < h->plan.lanes && h->queue.n > 0; l++)
		if (!h->lane[l].task)
			start_queued(h, l);
}

void hasher_finish_all(struct hasher *h)
{
	while (hasher_has_files(h))
		hasher_step(h);
}

void hasher_fail(struct hasher *h, struct task *t, int err)
{
	finish_task(h, t, err, FILE_COST);
}

void hasher_read_in_turn(struct hasher *h, struct task *t, int fd)
{
	struct job *j = &t->job;

	if (fd >= 0)
		finish_task(h, t, stream_hash_fd_close(fd, j->digest, h->buf, READ_SIZE,
							       h->plan.read_ahead), 0);
	else
		finish_task(h, t, stream_hash_file(j->name, h->plan.stdin_closed,
							   h->plan.read_ahead, h->buf, READ_SIZE,
							   j->digest), 0);
}


/* Hash the file of the lane or queue entry f, begun as ctx (NULL: not
 * begun), by way w (READ_BY_DISK or READ_NOW); f's task is done or handed
 * over. */
static void read_elsewhere(struct hasher *h, const struct feed *f, enum read_way w,
			   const struct md5 *ctx)
{
	struct disk_file d = { .fd = f->fd, .dev = f->dev, .ino = f->ino, .size = f->size,
			       .storage = f->storage, .begun = ctx };
	struct job *j = &f->task->job;
	struct md5 fresh;
	int err;

	if (w == READ_BY_DISK && disks_submit(h->disks, f->task, &d))
		return;
#ifndef MD5SUM_SMALL	/* where UNSURE is never read now (readway.c) */
	/* Read now as if on a spinning disk, with no reader to measure it
	 * ever (one thread): measured here, one file at a time.  Otherwise
	 * the readers, which come with the first helper, measure it: files
	 * in input order are read near one another, and a drive's cache
	 * would pass them for flash. */
	if (h->plan.time_unsure && !ctx && f->size > 0 &&
	    storage_kind(f->storage) == STORAGE_UNSURE)
		storage_time_first_read(f->storage, f->fd, h->buf);
#endif
	if (ctx)
		fresh = *ctx;
	else
		md5_init(&fresh);
	err = stream_hash_fd_from(f->fd, &fresh, j->digest, h->buf, READ_SIZE,
				  h->plan.read_ahead);
	if (close(f->fd) != 0 && err == 0)
		err = errno;
	finish_task(h, f->task, err, f->task->size);
}

/* Queue f for a lane, to be read by way w. */
static void enqueue(struct hasher *h, struct feed f, enum read_way w)
{
	f.asked = f.size;	/* nothing to ask, unless ... */
	switch (w) {
	case READ_LANES_ASKED:
		f.asked = 0;
		feed_ask_ahead(&f, 0);
		f.asked_ahead = true;
		f.missed = h->plan.disk == DISK_AUTO;
		break;
	case READ_LANES_TIMED:
		f.missed = true;
		router_sampled(&h->seen);	/* one measure is enough for now */
		break;
	case READ_PROBE:
		f.probe = true;
		break;
	default:
		break;
	}
	/* Read-ahead advice pays only beyond the first read. */
	if (f.size > LANE_BUF)
		(void)posix_fadvise(f.fd, 0, 0, POSIX_FADV_SEQUENTIAL);
	queue_push(&h->queue, &f);
	publish_held(h);
	fill_from_stage(h);
}

/* The way to read a regular file of storage st, the page cache having
 * answered a. */
static enum read_way way_for(const struct hasher *h, const struct storage *st,
			     enum cache_answer a)
{
	return router_way(&h->seen, st, a, h->plan.disk, h->disks != NULL);
}

/* Open t's file, and queue it for a lane, or deal with it otherwise, as
 * readway.h decides. */
enum hasher_took hasher_add(struct hasher *h, struct task *t, int *in_turn_fd)
{
	struct job *j = &t->job;
	struct feed f = { .task = t };
	enum read_way w;
	struct stat st;

	/* A file's own cost counts once it is taken, not once it is done:
	 * on a network file system its opening is most of it, and a thread
	 * opens the files of all its lanes before any is done. */
	add_work(h, FILE_COST);
	if (j->bad_line) {
		finish_task(h, t, 0, 0);
		return HASHER_TOOK;
	}
	*in_turn_fd = -1;
	if (strcmp(j->name, "-") == 0)
		return HASHER_IN_TURN;
	if ((f.fd = open_input(j->name)) < 0) {
		h->work -= FILE_COST;	/* counted when it comes again, or fails */
		return HASHER_NOT_OPENED;
	}
	if (fstat(f.fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		*in_turn_fd = f.fd;
		return HASHER_IN_TURN;
	}
	batches_task_sized(t, (uint64_t)st.st_size);
	f.size = st.st_size;
	f.dev = st.st_dev;
	f.ino = st.st_ino;
	f.storage = router_storage(&h->seen, st.st_dev);
	w = way_for(h, f.storage, CACHE_UNASKED);
	if (w == READ_ASK_CACHE) {
		enum cache_answer a = router_ask_cache(f.fd);

		router_cache(&h->seen, a, f.storage);
		w = way_for(h, f.storage, a);
	}
	if (read_way_in_lanes(w))
		enqueue(h, f, w);
	else
		read_elsewhere(h, &f, w, NULL);
	return HASHER_TOOK;
}

/* The lane is free again. */
static void release_lane(struct hasher *h, unsigned l)
{
	h->lane[l].task = NULL;
	h->busy--;
	publish_held(h);
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
	finish_task(h, lane->task, err, 0);
	release_lane(h, l);
}

/* The lane's file leaves the lanes, to be read by way w from where the
 * lane is. */
static void leave_lanes(struct hasher *h, unsigned l, enum read_way w)
{
	struct md5 ctx;

	lane_hashed(&h->lane[l], h->state[l], &ctx);
	read_elsewhere(h, &h->lane[l], w, &ctx);
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
	if (router_cold(&h->seen) && storage_kind(lane->storage) != STORAGE_SOLID) {
		a = router_ask_cache(lane->fd);
		router_cache(&h->seen, a, lane->storage);
		lane->missed = a != CACHE_HIT;
		return true;
	}
	n = storage_read_cached(lane->fd, lane->buf + lane->len, LANE_BUF - lane->len);
	if (n >= 0) {
		router_cache(&h->seen, CACHE_HIT, lane->storage);
		took_bytes(h, lane, (size_t)n, LANE_BUF - lane->len);
		return true;
	}
	err = errno;
	if (err != EAGAIN && err != ENOTSUP) {
		finish_lane(h, l, err);
		return false;
	}
	router_cache(&h->seen, err == EAGAIN ? CACHE_MISS : CACHE_UNKNOWABLE, lane->storage);
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
			router_sampled(&h->seen);
			timed = false;
		}
		took_bytes(h, lane, (size_t)n, want);
	}
	if (lane->len >= MD5_BLOCK_LENGTH)
		return;
	if (lane->padded)
		finish_lane(h, l, 0);
	else
		lane_pad(lane);
}

void hasher_step(struct hasher *h)
{
	/* A lane whose file ends is given the next queued file at once, so
	 * that the blocks compressed below have every lane busy. */
	for (unsigned l = 0; l < h->plan.lanes; l++) {
		if (h->lane[l].task)
			feed_lane(h, l);
		while (!h->lane[l].task && h->queue.n > 0) {
			start_queued(h, l);
			feed_lane(h, l);
		}
	}
	if (h->busy > 0)
		compress_lanes(h->lane, h->state, h->plan.lanes, h->busy, h->engine_for);
}

/* ------------------------------------------------------------ gifts */

uint64_t hasher_work_left(const struct hasher *h)
{
	return h->queue.bytes + (uint64_t)FILE_COST * (h->busy + h->queue.n) +
	       feeds_bytes_left(h->lane, h->plan.lanes);
}

uint64_t hasher_work_to_hand_over(const struct hasher *h)
{
	unsigned l;
	uint64_t most;

	if (h->busy + h->queue.n < 2)
		return 0;
	l = feeds_longest(h->lane, h->plan.lanes);
	most = queue_longest(&h->queue);
	if (l < h->plan.lanes && feed_bytes_left(&h->lane[l]) > most)
		most = feed_bytes_left(&h->lane[l]);
	return hasher_work_left(h) - most - FILE_COST;
}

bool hasher_hand_over(struct hasher *h, struct handover *g)
{
	unsigned l = feeds_longest(h->lane, h->plan.lanes);

	if (h->busy + h->queue.n < 2 || (l == h->plan.lanes && h->queue.n == 0))
		return false;
	if (l < h->plan.lanes && (h->queue.n == 0 || feed_bytes_left(&h->lane[l]) >
						     feed_bytes_left(queue_last(&h->queue)))) {
		lane_hashed(&h->lane[l], h->state[l], &g->hashed);
		g->file = h->lane[l];
		release_lane(h, l);
	} else {
		g->file = queue_take_last(&h->queue);
		md5_init(&g->hashed);
		publish_held(h);
	}
	return true;
}

void hasher_take_over(struct hasher *h, const struct handover *g)
{
	unsigned l = 0;

	while (h->lane[l].task)
		l++;
	start_in_lane(h, l, &g->file, &g->hashed);
	publish_held(h);
}
