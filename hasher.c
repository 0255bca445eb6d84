/* hasher.c - many files at once in SIMD lanes, on one thread; see
 * hasher.h. */
#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "device.h"
#include "files.h"
#include "hasher.h"
#include "input.h"
#include "lanes.h"
#include "progress.h"

/* Bytes read at a time for one lane: enough that a read(2) costs little
 * beside hashing what it brings, few enough that the lanes stay in L2. */
enum { LANE_BUF = 32 * 1024 };

/* How far ahead of reading a lane asks a non-rotating device for its
 * file: past the kernel's own read-ahead, which starts small. */
enum { ASK_AHEAD = 1024 * 1024 };

/* Bytes of files staged, beyond which no more are: one large file asked
 * ahead keeps a device as busy as many, and files staged are work that
 * other threads cannot take. */
enum { STAGE_BYTES = 4 * ASK_AHEAD };

/* Lane buffers start 64 bytes apart modulo 4 KiB: blocks that the engine
 * loads together then fall in different cache sets (lanes.h). */
enum { LANE_STAGGER = 64 };

/* One file in one lane, or staged for one. */
struct lane {
	struct task *task;	/* NULL when the lane is free */
	int fd;
	bool eof;
	off_t size;		/* the file's size when opened */
	off_t asked;		/* bytes asked of the device ahead of reading */
	uint64_t count;		/* bytes compressed so far */
	size_t pos, len;	/* bytes read, not yet compressed: buf[pos..len) */
	uint8_t *buf;		/* LANE_BUF bytes */
};

