/* lanes_test.c - check every block engine this CPU runs (lanes.h) against
 * the scalar md5_init/md5_update/md5_final, printing TAP.
 *
 * Each lane gets its own message, padded here into a whole-block stream
 * (RFC 1321 sections 3.1 and 3.2) that starts at a random misalignment.
 * The streams are fed to the engine in random runs of blocks, no longer
 * than the shortest unfinished stream; a finished lane is pointed at some
 * other lane's blocks and its state slot becomes scratch, the way a caller
 * keeps an engine busy while lanes finish at different times.  The seed is
 * fixed, so a failure repeats. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/md5_cpu.h"
#include "lib/lanes.h"
#include "run/lanecount.h"
#include "lib/md5.h"
#include "lib/md5_steps.h"
#include "tap.h"

enum {
	MAX_LENGTH = 100 * 1024,	/* longest random message */
	ROUNDS = 24,			/* random rounds per engine */
	ROUNDS_PER_TEST = 8,		/* rounds reported as one test */
};

static uint64_t rng_state = 0x6d6435206c616e65;

static uint64_t rng(void)
{
	return tap_random(&rng_state);
}

static size_t below(size_t n)
{
	return (size_t)(rng() % n);
}

static void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (p == NULL) {
		perror("lanes_test");
		exit(2);
	}
	return p;
}

/* One lane's message as a padded block stream. */
struct stream {
	uint8_t *alloc;		/* what to free */
	const uint8_t *blocks;	/* the stream, misaligned on purpose */
	size_t nblocks;
	size_t done;		/* blocks fed to the engine so far */
	uint8_t digest[MD5_DIGEST_LENGTH];	/* the engine's result */
	uint8_t expect[MD5_DIGEST_LENGTH];	/* md5_final's */
};

static void stream_init(struct stream *s, const uint8_t *msg, size_t len)
{
	size_t nblocks = (len + 8) / MD5_BLOCK_LENGTH + 1;
	size_t skew = below(MD5_BLOCK_LENGTH);
	uint64_t bits = (uint64_t)len << 3;
	uint8_t *b;
	struct md5 ctx;

	s->alloc = xmalloc(nblocks * MD5_BLOCK_LENGTH + skew);
	b = s->alloc + skew;
	memcpy(b, msg, len);
	b[len] = 0x80;
	memset(b + len + 1, 0, nblocks * MD5_BLOCK_LENGTH - len - 1);
	for (size_t k = 0; k < 8; k++)
		b[nblocks * MD5_BLOCK_LENGTH - 8 + k] = (uint8_t)(bits >> 8 * k);
	s->blocks = b;
	s->nblocks = nblocks;
	s->done = 0;

	md5_init(&ctx);
	md5_update(&ctx, msg, len);
	md5_final(&ctx, s->expect);
}

static void digest_of(uint8_t digest[MD5_DIGEST_LENGTH], const uint32_t w[4])
{
	for (int i = 0; i < 16; i++)
		digest[i] = (uint8_t)(w[i / 4] >> 8 * (i % 4));
}

/* Run engine e over its width streams until all are done; 1 when every
 * lane's digest matches md5_final's.  The chunks are random, at most the
 * blocks left in the shortest unfinished stream, and now and then 0. */
static int run_streams(const struct md5_engine *e, struct stream *s)
{
	unsigned w = e->width;
	uint32_t (*state)[4] = xmalloc(w * sizeof *state);
	const uint8_t **p = xmalloc(w * sizeof *p);
	int pass = 1;

	for (unsigned i = 0; i < w; i++)
		memcpy(state[i], md5_iv, sizeof state[i]);
	for (;;) {
		size_t least = SIZE_MAX, chunk;
		const uint8_t *busy = NULL;

		for (unsigned i = 0; i < w; i++) {
			if (s[i].done < s[i].nblocks &&
			    s[i].nblocks - s[i].done < least) {
				least = s[i].nblocks - s[i].done;
				busy = s[i].blocks + s[i].done * 64;
			}
		}
		if (busy == NULL)
			break;
		switch (below(4)) {
		case 0:
			chunk = least;
			break;
		case 1:
			chunk = below(2);
			break;
		default:
			chunk = 1 + below(least);
			break;
		}
		for (unsigned i = 0; i < w; i++)
			p[i] = s[i].done < s[i].nblocks ?
			       s[i].blocks + s[i].done * 64 : busy;
		e->blocks(state, p, chunk);
		for (unsigned i = 0; i < w; i++) {
			if (s[i].done >= s[i].nblocks)
				continue;
			s[i].done += chunk;
			if (s[i].done == s[i].nblocks)
				digest_of(s[i].digest, state[i]);
		}
	}
	for (unsigned i = 0; i < w; i++) {
		if (memcmp(s[i].digest, s[i].expect, MD5_DIGEST_LENGTH) != 0) {
			char got[MD5_DIGEST_STRING_LENGTH];
			char want[MD5_DIGEST_STRING_LENGTH];

			printf("# %s lane %u of %zu blocks: got %s, want %s\n",
			       e->name, i, s[i].nblocks,
			       md5_hex(s[i].digest, got),
			       md5_hex(s[i].expect, want));
			pass = 0;
		}
		free(s[i].alloc);
	}
	free(p);
	free(state);
	return pass;
}

