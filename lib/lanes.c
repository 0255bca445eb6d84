/* lanes.c - MD5 over several independent block streams at once, one stream
 * per SIMD lane.  See lanes.h for the API.
 *
 * Every engine is md5_block of md5.c with each 32-bit word widened to a
 * vector that holds that word for every lane: the same 64 steps from
 * md5_steps.h, the same order of additions, the loop unrolled completely so
 * that the tables fold away: message words and rotations into the code,
 * round constants into constants or, where that is cheaper, into loads
 * from fixed addresses (sine_in_memory).  MD5 is one long chain of dependent
 * steps, so a single stream leaves most of a core idle; lanes fill it.  The
 * "x2" engines go further and interleave two groups of lanes step by step,
 * so that one group's step runs while the other's waits on latency.
 *
 * Blocks arrive lane by lane and the steps want word j of every lane in one
 * vector, so each block is transposed on loading: four rows of four words,
 * from four lanes, become four vectors of one word each with eight unpacks
 * (transpose4 below).  Wider vectors carry the rows of further lanes in
 * their upper 128-bit parts, so one such transpose serves all of them.  The
 * state is transposed the same way, once per call.
 *
 * Whole functions sit under #if.  On x86-64 the engines beyond SSE2 are
 * compiled with per-function target attributes and chosen at run time, so
 * the file needs no -m flags and the program runs on any x86-64.
 * MD5_LANES_SMALL keeps only sse2 there, which every x86-64 runs, for a
 * small binary (make static): each of the others costs 4 to 9 KiB of
 * code. */
#include <string.h>

#include "lanes.h"
#include "md5.h"
#include "md5_steps.h"

/* Which SIMD engines this build has, if any. */
#if defined(__x86_64__) && defined(__GNUC__)
#define X86_ENGINES 1
#elif defined(__aarch64__) && defined(__ARM_NEON) && defined(__GNUC__) && \
	defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define NEON_ENGINES 1
#endif

/* Every machine: one lane, the scalar transform itself. */
static void scalar_blocks(uint32_t (*state)[4], const uint8_t *const *p,
			  size_t nblocks)
{
	md5_blocks(state[0], p[0], nblocks);
}

static const struct md5_engine scalar_engine = { "scalar", 1, scalar_blocks };

#if defined(X86_ENGINES) || defined(NEON_ENGINES)
/* md5_sine, at an address the compiler cannot see through.  The steps then
 * broadcast their constants straight from memory, which costs a load and
 * no arithmetic; with known constants GCC 12 builds each AVX vector in an
 * integer register and moves it over (two more vector operations a step),
 * and clang builds NEON ones the same way.  Taken once per block, so that
 * the compilers do not hoist 64 vectors out of the block loop onto the
 * stack instead. */
static inline const uint32_t *sine_in_memory(void)
{
	const uint32_t *k = md5_sine;

	__asm__("" : "+r"(k));
	return k;
}
#endif

#if defined(X86_ENGINES)
#include <cpuid.h>
#include <immintrin.h>

/* PIN of md5.c for a value in a vector register: the compiler must finish
 * x here, in the order written, instead of re-associating the sum it
 * belongs to.  Each step adds a, the constant and the message word first,
 * then pins them, so that the round function of b is added last. */
#define VPIN(x) __asm__("" : "+v"(x))

/* ---- SSE2: four lanes a vector; every x86-64 has it. ---- */

#define SSE2 static inline __attribute__((always_inline))

SSE2 __m128i sse2_add(__m128i x, __m128i y)
{
	return _mm_add_epi32(x, y);
}

SSE2 __m128i sse2_rol(__m128i x, int s)
{
	return _mm_or_si128(_mm_slli_epi32(x, s), _mm_srli_epi32(x, 32 - s));
}

/* Step i of md5_block on four lanes; ~d is d ^ all ones.  SSE2 cannot
 * broadcast from memory, so here the constants stay known and come from
 * the constant pool whole. */
