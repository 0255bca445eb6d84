/* feed.c - a lane's padding, and the compressing of the busy lanes; see
 * feed.h. */
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "run/feed.h"
#include "lib/md5.h"

void feed_ask_ahead(struct feed *lane, uint64_t at)
{
	if (lane->asked >= lane->size || (uint64_t)lane->asked > at + ASK_AHEAD)
		return;
	/* Advice only: the reads that follow tell of any error. */
	(void)posix_fadvise(lane->fd, lane->asked, ASK_AHEAD, POSIX_FADV_WILLNEED);
	lane->asked += ASK_AHEAD;
}

uint64_t feed_bytes_left(const struct feed *f)
{
	return (uint64_t)f->size > f->count ? (uint64_t)f->size - f->count : 0;
}

uint64_t feeds_bytes_left(const struct feed *lane, unsigned n)
{
	uint64_t left = 0;

	for (unsigned l = 0; l < n; l++)
		if (lane[l].task)
			left += feed_bytes_left(&lane[l]);
	return left;
}

unsigned feeds_longest(const struct feed *lane, unsigned n)
{
	unsigned best = n;

	for (unsigned l = 0; l < n; l++)
		if (lane[l].task && !lane[l].eof && !lane[l].padded &&
		    (best == n || feed_bytes_left(&lane[l]) > feed_bytes_left(&lane[best])))
			best = l;
	return best;
}

void lane_hashed(const struct feed *lane, const uint32_t state[4], struct md5 *ctx)
{
	*ctx = (struct md5){ .count = lane->count };
	memcpy(ctx->state, state, sizeof ctx->state);
	md5_update(ctx, lane->buf + lane->pos, lane->len - lane->pos);
}

void lane_resume(struct feed *lane, uint32_t state[4], const struct feed *file,
		 const struct md5 *hashed)
{
	uint8_t *buf = lane->buf;
	unsigned partial = (unsigned)(hashed->count % MD5_BLOCK_LENGTH);

	*lane = *file;
	lane->buf = buf;
	/* The lanes compress whole blocks: a partial one goes back to the
	 * buffer, to be read after. */
	memcpy(buf, hashed->buf, partial);
	lane->pos = 0;
	lane->len = partial;
	lane->count = hashed->count - partial;
	memcpy(state, hashed->state, sizeof hashed->state);
}

bool queue_init(struct queue *s, unsigned size)
{
	s->ring = calloc(size, sizeof *s->ring);
	s->size = size;
	return s->ring != NULL;
}

void queue_free(struct queue *s)
{
	free(s->ring);
}

void queue_push(struct queue *s, const struct feed *f)
{
	s->ring[(s->first + s->n++) % s->size] = *f;
	s->bytes += (uint64_t)f->size;
}

const struct feed *queue_take_first(struct queue *s)
{
	const struct feed *f = &s->ring[s->first];

	s->first = (s->first + 1) % s->size;
	s->n--;
	s->bytes -= (uint64_t)f->size;
	return f;
}

uint64_t queue_longest(const struct queue *s)
{
	uint64_t most = 0;

	for (unsigned i = 0; i < s->n; i++) {
		uint64_t size = (uint64_t)s->ring[(s->first + i) % s->size].size;

		if (size > most)
			most = size;
	}
	return most;
}

const struct feed *queue_last(const struct queue *s)
{
	return &s->ring[(s->first + s->n - 1) % s->size];
}

struct feed *queue_at(struct queue *s, unsigned i)
{
	return &s->ring[(s->first + i) % s->size];
}

struct feed queue_take_last(struct queue *s)
{
	struct feed f = *queue_last(s);

	s->n--;
	s->bytes -= (uint64_t)f.size;
	return f;
}

void lane_pad(struct feed *lane)
{
	lane->len = md5_pad_tail(lane->buf, lane->len, lane->count + lane->len);
	lane->padded = true;
}

/* Compress the blocks that the lanes index[0..n) all have, in one engine
 * call; idle lanes of the engine repeat the first lane's data.  Lanes side
 * by side that fill the engine are compressed where their chaining words
 * are, the others through a copy in the engine's order. */
static void compress_group(struct feed *lane_of, uint32_t (*state_of)[4],
			   const struct md5_engine *e, const unsigned *index, unsigned n)
{
	uint32_t copy[MD5_LANES_MAX][4], (*state)[4] = copy;
	const uint8_t *p[MD5_LANES_MAX];
	size_t blocks = SIZE_MAX;
#ifdef MD5_LANES_SMALL	/* one path: smaller */
	bool in_place = false;
#else
	bool in_place = n == e->width && index[n - 1] - index[0] == n - 1;
#endif

	if (in_place)
		state = state_of + index[0];
	for (unsigned i = 0; i < n; i++) {
		const struct feed *lane = &lane_of[index[i]];

		if (!in_place)
			memcpy(copy[i], state_of[index[i]], sizeof copy[i]);
		p[i] = lane->buf + lane->pos;
		if ((lane->len - lane->pos) / MD5_BLOCK_LENGTH < blocks)
			blocks = (lane->len - lane->pos) / MD5_BLOCK_LENGTH;
	}
	for (unsigned i = n; i < e->width; i++)
		p[i] = p[0];
	e->blocks(state, p, blocks);
	for (unsigned i = 0; i < n; i++) {
		struct feed *lane = &lane_of[index[i]];

		if (!in_place)
			memcpy(state_of[index[i]], copy[i], sizeof copy[i]);
		lane->pos += blocks * MD5_BLOCK_LENGTH;
		lane->count += blocks * MD5_BLOCK_LENGTH;
	}
}

void compress_lanes(struct feed *lane, uint32_t (*state)[4], unsigned lanes, unsigned busy,
		    const struct md5_engine *const *engine_for)
{
	unsigned index[MD5_LANES_MAX], n = 0;

	for (unsigned l = 0; l < lanes; l++)
		if (lane[l].task)
			index[n++] = l;
	for (unsigned done = 0; done < busy;) {
		const struct md5_engine *e = engine_for[busy - done];
		unsigned k = e->width < busy - done ? e->width : busy - done;

		compress_group(lane, state, e, index + done, k);
		done += k;
	}
}

/* Twice the lanes pay where the engines hash at least this many times as
 * fast with them, in percent: a threshold between what was measured
 * (doc/engines.md): on an Intel CPU with AVX-512, where 32 lanes gain
 * little in the engines, they were slower than 16 from end to end; on
 * Zen 5, where they hash nearly twice as fast, they were faster. */
enum { LANES_DOUBLED_GAIN = 125 };

unsigned busy_lanes_for(const struct md5_engine *const *e)
{
	unsigned n = md5_lanes_width(e);

#ifndef MD5_LANES_SMALL	/* else one engine of a few lanes: none to halve */
	while (n > 1 && n % 2 == 0 &&
	       (uint64_t)md5_lanes_speed(e, n) * 100 <
		       (uint64_t)md5_lanes_speed(e, n / 2) * LANES_DOUBLED_GAIN)
		n /= 2;
#endif
	return n;
}