/* Lane i hashes RFC vector (i + shift) % rfc1321_count, or vector `only`
 * when that is not negative; compare with the printed digests as well. */
static int rfc_lanes(const struct md5_engine *e, int only, unsigned shift)
{
	struct stream *s = xmalloc(e->width * sizeof *s);
	char *want = xmalloc(e->width * MD5_DIGEST_STRING_LENGTH);
	int pass = 1;

	for (unsigned i = 0; i < e->width; i++) {
		size_t k = only >= 0 ? (size_t)only : (i + shift) % rfc1321_count;

		stream_init(&s[i], (const uint8_t *)rfc1321[k].msg,
			    strlen(rfc1321[k].msg));
		strcpy(want + i * MD5_DIGEST_STRING_LENGTH, rfc1321[k].hex);
	}
	for (unsigned i = 0; i < e->width; i++) {
		char hex[MD5_DIGEST_STRING_LENGTH];

		if (strcmp(md5_hex(s[i].expect, hex),
			   want + i * MD5_DIGEST_STRING_LENGTH) != 0)
			pass = 0;
	}
	pass &= run_streams(e, s);
	free(want);
	free(s);
	return pass;
}

/* A random length: often one near a block or padding boundary. */
static size_t random_length(void)
{
	static const size_t edge[] = { 0, 1, 55, 56, 57, 63, 64, 65, 119, 120 };

	switch (below(4)) {
	case 0:
		return edge[below(sizeof edge / sizeof edge[0])] +
		       MD5_BLOCK_LENGTH * below(4);
	case 1:
		return below(4 * MD5_BLOCK_LENGTH);
	default:
		return below(MAX_LENGTH + 1);
	}
}

static int random_lanes(const struct md5_engine *e, const uint8_t *data)
{
	struct stream *s = xmalloc(e->width * sizeof *s);
	int pass;

	for (unsigned i = 0; i < e->width; i++) {
		size_t len = random_length();

		stream_init(&s[i], data + below(MAX_LENGTH + 1 - len), len);
	}
	pass = run_streams(e, s);
	free(s);
	return pass;
}

/* nblocks 0 must leave the state alone and read nothing. */
static int empty_run(const struct md5_engine *e)
{
	uint32_t (*state)[4] = xmalloc(e->width * sizeof *state);
	const uint8_t **p = xmalloc(e->width * sizeof *p);
	int pass = 1;

	for (unsigned i = 0; i < e->width; i++) {
		for (int k = 0; k < 4; k++)
			state[i][k] = (uint32_t)rng();
		p[i] = NULL;
	}
	{
		uint32_t (*before)[4] = xmalloc(e->width * sizeof *state);

		memcpy(before, state, e->width * sizeof *state);
		e->blocks(state, p, 0);
		pass = memcmp(before, state, e->width * sizeof *state) == 0;
		free(before);
	}
	free(p);
	free(state);
	return pass;
}

