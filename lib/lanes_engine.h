/* lanes_engine.h - the lane engine, written once for every instruction set.
 *
 * md5_block of md5.c with each word widened to a vector V of lanes: the
 * same steps from md5_steps.h, in the same order, unrolled so that the
 * tables fold into the code; `groups` sets of lanes interleave step by
 * step.  Blocks are transposed as they are loaded: rows of four words from
 * lanes r, r + 4, ... (one in each 128-bit part of V) become columns.
 *
 * lanes.c includes this once per instruction set, having defined V,
 * ISA(name) (that set's name for name), INLINE (always_inline, target),
 * K() (the step constants), VPIN(x) (x pinned to a vector register), and
 * ISA(zip)(x, y, size, hi): the low (hi 0) or high halves of each part of
 * x and y interleaved in units of size bytes.  With OWN_ROWS it gives
 * ISA(rows)(p, off), the 16 bytes at off from p[4q] in part q, and with
 * OWN_ROUND ISA(round), where it has better instructions than operators. */
#define W ((int)(sizeof(V) / sizeof(uint32_t)))

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

/* Step i of md5_block: a, the constant and the message word are summed
 * first and pinned, so that the round function of b is added last. */
INLINE V ISA(step)(int i, V a, V b, V c, V d, V x, const uint32_t *k)
{
	V t = a + k[i] + x;
	int s = md5_shift[i];

	VPIN(t);
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

/* x[j] = word j of the block at off in every lane. */
INLINE void ISA(load_block)(V x[16], const uint8_t *const *p, size_t off)
{
#pragma GCC unroll 4
	for (int j = 0; j < 16; j += 4) {
#pragma GCC unroll 4
		for (int r = 0; r < 4; r++)
			x[j + r] = ISA(rows)(p + r, off + 4 * (size_t)j);
		ISA(transpose)(x + j);
	}
}

/* Lane 4q + r's chaining words are part q of row r, as in a block: copy
 * them from state to the rows s, or back when out; through memory, being
 * done once a call. */
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
	V s[2][4], x[2][16], a[2], b[2], c[2], d[2];

	for (int g = 0; g < groups; g++) {
		ISA(state)(s[g], state + g * W, 0);
		ISA(transpose)(s[g]);
	}
	for (size_t n = 0; n < nblocks; n++) {
		const uint32_t *k = K();

		for (int g = 0; g < groups; g++) {
			ISA(load_block)(x[g], p + g * W, n * MD5_BLOCK_LENGTH);
			a[g] = s[g][0], b[g] = s[g][1], c[g] = s[g][2], d[g] = s[g][3];
		}
#pragma GCC unroll 64
		for (int i = 0; i < 64; i++) {
#pragma GCC unroll 2
			for (int g = 0; g < groups; g++) {
				V t = ISA(step)(i, a[g], b[g], c[g], d[g],
						x[g][md5_word[i]], k);
				a[g] = d[g], d[g] = c[g], c[g] = b[g], b[g] = t;
			}
		}
		for (int g = 0; g < groups; g++) {
			s[g][0] += a[g], s[g][1] += b[g];
			s[g][2] += c[g], s[g][3] += d[g];
		}
	}
	for (int g = 0; g < groups; g++) {
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
