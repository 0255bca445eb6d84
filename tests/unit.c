/* unit.c - tests of the md5.h API, run with each one-stream transform
 * this CPU has, and of the transforms themselves, printing TAP.  The
 * library's source is compiled in, to reach the transforms it keeps to
 * itself. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/md5.c"
#include "tap.h"

static const char *tested;	/* the name of the transform in use */

static void use_transform(const struct transform *t)
{
	atomic_store(&in_use, t->blocks);
	tested = t->name;
}

static uint64_t rng_state = 0x6d643520756e6974;

static uint64_t rng(void)
{
	return tap_random(&rng_state);
}

static void digest_of(const void *p, size_t len, uint8_t digest[MD5_DIGEST_LENGTH])
{
	struct md5 ctx;

	md5_init(&ctx);
	md5_update(&ctx, p, len);
	md5_final(&ctx, digest);
}

static void hex_of(const void *p, size_t len, char hex[MD5_DIGEST_STRING_LENGTH])
{
	uint8_t digest[MD5_DIGEST_LENGTH];

	digest_of(p, len, digest);
	md5_hex(digest, hex);
}

/* RFC 1321 appendix A.5. */
static void test_rfc_vectors(void)
{
	for (size_t i = 0; i < rfc1321_count; i++) {
		char hex[MD5_DIGEST_STRING_LENGTH];

		hex_of(rfc1321[i].msg, strlen(rfc1321[i].msg), hex);
		ok(strcmp(hex, rfc1321[i].hex) == 0, "%s: RFC 1321 A.5: MD5(\"%.40s\")",
		   tested, rfc1321[i].msg);
	}
}

/* A million 'a's, fed in 1000-byte pieces: a well-known vector. */
static void test_million_a(void)
{
	char piece[1000], hex[MD5_DIGEST_STRING_LENGTH];
	uint8_t digest[MD5_DIGEST_LENGTH];
	struct md5 ctx;

	memset(piece, 'a', sizeof piece);
	md5_init(&ctx);
	for (int i = 0; i < 1000; i++)
		md5_update(&ctx, piece, sizeof piece);
	md5_final(&ctx, digest);
	ok(strcmp(md5_hex(digest, hex), "7707d6ae4e027c70eea2a935c2296f21") == 0,
	   "%s: a million 'a's", tested);
}

/* Hash msg[0..len) in up to three update calls, cut at i and j, from a copy
 * placed at offset off of an aligned buffer. */
static void digest_split(const uint8_t *msg, size_t len, size_t i, size_t j,
			 size_t off, uint8_t digest[MD5_DIGEST_LENGTH])
{
	static _Alignas(64) uint8_t buf[512];
	struct md5 ctx;

	memcpy(buf + off, msg, len);
	md5_init(&ctx);
	md5_update(&ctx, buf + off, i);
	md5_update(&ctx, buf + off + i, j - i);
	md5_update(&ctx, buf + off + j, len - j);
	md5_final(&ctx, digest);
}

/* Every split of a 150-byte message (over two block boundaries) into two
 * and three calls, at every alignment offset, equals the one-call digest. */
static void test_splits(void)
{
	enum { LEN = 150 };
	uint8_t msg[LEN], whole[MD5_DIGEST_LENGTH], part[MD5_DIGEST_LENGTH];
	unsigned long tried = 0, wrong = 0;

	for (size_t k = 0; k < LEN; k++)
		msg[k] = (uint8_t)(k * 131 + 7);
	digest_of(msg, LEN, whole);
	for (size_t off = 0; off < 8; off++)
		for (size_t i = 0; i <= LEN; i++)
			for (size_t j = i; j <= LEN; j++) {
				digest_split(msg, LEN, i, j, off, part);
				tried++;
				wrong += memcmp(part, whole, sizeof whole) != 0;
			}
	ok(wrong == 0 && tried > 0,
	   "%s: %lu splits at 8 offsets equal the one-call digest (%lu differ)",
	   tested, tried, wrong);
}

/* md5_final wipes the context, as the header promises. */
static void test_final_wipes(void)
{
	uint8_t digest[MD5_DIGEST_LENGTH], zero[sizeof(struct md5)] = { 0 };
	struct md5 ctx;

	md5_init(&ctx);
	md5_update(&ctx, "abc", 3);
	md5_final(&ctx, digest);
	ok(memcmp(&ctx, zero, sizeof ctx) == 0, "md5_final wipes the context");
}

/* md5_blocks on one padded block equals md5_update of the short message. */
static void test_blocks(void)
{
	uint8_t block[MD5_BLOCK_LENGTH] = { 'a', 'b', 'c', 0x80 };
	uint32_t state[4] = { 0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476 };
	static const uint32_t want[4] = { 0x98500190, 0xb04fd23c, 0x7d3f96d6, 0x727fe128 };

	block[56] = 24;	/* the length in bits */
	md5_blocks(state, block, 1);
	ok(memcmp(state, want, sizeof want) == 0,
	   "%s: md5_blocks: one padded block of \"abc\"", tested);
}

/* vpternlogd(x, y, z, imm) on 32-bit words: each bit of the result is bit
 * 4x + 2y + z of imm, for the bits x, y, z of its operands there. */
static uint32_t ternlog_model(uint32_t x, uint32_t y, uint32_t z, unsigned imm)
{
	uint32_t r = 0;

	for (int k = 0; k < 32; k++) {
		unsigned index = (x >> k & 1) << 2 | (y >> k & 1) << 1 | (z >> k & 1);

		r |= (uint32_t)(imm >> index & 1) << k;
	}
	return r;
}