struct hasher {
	struct hasher_plan plan;
	struct disks *disks;	/* readers of spinning disks, or NULL */
	struct lane *lane;	/* plan.lanes of them */
	unsigned busy;		/* lanes in use */
	struct lane *stage;	/* a ring of files opened, waiting for a lane,
				 * plan.stage + 1 of them; no buffers */
	unsigned stage_first, staged;
	uint64_t staged_bytes;
	atomic_uint held;	/* busy + staged, for other threads to read */
	uint64_t work;		/* bytes read, and FILE_COST a file done */
	atomic_uint_fast64_t work_seen;	/* work, for other threads to read */
	/* For n busy lanes, the engine to run on the first of them, from
	 * md5_engine_for once for each n. */
	const struct md5_engine *engine_for[MD5_LANES_MAX + 1];
	dev_t dev;		/* the device of the last file opened ... */
	enum device_kind kind;	/* ... and its kind, when dev_known */
	bool dev_known;
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
	h->stage = calloc(p->stage + 1, sizeof *h->stage);
	h->state = calloc(lanes, sizeof *h->state);
	h->buf = malloc(READ_SIZE + lanes * (LANE_BUF + LANE_STAGGER));
	if (!h->lane || !h->stage || !h->state || !h->buf) {
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
	free(h->stage);
	free(h->state);
	free(h->buf);
	free(h);
}

void hasher_use_disks(struct hasher *h, struct disks *d)
{
	h->disks = d;
}

bool hasher_busy(const struct hasher *h)
{
	return h->staged > 0 || h->busy > 0;
}

bool hasher_held(const struct hasher *h)
{
	return atomic_load_explicit(&h->held, memory_order_relaxed) > 0;
}

/* The files held open changed. */
static void tell_held(struct hasher *h)
{
	atomic_store_explicit(&h->held, h->busy + h->staged, memory_order_relaxed);
}

unsigned hasher_room(const struct hasher *h)
{
	unsigned room = h->plan.lanes - h->busy;

	if (h->staged_bytes < STAGE_BYTES)
		room += h->plan.stage - h->staged;
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
	task_done(t);
	add_work(h, FILE_COST + bytes);
}

/* What the file's storage is, as far as reading goes.  The last device
 * is remembered here: files of a run mostly share one, and device_kind
 * takes a lock that every thread would otherwise take for every file. */
static enum device_kind storage_of(struct hasher *h, const struct stat *st)
{
	switch (h->plan.disk) {
	case DISK_HDD:
		return DEVICE_SPINNING;
	case DISK_SSD:
		return DEVICE_SOLID;
	default:
		if (!h->dev_known || h->dev != st->st_dev) {
			h->kind = device_kind(st->st_dev);
			h->dev = st->st_dev;
			h->dev_known = true;
		}
		return h->kind;
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

/* Start the staged files in the free lanes, first staged first. */
static void fill_from_stage(struct hasher *h)
{
	unsigned ring = h->plan.stage + 1;
	struct md5 ctx;

	md5_init(&ctx);
	for (unsigned l = 0; l < h->plan.lanes && h->staged > 0; l++) {
		struct lane *first = &h->stage[h->stage_first];
		uint8_t *buf = h->lane[l].buf;

		if (h->lane[l].task)
			continue;
		h->lane[l] = *first;
		h->lane[l].buf = buf;
		h->busy++;
		h->staged_bytes -= (uint64_t)first->size;
		memcpy(h->state[l], ctx.state, sizeof h->state[l]);
		h->stage_first = (h->stage_first + 1) % ring;
		h->staged--;
	}
}

/* Hash every file of the lanes and of the stage to its end. */
static void finish_all(struct hasher *h)
{
	while (hasher_busy(h))
		hasher_step(h);
}

/* Hash t by plain reads in its turn, the files before it done first: their
 * results must not wait for it, nor be lost with it when the run is
 * killed while it waits. */
static void hash_in_turn(struct hasher *h, struct task *t, int fd)
{
	struct job *j = &t->job;

	finish_all(h);
	batches_wait_turn(t);
	if (fd >= 0)
		finish_task(h, t, hash_fd_close(fd, j->digest, h->buf,
						h->plan.read_ahead), 0);
	else
		finish_task(h, t, hash_file(j->name, h->plan.stdin_closed, h->plan.read_ahead,
					      h->buf, j->digest), 0);
}

/* Open name, waiting for a descriptor while there is none but the run
 * will close some: -1 (errno set) when it cannot be opened. */
static int open_when_free(struct hasher *h, const char *name)
{
	static const struct timespec nap = { .tv_nsec = 1000 * 1000 };
	int fd;

	while ((fd = open_input(name)) < 0 && (errno == EMFILE || errno == ENFILE)) {
		if (hasher_busy(h))
			hasher_step(h);	/* until a file of its own ends */
		else if (h->plan.others_hold(h->plan.run))
			nanosleep(&nap, NULL);
		else
			break;
	}
	return fd;
}

/* Open t's file, and stage it for a lane and ask for its start, or deal
 * with it otherwise. */
void hasher_add(struct hasher *h, struct task *t)
{
	struct job *j = &t->job;
	off_t asked = 0;
	struct stat st;
	int fd;

	if (j->bad_line) {
		finish_task(h, t, 0, 0);
		return;
	}
	if (strcmp(j->name, "-") == 0) {
		hash_in_turn(h, t, -1);
		return;
	}
	if ((fd = open_when_free(h, j->name)) < 0) {
		finish_task(h, t, errno, 0);
		return;
	}
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		hash_in_turn(h, t, fd);
		return;
	}
	t->size = (uint64_t)st.st_size;
	switch (storage_of(h, &st)) {
	case DEVICE_SPINNING:
		if (!h->disks || !disks_submit(h->disks, t, fd, &st))
			finish_task(h, t, hash_fd_close(fd, j->digest, h->buf,
							h->plan.read_ahead), t->size);
		return;
	case DEVICE_SOLID:
		ask_ahead(fd, &asked, 0, st.st_size);
		break;
	case DEVICE_UNKNOWN:
		asked = st.st_size;	/* no device to ask */
		break;
	}
	/* Read-ahead advice pays only beyond the first read. */
	if (st.st_size > LANE_BUF)
		(void)posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
	h->stage[(h->stage_first + h->staged++) % (h->plan.stage + 1)] =
		(struct lane){ .task = t, .fd = fd, .size = st.st_size, .asked = asked };
	h->staged_bytes += (uint64_t)st.st_size;
	tell_held(h);
	fill_from_stage(h);
}

/* The lane's file is read to its end: pad what is left, close, finish. */
static void finish_lane(struct hasher *h, unsigned l, int err)
{
	struct lane *lane = &h->lane[l];
	const uint32_t *state = h->state[l];
	struct md5 ctx = { .count = lane->count };

	if (err == 0) {
		memcpy(ctx.state, state, sizeof ctx.state);
		md5_update(&ctx, lane->buf + lane->pos, lane->len - lane->pos);
		md5_final(&ctx, lane->task->job.digest);
	}
	if (close(lane->fd) != 0 && err == 0)
		err = errno;
	finish_task(h, lane->task, err, 0);
	lane->task = NULL;
	h->busy--;
	tell_held(h);
}

/* Read until the lane has a whole block, or finish it at its file's end
 * or on an error. */
static void feed_lane(struct hasher *h, unsigned l)
{
	struct lane *lane = &h->lane[l];

	if (lane->len - lane->pos >= MD5_BLOCK_LENGTH)
		return;
	memmove(lane->buf, lane->buf + lane->pos, lane->len - lane->pos);
	lane->len -= lane->pos;
	lane->pos = 0;
	ask_ahead(lane->fd, &lane->asked, lane->count, lane->size);
	while (lane->len < MD5_BLOCK_LENGTH && !lane->eof) {
		size_t want = LANE_BUF - lane->len;
		ssize_t n = read(lane->fd, lane->buf + lane->len, want);

		if (n < 0 && errno != EINTR) {
			finish_lane(h, l, errno);
			return;
		}
		lane->len += n > 0 ? (size_t)n : 0;
		progress_read(n > 0 ? (size_t)n : 0);
		add_work(h, n > 0 ? (uint64_t)n : 0);
		/* A regular file that gave less than asked, having given all the
		 * size it had, is at its end: spare the read that returns 0.
		 * (/proc files give short reads, but claim a size of 0.) */
		lane->eof = n == 0 || ((size_t)n < want && lane->size > 0 &&
				       lane->count + lane->len == (uint64_t)lane->size);
	}
	if (lane->len < MD5_BLOCK_LENGTH)
		finish_lane(h, l, 0);
}

/* Compress the blocks that the lanes index[0..n) all have, in one engine
 * call; idle lanes of the engine repeat the first lane's data. */
static void compress_group(struct hasher *h, const struct md5_engine *e,
			   const unsigned *index, unsigned n)
{
	uint32_t state[MD5_LANES_MAX][4];
	const uint8_t *p[MD5_LANES_MAX];
	size_t blocks = SIZE_MAX;

	for (unsigned i = 0; i < n; i++) {
		const struct lane *lane = &h->lane[index[i]];

		memcpy(state[i], h->state[index[i]], sizeof state[i]);
		p[i] = lane->buf + lane->pos;
		if ((lane->len - lane->pos) / MD5_BLOCK_LENGTH < blocks)
			blocks = (lane->len - lane->pos) / MD5_BLOCK_LENGTH;
	}
	for (unsigned i = n; i < e->width; i++)
		p[i] = p[0];
	e->blocks(state, p, blocks);
	for (unsigned i = 0; i < n; i++) {
		struct lane *lane = &h->lane[index[i]];

		memcpy(h->state[index[i]], state[i], sizeof state[i]);
		lane->pos += blocks * MD5_BLOCK_LENGTH;
		lane->count += blocks * MD5_BLOCK_LENGTH;
	}
}

/* Compress the busy lanes' blocks, as many lanes to an engine call as
 * the engines' plan for their number says. */
static void compress(struct hasher *h)
{
	unsigned index[MD5_LANES_MAX], n = 0, busy = h->busy;

	for (unsigned l = 0; l < h->plan.lanes; l++)
		if (h->lane[l].task)
			index[n++] = l;
	for (unsigned done = 0; done < busy;) {
		const struct md5_engine *e = h->engine_for[busy - done];
		unsigned k = e->width < busy - done ? e->width : busy - done;

		compress_group(h, e, index + done, k);
		done += k;
	}
}

void hasher_step(struct hasher *h)
{
	fill_from_stage(h);
	for (unsigned l = 0; l < h->plan.lanes; l++)
		if (h->lane[l].task)
			feed_lane(h, l);
	if (h->busy > 0)
		compress(h);
	fill_from_stage(h);
}
