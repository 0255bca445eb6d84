/* md5.c - the MD5 message digest, RFC 1321.  See md5.h for the API.
 *
 * md5_blocks runs one of two transforms of the same 64 steps: md5_block,
 * portable C, or on x86-64 CPUs with AVX-512VL and a one-cycle vector
 * rotate (Intel's) avx512vl_blocks, chosen on first use.  MD5_LANES_SMALL,
 * the small build of the library (make static), keeps the portable one
 * only. */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "md5_cpu.h"
#include "md5.h"
#include "md5_steps.h"

#if defined(__x86_64__) && defined(__GNUC__) && !defined(MD5_LANES_SMALL)
#define AVX512VL_TRANSFORM 1
#include <immintrin.h>
#endif

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

static void scalar_blocks(uint32_t state[4], const uint8_t *p, size_t nblocks)
{
	for (; nblocks; nblocks--, p += MD5_BLOCK_LENGTH)
		md5_block(state, p);
}

#if defined(AVX512VL_TRANSFORM)
#define AVX512VL __attribute__((target("avx512f,avx512vl")))
#define VPIN(x) __asm__("" : "+v"(x))	/* PIN, for a vector register */

typedef uint32_t v4 __attribute__((vector_size(16)));

/* f(b, c, d) of step i, in one instruction, into d's register. */
AVX512VL static inline v4 ternlog(int i, v4 b, v4 c, v4 d)
{
	__m128i x = (__m128i)d, y = (__m128i)b, z = (__m128i)c;

	switch (i / 16) {
	case 0:	return (v4)_mm_ternarylogic_epi32(x, y, z, MD5_TERNLOG_DBC(MD5_TERNLOG_F));
	case 1:	return (v4)_mm_ternarylogic_epi32(x, y, z, MD5_TERNLOG_DBC(MD5_TERNLOG_G));
	case 2:	return (v4)_mm_ternarylogic_epi32(x, y, z, MD5_TERNLOG_DBC(MD5_TERNLOG_H));
	default: return (v4)_mm_ternarylogic_epi32(x, y, z, MD5_TERNLOG_DBC(MD5_TERNLOG_I));
	}
}

/* What step i adds to f before the rotate: a, the constant and the message
 * word, summed first and pinned, as in md5_block. */
AVX512VL static inline v4 early_sum(int i, v4 a, const uint32_t *k, const uint8_t *p)
{
	v4 t = a + k[i];

	VPIN(t);
	t += load32le(p + 4 * md5_word[i]);
	VPIN(t);
	return t;
}

/* md5_block's loop with each word in the low lane of a vector register,
 * where AVX-512VL has every operation on the path from b to the next b as
 * one instruction: ternary logic, add, rotate, add.  The next step's
 * early sum takes d (its a) before the ternary logic, so that this can
 * write over d, with no copy of b first.  The chaining words stay in
 * registers from block to block. */
AVX512VL static void avx512vl_blocks(uint32_t state[4], const uint8_t *p,
				     size_t nblocks)
{
	v4 a = { state[0] }, b = { state[1] }, c = { state[2] }, d = { state[3] };

	for (; nblocks; nblocks--, p += MD5_BLOCK_LENGTH) {
		const uint32_t *k = md5_sine_in_memory();
		v4 a0 = a, b0 = b, c0 = c, d0 = d, e = early_sum(0, a, k, p);

#pragma GCC unroll 64
		for (int i = 0; i < 64; i++) {
			v4 t = e;
			int s = md5_shift[i];

			if (i < 63)
				e = early_sum(i + 1, d, k, p);
			else
				a = d;
			t += ternlog(i, b, c, d);
			d = c;
			c = b;
			if (i == 63) {
				b += b0;
				VPIN(b);
			}
			b += t << s | t >> (32 - s);
		}
		a += a0;
		c += c0;
		d += d0;
	}
	state[0] = a[0];
	state[1] = b[0];
	state[2] = c[0];
	state[3] = d[0];
}
#endif