SSE2 __m128i sse2_step(int i, __m128i a, __m128i b, __m128i c, __m128i d,
		       __m128i x)
{
	__m128i t = sse2_add(sse2_add(a, _mm_set1_epi32((int)md5_sine[i])), x);

	VPIN(t);
	switch (i / 16) {
	case 0:	/* F = d ^ (b & (c ^ d)) */
		t = sse2_add(t, _mm_xor_si128(d, _mm_and_si128(b,
					      _mm_xor_si128(c, d))));
		break;
	case 1:	/* G = (c & ~d) + (b & d) */
		t = sse2_add(t, _mm_andnot_si128(d, c));
		VPIN(t);
		t = sse2_add(t, _mm_and_si128(b, d));
		break;
	case 2:	/* H = b ^ c ^ d */
		t = sse2_add(t, _mm_xor_si128(b, _mm_xor_si128(c, d)));
		break;
	default: /* I = c ^ (b | ~d) */
		t = sse2_add(t, _mm_xor_si128(c, _mm_or_si128(b,
			     _mm_xor_si128(d, _mm_set1_epi32(-1)))));
		break;
	}
	return sse2_add(b, sse2_rol(t, md5_shift[i]));
}

/* Transpose a 4x4 matrix of words held as four rows, in each 128-bit part
 * of the vectors at once: afterwards v[k] holds word k of rows 0..3. */
SSE2 void sse2_transpose4(__m128i v[4])
{
	__m128i t0 = _mm_unpacklo_epi32(v[0], v[1]);
	__m128i t1 = _mm_unpackhi_epi32(v[0], v[1]);
	__m128i t2 = _mm_unpacklo_epi32(v[2], v[3]);
	__m128i t3 = _mm_unpackhi_epi32(v[2], v[3]);

	v[0] = _mm_unpacklo_epi64(t0, t2);
	v[1] = _mm_unpackhi_epi64(t0, t2);
	v[2] = _mm_unpacklo_epi64(t1, t3);
	v[3] = _mm_unpackhi_epi64(t1, t3);
}

SSE2 __m128i sse2_load(const void *p)
{
	return _mm_loadu_si128((const __m128i *)p);
}

/* x[j] = word j of the block at offset off in lanes 0..3. */
SSE2 void sse2_load_block(__m128i x[16], const uint8_t *const *p, size_t off)
{
#pragma GCC unroll 4
	for (int j = 0; j < 16; j += 4) {
#pragma GCC unroll 4
		for (int r = 0; r < 4; r++)
			x[j + r] = sse2_load(p[r] + off + 4 * j);
		sse2_transpose4(x + j);
	}
}

/* groups of four lanes, interleaved step by step. */
SSE2 void sse2_run(int groups, uint32_t (*state)[4], const uint8_t *const *p,
		   size_t nblocks)
{
	__m128i s[2][4], x[2][16];

	for (int g = 0; g < groups; g++) {
		for (int r = 0; r < 4; r++)
			s[g][r] = sse2_load(state[4 * g + r]);
		sse2_transpose4(s[g]);
	}
	for (size_t n = 0; n < nblocks; n++) {
		__m128i a[2], b[2], c[2], d[2];

		for (int g = 0; g < groups; g++) {
			sse2_load_block(x[g], p + 4 * g, n * MD5_BLOCK_LENGTH);
			a[g] = s[g][0];
			b[g] = s[g][1];
			c[g] = s[g][2];
			d[g] = s[g][3];
		}
#pragma GCC unroll 64
		for (int i = 0; i < 64; i++) {
#pragma GCC unroll 2
			for (int g = 0; g < groups; g++) {
				__m128i t = sse2_step(i, a[g], b[g], c[g], d[g],
						      x[g][md5_word[i]]);
				a[g] = d[g];
				d[g] = c[g];
				c[g] = b[g];
				b[g] = t;
			}
		}
		for (int g = 0; g < groups; g++) {
			s[g][0] = sse2_add(s[g][0], a[g]);
			s[g][1] = sse2_add(s[g][1], b[g]);
			s[g][2] = sse2_add(s[g][2], c[g]);
			s[g][3] = sse2_add(s[g][3], d[g]);
		}
	}
	for (int g = 0; g < groups; g++) {
		sse2_transpose4(s[g]);
		for (int r = 0; r < 4; r++)
			_mm_storeu_si128((__m128i *)state[4 * g + r], s[g][r]);
	}
}

