/* parallel.c - many files at once, in lanes on worker threads; see
 * parallel.h. */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "diag.h"
#include "files.h"
#include "input.h"
#include "lanes.h"
#include "parallel.h"

/* Bytes read at a time for one lane: enough that a read(2) costs little
 * beside hashing what it brings, few enough that 16 lanes stay in L2. */
enum { LANE_BUF = 32 * 1024 };

/* Lane buffers start 64 bytes apart modulo 4 KiB: blocks that the engine
 * loads together then fall in different cache sets (lanes.h). */
enum { LANE_STRIDE = LANE_BUF + 64 };

/* A job in the queue, and whether a worker has hashed it. */
struct slot {
	struct job job;
	atomic_bool hashed;	/* job.err and job.digest are set */
};

/* Jobs between the reporting thread and the workers: a ring of slots,
 * reported at head, handed to workers at next, filled at tail.  The counters
 * only grow; a slot is counter % size. */
struct queue {
	pthread_mutex_t lock;
	pthread_cond_t more;	/* jobs were added, or the end came */
	pthread_cond_t hashed;	/* the job at the head was hashed */
	struct slot *ring;
	size_t size;
	size_t head, next, tail;
	bool end;		/* no job will be added */
	unsigned idle;		/* workers waiting for jobs */
	struct slot *_Atomic awaited;	/* the slot the reporter waits for */
};

/* One file in one lane of a worker. */
struct lane {
	struct slot *slot;	/* NULL when the lane is free */
	int fd;
	bool eof;
	off_t size;		/* the file's size when opened */
	uint64_t count;		/* bytes compressed so far */
	size_t pos, len;	/* bytes read, not yet compressed: buf[pos..len) */
	uint8_t *buf;		/* LANE_BUF bytes */
};

struct worker {
	struct queue *q;
	struct slot **done;	/* finished, not yet published */
	unsigned ndone;
	const struct md5_engine *const *engines;	/* to choose from, widest first */
	unsigned width;		/* lanes: the widest engine's */
	struct lane *lane;
	uint32_t (*state)[4];	/* each lane's chaining words */
	uint8_t *buf;		/* READ_SIZE bytes, for files that are not regular */
	pthread_t thread;
};

/* Standard input is read by the reporting thread, in order, and a bad list
 * line needs no hashing: workers take neither. */
static bool for_workers(const struct job *j)
{
	return !j->bad_line && strcmp(j->name, "-") != 0;
}

/* Up to max jobs for a worker, into got; wait for some only when told to.
 * Return how many; 0 when there are none now, or (waiting) none to come. */
static unsigned take_jobs(struct queue *q, struct slot **got, unsigned max, bool wait)
{
	unsigned n = 0;

	pthread_mutex_lock(&q->lock);
	for (;;) {
		for (; q->next < q->tail && n < max; q->next++) {
			struct slot *s = &q->ring[q->next % q->size];

			if (for_workers(&s->job))
				got[n++] = s;
		}
		if (n > 0 || !wait || q->end)
			break;
		q->idle++;
		pthread_cond_wait(&q->more, &q->lock);
		q->idle--;
	}
	pthread_mutex_unlock(&q->lock);
	return n;
}


/* Set the job's result; publish_jobs makes it known. */
static void finish_job(struct worker *w, struct slot *s, int err)
{
	s->job.err = err;
	w->done[w->ndone++] = s;
}

/* Make the finished jobs known to the reporter, all at once so that it
 * wakes once for them.  The lock is taken only when it waits for one of
 * them: hashed and awaited are stored and loaded in opposite orders, so one
 * of the two threads always sees the other's store. */
static void publish_jobs(struct worker *w)
{
	struct slot *awaited;

	if (w->ndone == 0)
		return;
	for (unsigned i = 0; i < w->ndone; i++)
		atomic_store(&w->done[i]->hashed, true);
	awaited = atomic_load(&w->q->awaited);
	for (unsigned i = 0; i < w->ndone; i++) {
		if (w->done[i] == awaited) {
			pthread_mutex_lock(&w->q->lock);
			pthread_cond_signal(&w->q->hashed);
			pthread_mutex_unlock(&w->q->lock);
		}
	}
	w->ndone = 0;
}

static unsigned step_lanes(struct worker *w, unsigned busy);

