/* parallel.c - many files at once, in lanes on worker threads; see
 * parallel.h.
 *
 * The reporting thread has lanes of its own and hashes alone until the
 * run has shown enough work to repay starting threads (or for good with
 * one thread): a run over a few small files stays single-threaded, and
 * -j1 reads every input on this one thread, as GNU does. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "device.h"
#include "diag.h"
#include "disk.h"
#include "files.h"
#include "input.h"
#include "lanes.h"
#include "parallel.h"
#include "progress.h"
#include "queue.h"

/* Bytes read at a time for one lane: enough that a read(2) costs little
 * beside hashing what it brings, few enough that 16 lanes stay in L2;
 * wider engines share the 16 lanes' bytes, which keeps memory bounded. */
enum { LANE_BUF = 32 * 1024, LANE_BUFS = 16 * LANE_BUF };

/* How far ahead of reading a lane asks a non-rotating device for its
 * file: past the kernel's own read-ahead, which starts small. */
enum { ASK_AHEAD = 1024 * 1024 };

/* Files a worker has open, in lanes or staged for them, in lanes' worth:
 * the stage's files are asked of the device while the lanes hash. */
enum { STAGE_LANES = 6 };

/* Files opened ahead in stages, all workers together, at most; and at
 * most a quarter of the descriptors the process may have, so that lists
 * of many files never run out of them where GNU would not. */
enum { STAGED_MAX = 256 };

/* Work that the reporting thread does alone before it starts worker
 * threads: a few thread starts cost as much as this. */
enum { ALONE_FILES = 64, ALONE_BYTES = 1024 * 1024 };

/* Lane buffers start 64 bytes apart modulo 4 KiB: blocks that the engine
 * loads together then fall in different cache sets (lanes.h). */
enum { LANE_STAGGER = 64 };

/* One file in one lane of a worker. */
struct lane {
	struct slot *slot;	/* NULL when the lane is free */
	int fd;
	bool eof;
	off_t size;		/* the file's size when opened */
	off_t asked;		/* bytes asked of the device ahead of reading */
	uint64_t count;		/* bytes compressed so far */
	size_t pos, len;	/* bytes read, not yet compressed: buf[pos..len) */
	uint8_t *buf;		/* the worker's lane_buf bytes */
};

struct worker {
	struct queue *q;
	bool alone;		/* on the reporting thread: never waits for jobs,
				 * leaves files that are not regular to it */
	struct disks *disks;	/* readers of the spinning disks; NULL: here */
	uint64_t files, bytes;	/* started, and read, so far */
	enum disk_choice disk;	/* what kind of storage to take files for */
	struct slot **done;	/* finished, not yet published */
	unsigned ndone;
	const struct md5_engine *const *engines;	/* to choose from, widest first */
	unsigned width;		/* lanes: the widest engine's, or fewer when the
				 * descriptors are few */
	size_t lane_buf;	/* bytes of each lane's buffer */
	struct lane *lane;
	struct lane *stage;	/* opened, waiting for a lane; no buffers */
	unsigned staged;
	unsigned stage_max;	/* room in stage beyond the free lanes */
	uint32_t (*state)[4];	/* each lane's chaining words */
	uint8_t *buf;		/* READ_SIZE bytes, for files that are not regular */
	pthread_t thread;
};

/* Set the job's result; publish_jobs makes it known. */
static void finish_job(struct worker *w, struct slot *s, int err)
{
	s->job.err = err;
	w->done[w->ndone++] = s;
}

/* Make the finished jobs known to the reporter. */
static void publish_jobs(struct worker *w)
{
	queue_publish(w->q, w->done, w->ndone);
	w->ndone = 0;
}

/* What the file's storage is, as far as reading goes. */
static enum device_kind storage_of(const struct worker *w, const struct stat *st)
{
	switch (w->disk) {
	case DISK_HDD:
		return DEVICE_SPINNING;
	case DISK_SSD:
		return DEVICE_SOLID;
	default:
		return device_kind(st->st_dev);
	}
}

/* Ask the device, ahead of reading, for the part of a file past *asked
 * that reading from offset at will want next, so that many reads are in
 * flight at once however few threads read; the part asked for is bounded,
 * and so is the page cache it takes. */