static void sse2_blocks(uint32_t (*state)[4], const uint8_t *const *p,
			size_t nblocks)
{
	sse2_run(1, state, p, nblocks);
}

#ifndef MD5_LANES_SMALL
static void sse2x2_blocks(uint32_t (*state)[4], const uint8_t *const *p,
			  size_t nblocks)
{
	sse2_run(2, state, p, nblocks);
}
#endif

/* ---- AVX2: eight lanes a vector, 0..3 in the lower 128 bits and 4..7 in
 * the upper. ---- */

#define AVX2 static inline __attribute__((always_inline, target("avx2")))

AVX2 __m256i avx2_add(__m256i x, __m256i y)
{
	return _mm256_add_epi32(x, y);
}

AVX2 __m256i avx2_rol(__m256i x, int s)
{
	return _mm256_or_si256(_mm256_slli_epi32(x, s),
			       _mm256_srli_epi32(x, 32 - s));
}

/* Step i of md5_block on eight lanes, k[i] its constant (sine_in_memory);
 * ~d is d ^ all ones. */
AVX2 __m256i avx2_step(int i, __m256i a, __m256i b, __m256i c, __m256i d,
		       __m256i x, const uint32_t *k)
{
	__m256i t = avx2_add(avx2_add(a, _mm256_set1_epi32((int)k[i])), x);

	VPIN(t);
	switch (i / 16) {
	case 0:	/* F = d ^ (b & (c ^ d)) */
		t = avx2_add(t, _mm256_xor_si256(d, _mm256_and_si256(b,
					_mm256_xor_si256(c, d))));
		break;
	case 1:	/* G = (c & ~d) + (b & d) */
		t = avx2_add(t, _mm256_andnot_si256(d, c));
		VPIN(t);
		t = avx2_add(t, _mm256_and_si256(b, d));
		break;
	case 2:	/* H = b ^ c ^ d */
		t = avx2_add(t, _mm256_xor_si256(b, _mm256_xor_si256(c, d)));
		break;
	default: /* I = c ^ (b | ~d) */
		t = avx2_add(t, _mm256_xor_si256(c, _mm256_or_si256(b,
			     _mm256_xor_si256(d, _mm256_set1_epi32(-1)))));
		break;
	}
	return avx2_add(b, avx2_rol(t, md5_shift[i]));
}

AVX2 void avx2_transpose4(__m256i v[4])
{
	__m256i t0 = _mm256_unpacklo_epi32(v[0], v[1]);
	__m256i t1 = _mm256_unpackhi_epi32(v[0], v[1]);
	__m256i t2 = _mm256_unpacklo_epi32(v[2], v[3]);
	__m256i t3 = _mm256_unpackhi_epi32(v[2], v[3]);

	v[0] = _mm256_unpacklo_epi64(t0, t2);
	v[1] = _mm256_unpackhi_epi64(t0, t2);
	v[2] = _mm256_unpacklo_epi64(t1, t3);
	v[3] = _mm256_unpackhi_epi64(t1, t3);
}

/* 16 bytes at lo in the lower half, 16 at hi in the upper. */
AVX2 __m256i avx2_load2(const void *lo, const void *hi)
{
	return _mm256_inserti128_si256(_mm256_castsi128_si256(sse2_load(lo)),
				       sse2_load(hi), 1);
}

/* x[j] = word j of the block at offset off in lanes 0..7. */
AVX2 void avx2_load_block(__m256i x[16], const uint8_t *const *p, size_t off)
{
#pragma GCC unroll 4
	for (int j = 0; j < 16; j += 4) {
#pragma GCC unroll 4
		for (int r = 0; r < 4; r++)
			x[j + r] = avx2_load2(p[r] + off + 4 * j,
					      p[r + 4] + off + 4 * j);
		avx2_transpose4(x + j);
	}
}

