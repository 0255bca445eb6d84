/* lanes_engine.h - the lane engine, written once for every instruction set.
 *
 * md5_block of md5.c with each word widened to a vector V of lanes, the
 * steps of md5_steps.h unrolled; `groups` sets of lanes interleave step by
 * step.  Only the chaining words live in registers: each block's message
 * words are transposed into a scratch area during the block before, four
 * at a time between the steps, from rows of four words of lanes r, r + 4,
 * ... (one in each 128-bit part of V); each step adds its word from there.
 *
 * lanes.c includes this once per instruction set, having defined V,
 * ISA(name) (that set's name for name), INLINE (always_inline, target),
 * K() (the step constants), VPIN(x) (x pinned to a vector register),
 * ISA(zip)(x, y, size, hi): the low (hi 0) or high halves of each part of
 * x and y interleaved in units of size bytes, and SCRATCH: empty for the
 * stack, or "static _Thread_local" where the area would make a frame of
 * over 4 KiB, which a small ulimit -s might not hold (a thread's calls
 * come one at a time).  With OWN_ROWS it gives ISA(rows)(p, off), the 16
 * bytes at off from p[4q] in part q; with OWN_ROUND ISA(round). */
#define W ((int)(sizeof(V) / sizeof(uint32_t)))
#ifdef MD5_LANES_SMALL
#define PREFETCH_BLOCKS 0	/* the small build asks nothing ahead: no room */
#else
#define PREFETCH_BLOCKS 2	/* blocks ahead of those loaded, asked of memory */
#endif

enum { ISA(width) = W };

#ifndef OWN_ROWS
INLINE V ISA(rows)(const uint8_t *const *p, size_t off)
{
	V v;

	memcpy(&v, p[0] + off, sizeof v);	/* one lane: one load */
	return v;
}
#endif

#ifndef OWN_ROUND
/* t + f(b, c, d) for step i.  G's halves share no bit, so they are added
 * one at a time, the one without b first, off b's path. */
INLINE V ISA(round)(int i, V t, V b, V c, V d)
{
	switch (i / 16) {
	case 0:	return t + (d ^ (b & (c ^ d)));
	case 1:	t += c & ~d;
		VPIN(t);
		return t + (b & d);
	case 2:	return t + (b ^ c ^ d);
	default: return t + (c ^ (b | ~d));
	}
}
#endif

/* What step i adds to f(b, c, d) before the rotate: a, the constant and
 * the message word, summed and pinned apart from b's path. */
INLINE V ISA(early)(int i, V a, V k, const V *x)
{
	V t = a + k + x[md5_word[i]];

	VPIN(t);
	return t;
}

/* Step i of md5_block, given its early sum t: the next b. */
INLINE V ISA(step)(int i, V t, V b, V c, V d)
{
	int s = md5_shift[i];

	t = ISA(round)(i, t, b, c, d);
	return b + (t << s | t >> (32 - s));
}

/* Four rows of four words to four columns, in each 128-bit part. */
INLINE void ISA(transpose)(V v[4])
{
	V t0 = ISA(zip)(v[0], v[1], 4, 0), t1 = ISA(zip)(v[0], v[1], 4, 1);
	V t2 = ISA(zip)(v[2], v[3], 4, 0), t3 = ISA(zip)(v[2], v[3], 4, 1);

	v[0] = ISA(zip)(t0, t2, 8, 0);
	v[1] = ISA(zip)(t0, t2, 8, 1);
	v[2] = ISA(zip)(t1, t3, 8, 0);
	v[3] = ISA(zip)(t1, t3, 8, 1);
}

/* x[j..j+3] = words j..j+3 of the block at off in every lane, and the
 * block at ahead asked of memory for a quarter of the lanes (beyond L2,
 * more streams than the hardware prefetchers follow).  The lane pointers
 * are read again each time: in registers, they would crowd the steps. */
INLINE void ISA(load_quad)(V x[16], const uint8_t *const *p, size_t off,
			   size_t ahead, int j)
{
	V v[4];

	__asm__("" : "+r"(p));
#pragma GCC unroll 4
	for (int r = 0; r < 4; r++)
		v[r] = ISA(rows)(p + r, off + 4 * (size_t)j);
	ISA(transpose)(v);
	memcpy(x + j, v, sizeof v);
#pragma GCC unroll 4
	for (int q = 0; q < W / 4 && PREFETCH_BLOCKS > 0; q++)
		__builtin_prefetch(p[4 * q + j / 4] + ahead, 0, 3);
}

