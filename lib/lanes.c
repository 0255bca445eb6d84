/* lanes.c - MD5 over several independent block streams at once, one stream
 * per SIMD lane; see lanes.h.  The engine is lanes_engine.h, written once:
 * here each instruction set gives it a vector type and what the sets do
 * differently.  On x86-64 the engines beyond SSE2 have per-function target
 * attributes and are chosen at run time, so the program runs on any x86-64;
 * MD5_LANES_SMALL keeps only sse2, for a small binary (make static). */
#include <string.h>

#include "cpu.h"
#include "lanes.h"
#include "md5.h"
#include "md5_steps.h"

#if defined(__x86_64__) && defined(__GNUC__)
#define X86_ENGINES 1
#elif defined(__aarch64__) && defined(__ARM_NEON) && defined(__GNUC__) && \
	defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define NEON_ENGINES 1
#endif

/* An engine of groups of isa's lanes, interleaved: its blocks function,
 * its lanes and what it needs of the CPU. */
#define ENGINE(name, isa, groups, needs, target)                              \
	target static void name##_blocks(uint32_t (*s)[4],                    \
					 const uint8_t *const *p, size_t n)    \
	{                                                                     \
		isa##_run(groups, s, p, n);                                   \
	}                                                                     \
	enum { name##_lanes = groups * isa##_width, name##_needs = needs };

static void scalar_blocks(uint32_t (*s)[4], const uint8_t *const *p, size_t n)
{
	md5_blocks(s[0], p[0], n);
}

enum { scalar_lanes = 1, scalar_needs = 0 };

#if defined(X86_ENGINES) || defined(NEON_ENGINES)
typedef uint32_t v4 __attribute__((vector_size(16)));
#endif

#if defined(X86_ENGINES)
#include <immintrin.h>

#define VPIN(x) __asm__("" : "+v"(x))	/* PIN of md5.c, for a vector */
#define LOAD16(p) _mm_loadu_si128((const __m128i *)(p))

/* The unpacks of an x86 instruction set: its type M, its prefix P. */
#define X86_ZIP(isa, M, P)                                                   \
	INLINE V isa##_zip(V x, V y, int size, int hi)                       \
	{                                                                    \
		M a = (M)x, b = (M)y;                                        \
		if (size == 4)                                               \
			return (V)(hi ? P##unpackhi_epi32(a, b) : P##unpacklo_epi32(a, b)); \
		return (V)(hi ? P##unpackhi_epi64(a, b) : P##unpacklo_epi64(a, b)); \
	}

/* SSE2, on every x86-64.  It cannot broadcast from memory, so its
 * constants stay known and come from the constant pool whole. */
#define V v4
#define ISA(name) sse2_##name
#define INLINE static inline __attribute__((always_inline))
#define K() md5_sine
#define SCRATCH

X86_ZIP(sse2, __m128i, _mm_)
#include "lanes_engine.h"

#ifndef MD5_LANES_SMALL
/* AVX2: lanes 0..3 in the lower 128 bits, 4..7 in the upper. */
typedef uint32_t v8 __attribute__((vector_size(32)));
#define V v8
#define ISA(name) avx2_##name
#define INLINE static inline __attribute__((always_inline, target("avx2")))
#define K() md5_sine_in_memory()
#define SCRATCH

#define OWN_ROWS

INLINE v8 avx2_rows(const uint8_t *const *p, size_t off)
{
	return (v8)_mm256_set_m128i(LOAD16(p[4] + off), LOAD16(p[0] + off));
}

X86_ZIP(avx2, __m256i, _mm256_)
#include "lanes_engine.h"

/* AVX-512F: lanes 4q..4q+3 in the q-th 128-bit part.  Each round function
 * is one vpternlogd on a copy of b, the word just made, as the operand
 * that is also the destination: on AMD's Zen 5 a value reaches the other
 * two a cycle later, a cycle more on each step's path.  The operands are
 * fixed by asm, as clang would commute them to save the copy (which costs
 * no time: a move between registers is renamed away). */
typedef uint32_t v16 __attribute__((vector_size(64)));
#define V v16
#define ISA(name) avx512_##name
#define INLINE static inline __attribute__((always_inline, target("avx512f")))
#define K() md5_sine_in_memory()
#define SCRATCH static _Thread_local
#define OWN_ROUND
#define OWN_ROWS
#define TERNLOG(f) __asm__("vpternlogd %3, %2, %1, %0" : "+v"(b) \
		: "v"(c), "v"(d), "n"(MD5_TERNLOG_##f))

/* Parts 1-3 by masked broadcasts from memory, which either port of
 * AVX-512's two may merge, where an insert takes the shuffle port the
 * transpose needs. */
INLINE v16 avx512_rows(const uint8_t *const *p, size_t off)
{
	__m512i v = _mm512_castsi128_si512(LOAD16(p[0] + off));

	v = _mm512_mask_broadcast_i32x4(v, 0x00f0, LOAD16(p[4] + off));
	v = _mm512_mask_broadcast_i32x4(v, 0x0f00, LOAD16(p[8] + off));
	return (v16)_mm512_mask_broadcast_i32x4(v, 0xf000, LOAD16(p[12] + off));
}

INLINE v16 avx512_round(int i, v16 t, v16 b, v16 c, v16 d)
{
	switch (i / 16) {
	case 0:	TERNLOG(F); break;
	case 1:	TERNLOG(G); break;
	case 2:	TERNLOG(H); break;
	default: TERNLOG(I); break;
	}
	return t + b;
}

X86_ZIP(avx512, __m512i, _mm512_)
#include "lanes_engine.h"

/* Each is the one chosen for some number of busy streams on some CPU:
 * by the speed tables (lanes_speeds.h), or sse2x2 and sse2 where there is
 * no AVX2. */
#define T512 __attribute__((target("avx512f")))
ENGINE(avx512x2, avx512, 2, CPU_AVX512F | CPU_AVX2, T512)
ENGINE(avx512, avx512, 1, CPU_AVX512F | CPU_AVX2, T512)
ENGINE(avx2x2, avx2, 2, CPU_AVX2, __attribute__((target("avx2"))))
ENGINE(avx2, avx2, 1, CPU_AVX2, __attribute__((target("avx2"))))
ENGINE(sse2x2, sse2, 2, 0, )
#endif /* MD5_LANES_SMALL */
ENGINE(sse2, sse2, 1, 0, )

#elif defined(NEON_ENGINES)
#include <arm_neon.h>

/* NEON.  Built by aarch64 cross-compilers and run under qemu-aarch64; not
 * yet measured on hardware. */
#define VPIN(x) __asm__("" : "+w"(x))
#define V v4
#define ISA(name) neon_##name
#define INLINE static inline __attribute__((always_inline))
#define K() md5_sine_in_memory()
#define SCRATCH
#define OWN_ROUND

INLINE v4 neon_zip(v4 x, v4 y, int size, int hi)
{
	uint64x2_t a = vreinterpretq_u64_u32(x), b = vreinterpretq_u64_u32(y);

	if (size == 4)
		return hi ? vzip2q_u32(x, y) : vzip1q_u32(x, y);
	return vreinterpretq_u32_u64(hi ? vzip2q_u64(a, b) : vzip1q_u64(a, b));
}

/* F takes c where b is set and d elsewhere, G b where d is set. */
INLINE v4 neon_round(int i, v4 t, v4 b, v4 c, v4 d)
{
	switch (i / 16) {
	case 0:	return t + vbslq_u32(b, c, d);
	case 1:	return t + vbslq_u32(d, b, c);
	case 2:	return t + (b ^ c ^ d);
	default: return t + (c ^ vornq_u32(b, d));
	}
}

#include "lanes_engine.h"
ENGINE(neon, neon, 1, CPU_NEON, )

#endif

/* The speed tables (lanes_speeds.h, as bench/lanes_bench --table prints
 * them): for each kind of CPU with figures, its engines with the MB/s each
 * hashes with every lane busy, on one core.  Measured, not modelled: how
 * the engines compare differs from one kind of CPU to another (the ports
 * for wide vectors, the cycles of a vector rotate), and only running them
 * tells.  Only the ratios within a table count, so a table holds the
 * figures of one run, which its block tells of.  Fastest first, so that
 * the first engine a CPU runs is its fastest (md5_engine_pick); each
 * needs all the features of those after it, so that the ones a CPU runs
 * are a tail (md5_engines), which lanes_bench checks of what it measured.
 * Another kind of CPU gets a table by adding what lanes_bench prints there
 * and a line in table() below. */
#define ROW(name, speed)                                                      \
	&(const struct md5_engine){ #name, name##_lanes, name##_blocks,       \
				    name##_needs, speed }

#if defined(X86_ENGINES) && !defined(MD5_LANES_SMALL)
#include "lanes_speeds.h"
#endif

/* No figures (other CPUs: Intel without AVX-512, AArch64):
 * not measurements, but what makes md5_engine_for take one call of the
 * narrowest engine that holds the streams, the choice made before there
 * were figures: a call of width w costs 1 + log2(w) / 10, so that wider
 * costs a little more and two calls more than any one; speed 100 w / (1 +
 * log2(w) / 10), the same for the same width (the first listed wins). */
enum { W1 = 100, W4 = 333, W8 = 615, W16 = 1143, W32 = 2133 };

static const struct md5_engine *const unmeasured[] = {
#if defined(X86_ENGINES) && !defined(MD5_LANES_SMALL)
	ROW(avx512x2, W32), ROW(avx512, W16), ROW(avx2x2, W16), ROW(avx2, W8),
	ROW(sse2x2, W8),
#endif
#if defined(X86_ENGINES)
	ROW(sse2, W4),
#elif defined(NEON_ENGINES)
	ROW(neon, W4),
#endif
	ROW(scalar, W1), NULL,
};

/* The table of a CPU with the features have. */
static const struct md5_engine *const *table(unsigned have)
{
#if defined(X86_ENGINES) && !defined(MD5_LANES_SMALL)
	if ((have & CPU_INTEL) && (have & CPU_AVX512F))
		return intel_avx512;
	if ((have & CPU_AMD) && (have & CPU_AVX512F))
		return amd_avx512;
	if ((have & CPU_AMD) && !(have & CPU_AVX512F))
		return amd_avx2;
#else
	(void)have;
#endif
	return unmeasured;
}

const struct md5_engine *const *md5_engines_of(unsigned have)
{
	const struct md5_engine *const *e = table(have);

	while ((*e)->needs && ((*e)->needs & ~have))
		e++;
	return e;
}

/* unmeasured lists every engine of the build, so where its first needs
 * nothing of the CPU none does, there is no table of figures to choose
 * and nothing is probed (the small build: sse2 and scalar). */
const struct md5_engine *const *md5_engines(void)
{
	return md5_engines_of(unmeasured[0]->needs ? cpu_features() : 0);
}

const struct md5_engine *md5_engine_pick(const char *name)
{
	for (const struct md5_engine *const *e = md5_engines(); *e; e++)
		if (name == NULL || strcmp((*e)->name, name) == 0)
			return *e;
	return NULL;
}

/* The seconds a call of e takes to hash 1 MB in every lane, times 2^32. */
static uint64_t call_cost(const struct md5_engine *e)
{
	return ((uint64_t)e->width << 32) / (e->speed ? e->speed : 1);
}

/* cost[m] for m <= n: the least time the calls for m streams take; first[m]
 * the engine of the first such call.  An engine at a time, each taken for
 * as many calls as pay, as in a knapsack; a later engine replaces an
 * earlier one only when faster.  n at most MD5_LANES_MAX. */
static void plan(const struct md5_engine *const *e, unsigned n, uint64_t *cost,
		 const struct md5_engine **first)
{
	cost[0] = 0;
	first[0] = NULL;
	for (unsigned m = 1; m <= n; m++) {
		cost[m] = UINT64_MAX;
		first[m] = NULL;
	}
	for (; *e; e++) {
		uint64_t call = call_cost(*e);

		for (unsigned m = 1; m <= n; m++) {
			unsigned rest = m > (*e)->width ? m - (*e)->width : 0;

			if (call + cost[rest] < cost[m]) {
				cost[m] = call + cost[rest];
				first[m] = *e;
			}
		}
	}
}

const struct md5_engine *md5_engine_for(const struct md5_engine *const *e,
					unsigned n)
{
	uint64_t cost[MD5_LANES_MAX + 1];
	const struct md5_engine *first[MD5_LANES_MAX + 1];

	if (n > MD5_LANES_MAX)
		n = MD5_LANES_MAX;
	plan(e, n, cost, first);
	return first[n];
}

unsigned md5_lanes_width(const struct md5_engine *const *e)
{
	uint64_t cost[MD5_LANES_MAX + 1];
	const struct md5_engine *first[MD5_LANES_MAX + 1];
	unsigned best = 0;

	plan(e, MD5_LANES_MAX, cost, first);
	/* m / cost[m] above best's, as products: costs stay below 2^43. */
	for (unsigned m = 1; m <= MD5_LANES_MAX && first[m]; m++)
		if (best == 0 || m * cost[best] > best * cost[m])
			best = m;
	return best;
}

unsigned md5_lanes_speed(const struct md5_engine *const *e, unsigned n)
{
	uint64_t cost[MD5_LANES_MAX + 1];
	const struct md5_engine *first[MD5_LANES_MAX + 1];

	if (n == 0 || n > MD5_LANES_MAX)
		return 0;
	plan(e, n, cost, first);
	return first[n] ? (unsigned)(((uint64_t)n << 32) / cost[n]) : 0;
}