/* groups of eight lanes, interleaved step by step. */
AVX2 void avx2_run(int groups, uint32_t (*state)[4], const uint8_t *const *p,
		   size_t nblocks)
{
	__m256i s[2][4], x[2][16];

	for (int g = 0; g < groups; g++) {
		for (int r = 0; r < 4; r++)
			s[g][r] = avx2_load2(state[8 * g + r],
					     state[8 * g + r + 4]);
		avx2_transpose4(s[g]);
	}
	for (size_t n = 0; n < nblocks; n++) {
		const uint32_t *k = sine_in_memory();
		__m256i a[2], b[2], c[2], d[2];

		for (int g = 0; g < groups; g++) {
			avx2_load_block(x[g], p + 8 * g, n * MD5_BLOCK_LENGTH);
			a[g] = s[g][0];
			b[g] = s[g][1];
			c[g] = s[g][2];
			d[g] = s[g][3];
		}
#pragma GCC unroll 64
		for (int i = 0; i < 64; i++) {
#pragma GCC unroll 2
			for (int g = 0; g < groups; g++) {
				__m256i t = avx2_step(i, a[g], b[g], c[g], d[g],
						      x[g][md5_word[i]], k);
				a[g] = d[g];
				d[g] = c[g];
				c[g] = b[g];
				b[g] = t;
			}
		}
		for (int g = 0; g < groups; g++) {
			s[g][0] = avx2_add(s[g][0], a[g]);
			s[g][1] = avx2_add(s[g][1], b[g]);
			s[g][2] = avx2_add(s[g][2], c[g]);
			s[g][3] = avx2_add(s[g][3], d[g]);
		}
	}
	for (int g = 0; g < groups; g++) {
		avx2_transpose4(s[g]);
		for (int r = 0; r < 4; r++) {
			_mm_storeu_si128((__m128i *)state[8 * g + r],
					 _mm256_castsi256_si128(s[g][r]));
			_mm_storeu_si128((__m128i *)state[8 * g + r + 4],
					 _mm256_extracti128_si256(s[g][r], 1));
		}
	}
}

#ifndef MD5_LANES_SMALL
__attribute__((target("avx2")))
static void avx2_blocks(uint32_t (*state)[4], const uint8_t *const *p,
			size_t nblocks)
{
	avx2_run(1, state, p, nblocks);
}

__attribute__((target("avx2")))
static void avx2x2_blocks(uint32_t (*state)[4], const uint8_t *const *p,
			  size_t nblocks)
{
	avx2_run(2, state, p, nblocks);
}

/* ---- AVX-512F: sixteen lanes a vector, 4q..4q+3 in the q-th 128-bit
 * quarter.  A rotate is one instruction, and so is each round function:
 * vpternlogd computes any function of three inputs from its truth table,
 * and that table is the function itself applied to the truth tables of
 * the inputs, TB, TC and TD below.  Two interleaved groups measured slower
 * than one. ---- */

#define AVX512 static inline __attribute__((always_inline, target("avx512f")))

enum { TB = 0xf0, TC = 0xcc, TD = 0xaa };

#define TERNLOG(b, c, d, f) _mm512_ternarylogic_epi32(b, c, d, (f) & 0xff)

AVX512 __m512i avx512_add(__m512i x, __m512i y)
{
	return _mm512_add_epi32(x, y);
}

/* Step i of md5_block on sixteen lanes, k[i] its constant. */
AVX512 __m512i avx512_step(int i, __m512i a, __m512i b, __m512i c, __m512i d,
			   __m512i x, const uint32_t *k)
{
	__m512i t = avx512_add(avx512_add(a, _mm512_set1_epi32((int)k[i])), x);

	VPIN(t);
	switch (i / 16) {
	case 0:
		t = avx512_add(t, TERNLOG(b, c, d, TD ^ (TB & (TC ^ TD))));
		break;
	case 1:
		t = avx512_add(t, TERNLOG(b, c, d, (TB & TD) | (TC & ~TD)));
		break;
	case 2:
		t = avx512_add(t, TERNLOG(b, c, d, TB ^ TC ^ TD));
		break;
	default:
		t = avx512_add(t, TERNLOG(b, c, d, TC ^ (TB | ~TD)));
		break;
	}
	/* vprold wants its count as a constant expression, which clang
	 * insists on and md5_shift[i] is not; the variable-count form is
	 * one instruction too (vprold from clang, vprolvd from GCC). */
	return avx512_add(b, _mm512_rolv_epi32(t,
					       _mm512_set1_epi32(md5_shift[i])));
}