/* Lane 4q + r's chaining words are part q of row r, as in a block: copy
 * them from state to the rows s, or back when out; once a call. */
INLINE void ISA(state)(V s[4], uint32_t (*state)[4], int out)
{
	for (int r = 0; r < 4; r++)
		for (int q = 0; q < W / 4; q++) {
			char *row = (char *)&s[r] + 16 * q, *lane = (char *)state[4 * q + r];

			memcpy(out ? lane : row, out ? row : lane, 16);
		}
}

/* md5_blocks for groups * W lanes. */
INLINE void ISA(run)(int groups, uint32_t (*state)[4], const uint8_t *const *p,
		     size_t nblocks)
{
	/* The transposed words of this block and the next: [parity][group].
	 * Loops over the groups run to 2, the most there are, and skip the
	 * rest, unrolled in the block loop: else compilers keep arrays indexed
	 * by g in memory (clang unrolls before it knows `groups`). */
	SCRATCH V words[2][2][16];
	V s[2][4], e[2], b[2], c[2], d[2], a[2];

	if (nblocks == 0)
		return;
	for (int g = 0; g < 2; g++) if (g < groups) {
		ISA(state)(s[g], state + g * W, 0);
		ISA(transpose)(s[g]);
		for (int j = 0; j < 16; j += 4)
			ISA(load_quad)(words[0][g], p + g * W, 0, 0, j);
	}
	for (size_t n = 0; n < nblocks; n++) {
		const uint32_t *k = K();
		V (*x)[16] = words[n & 1], (*next)[16] = words[~n & 1];
		/* The next block, or on the last one this one again; and
		 * the one to ask for, PREFETCH_BLOCKS further on, or the last. */
		size_t off = (n + 1 < nblocks ? n + 1 : n) * MD5_BLOCK_LENGTH;
		size_t ahead = (n + 1 + PREFETCH_BLOCKS < nblocks ? n + 1 + PREFETCH_BLOCKS :
				nblocks - 1) * MD5_BLOCK_LENGTH;

#pragma GCC unroll 2
		for (int g = 0; g < 2; g++) if (g < groups) {
			b[g] = s[g][1], c[g] = s[g][2], d[g] = s[g][3];
			e[g] = ISA(early)(0, s[g][0], (V){ 0 } + k[0], x[g]);
		}
		/* Eight runs of eight steps, each followed by four words of
		 * the next block for a group (every other run, with one). */
#pragma GCC unroll 8
		for (int run = 0; run < 8; run++) {
#pragma GCC unroll 8
			for (int i = 8 * run; i < 8 * run + 8; i++) {
				/* The next step's constant, for every group. */
				V knext = (V){ 0 } + k[(i + 1) % 64];

#pragma GCC unroll 2
				for (int g = 0; g < 2; g++) if (g < groups) {
					V t = e[g];

					/* The next early sum takes d (its a)
					 * first: d then dies in f. */
					a[g] = d[g];
					if (i < 63)
						e[g] = ISA(early)(i + 1, d[g], knext, x[g]);
					t = ISA(step)(i, t, b[g], c[g], d[g]);
					d[g] = c[g], c[g] = b[g], b[g] = t;
				}
			}
			if (groups == 2 || run % 2 == 1) {
				int g = groups == 2 ? run % 2 : 0;

				ISA(load_quad)(next[g], p + g * W, off, ahead, 4 * (run / 2));
			}
		}
#pragma GCC unroll 2
		for (int g = 0; g < 2; g++) if (g < groups) {
			s[g][0] += a[g], s[g][1] += b[g];
			s[g][2] += c[g], s[g][3] += d[g];
		}
	}
	for (int g = 0; g < 2; g++) if (g < groups) {
		ISA(transpose)(s[g]);
		ISA(state)(s[g], state + g * W, 1);
	}
}

#undef V
#undef W
#undef ISA
#undef INLINE
#undef K
#undef OWN_ROUND
#undef OWN_ROWS
#undef SCRATCH