/* Every lane starting from its own random state must match md5_blocks. */
static int random_states(const struct md5_engine *e, const uint8_t *data)
{
	uint32_t (*state)[4] = xmalloc(e->width * sizeof *state);
	uint32_t (*want)[4] = xmalloc(e->width * sizeof *state);
	const uint8_t **p = xmalloc(e->width * sizeof *p);
	size_t nblocks = 1 + below(8);
	int pass;

	for (unsigned i = 0; i < e->width; i++) {
		for (int k = 0; k < 4; k++)
			want[i][k] = state[i][k] = (uint32_t)rng();
		p[i] = data + below(MAX_LENGTH - nblocks * 64);
		md5_blocks(want[i], p[i], nblocks);
	}
	e->blocks(state, p, nblocks);
	pass = memcmp(want, state, e->width * sizeof *state) == 0;
	free(p);
	free(want);
	free(state);
	return pass;
}

/* The time of a call of e, as md5_engine_for counts it. */
static double call_time(const struct md5_engine *e)
{
	return (double)e->width / e->speed;
}

/* The time of the calls md5_engine_for plans for n streams, one after
 * another on the rest. */
static double planned_time(const struct md5_engine *const *e, unsigned n)
{
	double t = 0;

	while (n > 0) {
		const struct md5_engine *x = md5_engine_for(e, n);

		if (x == NULL)
			return 1e30;
		t += call_time(x);
		n = n > x->width ? n - x->width : 0;
	}
	return t;
}

/* The least time of any calls of engines from e that hold n streams, by
 * trying every multiset of them (the i-th engine and those after it). */
static double least_time(const struct md5_engine *const *e, size_t i, unsigned n)
{
	double best = 1e30;

	if (n == 0)
		return 0;
	for (; e[i]; i++) {
		unsigned rest = n > e[i]->width ? n - e[i]->width : 0;
		double t = call_time(e[i]) + least_time(e, i, rest);

		best = t < best ? t : best;
	}
	return best;
}

/* md5_engine_for on engines e: its calls for every n up to max are the
 * fastest there are; it never takes an engine whose call is slower than
 * that of a narrower one that holds n; and md5_lanes_width is where
 * streams a second peak, first. */
static void check_choice(const char *what, const struct md5_engine *const *e,
			 unsigned max)
{
	int fastest = 1, narrow = 1, width_ok = 1;
	unsigned width = md5_lanes_width(e);
	double best_rate = 0;
	unsigned best_n = 0;

	for (unsigned n = 1; n <= max; n++) {
		const struct md5_engine *x = md5_engine_for(e, n);
		double t = planned_time(e, n);

		fastest &= t <= least_time(e, 0, n) * (1 + 1e-6);
		for (const struct md5_engine *const *f = e; *f && x; f++)
			if ((*f)->width >= n && (*f)->width < x->width &&
			    call_time(*f) <= call_time(x))
				narrow = 0;
		if (n / t > best_rate * (1 + 1e-6)) {
			best_rate = n / t;
			best_n = n;
		}
	}
	width_ok = width == best_n;
	ok(fastest, "%s: md5_engine_for's calls are the fastest for 1 to %u streams",
	   what, max);
	ok(narrow, "%s: never an engine slower than a narrower one that holds n", what);
	ok(width_ok, "%s: md5_lanes_width %u, where streams a second peak (%u)",
	   what, width, best_n);
}

