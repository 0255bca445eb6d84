/* lanes.c - MD5 over several independent block streams at once, one stream
 * per SIMD lane; see lanes.h.  The engine is lanes_engine.h: here each
 * instruction set gives it a vector type and what the sets do differently.
 * On x86-64 the engines beyond SSE2 have per-function target attributes,
 * chosen at run time; MD5_LANES_SMALL keeps only sse2 (make static). */
#include <string.h>

#include "md5_cpu.h"
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
	{ isa##_run(groups, s, p, n); }                                       \
	enum { name##_lanes = groups * isa##_width, name##_needs = needs };

static void scalar_blocks(uint32_t (*s)[4], const uint8_t *const *p, size_t n)
{
	md5_blocks(s[0], p[0], n);
}
enum { scalar_lanes = 1, scalar_needs = 0 };

#if defined(X86_ENGINES)
#include <immintrin.h>
typedef uint32_t v4 __attribute__((vector_size(16)));

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
 * is one vpternlogd on a copy of b, the word just made, as the operand that
 * is also the destination: on Zen 5 a value reaches the other two a cycle
 * later.  Fixed by asm, as clang would commute them to save the copy (a
 * move between registers, renamed away). */
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

/* Parts 1-3 by masked broadcasts, which either of AVX-512's two ports may
 * merge, where an insert would take the shuffle port the transpose needs. */
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

/* Each is chosen for some number of busy streams on some CPU, by the
 * speed tables (lanes_speeds.h), or where there is no AVX2. */
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
typedef uint32_t v4 __attribute__((vector_size(16)));

/* NEON: built by cross-compilers and run under qemu, not yet measured. */
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

/* The speed tables, measured (how engines compare differs between kinds
 * of CPU).  Fastest first; each engine needs all the features of those
 * after it, so that the ones a CPU runs are a tail (lanes_bench checks). */
#define ROW(name, speed)                                                      \
	&(const struct md5_engine){ #name, name##_lanes, name##_blocks,       \
				    name##_needs, speed }

#if defined(X86_ENGINES) && !defined(MD5_LANES_SMALL)
#include "lanes_speeds.h"
#endif

/* No figures (other CPUs): one call of the narrowest engine that holds the
 * streams, a call of width w costing 1 + log2(w) / 10 (speed 100 w / that). */
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

const struct md5_engine *const *md5_engines_of(unsigned have)
{
	const struct md5_engine *const *e = unmeasured;

#if defined(X86_ENGINES) && !defined(MD5_LANES_SMALL)
	if ((have & CPU_INTEL) && (have & CPU_AVX512F))
		e = intel_avx512;
	else if (have & CPU_AMD)
		e = have & CPU_AVX512F ? amd_avx512 : amd_avx2;
#endif
	while ((*e)->needs & ~have)
		e++;
	return e;
}

/* unmeasured lists every engine of the build: where its first needs
 * nothing of the CPU, none does, and nothing is probed. */
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

/* The cheapest calls for m <= n streams: cost[m], the seconds they take to
 * hash 1 MB a lane, times 2^32, and first[m], the engine of the first, which
 * it returns for n.  An engine at a time, as in a knapsack; a later one
 * wins only when faster. */
struct plan {
	uint64_t cost[MD5_LANES_MAX + 1];
	const struct md5_engine *first[MD5_LANES_MAX + 1];
};

static const struct md5_engine *plan(const struct md5_engine *const *e,
				     unsigned n, struct plan *p)
{
	p->cost[0] = 0;
	p->first[0] = NULL;
	for (unsigned m = 1; m <= n; m++)
		p->cost[m] = UINT64_MAX, p->first[m] = NULL;
	for (; *e; e++) {
		unsigned w = (*e)->width;
		uint64_t call = ((uint64_t)w << 32) / ((*e)->speed ? (*e)->speed : 1);

		for (unsigned m = 1; m <= n; m++) {
			uint64_t cost = call + p->cost[m > w ? m - w : 0];

			if (cost < p->cost[m])
				p->cost[m] = cost, p->first[m] = *e;
		}
	}
	return p->first[n];
}

const struct md5_engine *md5_engine_for(const struct md5_engine *const *e,
					unsigned n)
{
	struct plan p;

	return plan(e, n < MD5_LANES_MAX ? n : MD5_LANES_MAX, &p);
}

unsigned md5_lanes_width(const struct md5_engine *const *e)
{
	struct plan p;
	unsigned best = 0;

	plan(e, MD5_LANES_MAX, &p);
	/* m / cost[m] above best's, as products: costs stay below 2^43. */
	for (unsigned m = 1; m <= MD5_LANES_MAX && p.first[m]; m++)
		if (best == 0 || m * p.cost[best] > best * p.cost[m])
			best = m;
	return best;
}

unsigned md5_lanes_speed(const struct md5_engine *const *e, unsigned n)
{
	struct plan p;

	if (n == 0 || n > MD5_LANES_MAX || plan(e, n, &p) == NULL)
		return 0;
	return (unsigned)(((uint64_t)n << 32) / p.cost[n]);
}
