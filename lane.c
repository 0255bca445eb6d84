/* lane.c - a lane's padding, and the compressing of the busy lanes; see
 * lane.h. */
#include <stdint.h>
#include <string.h>

#include "lane.h"
#include "md5.h"

void lane_pad(struct lane *lane)
{
	lane->len = md5_pad_tail(lane->buf, lane->len, lane->count + lane->len);
	lane->padded = true;
}

/* Compress the blocks that the lanes index[0..n) all have, in one engine
 * call; idle lanes of the engine repeat the first lane's data. */
static void compress_group(struct lane *lane_of, uint32_t (*state_of)[4],
			   const struct md5_engine *e, const unsigned *index, unsigned n)
{
	uint32_t state[MD5_LANES_MAX][4];
	const uint8_t *p[MD5_LANES_MAX];
	size_t blocks = SIZE_MAX;

	for (unsigned i = 0; i < n; i++) {
		const struct lane *lane = &lane_of[index[i]];

		memcpy(state[i], state_of[index[i]], sizeof state[i]);
		p[i] = lane->buf + lane->pos;
		if ((lane->len - lane->pos) / MD5_BLOCK_LENGTH < blocks)
			blocks = (lane->len - lane->pos) / MD5_BLOCK_LENGTH;
	}
	for (unsigned i = n; i < e->width; i++)
		p[i] = p[0];
	e->blocks(state, p, blocks);
	for (unsigned i = 0; i < n; i++) {
		struct lane *lane = &lane_of[index[i]];

		memcpy(state_of[index[i]], state[i], sizeof state[i]);
		lane->pos += blocks * MD5_BLOCK_LENGTH;
		lane->count += blocks * MD5_BLOCK_LENGTH;
	}
}

void lanes_compress(struct lane *lane, uint32_t (*state)[4], unsigned lanes, unsigned busy,
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

unsigned lanes_to_keep_busy(const struct md5_engine *const *e)
{
	unsigned n = md5_lanes_width(e);

#ifndef MD5_LANES_SMALL	/* else one engine of a few lanes: none to halve */
	if (n > MD5_LANES_MAX)
		n = MD5_LANES_MAX;
	while (n > 1 && n % 2 == 0 &&
	       (uint64_t)md5_lanes_speed(e, n) * 100 <
		       (uint64_t)md5_lanes_speed(e, n / 2) * LANES_DOUBLED_GAIN)
		n /= 2;
#endif
	return n;
}