/* Engines that are only figures, for the choice on any machine. */
static void test_choice_figures(void)
{
	/* As on an Intel CPU with AVX-512 where 32 lanes lose to 16. */
	static const struct md5_engine w32 = { "w32", 32, NULL, 0, 9000 };
	static const struct md5_engine w16 = { "w16", 16, NULL, 0, 9500 };
	static const struct md5_engine w8 = { "w8", 8, NULL, 0, 3500 };
	static const struct md5_engine w4 = { "w4", 4, NULL, 0, 1700 };
	static const struct md5_engine w1 = { "w1", 1, NULL, 0, 700 };
	static const struct md5_engine *const slow32[] = { &w16, &w32, &w8, &w4, &w1, NULL };
	static const struct md5_engine *const one[] = { &w8, NULL };
	/* An AMD EPYC's figures of the engines before the lane template
	 * (README, issue 25): every width wins for some number of streams. */
	static const struct md5_engine a16 = { "avx2x2", 16, NULL, 0, 3073 };
	static const struct md5_engine a8 = { "avx2", 8, NULL, 0, 2493 };
	static const struct md5_engine s8 = { "sse2x2", 8, NULL, 0, 2143 };
	static const struct md5_engine s4 = { "sse2", 4, NULL, 0, 1782 };
	static const struct md5_engine s1 = { "scalar", 1, NULL, 0, 620 };
	static const struct md5_engine *const epyc[] = { &a16, &a8, &s8, &s4, &s1, NULL };
	int never32 = 1, alone = 1;

	check_choice("figures, 32 lanes slower than 16", slow32, 32);
	for (unsigned n = 1; n <= MD5_LANES_MAX; n++) {
		never32 &= md5_engine_for(slow32, n) != &w32;
		alone &= md5_engine_for(one, n) == &w8;
	}
	ok(never32 && md5_lanes_width(slow32) == 16,
	   "figures: 32 lanes slower per stream than 16 are never run; width 16");
	ok(alone && md5_lanes_width(one) == 8,
	   "figures: a one-engine list gives that engine, and its width");
	check_choice("an AMD EPYC's figures of before", epyc, 32);
	ok(md5_engine_for(epyc, 1) == &s1 && md5_engine_for(epyc, 4) == &s4 &&
	   md5_engine_for(epyc, 8) == &a8 && md5_engine_for(epyc, 16) == &a16 &&
	   md5_lanes_width(epyc) == 16,
	   "an AMD EPYC's figures of before: scalar for 1, sse2 for 4, avx2 "
	   "for 8, avx2x2 for 16 and width 16");
	ok(md5_engine_for(epyc, 0) == NULL, "md5_engine_for of 0 streams is NULL");
}

/* The calls md5_engine_for plans for 1 to MD5_LANES_MAX streams, one
 * after another on the rest, as a comment: "avx2x2+scalar" for two. */
static void print_plan(const char *what, const struct md5_engine *const *e)
{
	printf("# %s: md5_lanes_width %u; for 1..%u streams:", what,
	       md5_lanes_width(e), MD5_LANES_MAX);
	for (unsigned n = 1; n <= MD5_LANES_MAX; n++) {
		for (unsigned m = n; m > 0; ) {
			const struct md5_engine *x = md5_engine_for(e, m);

			printf("%s%s", m == n ? " " : "+", x->name);
			m = m > x->width ? m - x->width : 0;
		}
	}
	putchar('\n');
}

/* A table of engines (md5_engines_of): speeds, fastest first; each
 * engine needs all the features of those after it, so that what a CPU
 * runs is a tail; the choice; and for no count of streams calls slower
 * than those of any one engine that hold them, as the AMD table of before
 * planned for 9 and 25 (issue 25). */
static void test_table(const char *what, const struct md5_engine *const *e)
{
	int sorted = 1, tail = 1, one = 1;

	for (const struct md5_engine *const *f = e; *f; f++) {
		sorted &= (*f)->speed > 0 && (!f[1] || f[1]->speed <= (*f)->speed);
		tail &= !f[1] || !(f[1]->needs & ~(*f)->needs);
	}
	ok(sorted, "%s: speeds, fastest first", what);
	ok(tail, "%s: each engine needs all that those after it need", what);
	check_choice(what, e, MD5_LANES_MAX);
	for (unsigned n = 1; n <= MD5_LANES_MAX; n++)
		for (const struct md5_engine *const *f = e; *f; f++) {
			unsigned calls = (n + (*f)->width - 1) / (*f)->width;

			one &= planned_time(e, n) <= calls * call_time(*f) * (1 + 1e-6);
		}
	ok(one, "%s: for no count of streams (9, 17, 25 among them) calls "
	   "slower than those of any one engine", what);
	print_plan(what, e);
}

/* The lanes a thread keeps busy for a table: as many as the engines are
 * fastest with, halved while that gains less than a quarter. */
static void test_lanes_kept(const char *what, const struct md5_engine *const *e,
			    unsigned want)
{
	unsigned n = lanecount_for(e), w = md5_lanes_width(e);

	if (e[0]->width == 1) {
		ok(1, "%s: lanecount_for # skip this build has none of "
		   "the table's lane engines", what);
		return;
	}
	printf("# %s: md5_lanes_speed at %u lanes %u MB/s, at %u %u MB/s\n", what, w,
	       md5_lanes_speed(e, w), w / 2, md5_lanes_speed(e, w / 2));
	ok(n == want, "%s: lanecount_for %u (want %u)", what, n, want);
}

/* The table of every kind of CPU with figures (lanes_speeds.h), and that
 * of the other kinds with every feature: all the engines of the build. */