AVX512 void avx512_transpose4(__m512i v[4])
{
	__m512i t0 = _mm512_unpacklo_epi32(v[0], v[1]);
	__m512i t1 = _mm512_unpackhi_epi32(v[0], v[1]);
	__m512i t2 = _mm512_unpacklo_epi32(v[2], v[3]);
	__m512i t3 = _mm512_unpackhi_epi32(v[2], v[3]);

	v[0] = _mm512_unpacklo_epi64(t0, t2);
	v[1] = _mm512_unpackhi_epi64(t0, t2);
	v[2] = _mm512_unpacklo_epi64(t1, t3);
	v[3] = _mm512_unpackhi_epi64(t1, t3);
}

/* 16 bytes at off from each of p[0], p[4], p[8] and p[12], in order. */
AVX512 __m512i avx512_load4(const uint8_t *const *p, size_t off)
{
	__m512i v = _mm512_castsi128_si512(sse2_load(p[0] + off));

	v = _mm512_inserti32x4(v, sse2_load(p[4] + off), 1);
	v = _mm512_inserti32x4(v, sse2_load(p[8] + off), 2);
	return _mm512_inserti32x4(v, sse2_load(p[12] + off), 3);
}

/* The quarters of v to state[0], state[4], state[8] and state[12]. */
AVX512 void avx512_store4(uint32_t (*state)[4], __m512i v)
{
	_mm_storeu_si128((__m128i *)state[0], _mm512_castsi512_si128(v));
	_mm_storeu_si128((__m128i *)state[4], _mm512_extracti32x4_epi32(v, 1));
	_mm_storeu_si128((__m128i *)state[8], _mm512_extracti32x4_epi32(v, 2));
	_mm_storeu_si128((__m128i *)state[12], _mm512_extracti32x4_epi32(v, 3));
}

/* x[j] = word j of the block at offset off in lanes 0..15. */
AVX512 void avx512_load_block(__m512i x[16], const uint8_t *const *p,
			      size_t off)
{
#pragma GCC unroll 4
	for (int j = 0; j < 16; j += 4) {
#pragma GCC unroll 4
		for (int r = 0; r < 4; r++)
			x[j + r] = avx512_load4(p + r, off + 4 * (size_t)j);
		avx512_transpose4(x + j);
	}
}

__attribute__((target("avx512f")))
static void avx512_blocks(uint32_t (*state)[4], const uint8_t *const *p,
			  size_t nblocks)
{
	const uint8_t *sp[16];
	__m512i s[4], x[16];

	for (int r = 0; r < 16; r++)
		sp[r] = (const uint8_t *)state[r];
	for (int r = 0; r < 4; r++)
		s[r] = avx512_load4(sp + r, 0);
	avx512_transpose4(s);
	for (size_t n = 0; n < nblocks; n++) {
		const uint32_t *k = sine_in_memory();
		__m512i a = s[0], b = s[1], c = s[2], d = s[3];

		avx512_load_block(x, p, n * MD5_BLOCK_LENGTH);
#pragma GCC unroll 64
		for (int i = 0; i < 64; i++) {
			__m512i t = avx512_step(i, a, b, c, d,
						x[md5_word[i]], k);
			a = d;
			d = c;
			c = b;
			b = t;
		}
		s[0] = avx512_add(s[0], a);
		s[1] = avx512_add(s[1], b);
		s[2] = avx512_add(s[2], c);
		s[3] = avx512_add(s[3], d);
	}
	avx512_transpose4(s);
	for (int r = 0; r < 4; r++)
		avx512_store4(state + r, s[r]);
}