/* Open the job's file into lane l.  A file that is not regular (a pipe, a
 * device, a directory) is hashed at once, by plain reads: it may deliver
 * its bytes slowly or not at all, and lanes need whole blocks.  The files
 * in the other lanes are finished first: their results must not wait for
 * it, nor be lost with it when the run is killed while it waits. */
static bool start_lane(struct worker *w, unsigned l, struct slot *s)
{
	struct lane *lane = &w->lane[l];
	struct job *j = &s->job;
	int fd = open_input(j->name);
	struct stat st;
	struct md5 ctx;
	int err;

	if (fd < 0) {
		finish_job(w, s, errno);
		return false;
	}
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		unsigned busy = 0;

		for (unsigned i = 0; i < w->width; i++)
			busy += w->lane[i].slot != NULL;
		while (busy > 0)
			busy = step_lanes(w, busy);
		err = hash_fd(fd, j->digest, w->buf);
		if (close(fd) != 0 && err == 0)
			err = errno;
		finish_job(w, s, err);
		return false;
	}
	/* Read-ahead advice pays only beyond the first read. */
	if (st.st_size > LANE_BUF)
		(void)posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
	*lane = (struct lane){ .slot = s, .fd = fd, .size = st.st_size, .buf = lane->buf };
	md5_init(&ctx);
	memcpy(w->state[l], ctx.state, sizeof w->state[l]);
	return true;
}

/* Give free lanes new jobs; wait for one only when all lanes are free.
 * Return the number of busy lanes. */