static void ask_ahead(int fd, off_t *asked, uint64_t at, off_t size)
{
	if (*asked >= size || (uint64_t)*asked > at + ASK_AHEAD)
		return;
	/* Advice only: the reads that follow tell of any error. */
	(void)posix_fadvise(fd, *asked, ASK_AHEAD, POSIX_FADV_WILLNEED);
	*asked += ASK_AHEAD;
}

static unsigned step_lanes(struct worker *w, unsigned busy);

/* Hash the whole file here and now, by plain reads, and close it. */
static void hash_now(struct worker *w, struct slot *s, int fd)
{
	finish_job(w, s, hash_fd_close(fd, s->job.digest, w->buf));
}

/* The lanes in use. */
static unsigned busy_lanes(const struct worker *w)
{
	unsigned busy = 0;

	for (unsigned l = 0; l < w->width; l++)
		busy += w->lane[l].slot != NULL;
	return busy;
}

/* Start the staged files in the free lanes, first staged first. */
static void fill_from_stage(struct worker *w)
{
	struct md5 ctx;

	md5_init(&ctx);
	for (unsigned l = 0; l < w->width && w->staged > 0; l++) {
		uint8_t *buf = w->lane[l].buf;

		if (w->lane[l].slot)
			continue;
		w->lane[l] = w->stage[0];
		w->lane[l].buf = buf;
		memcpy(w->state[l], ctx.state, sizeof w->state[l]);
		memmove(w->stage, w->stage + 1, --w->staged * sizeof *w->stage);
	}
}

/* Hash every file of the lanes and of the stage to its end. */
static void finish_all(struct worker *w)
{
	unsigned busy;

	for (fill_from_stage(w); (busy = busy_lanes(w)) > 0; fill_from_stage(w))
		step_lanes(w, busy);
}

/* Open the job's file for a lane, into *f, and ask for its start; false
 * when it was dealt with otherwise.  A file that is not regular (a pipe,
 * a device, a directory) is hashed by plain reads: it may deliver its
 * bytes slowly or not at all, and lanes need whole blocks.  On a worker,
 * the files of the lanes and the stage are finished first: their results
 * must not wait for it, nor be lost with it when the run is killed while
 * it waits; on the reporting thread, it is left to be read in its turn.
 * A file on a spinning disk goes to that disk's reader, or, with none, is
 * read here and now, one file at a time. */
static bool open_job(struct worker *w, struct slot *s, struct lane *f)
{
	int fd = open_input(s->job.name);
	off_t asked = 0;
	struct stat st;

	w->files++;
	if (fd < 0) {
		finish_job(w, s, errno);
		return false;
	}
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		if (w->alone) {
			s->deferred = true;
			s->fd = fd;
			return false;
		}
		finish_all(w);
		hash_now(w, s, fd);
		return false;
	}
	switch (storage_of(w, &st)) {
	case DEVICE_SPINNING:
		if (w->disks) {
			disks_submit(w->disks, s, fd, &st);
		} else {
			w->bytes += (uint64_t)st.st_size;
			hash_now(w, s, fd);
		}
		return false;
	case DEVICE_SOLID:
		ask_ahead(fd, &asked, 0, st.st_size);
		break;
	case DEVICE_UNKNOWN:
		asked = st.st_size;	/* no device to ask */
		break;
	}
	/* Read-ahead advice pays only beyond the first read. */
	if ((size_t)st.st_size > w->lane_buf)
		(void)posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
	*f = (struct lane){ .slot = s, .fd = fd, .size = st.st_size, .asked = asked };
	return true;
}

/* Give free lanes new jobs, and keep the stage full: its files are opened
 * and asked for while the lanes hash, so that more reads are in flight
 * than there are lanes.  Wait for jobs only when there is nothing to
 * hash, and never alone.  Return the number of busy lanes. */
static unsigned fill_lanes(struct worker *w, unsigned busy)
{
	struct slot *got[STAGE_LANES * MD5_LANES_MAX];
	unsigned n, room;

	for (;;) {
		fill_from_stage(w);
		busy = busy_lanes(w);
		room = w->width - busy + w->stage_max - w->staged;
		if (room == 0)
			break;
		publish_jobs(w);	/* jobs that failed to start, before waiting */
		n = queue_take(w->q, got, room, busy == 0 && w->staged == 0 && !w->alone);
		if (n == 0)
			break;
		for (unsigned i = 0; i < n; i++)
			if (open_job(w, got[i], &w->stage[w->staged]))
				w->staged++;
		if (w->alone)
			break;	/* back to reporting, between takes */
	}
	fill_from_stage(w);
	publish_jobs(w);
	return busy_lanes(w);
}