#endif /* MD5_LANES_SMALL */

static const struct md5_engine sse2_engine = { "sse2", 4, sse2_blocks };

/* Fastest first, as measured on an AMD EPYC (Zen 4).  Each engine needs
 * all the CPU features of those after it, so the ones a CPU runs are a
 * tail of the list. */
#ifndef MD5_LANES_SMALL
static const struct md5_engine avx2_engine = { "avx2", 8, avx2_blocks };
static const struct md5_engine sse2x2_engine = { "sse2x2", 8, sse2x2_blocks };
static const struct md5_engine avx2x2_engine = { "avx2x2", 16, avx2x2_blocks };
static const struct md5_engine avx512_engine = { "avx512", 16, avx512_blocks };

static const struct md5_engine *const engines[] = {
	&avx512_engine, &avx2x2_engine, &avx2_engine,
	&sse2x2_engine, &sse2_engine, &scalar_engine, NULL,
};
#else
static const struct md5_engine *const engines[] = {
	&sse2_engine, &scalar_engine, NULL,
};
#endif

enum { HAVE_AVX2 = 1, HAVE_AVX512F = 2 };

/* AVX2 and AVX-512F, when both the CPU and the OS have them: the OS must
 * save the wider registers on a context switch, which XCR0 tells (bits
 * 1-2 for AVX, 5-7 for AVX-512).  By hand rather than with
 * __builtin_cpu_supports, whose run-time part costs 5 KiB statically. */
static unsigned x86_features(void)
{
	unsigned a, b, c, d, xcr0, have = 0;

	if (!__get_cpuid(1, &a, &b, &c, &d) || !(c & bit_OSXSAVE))
		return 0;
	__asm__("xgetbv" : "=a"(xcr0), "=d"(d) : "c"(0));
	if (!__get_cpuid_count(7, 0, &a, &b, &c, &d))
		return 0;
	if ((xcr0 & 0x06) == 0x06 && (b & bit_AVX2))
		have |= HAVE_AVX2;
	if ((xcr0 & 0xe6) == 0xe6 && (b & bit_AVX512F))
		have |= HAVE_AVX512F;
	return have;
}

/* The engines called "avx..." need AVX2, and "avx512" AVX-512F too; by
 * name, so that this holds whichever engines the build has. */
static int runs_here(const struct md5_engine *e)
{
	unsigned have;

	if (strncmp(e->name, "avx", 3) != 0)
		return 1;
	have = x86_features();
	if (!(have & HAVE_AVX2))
		return 0;
	return strcmp(e->name, "avx512") != 0 || (have & HAVE_AVX512F);
}

#elif defined(NEON_ENGINES)
#include <arm_neon.h>

/* ---- aarch64 NEON, always present: four lanes a vector.  Compiled with
 * clang --target=aarch64-linux-gnu, never run or measured. ---- */

#define NEON static inline __attribute__((always_inline))

/* PIN of md5.c for a value in a vector register. */
#define VPIN(x) __asm__("" : "+w"(x))

/* With the GNU vector operators: the shift intrinsics want their counts
 * as constant expressions, which md5_shift[i] is not. */
NEON uint32x4_t neon_rol(uint32x4_t x, int s)
{
	return x << s | x >> (32 - s);
}

/* Step i of md5_block on four lanes, k[i] its constant (sine_in_memory).
 * F and G are bit selects: F takes c where b is set and d elsewhere, G
 * takes b where d is set and c elsewhere. */
NEON uint32x4_t neon_step(int i, uint32x4_t a, uint32x4_t b, uint32x4_t c,
			  uint32x4_t d, uint32x4_t x, const uint32_t *k)
{
	uint32x4_t t = vaddq_u32(vaddq_u32(a, vld1q_dup_u32(k + i)), x);

	VPIN(t);
	switch (i / 16) {
	case 0:	/* F */
		t = vaddq_u32(t, vbslq_u32(b, c, d));
		break;
	case 1:	/* G */
		t = vaddq_u32(t, vbslq_u32(d, b, c));
		break;
	case 2:	/* H = b ^ c ^ d */
		t = vaddq_u32(t, veorq_u32(b, veorq_u32(c, d)));
		break;
	default: /* I = c ^ (b | ~d) */
		t = vaddq_u32(t, veorq_u32(c, vornq_u32(b, d)));
		break;
	}
	return vaddq_u32(b, neon_rol(t, md5_shift[i]));
}

