/* isal_bench.c - our lane engines (lanes.h) side by side with Intel
 * isa-l_crypto's multi-buffer MD5 managers of the same width, on one core.
 *
 * Each pair hashes as many messages as it has lanes, each a whole message
 * of one size (padding included), again and again: ours as a caller of
 * lanes.h does, the engine over every lane's blocks, then over a block of
 * padding a lane; isa-l's as its callers do, each message submitted whole
 * to the manager (ISAL_HASH_ENTIRE), then flushed.  The buffers are filled
 * with data: pages never written all map the kernel's one zero page, and
 * would measure the TLB, not memory.  They start a cache line apart
 * modulo 4 KiB, as lanes.h advises and as md5sum's are.  In each round,
 * after one to warm up, ours and isa-l's take turns, the first of the two
 * alternating; a row gives the medians of the rounds' MB/s (10^6 bytes a
 * second of messages, over all lanes, of this thread's CPU time), the
 * ratio of medians, and the lowest and highest of the rounds' ratios.
 * Each pair's digests are checked against md5.h's first.
 *
 * The pairs: sse2x2 and isa-l's x4x2 (its SSE manager, 8 lanes), avx2x2
 * and x8x2 (AVX2, 16), avx512x2 and x16x2 (AVX-512, 32); a pair whose
 * engine this CPU does not run is left out.  isa-l_crypto is linked into
 * this program only: make bench-isal ISAL=<a built isa-l_crypto tree>.
 *
 * usage: isal_bench [-r ROUNDS] [KIB...]	(5 rounds; 4 16 256 1024 4096
 * KiB a lane) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/clock.h"
#include "bench/stats.h"
#include "lib/lanes.h"
#include "lib/md5.h"
#include <isa-l_crypto/md5_mb.h>

enum {
	LINE = 64,		/* stagger between lanes, bytes */
	MIN_BYTES = 64 << 20,	/* at least this much hashed a run */
	MAX_ROUNDS = 51,
	MAX_SIZES = 16,
};

/* isa-l's managers of each width, which its dispatcher would choose by
 * the CPU; the library exports them. */
typedef void mgr_init(ISAL_MD5_HASH_CTX_MGR *);
typedef ISAL_MD5_HASH_CTX *mgr_submit(ISAL_MD5_HASH_CTX_MGR *, ISAL_MD5_HASH_CTX *,
				      const void *, uint32_t, ISAL_HASH_CTX_FLAG);
typedef ISAL_MD5_HASH_CTX *mgr_flush(ISAL_MD5_HASH_CTX_MGR *);
mgr_init _md5_ctx_mgr_init_sse, _md5_ctx_mgr_init_avx2, _md5_ctx_mgr_init_avx512;
mgr_submit _md5_ctx_mgr_submit_sse, _md5_ctx_mgr_submit_avx2, _md5_ctx_mgr_submit_avx512;
mgr_flush _md5_ctx_mgr_flush_sse, _md5_ctx_mgr_flush_avx2, _md5_ctx_mgr_flush_avx512;

struct pair {
	const char *ours;	/* our engine's name */
	const char *theirs;	/* isa-l's kernel */
	unsigned lanes;
	mgr_init *init;
	mgr_submit *submit;
	mgr_flush *flush;
};

static const struct pair pairs[] = {
	{ "sse2x2", "x4x2", 8, _md5_ctx_mgr_init_sse, _md5_ctx_mgr_submit_sse,
	  _md5_ctx_mgr_flush_sse },
	{ "avx2x2", "x8x2", 16, _md5_ctx_mgr_init_avx2, _md5_ctx_mgr_submit_avx2,
	  _md5_ctx_mgr_flush_avx2 },
	{ "avx512x2", "x16x2", 32, _md5_ctx_mgr_init_avx512, _md5_ctx_mgr_submit_avx512,
	  _md5_ctx_mgr_flush_avx512 },
};