typedef void transform_fn(uint32_t state[4], const uint8_t *p, size_t nblocks);

/* The one-stream transforms, preferred first.  Each runs where the CPU
 * has the features it needs, and is preferred where it has those it is
 * the fastest with as well. */
static const struct transform {
	const char *name;	/* for md5_use_transform */
	transform_fn *blocks;
	unsigned needs, fastest_with;	/* CPU features (md5_cpu.h) */
} transforms[] = {
#if defined(AVX512VL_TRANSFORM)
	/* Where the vector rotate takes one cycle, Intel's: with two on
	 * the path of every step, the portable loop is faster (doc/engines.md). */
	{ "avx512vl", avx512vl_blocks, CPU_AVX512VL, CPU_INTEL },
#endif
	{ "scalar", scalar_blocks, 0, 0 },
};

enum { TRANSFORMS = sizeof transforms / sizeof transforms[0] };

/* The transform called name when this CPU runs it, else the preferred
 * one. */
static transform_fn *pick_transform(const char *name)
{
	unsigned have = cpu_features();

	for (int i = 0; i < TRANSFORMS; i++) {
		const struct transform *t = &transforms[i];

		if (name && strcmp(name, t->name) == 0 && !(t->needs & ~have))
			return t->blocks;
	}
	for (int i = 0; i < TRANSFORMS; i++) {
		const struct transform *t = &transforms[i];

		if (!((t->needs | t->fastest_with) & ~have))
			return t->blocks;
	}
	return scalar_blocks;
}

/* The transform md5_blocks runs: the one chosen, or else picked by its
 * first call. */
static _Atomic(transform_fn *) in_use;

void md5_use_transform(const char *name)
{
	/* With one transform, there is none to choose. */
	if (TRANSFORMS > 1)
		atomic_store_explicit(&in_use, pick_transform(name), memory_order_relaxed);
}

static transform_fn *transform_in_use(void)
{
	transform_fn *blocks = atomic_load_explicit(&in_use, memory_order_relaxed);

	if (blocks == NULL) {
		blocks = pick_transform(NULL);
		atomic_store_explicit(&in_use, blocks, memory_order_relaxed);
	}
	return blocks;
}

void md5_blocks(uint32_t state[4], const uint8_t *p, size_t nblocks)
{
	/* With one transform, the CPU is not probed. */
	transform_fn *blocks = TRANSFORMS == 1 ? scalar_blocks : transform_in_use();

	blocks(state, p, nblocks);
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

/* The 0x80 byte, zeros up to 56 mod 64, and the message length in bits
 * as 64 little-endian bits (RFC 1321 sections 3.1 and 3.2).  The count is
 * kept in bytes, so it only wraps past 2^64 bytes, like the bit count. */
size_t md5_pad_tail(uint8_t tail[2 * MD5_BLOCK_LENGTH], size_t len, uint64_t count)
{
	size_t end = len < 56 ? 56 : 120;
	uint64_t bits = count << 3;

	tail[len] = 0x80;
	memset(tail + len + 1, 0, end - len - 1);
	store32le(tail + end, (uint32_t)bits);
	store32le(tail + end + 4, (uint32_t)(bits >> 32));
	return end + 8;
}

void md5_digest_of(const uint32_t state[4], uint8_t digest[MD5_DIGEST_LENGTH])
{
	for (int i = 0; i < 4; i++)
		store32le(digest + 4 * i, state[i]);
}

void md5_final(struct md5 *ctx, uint8_t digest[MD5_DIGEST_LENGTH])
{
	uint8_t tail[2 * MD5_BLOCK_LENGTH];
	size_t len = ctx->count % MD5_BLOCK_LENGTH;

	memcpy(tail, ctx->buf, len);
	md5_blocks(ctx->state, tail, md5_pad_tail(tail, len, ctx->count) / MD5_BLOCK_LENGTH);
	md5_digest_of(ctx->state, digest);
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