/* The lane's file is read to its end: pad what is left, close, report. */
static void finish_lane(struct worker *w, unsigned l, int err)
{
	struct lane *lane = &w->lane[l];
	struct md5 ctx = { .count = lane->count };

	if (err == 0) {
		memcpy(ctx.state, w->state[l], sizeof ctx.state);
		md5_update(&ctx, lane->buf + lane->pos, lane->len - lane->pos);
		md5_final(&ctx, lane->slot->job.digest);
	}
	if (close(lane->fd) != 0 && err == 0)
		err = errno;
	finish_job(w, lane->slot, err);
	lane->slot = NULL;
}

/* Read until the lane has a whole block or its file ends; false when the
 * lane was finished instead. */
static bool feed_lane(struct worker *w, unsigned l)
{
	struct lane *lane = &w->lane[l];

	if (lane->len - lane->pos >= MD5_BLOCK_LENGTH)
		return true;
	memmove(lane->buf, lane->buf + lane->pos, lane->len - lane->pos);
	lane->len -= lane->pos;
	lane->pos = 0;
	ask_ahead(lane->fd, &lane->asked, lane->count, lane->size);
	while (lane->len < MD5_BLOCK_LENGTH && !lane->eof) {
		size_t want = w->lane_buf - lane->len;
		ssize_t n = read(lane->fd, lane->buf + lane->len, want);

		if (n < 0 && errno != EINTR) {
			finish_lane(w, l, errno);
			return false;
		}
		lane->len += n > 0 ? (size_t)n : 0;
		w->bytes += n > 0 ? (uint64_t)n : 0;
		progress_read(n > 0 ? (size_t)n : 0);
		/* A regular file that gave less than asked, having given all the
		 * size it had, is at its end: spare the read that returns 0.
		 * (/proc files give short reads, but claim a size of 0.) */
		lane->eof = n == 0 || ((size_t)n < want && lane->size > 0 &&
				       lane->count + lane->len == (uint64_t)lane->size);
	}
	if (lane->len < MD5_BLOCK_LENGTH) {
		finish_lane(w, l, 0);
		return false;
	}
	return true;
}

/* The narrowest engine that has room for n lanes. */
static const struct md5_engine *engine_for(const struct worker *w, unsigned n)
{
	const struct md5_engine *best = w->engines[0];

	for (size_t i = 1; w->engines[i]; i++)
		if (w->engines[i]->width >= n && w->engines[i]->width < best->width)
			best = w->engines[i];
	return best;
}

/* Compress the blocks that every busy lane has, packing busy lanes into
 * the narrowest engine that holds them. */
static void compress(struct worker *w, unsigned busy)
{
	unsigned index[MD5_LANES_MAX], n = 0;
	uint32_t state[MD5_LANES_MAX][4];
	const uint8_t *p[MD5_LANES_MAX] = { NULL };
	size_t blocks = SIZE_MAX;
	const struct md5_engine *e = engine_for(w, busy);

	for (unsigned l = 0; l < w->width; l++) {
		struct lane *lane = &w->lane[l];

		if (!lane->slot)
			continue;
		index[n] = l;
		memcpy(state[n], w->state[l], sizeof state[n]);
		p[n++] = lane->buf + lane->pos;
		if ((lane->len - lane->pos) / MD5_BLOCK_LENGTH < blocks)
			blocks = (lane->len - lane->pos) / MD5_BLOCK_LENGTH;
	}
	for (unsigned i = n; i < e->width; i++)
		p[i] = p[0];	/* idle lanes repeat lane 0's data */
	e->blocks(state, p, blocks);
	for (unsigned i = 0; i < n; i++) {
		struct lane *lane = &w->lane[index[i]];

		memcpy(w->state[index[i]], state[i], sizeof state[i]);
		lane->pos += blocks * MD5_BLOCK_LENGTH;
		lane->count += blocks * MD5_BLOCK_LENGTH;
	}
}

/* Read for the busy lanes, make known the files that ended, compress the
 * rest; return the number of lanes still busy. */
static unsigned step_lanes(struct worker *w, unsigned busy)
{
	for (unsigned l = 0; l < w->width; l++)
		if (w->lane[l].slot && !feed_lane(w, l))
			busy--;
	publish_jobs(w);
	if (busy > 0)
		compress(w, busy);
	return busy;
}