static void test_tables(void)
{
	static const struct {
		const char *name;
		unsigned have;
	} kind[] = {
		{ "intel_avx512", CPU_INTEL | CPU_AVX2 | CPU_AVX512F | CPU_AVX512VL },
		{ "amd_avx512", CPU_AMD | CPU_AVX2 | CPU_AVX512F | CPU_AVX512VL },
		{ "amd_avx2", CPU_AMD | CPU_AVX2 },
		{ "unmeasured", CPU_AVX2 | CPU_AVX512F | CPU_AVX512VL | CPU_NEON },
	};

	for (size_t i = 0; i < sizeof kind / sizeof kind[0]; i++)
		test_table(kind[i].name, md5_engines_of(kind[i].have));
	/* 32 lanes where two groups of 16 nearly double the speed (Zen 5),
	 * 16 where they gain little (the Intel CPU), as measured end to end. */
	test_lanes_kept(kind[0].name, md5_engines_of(kind[0].have), 16);
	test_lanes_kept(kind[1].name, md5_engines_of(kind[1].have), 32);
	test_lanes_kept(kind[2].name, md5_engines_of(kind[2].have), 16);
}

/* This CPU's engines: a table, and each one alone. */
static void test_choice(const struct md5_engine *const *all)
{
	test_table("this CPU's engines", all);
	for (const struct md5_engine *const *e = all; *e; e++) {
		const struct md5_engine *one[] = { *e, NULL };
		int alone = 1;

		for (unsigned n = 1; n <= MD5_LANES_MAX; n++)
			alone &= md5_engine_for(one, n) == *e;
		ok(alone && md5_lanes_width(one) == (*e)->width,
		   "md5_engine_for of %s alone is %s; width %u", (*e)->name,
		   (*e)->name, (*e)->width);
	}
}

int main(void)
{
	const struct md5_engine *const *all = md5_engines();
	uint8_t *data = xmalloc(MAX_LENGTH);
	int scalar = 0;

	for (size_t i = 0; i < MAX_LENGTH; i++)
		data[i] = (uint8_t)rng();

	printf("# engines:");
	for (const struct md5_engine *const *e = all; *e; e++)
		printf(" %s/%u", (*e)->name, (*e)->width);
	putchar('\n');

	ok(all[0] != NULL && md5_engine_pick(NULL) == all[0],
	   "md5_engine_pick(NULL) is the first of md5_engines()");
	ok(md5_engine_pick("no such engine") == NULL,
	   "md5_engine_pick of an unknown name is NULL");
	for (const struct md5_engine *const *e = all; *e; e++) {
		scalar |= strcmp((*e)->name, "scalar") == 0;
		ok(md5_engine_pick((*e)->name) == *e && (*e)->width > 0,
		   "md5_engine_pick(\"%s\") finds it, width %u",
		   (*e)->name, (*e)->width);
	}
	ok(scalar, "the scalar engine is always there");
	test_choice_figures();
	test_tables();
	test_choice(all);

	for (const struct md5_engine *const *e = all; *e; e++) {
		const struct md5_engine *en = *e;
		int pass = 1;

		ok(empty_run(en), "%s: nblocks 0 changes no lane", en->name);
		for (int k = 0; (size_t)k < rfc1321_count; k++)
			pass &= rfc_lanes(en, k, 0);
		ok(pass, "%s: each RFC 1321 vector in all %u lanes",
		   en->name, en->width);
		pass = 1;
		for (unsigned shift = 0; shift < rfc1321_count; shift++)
			pass &= rfc_lanes(en, -1, shift);
		ok(pass, "%s: RFC 1321 vectors mixed over %u lanes",
		   en->name, en->width);
		pass = 1;
		for (int k = 0; k < 8; k++)
			pass &= random_states(en, data);
		ok(pass, "%s: random states and blocks match md5_blocks",
		   en->name);
		for (int r = 0; r < ROUNDS; r += ROUNDS_PER_TEST) {
			pass = 1;
			for (int k = 0; k < ROUNDS_PER_TEST; k++)
				pass &= random_lanes(en, data);
			ok(pass, "%s: random messages, lanes of their own "
			   "lengths, batch %u", en->name,
			   (unsigned)(r / ROUNDS_PER_TEST + 1));
		}
	}
	free(data);
	return tap_done();
}
