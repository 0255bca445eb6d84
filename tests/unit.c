/* unit.c - tests of the md5.h API, printing TAP. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "md5.h"
#include "tap.h"

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
		ok(strcmp(hex, rfc1321[i].hex) == 0, "RFC 1321 A.5: MD5(\"%.40s\")",
		   rfc1321[i].msg);
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
	   "a million 'a's");
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
	   "%lu splits at 8 offsets equal the one-call digest (%lu differ)", tried, wrong);
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
	ok(memcmp(state, want, sizeof want) == 0, "md5_blocks: one padded block of \"abc\"");
}

int main(void)
{
	test_rfc_vectors();
	test_million_a();
	test_splits();
	test_final_wipes();
	test_blocks();
	return tap_done();
}