static void *work(void *arg)
{
	struct worker *w = arg;
	unsigned busy = 0;

	while ((busy = fill_lanes(w, busy)) > 0)
		busy = step_lanes(w, busy);
	publish_jobs(w);
	return NULL;
}

/* The most lanes any of the engines has. */
static unsigned widest(const struct md5_engine *const *engines)
{
	unsigned width = 0;

	for (size_t i = 0; engines[i]; i++)
		if (engines[i]->width > width)
			width = engines[i]->width;
	return width;
}

/* How many files a worker may hold open, in its lanes and its stage: its
 * share of half the descriptors the process may have, the reporting
 * thread's own lanes counting as one worker more (a quarter is the disk
 * readers', the rest for the lists and standard streams), so that lists
 * of many files never run out of them where GNU would not. */
static unsigned open_share(unsigned threads)
{
	struct rlimit files;
	rlim_t share;

	if (getrlimit(RLIMIT_NOFILE, &files) != 0 || files.rlim_cur == RLIM_INFINITY)
		return UINT_MAX;
	share = files.rlim_cur / 2 / (threads + 1);
	return share < UINT_MAX ? (unsigned)share : UINT_MAX;
}

/* How many files a worker may stage beyond its free lanes: its share of
 * STAGED_MAX and of what it may hold open, at most STAGE_LANES - 1 lanes'
 * worth. */
static unsigned stage_room(unsigned width, unsigned threads, unsigned open)
{
	unsigned room = STAGED_MAX / threads, left = open > width ? open - width : 0;

	if (room > (STAGE_LANES - 1) * width)
		room = (STAGE_LANES - 1) * width;
	return room < left ? room : left;
}

/* Lanes, buffers and engines for one worker; false when out of memory. */
static bool setup_worker(struct worker *w, struct queue *q, struct disks *disks,
			 const struct schedule *s)
{
	const struct md5_engine *const *engines = s->engines;
	unsigned open = open_share(s->threads);

	*w = (struct worker){ .q = q, .alone = disks == NULL, .disks = disks,
			      .disk = s->disk, .engines = engines,
			      .width = widest(engines) };
	if (w->width > open)
		w->width = open > 0 ? open : 1;	/* fewer lanes than the engine has */
	w->stage_max = stage_room(w->width, s->threads, open);
	w->lane_buf = LANE_BUFS / w->width < LANE_BUF ? LANE_BUFS / w->width : LANE_BUF;
	w->lane = calloc(w->width, sizeof *w->lane);
	w->stage = calloc(STAGE_LANES * (size_t)w->width, sizeof *w->stage);
	w->state = calloc(w->width, sizeof *w->state);
	w->buf = malloc(READ_SIZE + w->width * (w->lane_buf + LANE_STAGGER));
	/* A take of jobs fills the stage and may all finish at once, with
	 * the lanes' files. */
	w->done = calloc((STAGE_LANES + 1) * (size_t)w->width, sizeof *w->done);
	if (!w->lane || !w->stage || !w->state || !w->buf || !w->done)
		return false;
	for (unsigned l = 0; l < w->width; l++)
		w->lane[l].buf = w->buf + READ_SIZE + l * (w->lane_buf + LANE_STAGGER);
	return true;
}

static void free_worker(struct worker *w)
{
	free(w->done);
	free(w->lane);
	free(w->stage);
	free(w->state);
	free(w->buf);
}

/* Start up to n workers on q; return how many started. */
static unsigned start_workers(struct worker *workers, unsigned n, struct queue *q,
			      struct disks *disks, const struct schedule *s)
{
	unsigned started = 0;

	for (; started < n; started++) {
		struct worker *w = &workers[started];

		if (!setup_worker(w, q, disks, s))
			die_no_memory(s->prog);
		if (pthread_create(&w->thread, NULL, work, w) != 0) {
			free_worker(w);
			break;
		}
	}
	return started;
}

/* Slots in the queue: room for every lane to refill twice over, and a
 * window as wide as a spinning disk's reader sorts (disk.c's MAX_WAITING):
 * the wider, the fewer seeks through a list in no order of the disk's. */
enum { QUEUE_MIN = 1024 };

static size_t queue_size(const struct schedule *s)
{
	size_t size = 4 * (size_t)s->threads * widest(s->engines);

	return size > QUEUE_MIN ? size : QUEUE_MIN;
}

