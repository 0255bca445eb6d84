/* md5_steps.h - the 64 steps of the MD5 compression function as tables,
 * shared by the one-stream transforms (md5.c) and the lane engines
 * (lanes.c).  Step i of RFC 1321 section 3.4 is
 *	a = b + ((a + f(b, c, d) + X[md5_word[i]] + md5_sine[i]) <<< md5_shift[i])
 * with f = F, G, H, I for the four rounds of 16 steps (f = i / 16), after
 * which the state words rotate: (a, b, c, d) = (d, new, b, c). */
#ifndef MD5_STEPS_H
#define MD5_STEPS_H

#include <stdint.h>

/* K[i] = floor(abs(sin(i + 1)) * 2^32), RFC 1321 section 3.4. */
static const uint32_t md5_sine[64] = {
	0xd76aa478, 0xe8c7b756, 0x242070db, 0xc1bdceee,
	0xf57c0faf, 0x4787c62a, 0xa8304613, 0xfd469501,
	0x698098d8, 0x8b44f7af, 0xffff5bb1, 0x895cd7be,
	0x6b901122, 0xfd987193, 0xa679438e, 0x49b40821,
	0xf61e2562, 0xc040b340, 0x265e5a51, 0xe9b6c7aa,
	0xd62f105d, 0x02441453, 0xd8a1e681, 0xe7d3fbc8,
	0x21e1cde6, 0xc33707d6, 0xf4d50d87, 0x455a14ed,
	0xa9e3e905, 0xfcefa3f8, 0x676f02d9, 0x8d2a4c8a,
	0xfffa3942, 0x8771f681, 0x6d9d6122, 0xfde5380c,
	0xa4beea44, 0x4bdecfa9, 0xf6bb4b60, 0xbebfbc70,
	0x289b7ec6, 0xeaa127fa, 0xd4ef3085, 0x04881d05,
	0xd9d4d039, 0xe6db99e5, 0x1fa27cf8, 0xc4ac5665,
	0xf4292244, 0x432aff97, 0xab9423a7, 0xfc93a039,
	0x655b59c3, 0x8f0ccc92, 0xffeff47d, 0x85845dd1,
	0x6fa87e4f, 0xfe2ce6e0, 0xa3014314, 0x4e0811a1,
	0xf7537e82, 0xbd3af235, 0x2ad7d2bb, 0xeb86d391,
};

/* Left-rotation counts S11..S44, RFC 1321 section 3.4. */
static const uint8_t md5_shift[64] = {
	7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22,
	5,  9, 14, 20, 5,  9, 14, 20, 5,  9, 14, 20, 5,  9, 14, 20,
	4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23,
	6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21,
};

/* Message word of each step: i, 5i + 1, 3i + 5, 7i (mod 16) in the four
 * rounds, RFC 1321 section 3.4. */
static const uint8_t md5_word[64] = {
	0, 1,  2,  3,  4,  5,  6,  7,  8,  9, 10, 11, 12, 13, 14, 15,
	1, 6, 11,  0,  5, 10, 15,  4,  9, 14,  3,  8, 13,  2,  7, 12,
	5, 8, 11, 14,  1,  4,  7, 10, 13,  0,  3,  6,  9, 12, 15,  2,
	0, 7, 14,  5, 12,  3, 10,  1,  8, 15,  6, 13,  4, 11,  2,  9,
};

/* The round functions F, G, H, I of RFC 1321 section 3.4 as truth tables,
 * the immediates of x86's vpternlogd(b, c, d): bit 4b + 2c + d of a table
 * is the function of those bits of b, c and d. */
enum {
	MD5_TERNLOG_F = 0xca,	/* (b & c) | (~b & d) */
	MD5_TERNLOG_G = 0xe4,	/* (b & d) | (c & ~d) */
	MD5_TERNLOG_H = 0x96,	/* b ^ c ^ d */
	MD5_TERNLOG_I = 0x39,	/* c ^ (b | ~d) */
};

/* The table f for vpternlogd(d, b, c) instead, whose first operand is also
 * its destination: bit 4d + 2b + c of it is bit 4b + 2c + d of f. */
#define MD5_TERNLOG_DBC(f)                                                  \
	(((f) & 0x81) | ((f) >> 2 & 1) << 1 | ((f) >> 4 & 1) << 2 |         \
	 ((f) >> 6 & 1) << 3 | ((f) >> 1 & 1) << 4 | ((f) >> 3 & 1) << 5 | \
	 ((f) >> 5 & 1) << 6)

/* Initial chaining words A, B, C, D, RFC 1321 section 3.3. */
static const uint32_t md5_iv[4] = {
	0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476,
};

#if defined(__GNUC__)
/* md5_sine, at an address the compiler cannot see through: vector code
 * then adds each constant broadcast from memory, where compilers would
 * build each vector in an integer register and move it over, or hoist all
 * 64 vectors out of the loop onto the stack.  Taken once a block. */
static inline const uint32_t *md5_sine_in_memory(void)
{
	const uint32_t *k = md5_sine;

	__asm__("" : "+r"(k));
	return k;
}
#endif

#endif
