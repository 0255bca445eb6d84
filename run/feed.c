/* feed.c - one file's asking ahead, padding, and moves in and out of a
 * lane; see feed.h. */
#include <fcntl.h>
#include <stdint.h>
#include <string.h>

#include "run/feed.h"
#include "lib/md5.h"

void feed_ask_ahead(struct feed *f, uint64_t at)
{
	if (f->asked >= f->size || (uint64_t)f->asked > at + ASK_AHEAD)
		return;
	/* Advice only: the reads that follow tell of any error. */
	(void)posix_fadvise(f->fd, f->asked, ASK_AHEAD, POSIX_FADV_WILLNEED);
	f->asked += ASK_AHEAD;
}

uint64_t feed_bytes_left(const struct feed *f)
{
	return (uint64_t)f->size > f->count ? (uint64_t)f->size - f->count : 0;
}

void feed_pad(struct feed *f)
{
	f->len = md5_pad_tail(f->buf, f->len, f->count + f->len);
	f->padded = true;
}

void feed_hashed(const struct feed *f, const uint32_t state[4], struct md5 *ctx)
{
	*ctx = (struct md5){ .count = f->count };
	memcpy(ctx->state, state, sizeof ctx->state);
	md5_update(ctx, f->buf + f->pos, f->len - f->pos);
}

void feed_resume(struct feed *f, uint32_t state[4], const struct feed *file,
		 const struct md5 *hashed)
{
	uint8_t *buf = f->buf;
	unsigned partial = (unsigned)(hashed->count % MD5_BLOCK_LENGTH);

	*f = *file;
	f->buf = buf;
	/* The lanes compress whole blocks: a partial one goes back to the
	 * buffer, to be read after. */
	memcpy(buf, hashed->buf, partial);
	f->pos = 0;
	f->len = partial;
	f->count = hashed->count - partial;
	memcpy(state, hashed->state, sizeof hashed->state);
}