/* The messages of a run: lanes of size bytes each, and ours' padding. */
struct messages {
	unsigned lanes;
	size_t size;
	const uint8_t *p[MD5_LANES_MAX];
	uint8_t pad[MD5_BLOCK_LENGTH];	/* the padding block of every message */
	const uint8_t *padp[MD5_LANES_MAX];
	uint8_t digest[MD5_LANES_MAX][MD5_DIGEST_LENGTH];
};

/* Messages in data, which holds lanes * (size + LINE) bytes. */
static void messages_at(struct messages *m, uint8_t *data, unsigned lanes, size_t size)
{
	uint8_t tail[2 * MD5_BLOCK_LENGTH];

	m->lanes = lanes;
	m->size = size;
	md5_pad_tail(tail, 0, size);	/* one block: size is whole blocks */
	memcpy(m->pad, tail, sizeof m->pad);
	for (unsigned i = 0; i < lanes; i++) {
		m->p[i] = data + (size_t)i * (size + LINE);
		m->padp[i] = m->pad;
	}
}

static void hash_ours(const struct md5_engine *e, struct messages *m)
{
	uint32_t state[MD5_LANES_MAX][4];

	for (unsigned i = 0; i < m->lanes; i++) {
		struct md5 ctx;

		md5_init(&ctx);
		memcpy(state[i], ctx.state, sizeof state[i]);
	}
	e->blocks(state, m->p, m->size / MD5_BLOCK_LENGTH);
	e->blocks(state, m->padp, 1);
	for (unsigned i = 0; i < m->lanes; i++)
		md5_digest_of(state[i], m->digest[i]);
}

static void hash_theirs(const struct pair *pr, ISAL_MD5_HASH_CTX_MGR *mgr,
			ISAL_MD5_HASH_CTX *ctx, struct messages *m)
{
	for (unsigned i = 0; i < m->lanes; i++) {
		hash_ctx_init(&ctx[i]);
		pr->submit(mgr, &ctx[i], m->p[i], (uint32_t)m->size, ISAL_HASH_ENTIRE);
	}
	while (pr->flush(mgr))
		;
	for (unsigned i = 0; i < m->lanes; i++)
		memcpy(m->digest[i], ctx[i].job.result_digest, MD5_DIGEST_LENGTH);
}

/* Seconds of CPU for passes of one side over the messages. */
static double time_side(int theirs, const struct pair *pr, const struct md5_engine *e,
			ISAL_MD5_HASH_CTX_MGR *mgr, ISAL_MD5_HASH_CTX *ctx,
			struct messages *m, size_t passes)
{
	double start = cpu_seconds();

	for (size_t k = 0; k < passes; k++) {
		if (theirs)
			hash_theirs(pr, mgr, ctx, m);
		else
			hash_ours(e, m);
	}
	return cpu_seconds() - start;
}

/* Both sides' digests are md5.h's: 0, or 1 and a message. */
static int check(const struct pair *pr, const struct md5_engine *e,
		 ISAL_MD5_HASH_CTX_MGR *mgr, ISAL_MD5_HASH_CTX *ctx, struct messages *m)
{
	for (int theirs = 0; theirs < 2; theirs++) {
		if (theirs)
			hash_theirs(pr, mgr, ctx, m);
		else
			hash_ours(e, m);
		for (unsigned i = 0; i < m->lanes; i++) {
			uint8_t want[MD5_DIGEST_LENGTH];
			struct md5 c;

			md5_init(&c);
			md5_update(&c, m->p[i], m->size);
			md5_final(&c, want);
			if (memcmp(want, m->digest[i], sizeof want) != 0) {
				fprintf(stderr, "isal_bench: %s gives a wrong digest, lane %u\n",
					theirs ? pr->theirs : pr->ours, i);
				return 1;
			}
		}
	}
	return 0;
}

