/* md5.c - the MD5 message digest, RFC 1321.  See md5.h for the API. */
#include <string.h>

#include "md5.h"
#include "md5_steps.h"

/* An empty asm that claims to change x: the compiler must compute x here, in
 * the order written, instead of re-associating the sum it belongs to.  That
 * keeps the work that does not depend on the newest state word off the
 * critical path.  Other compilers get the plain expression. */
#if defined(__GNUC__)
#define PIN(x) __asm__("" : "+r"(x))
#else
#define PIN(x) ((void)0)
#endif

static inline uint32_t rol(uint32_t x, unsigned s)
{
	return x << s | x >> (32 - s);
}

/* Little-endian load from any address, without alignment assumptions;
 * compilers turn it into one load on little-endian machines. */
static inline uint32_t load32le(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

static inline void store32le(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16);
	p[3] = (uint8_t)(v >> 24);
}

/* One 64-byte block.  The loop is unrolled completely, so every table
 * lookup and the choice of round function fold into constants.  The 64
 * steps form one dependent chain, so what bounds the speed is the latency
 * of a step from the newest word b to the next b.  Each step therefore first
 * adds what is ready early (the old a, the constant, the message word and
 * any part of f that does not need b), pinned so that the compiler cannot
 * re-associate it behind b, leaving on b only F: and, xor; G: and; H: xor;
 * I: or, xor; then add, rotate, add: 5 + 4 + 4 + 5 cycles a step, 288 a
 * block, 4.5 cycles a byte. */
static inline void md5_block(uint32_t state[4], const uint8_t *p)
{
	uint32_t a = state[0], b = state[1], c = state[2], d = state[3];

#pragma GCC unroll 64
	for (int i = 0; i < 64; i++) {
		/* Words are loaded where used: loading all 16 up front costs
		 * gcc a copy of the block on the stack. */
		uint32_t t = a + md5_sine[i] + load32le(p + 4 * md5_word[i]);
		uint32_t cd;

		PIN(t);	/* else clang adds K after f, on the path from b */
		switch (i / 16) {
		case 0:	/* F = (b & c) | (~b & d) */
			t += d ^ (b & (c ^ d));
			break;
		case 1:	/* G = (b & d) | (c & ~d): disjoint bits, so a sum */
			t += c & ~d;
			PIN(t);
			t += b & d;
			break;
		case 2:	/* H; unpinned, clang xors b with c first, to reuse
			 * b ^ c in the next step */
			cd = c ^ d;
			PIN(cd);
			t += b ^ cd;
			break;
		default: /* I */
			t += c ^ (b | ~d);
			break;
		}
		a = d;
		d = c;
		c = b;
		/* The feed-forward of b, added before the last rotate is
		 * ready (gcc would add it after, a cycle more a block). */
		if (i == 63) {
			b += state[1];
			PIN(b);
		}
		b += rol(t, md5_shift[i]);
	}
	state[0] += a;
	state[1] = b;
	state[2] += c;
	state[3] += d;
}

void md5_blocks(uint32_t state[4], const uint8_t *p, size_t nblocks)
{
	for (; nblocks; nblocks--, p += MD5_BLOCK_LENGTH)
		md5_block(state, p);
}

void md5_init(struct md5 *ctx)
{
	memcpy(ctx->state, md5_iv, sizeof ctx->state);
	ctx->count = 0;
}

void md5_update(struct md5 *ctx, const void *data, size_t len)
{
	const uint8_t *p = data;
	size_t have = ctx->count % MD5_BLOCK_LENGTH;

	if (len == 0)
		return;
	ctx->count += len;
	if (have) {
		size_t need = MD5_BLOCK_LENGTH - have;

		if (len < need) {
			memcpy(ctx->buf + have, p, len);
			return;
		}
		memcpy(ctx->buf + have, p, need);
		md5_blocks(ctx->state, ctx->buf, 1);
		p += need;
		len -= need;
	}
	md5_blocks(ctx->state, p, len / MD5_BLOCK_LENGTH);
	p += len - len % MD5_BLOCK_LENGTH;
	memcpy(ctx->buf, p, len % MD5_BLOCK_LENGTH);
}

/* Append the 0x80 byte, zeros up to 56 mod 64, and the message length in
 * bits as 64 little-endian bits (RFC 1321 sections 3.1 and 3.2).  The count
 * is kept in bytes, so it only wraps past 2^64 bytes, like the bit count. */
static void md5_pad(struct md5 *ctx)
{
	static const uint8_t pad[MD5_BLOCK_LENGTH] = { 0x80 };
	uint64_t bits = ctx->count << 3;
	size_t have = ctx->count % MD5_BLOCK_LENGTH;
	uint8_t length[8];

	store32le(length, (uint32_t)bits);
	store32le(length + 4, (uint32_t)(bits >> 32));
	md5_update(ctx, pad, (have < 56 ? 56 : 120) - have);
	md5_update(ctx, length, sizeof length);
}

void md5_final(struct md5 *ctx, uint8_t digest[MD5_DIGEST_LENGTH])
{
	md5_pad(ctx);
	for (int i = 0; i < 4; i++)
		store32le(digest + 4 * i, ctx->state[i]);
	memset(ctx, 0, sizeof *ctx);
}

char *md5_hex(const uint8_t digest[MD5_DIGEST_LENGTH],
	      char hex[MD5_DIGEST_STRING_LENGTH])
{
	static const char digits[] = "0123456789abcdef";

	for (int i = 0; i < MD5_DIGEST_LENGTH; i++) {
		hex[2 * i] = digits[digest[i] >> 4];
		hex[2 * i + 1] = digits[digest[i] & 15];
	}
	hex[2 * MD5_DIGEST_LENGTH] = '\0';
	return hex;
}
