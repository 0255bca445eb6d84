/* md5.h - the MD5 message digest (RFC 1321) as a small streaming library.
 *
 * Contract: md5_init, then md5_update any number of times with any lengths
 * and any alignment, then md5_final once.  md5_final wipes the context; call
 * md5_init again to reuse it.  No allocation, thread-safe for distinct
 * contexts; the one global state is the transform the library runs,
 * picked for this CPU by the first hash, or chosen (md5_use_transform).
 * The library reads no environment. */
#ifndef MD5_H
#define MD5_H

#include <stddef.h>
#include <stdint.h>

enum {
	MD5_BLOCK_LENGTH = 64,		/* bytes per compression block */
	MD5_DIGEST_LENGTH = 16,		/* bytes in a digest */
	MD5_DIGEST_STRING_LENGTH = 33,	/* hex digest and its NUL */
};

struct md5 {
	uint32_t state[4];		/* chaining words A, B, C, D */
	uint64_t count;			/* bytes hashed so far */
	uint8_t buf[MD5_BLOCK_LENGTH];	/* pending partial block */
};

/* Start a new message. */
void md5_init(struct md5 *ctx);

/* Add len bytes at p to the message. */
void md5_update(struct md5 *ctx, const void *p, size_t len);

/* Pad the message, write its digest and wipe the context. */
void md5_final(struct md5 *ctx, uint8_t digest[MD5_DIGEST_LENGTH]);

/* Compress nblocks whole 64-byte blocks at p into state: the raw transform,
 * for callers that keep their own buffering and padding. */
void md5_blocks(uint32_t state[4], const uint8_t *p, size_t nblocks);

/* Hash with the transform called name ("scalar", "avx512vl") from now on,
 * when this CPU runs it; else, or with NULL, with the one preferred for
 * this CPU.  For tests and benchmarks (md5sum's MD5_TRANSFORM): any
 * thread, any time, as every transform gives the same digests. */
void md5_use_transform(const char *name);

/* Pad a message whose last len bytes (len < MD5_BLOCK_LENGTH) are at
 * tail, count bytes in all: write the padding after them and return the
 * bytes of the whole blocks at tail then, one block or two.  For callers
 * of md5_blocks that pad the message themselves. */
size_t md5_pad_tail(uint8_t tail[2 * MD5_BLOCK_LENGTH], size_t len, uint64_t count);

/* Write the digest of the chaining words state, once the padding is
 * compressed. */
void md5_digest_of(const uint32_t state[4], uint8_t digest[MD5_DIGEST_LENGTH]);

/* Write digest as 32 lower-case hex digits and a NUL into hex; return hex. */
char *md5_hex(const uint8_t digest[MD5_DIGEST_LENGTH],
	      char hex[MD5_DIGEST_STRING_LENGTH]);

#endif