/* One row: the pair on messages of kib KiB a lane. */
static int row(const struct pair *pr, const struct md5_engine *e, size_t kib, int rounds)
{
	size_t size = kib << 10, bytes = pr->lanes * size;
	size_t passes = bytes >= MIN_BYTES ? 1 : (MIN_BYTES + bytes - 1) / bytes;
	uint8_t *data = xmalloc(pr->lanes * (size + LINE));
	ISAL_MD5_HASH_CTX_MGR *mgr;
	ISAL_MD5_HASH_CTX *ctx = xmalloc(pr->lanes * sizeof *ctx);
	struct messages m;
	double ours[MAX_ROUNDS], theirs[MAX_ROUNDS], ratio[MAX_ROUNDS], mo, mt;

	if (posix_memalign((void **)&mgr, 64, sizeof *mgr) != 0) {
		perror("isal_bench");
		exit(2);
	}
	for (size_t i = 0; i < pr->lanes * (size + LINE); i++)
		data[i] = (uint8_t)(i * 2654435761u >> 13);
	messages_at(&m, data, pr->lanes, size);
	pr->init(mgr);
	if (check(pr, e, mgr, ctx, &m))
		return 1;
	for (int r = -1; r < rounds; r++) {
		int first = (r + 1) % 2;	/* 1: isa-l's first */
		double t[2];

		for (int k = 0; k < 2; k++) {
			int side = k ^ first;

			t[side] = time_side(side, pr, e, mgr, ctx, &m, passes);
		}
		if (r < 0)
			continue;
		ours[r] = (double)bytes * (double)passes / t[0] / 1e6;
		theirs[r] = (double)bytes * (double)passes / t[1] / 1e6;
		ratio[r] = ours[r] / theirs[r];
	}
	mo = median(ours, rounds);
	mt = median(theirs, rounds);
	median(ratio, rounds);
	printf("| %zu KiB | %s / %s | %.0f / %.0f: %.2f (%.2f-%.2f) |\n", kib, pr->ours,
	       pr->theirs, mo, mt, mo / mt, ratio[0], ratio[rounds - 1]);
	fflush(stdout);
	free(mgr);
	free(ctx);
	free(data);
	return 0;
}

static const struct md5_engine *engine_named(const char *name)
{
	for (const struct md5_engine *const *e = md5_engines(); *e; e++)
		if (strcmp((*e)->name, name) == 0)
			return *e;
	return NULL;
}

int main(int argc, char **argv)
{
	size_t sizes[MAX_SIZES] = { 4, 16, 256, 1024, 4096 };
	int nsizes = 5, rounds = 5, bad = 0, i = 1;

	if (i + 1 < argc && strcmp(argv[i], "-r") == 0) {
		rounds = atoi(argv[i + 1]);
		i += 2;
	}
	if (rounds < 1 || rounds > MAX_ROUNDS) {
		fprintf(stderr, "isal_bench: -r takes 1 to %d rounds\n", MAX_ROUNDS);
		return 2;
	}
	if (i < argc)
		nsizes = 0;
	for (; i < argc && nsizes < MAX_SIZES; i++) {
		long kib = strtol(argv[i], NULL, 10);

		if (kib < 1 || kib > 1 << 20) {
			fprintf(stderr, "usage: isal_bench [-r ROUNDS] [KIB...]\n");
			return 2;
		}
		sizes[nsizes++] = (size_t)kib;
	}
	printf("clock %.2f GHz (a chain of dependent adds)\n", clock_hz() / 1e9);
	printf("our engine / isa-l_crypto's of the same width, MB/s (medians of %d rounds):"
	       " ratio (lowest-highest)\n", rounds);
	printf("| a lane | engines | ours / isa-l's: ratio |\n| --- | --- | --- |\n");
	for (size_t p = 0; p < sizeof pairs / sizeof pairs[0]; p++) {
		const struct md5_engine *e = engine_named(pairs[p].ours);

		if (e == NULL) {
			printf("| | %s / %s | not run: this CPU lacks %s |\n", pairs[p].ours,
			       pairs[p].theirs, pairs[p].ours);
			continue;
		}
		for (int s = 0; s < nsizes; s++)
			bad |= row(&pairs[p], e, sizes[s], rounds);
	}
	return bad;
}