/* The even (odd 0) or odd (odd 1) 64-bit halves of x and y. */
NEON uint32x4_t neon_trn64(uint32x4_t x, uint32x4_t y, int odd)
{
	uint64x2_t u = vreinterpretq_u64_u32(x), v = vreinterpretq_u64_u32(y);

	return vreinterpretq_u32_u64(odd ? vtrn2q_u64(u, v) : vtrn1q_u64(u, v));
}

/* Four rows to four columns, as sse2_transpose4. */
NEON void neon_transpose4(uint32x4_t v[4])
{
	uint32x4_t t0 = vtrn1q_u32(v[0], v[1]);
	uint32x4_t t1 = vtrn2q_u32(v[0], v[1]);
	uint32x4_t t2 = vtrn1q_u32(v[2], v[3]);
	uint32x4_t t3 = vtrn2q_u32(v[2], v[3]);

	v[0] = neon_trn64(t0, t2, 0);
	v[1] = neon_trn64(t1, t3, 0);
	v[2] = neon_trn64(t0, t2, 1);
	v[3] = neon_trn64(t1, t3, 1);
}

/* x[j] = word j of the block at offset off in lanes 0..3. */
NEON void neon_load_block(uint32x4_t x[16], const uint8_t *const *p,
			  size_t off)
{
#pragma GCC unroll 4
	for (int j = 0; j < 16; j += 4) {
#pragma GCC unroll 4
		for (int r = 0; r < 4; r++)
			x[j + r] = vreinterpretq_u32_u8(
				vld1q_u8(p[r] + off + 4 * j));
		neon_transpose4(x + j);
	}
}

static void neon_blocks(uint32_t (*state)[4], const uint8_t *const *p,
			size_t nblocks)
{
	uint32x4_t s[4], x[16];

	for (int r = 0; r < 4; r++)
		s[r] = vld1q_u32(state[r]);
	neon_transpose4(s);
	for (size_t n = 0; n < nblocks; n++) {
		const uint32_t *k = sine_in_memory();
		uint32x4_t a = s[0], b = s[1], c = s[2], d = s[3];

		neon_load_block(x, p, n * MD5_BLOCK_LENGTH);
#pragma GCC unroll 64
		for (int i = 0; i < 64; i++) {
			uint32x4_t t = neon_step(i, a, b, c, d,
						 x[md5_word[i]], k);
			a = d;
			d = c;
			c = b;
			b = t;
		}
		s[0] = vaddq_u32(s[0], a);
		s[1] = vaddq_u32(s[1], b);
		s[2] = vaddq_u32(s[2], c);
		s[3] = vaddq_u32(s[3], d);
	}
	neon_transpose4(s);
	for (int r = 0; r < 4; r++)
		vst1q_u32(state[r], s[r]);
}

static const struct md5_engine neon_engine = { "neon", 4, neon_blocks };

static const struct md5_engine *const engines[] = {
	&neon_engine, &scalar_engine, NULL,
};

static int runs_here(const struct md5_engine *e)
{
	(void)e;
	return 1;
}

#else

static const struct md5_engine *const engines[] = { &scalar_engine, NULL };

static int runs_here(const struct md5_engine *e)
{
	(void)e;
	return 1;
}

#endif

const struct md5_engine *const *md5_engines(void)
{
	const struct md5_engine *const *e = engines;

	while (!runs_here(*e))
		e++;
	return e;
}

const struct md5_engine *md5_engine_pick(const char *name)
{
	for (const struct md5_engine *const *e = md5_engines(); *e; e++)
		if (name == NULL || strcmp((*e)->name, name) == 0)
			return *e;
	return NULL;
}
