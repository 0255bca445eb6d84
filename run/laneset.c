/* laneset.c - a hasher's lanes weighed, and compressed together; see
 * laneset.h. */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "run/laneset.h"
#include "lib/md5.h"
#include "os/features.h"

uint64_t laneset_bytes_left(const struct feed *lane, unsigned n)
{
	uint64_t left = 0;

	for (unsigned l = 0; l < n; l++)
		if (lane[l].task)
			left += feed_bytes_left(&lane[l]);
	return left;
}

unsigned laneset_longest(const struct feed *lane, unsigned n)
{
	unsigned best = n;

	for (unsigned l = 0; l < n; l++)
		if (lane[l].task && !lane[l].eof && !lane[l].padded &&
		    (best == n || feed_bytes_left(&lane[l]) > feed_bytes_left(&lane[best])))
			best = l;
	return best;
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
	bool in_place = HAS_LANES_IN_PLACE && n == e->width && index[n - 1] - index[0] == n - 1;

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

void laneset_compress(struct feed *lane, uint32_t (*state)[4], unsigned lanes,
		      unsigned filled, const struct md5_engine *const *engine_for)
{
	unsigned index[MD5_LANES_MAX], n = 0;

	for (unsigned l = 0; l < lanes; l++)
		if (lane[l].task)
			index[n++] = l;
	for (unsigned done = 0; done < filled;) {
		const struct md5_engine *e = engine_for[filled - done];
		unsigned k = e->width < filled - done ? e->width : filled - done;

		compress_group(lane, state, e, index + done, k);
		done += k;
	}
}