/* The round functions as RFC 1321 section 3.4 writes them. */
static uint32_t round_function(int round, uint32_t x, uint32_t y, uint32_t z)
{
	switch (round) {
	case 0:	return (x & y) | (~x & z);
	case 1:	return (x & z) | (y & ~z);
	case 2:	return x ^ y ^ z;
	default: return y ^ (x | ~z);
	}
}

/* The immediates of md5_steps.h are the round functions, on any CPU. */
static void test_ternlog_immediates(void)
{
	static const unsigned imm[4] = {
		MD5_TERNLOG_F, MD5_TERNLOG_G, MD5_TERNLOG_H, MD5_TERNLOG_I,
	};

	for (int round = 0; round < 4; round++) {
		unsigned dbc = MD5_TERNLOG_DBC(imm[round]);
		int wrong = 0, wrong_dbc = 0;

		for (int k = 0; k < 1000; k++) {
			uint32_t x = (uint32_t)rng(), y = (uint32_t)rng(), z = (uint32_t)rng();
			uint32_t f = round_function(round, x, y, z);

			wrong += ternlog_model(x, y, z, imm[round]) != f;
			wrong_dbc += ternlog_model(z, x, y, dbc) != f;
		}
		ok(wrong == 0, "vpternlogd immediate 0x%02x is %c on 1000 random words",
		   imm[round], "FGHI"[round]);
		ok(wrong_dbc == 0, "vpternlogd(d, b, c) immediate 0x%02x is %c",
		   dbc, "FGHI"[round]);
	}
}

/* Random messages of random lengths, at random offsets and in random
 * pieces, hash as with the portable transform; and random states and
 * blocks through the transform alone as through md5_block. */
static void test_random_messages(const struct transform *t)
{
	enum { MAX = 20000, MESSAGES = 300 };
	uint8_t *data = malloc(MAX + 64);
	int wrong = 0, wrong_blocks = 0;

	if (data == NULL)
		abort();
	for (size_t i = 0; i < MAX + 64; i++)
		data[i] = (uint8_t)rng();
	for (int k = 0; k < MESSAGES; k++) {
		size_t len = k % 3 ? rng() % 300 : rng() % MAX;
		const uint8_t *p = data + rng() % 64;
		uint8_t want[MD5_DIGEST_LENGTH], got[MD5_DIGEST_LENGTH];
		struct md5 ctx;

		use_transform(&transforms[TRANSFORMS - 1]);
		digest_of(p, len, want);
		use_transform(t);
		md5_init(&ctx);
		for (size_t done = 0, piece; done < len; done += piece) {
			piece = 1 + rng() % (len - done);
			md5_update(&ctx, p + done, piece);
		}
		md5_final(&ctx, got);
		wrong += memcmp(want, got, sizeof want) != 0;
	}
	ok(wrong == 0, "%s: %d random messages hash as with the portable transform",
	   t->name, MESSAGES);
	for (int k = 0; k < MESSAGES; k++) {
		uint32_t want[4], got[4];
		size_t n = rng() % 8;
		const uint8_t *p = data + rng() % (MAX - 8 * MD5_BLOCK_LENGTH);

		for (int w = 0; w < 4; w++)
			want[w] = got[w] = (uint32_t)rng();
		scalar_blocks(want, p, n);
		t->blocks(got, p, n);
		wrong_blocks += memcmp(want, got, sizeof want) != 0;
	}
	ok(wrong_blocks == 0, "%s: random states and runs of 0 to 7 blocks as md5_block",
	   t->name);
	free(data);
}

/* The first transform the CPU has all it is fastest with, as
 * pick_transform(NULL) should find it. */
static transform_fn *preferred(void)
{
	for (int i = 0; i < TRANSFORMS; i++)
		if (!((transforms[i].needs | transforms[i].fastest_with) & ~cpu_features()))
			return transforms[i].blocks;
	return NULL;
}

/* A transform chosen by name (md5_use_transform, md5sum's MD5_TRANSFORM)
 * is one this CPU runs, and only such a one. */
static void test_transform_choice(void)
{
	for (int i = 0; i < TRANSFORMS; i++) {
		const struct transform *t = &transforms[i];
		int runs = !(t->needs & ~cpu_features());

		ok(pick_transform(t->name) == (runs ? t->blocks : preferred()),
		   "%s chosen picks %s", t->name,
		   runs ? "it" : "the preferred one: the CPU lacks it");
	}
	ok(pick_transform("nonesuch") == preferred(), "nonesuch chosen picks the preferred one");
	ok(pick_transform(NULL) == preferred(), "none chosen picks the preferred one");
	md5_use_transform("scalar");
	ok(transform_in_use() == scalar_blocks, "md5_use_transform(\"scalar\") is used");
	md5_use_transform(NULL);
}

int main(void)
{
	test_ternlog_immediates();
	test_transform_choice();
	for (int i = 0; i < TRANSFORMS; i++) {
		const struct transform *t = &transforms[i];

		if (t->needs & ~cpu_features()) {
			ok(1, "%s transform # skip this CPU lacks what it needs", t->name);
			continue;
		}
		use_transform(t);
		test_rfc_vectors();
		test_million_a();
		test_splits();
		test_final_wipes();
		test_blocks();
		test_random_messages(t);
	}
	return tap_done();
}