/* The reporting thread's side of a run. */
struct reporter {
	const struct schedule *s;
	struct queue *q;
	struct worker own;	/* its own lanes; they take no more jobs once
				 * workers run, and finish what they have */
	unsigned busy;		/* own lanes busy */
	struct worker *workers;
	unsigned started;	/* workers running */
	bool tried;		/* to start them */
	struct disks *disks;
	struct timespec shown;	/* when output was last flushed */
};

/* Time to start the workers: more than one is wanted, and they were
 * asked for or the run has already done some work alone. */
static bool worth_threads(const struct reporter *r)
{
	return !r->tried && r->s->threads > 1 &&
	       (r->s->threads_asked || r->own.files >= ALONE_FILES ||
		r->own.bytes >= ALONE_BYTES);
}

static void start_threads(struct reporter *r)
{
	r->tried = true;
	r->disks = disks_start(r->q, r->s->prog);
	r->started = start_workers(r->workers, r->s->threads, r->q, r->disks, r->s);
}

/* Show the output gathered so far, when it was last shown a while ago:
 * the lines of files done do not wait for a long file to be hashed. */
static void show_now_and_then(struct reporter *r)
{
	struct timespec now;
	long ms;

	clock_gettime(CLOCK_MONOTONIC, &now);
	ms = (long)(now.tv_sec - r->shown.tv_sec) * 1000 +
	     (now.tv_nsec - r->shown.tv_nsec) / 1000000;
	if (ms >= 100) {	/* as long as the reporter waits (queue_wait) */
		out_flush(r->s->out);
		r->shown = now;
	}
}

/* Read the head job's input here, in its turn, the output before it
 * shown: standard input, or a file that is not regular. */
static void read_in_turn(struct reporter *r, struct slot *s)
{
	struct job *j = &s->job;

	out_flush(r->s->out);
	if (s->deferred)
		j->err = hash_fd_close(s->fd, j->digest, r->own.buf);
	else
		j->err = hash_file(j->name, r->s->stdin_closed, r->own.buf, j->digest);
}

/* Have the job at the head hashed: by the own lanes, by the workers, or
 * here in its turn. */
static void await_head(struct reporter *r)
{
	struct slot *s = queue_head(r->q);
	struct job *j = &s->job;

	if (!queue_for_hashers(j)) {
		queue_pass_head(r->q);
		if (!j->bad_line)
			read_in_turn(r, s);
		return;
	}
	for (;;) {
		if (worth_threads(r))
			start_threads(r);
		if (!r->started) {
			r->busy = fill_lanes(&r->own, r->busy);
		} else {
			/* what it has opened, it still hashes */
			fill_from_stage(&r->own);
			r->busy = busy_lanes(&r->own);
		}
		if (atomic_load(&s->hashed) || s->deferred)
			break;
		if (r->busy > 0) {
			show_now_and_then(r);
			r->busy = step_lanes(&r->own, r->busy);
		} else {
			queue_wait(r->q, s, r->s->out);
		}
	}
	if (s->deferred)
		read_in_turn(r, s);
}

/* Keep the ring at least half full, report its head once hashed, repeat. */
static void feed_and_report(struct reporter *r, const struct job_source *src)
{
	struct queue *q = r->q;
	bool more = true;

	for (;;) {
		if (more && q->tail - q->head <= q->size / 2)
			more = queue_fill(q, src);
		if (q->head == q->tail)
			break;
		if (!atomic_load(&queue_head(q)->hashed))
			progress_waiting_for(queue_head(q)->job.name);
		await_head(r);
		src->report(src->ctx, &queue_head(q)->job);
		q->head++;
	}
	out_flush(r->s->out);
}

void run_parallel(const struct schedule *s, const struct job_source *src)
{
	struct queue q;
	struct reporter r = { .s = s, .q = &q,
			      .workers = calloc(s->threads, sizeof *r.workers) };

	if (!r.workers || !queue_init(&q, queue_size(s)) ||
	    !setup_worker(&r.own, &q, NULL, s))
		die_no_memory(s->prog);
	clock_gettime(CLOCK_MONOTONIC, &r.shown);
	feed_and_report(&r, src);
	for (unsigned i = 0; i < r.started; i++) {
		pthread_join(r.workers[i].thread, NULL);
		free_worker(&r.workers[i]);
	}
	if (r.disks)
		disks_stop(r.disks);
	free_worker(&r.own);
	free(r.workers);
	queue_free(&q);
}
