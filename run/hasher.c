/* hasher.c - a worker's files, many at once in SIMD lanes: tasks taken,
 * opened and routed, queued for a lane, and handed over; see hasher.h.
 * Its steps are hasher_step.c's. */
#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "run/hasher_state.h"
#include "read/open.h"
#include "read/storage.h"
#include "read/stream.h"

struct hasher *hasher_new(const struct hasher_plan *p, struct devices *devices)
{
	struct hasher *h = calloc(1, sizeof *h);
	unsigned lanes = p->lanes;

	if (!h)
		return NULL;
	h->plan = *p;
	h->recent = recent_begin(devices);
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

void hasher_short_steps(struct hasher *h, bool on)
{
	h->short_steps = on;
}

bool hasher_has_files(const struct hasher *h)
{
	return h->queue.n > 0 || h->filled > 0;
}

bool hasher_holds_open(const struct hasher *h)
{
	return atomic_load_explicit(&h->held, memory_order_relaxed) > 0;
}

unsigned hasher_room(const struct hasher *h)
{
	unsigned room = h->plan.lanes - h->filled;

	if (h->queue.bytes < QUEUED_BYTES)
		room += h->plan.queue - h->queue.n;
	return room;
}

uint64_t hasher_work(const struct hasher *h)
{
	return atomic_load_explicit(&h->work_seen, memory_order_relaxed);
}

/* Start the queued files in the free lanes, first queued first. */
static void fill_from_stage(struct hasher *h)
{
	for (unsigned l = 0; l < h->plan.lanes && h->queue.n > 0; l++)
		if (!h->lane[l].task)
			hasher_start_queued(h, l);
}

void hasher_finish_all(struct hasher *h)
{
	while (hasher_has_files(h))
		hasher_step(h);
}

void hasher_fail(struct hasher *h, struct task *t, int err)
{
	finish_task_may_write(h, t, err, 0);
}

void hasher_read_in_turn(struct hasher *h, struct task *t, int fd)
{
	struct job *j = &t->job;

	if (fd >= 0)
		finish_task_may_write(h, t, stream_hash_fd_close(fd, j->digest, h->buf, READ_SIZE,
							       h->plan.read_ahead), 0);
	else
		finish_task_may_write(h, t, stream_hash_file(j->name, h->plan.stdin_closed,
							   h->plan.read_ahead, h->buf, READ_SIZE,
							   j->digest), 0);
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
		recent_sampled(&h->recent);	/* one measure is enough for now */
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

/* Open t's file, and queue it for a lane, or deal with it otherwise, as
 * decide.h decides. */
enum hasher_took hasher_add(struct hasher *h, struct task *t, bool again, int *in_turn_fd)
{
	struct job *j = &t->job;
	struct feed f = { .task = t };
	enum read_way w;
	struct stat st;
	bool counted;

	/* A file's own cost counts once it is taken, not once it is done:
	 * on a network file system its opening is most of it, and a thread
	 * opens the files of all its lanes before any is done.  Once. */
	if (!again)
		add_work(h, FILE_COST);
	if (j->no_file) {
		finish_task_may_write(h, t, 0, 0);
		return HASHER_TOOK;
	}
	*in_turn_fd = -1;
	if (strcmp(j->name, "-") == 0)
		return HASHER_IN_TURN;
	counted = h->plan.lister && lister_before_open(h->plan.lister, &h->lister_memo, j->name, again);
	if ((f.fd = open_input(j->name)) < 0)
		return HASHER_NOT_OPENED;
	if (fstat(f.fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		*in_turn_fd = f.fd;
		return HASHER_IN_TURN;
	}
	window_task_sized(t, (uint64_t)st.st_size);
	if (h->plan.lister)
		lister_opened(h->plan.lister, &h->lister_memo, j->name, f.fd, st.st_dev, counted);
	f.size = st.st_size;
	f.dev = st.st_dev;
	f.ino = st.st_ino;
	f.storage = recent_storage(&h->recent, st.st_dev);
	w = way_for(h, f.storage, CACHE_UNASKED);
	if (w == READ_ASK_CACHE) {
		enum cache_answer a = recent_ask_cache(f.fd);

		recent_cache(&h->recent, a, f.storage);
		w = way_for(h, f.storage, a);
	} else {
		recent_unasked(&h->recent, w, f.storage);
	}
	if (read_way_in_lanes(w))
		enqueue(h, f, w);
	else
		hasher_read_elsewhere(h, &f, w, NULL);
	return HASHER_TOOK;
}

/* ------------------------------------------------------- handing over */

uint64_t hasher_work_left(const struct hasher *h)
{
	return h->queue.bytes + (uint64_t)FILE_COST * (h->filled + h->queue.n) +
	       laneset_bytes_left(h->lane, h->plan.lanes);
}

uint64_t hasher_work_to_hand_over(const struct hasher *h)
{
	unsigned l;
	uint64_t most;

	if (h->filled + h->queue.n < 2)
		return 0;
	l = laneset_longest(h->lane, h->plan.lanes);
	most = queue_longest(&h->queue);
	if (l < h->plan.lanes && feed_bytes_left(&h->lane[l]) > most)
		most = feed_bytes_left(&h->lane[l]);
	return hasher_work_left(h) - most - FILE_COST;
}

bool hasher_hand_over(struct hasher *h, struct handover *g)
{
	unsigned l = laneset_longest(h->lane, h->plan.lanes);

	if (h->filled + h->queue.n < 2 || (l == h->plan.lanes && h->queue.n == 0))
		return false;
	if (l < h->plan.lanes && (h->queue.n == 0 || feed_bytes_left(&h->lane[l]) >
						     feed_bytes_left(queue_last(&h->queue)))) {
		feed_hashed(&h->lane[l], h->state[l], &g->hashed);
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