static unsigned fill_lanes(struct worker *w, unsigned busy)
{
	struct slot *got[64];
	unsigned n, l = 0;

	while (busy < w->width) {
		publish_jobs(w);	/* jobs that failed to start, before waiting */
		n = take_jobs(w->q, got, w->width - busy, busy == 0);
		if (n == 0)
			break;
		for (unsigned i = 0; i < n; i++) {
			for (l = 0; w->lane[l].slot; l++)
				;
			start_lane(w, l, got[i]);
		}
		/* start_lane may have run other lanes to their end */
		busy = 0;
		for (l = 0; l < w->width; l++)
			busy += w->lane[l].slot != NULL;
	}
	return busy;
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
	while (lane->len < MD5_BLOCK_LENGTH && !lane->eof) {
		size_t want = LANE_BUF - lane->len;
		ssize_t n = read(lane->fd, lane->buf + lane->len, want);

		if (n < 0 && errno != EINTR) {
			finish_lane(w, l, errno);
			return false;
		}
		lane->len += n > 0 ? (size_t)n : 0;
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
	unsigned index[64], n = 0;
	uint32_t state[64][4];
	const uint8_t *p[64] = { NULL };
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

/* Lanes, buffers and engines for one worker; false when out of memory. */
static bool setup_worker(struct worker *w, struct queue *q,
			 const struct md5_engine *const *engines)
{
	*w = (struct worker){ .q = q, .engines = engines, .width = engines[0]->width };
	for (size_t i = 1; engines[i]; i++)
		if (engines[i]->width > w->width)
			w->width = engines[i]->width;
	w->lane = calloc(w->width, sizeof *w->lane);
	w->state = calloc(w->width, sizeof *w->state);
	w->buf = malloc(READ_SIZE + (size_t)w->width * LANE_STRIDE);
	/* Each take of jobs is at most width, and may all finish at once. */
	w->done = calloc(2 * (size_t)w->width, sizeof *w->done);
	if (!w->lane || !w->state || !w->buf || !w->done)
		return false;
	for (unsigned l = 0; l < w->width; l++)
		w->lane[l].buf = w->buf + READ_SIZE + (size_t)l * LANE_STRIDE;
	return true;
}

static void free_worker(struct worker *w)
{
	free(w->done);
	free(w->lane);
	free(w->state);
	free(w->buf);
}

/* Fill the free slots from src and hand them to the workers at once;
 * false when src has no more. */
static bool add_jobs(struct queue *q, const struct job_source *src)
{
	size_t tail = q->tail;
	bool more = true;

	/* Workers do not look at slots past the tail until it moves. */
	while (tail - q->head < q->size &&
	       (more = src->next(src->ctx, &q->ring[tail % q->size].job)))
		atomic_init(&q->ring[tail++ % q->size].hashed, false);
	pthread_mutex_lock(&q->lock);
	q->tail = tail;
	q->end = !more;
	if (q->idle)
		pthread_cond_broadcast(&q->more);
	pthread_mutex_unlock(&q->lock);
	return more;
}

/* Wait until the head slot is hashed.  Output waits in the buffer for a
 * while; after a tenth of a second it is shown, and waiting goes on. */
static void wait_for_head(struct out *out, struct queue *q, struct slot *s)
{
	struct timespec until;
	bool shown = false;

	clock_gettime(CLOCK_REALTIME, &until);
	until.tv_nsec += 100 * 1000 * 1000;
	if (until.tv_nsec >= 1000 * 1000 * 1000) {
		until.tv_sec++;
		until.tv_nsec -= 1000 * 1000 * 1000;
	}
	if (atomic_load(&s->hashed))
		return;
	pthread_mutex_lock(&q->lock);
	atomic_store(&q->awaited, s);
	while (!atomic_load(&s->hashed)) {
		if (shown) {
			pthread_cond_wait(&q->hashed, &q->lock);
		} else if (pthread_cond_timedwait(&q->hashed, &q->lock, &until) != 0) {
			pthread_mutex_unlock(&q->lock);
			out_flush(out);
			shown = true;
			pthread_mutex_lock(&q->lock);
		}
	}
	atomic_store(&q->awaited, NULL);
	pthread_mutex_unlock(&q->lock);
}

/* The reporting thread's side of a run. */
struct reporter {
	const struct schedule *s;
	struct queue *q;
	uint8_t *buf;		/* READ_SIZE bytes, for standard input */
};

/* Have the job at the head hashed: by the workers, or here. */
static void await_head(const struct reporter *r)
{
	struct queue *q = r->q;
	struct slot *s = &q->ring[q->head % q->size];
	struct job *j = &s->job;

	if (for_workers(j)) {
		wait_for_head(r->s->out, q, s);
		return;
	}
	/* Workers pass over this job.  Move them past it now, so that they
	 * never look at its slot once it is reported (its name freed) and
	 * filled again: next never falls behind head. */
	pthread_mutex_lock(&q->lock);
	if (q->next == q->head)
		q->next++;
	pthread_mutex_unlock(&q->lock);
	if (!j->bad_line) {
		out_flush(r->s->out);
		j->err = hash_file(j->name, r->s->stdin_closed, r->buf, j->digest);
	}
}

/* Keep the ring at least half full, report its head once hashed, repeat. */
static void feed_and_report(const struct reporter *r, const struct job_source *src)
{
	struct queue *q = r->q;
	bool more = true;

	for (;;) {
		if (more && q->tail - q->head <= q->size / 2)
			more = add_jobs(q, src);
		if (q->head == q->tail)
			break;
		await_head(r);
		src->report(src->ctx, &q->ring[q->head++ % q->size].job);
	}
	out_flush(r->s->out);
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

/* Start up to n workers on q; return how many started. */
static unsigned start_workers(struct worker *workers, unsigned n, struct queue *q,
			      const struct schedule *s)
{
	unsigned started = 0;

	for (; started < n; started++) {
		struct worker *w = &workers[started];

		if (!setup_worker(w, q, s->engines))
			die_no_memory(s->prog);
		if (pthread_create(&w->thread, NULL, work, w) != 0) {
			free_worker(w);
			break;
		}
	}
	return started;
}

bool run_parallel(const struct schedule *s, const struct job_source *src)
{
	struct worker *workers = calloc(s->threads, sizeof *workers);
	struct queue q = {
		.lock = PTHREAD_MUTEX_INITIALIZER,
		.more = PTHREAD_COND_INITIALIZER,
		.hashed = PTHREAD_COND_INITIALIZER,
	};
	struct reporter r = { .s = s, .q = &q, .buf = malloc(READ_SIZE) };
	unsigned started;

	q.size = 4 * (size_t)s->threads * widest(s->engines);
	if (q.size < 64)
		q.size = 64;
	q.ring = calloc(q.size, sizeof *q.ring);
	if (!workers || !q.ring || !r.buf)
		die_no_memory(s->prog);
	started = start_workers(workers, s->threads, &q, s);
	if (started > 0)
		feed_and_report(&r, src);
	for (unsigned i = 0; i < started; i++) {
		pthread_join(workers[i].thread, NULL);
		free_worker(&workers[i]);
	}
	free(workers);
	free(q.ring);
	free(r.buf);
	return started > 0;
}
