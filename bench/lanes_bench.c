/* lanes_bench.c - in-process throughput of the one-stream transforms
 * (md5.c) and of the block engines (lanes.h), on one core.
 *
 * Each transform hashes one stream of 1 MiB, each engine 1 MiB per lane
 * (its width streams at once), as md5sum hashes files: 64 times over a
 * buffer of 16 KiB a lane, which stays in the cache as md5sum's lane
 * buffers do (parallel.c: 512 KiB in all), where streams of 1 MiB a lane
 * measured the memory more than the engines.  In each of 5 rounds, after
 * one to warm up,
 * every one of them runs once, so that they take turns; a figure is the
 * median of its 5 runs and the best of them: MB/s (10^6 bytes a second,
 * over all lanes), cycles a byte for one stream and cycles a step (64 a
 * block, all the engine's lanes at once) for an engine, at the clock a
 * chain of dependent adds shows, and the ratio of medians to the portable
 * transform's.  Time is this thread's CPU time, so that other work on the
 * machine takes none of it.  Optional arguments name the transforms and
 * engines to run.  The library's md5.c is compiled in, to reach the
 * transforms it keeps to itself.
 *
 * The lanes' buffers start a cache line apart modulo 4 KiB, as lanes.h
 * advises; with -a they all start at the same offset modulo 16 KiB instead,
 * which shows what the wide engines lose when every lane's block falls in
 * the same cache sets.
 *
 *	cc -std=c11 -D_POSIX_C_SOURCE=200809L -O2 -I. -Ilib -o lanes_bench \
 *		bench/lanes_bench.c lib/lanes.c */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/clock.h"
#include "lanes.h"
#include "md5.c"

enum {
	PER_LANE = 1 << 20,	/* bytes hashed per lane and run */
	BUFFER = 16 << 10,	/* a lane's buffer, hashed PER_LANE / BUFFER times */
	RUNS = 5,
	LINE = 64,		/* stagger between lanes, bytes */
	MAX_ITEMS = 16,
};

/* What is timed: a transform (width 1) or an engine. */
struct item {
	const char *name;
	const struct transform *transform;	/* or NULL */
	const struct md5_engine *engine;	/* or NULL */
	unsigned width;
	double t[RUNS];		/* seconds of each run */
};

static void *xmalloc(size_t n)
{
	void *p = malloc(n);

	if (p == NULL) {
		perror("lanes_bench");
		exit(2);
	}
	return p;
}

static int by_value(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;

	return (a > b) - (a < b);
}

/* Seconds for one run of it over its lanes' 1 MiB each. */
static double time_item(const struct item *it, const uint8_t *data, size_t stagger)
{
	uint32_t (*state)[4] = xmalloc(it->width * sizeof *state);
	const uint8_t **p = xmalloc(it->width * sizeof *p);
	uint32_t sink = 0;
	double start, t;

	for (unsigned i = 0; i < it->width; i++) {
		p[i] = data + (size_t)i * (BUFFER + stagger);
		memcpy(state[i], md5_iv, sizeof state[i]);
	}
	start = cpu_seconds();
	for (int pass = 0; pass < PER_LANE / BUFFER; pass++) {
		if (it->engine)
			it->engine->blocks(state, p, BUFFER / MD5_BLOCK_LENGTH);
		else
			it->transform->blocks(state[0], p[0], BUFFER / MD5_BLOCK_LENGTH);
	}
	t = cpu_seconds() - start;
	for (unsigned i = 0; i < it->width; i++)
		sink ^= state[i][0];
	if (sink == 0x12345678)		/* keep the results alive */
		putchar(' ');
	free(p);
	free(state);
	return t;
}

static int wanted(const char *name, int argc, char **argv)
{
	int any = 0;

	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "-a") == 0)
			continue;
		if (strcmp(argv[i], name) == 0)
			return 1;
		any = 1;
	}
	return !any;
}

/* The transforms and engines to time; the portable transform first. */
static int choose(struct item *items, int argc, char **argv)
{
	int n = 0;

	for (int i = TRANSFORMS - 1; i >= 0; i--) {
		const struct transform *t = &transforms[i];

		if (!(t->needs & ~cpu_features()) && (i == TRANSFORMS - 1 ||
						     wanted(t->name, argc, argv)))
			items[n++] = (struct item){ t->name, t, NULL, 1, { 0 } };
	}
	for (const struct md5_engine *const *e = md5_engines(); *e && n < MAX_ITEMS; e++)
		if (wanted((*e)->name, argc, argv))
			items[n++] = (struct item){ (*e)->name, NULL, *e, (*e)->width, { 0 } };
	return n;
}

int main(int argc, char **argv)
{
	struct item items[MAX_ITEMS];
	size_t stagger = LINE, size;
	unsigned widest = 1;
	double hz, base = 0;
	uint8_t *data;
	int n;

	for (int i = 1; i < argc; i++)
		if (strcmp(argv[i], "-a") == 0)
			stagger = 0;
	n = choose(items, argc, argv);
	for (int i = 0; i < n; i++)
		widest = items[i].width > widest ? items[i].width : widest;
	size = (size_t)widest * (BUFFER + LINE);
	data = xmalloc(size);
	for (size_t i = 0; i < size; i++)
		data[i] = (uint8_t)(i * 2654435761u >> 13);

	hz = clock_hz();
	for (int r = -1; r < RUNS; r++)
		for (int i = 0; i < n; i++) {
			double t = time_item(&items[i], data, stagger);

			if (r >= 0)
				items[i].t[r] = t;
		}
	hz = (hz + clock_hz()) / 2;

	printf("clock %.2f GHz (a chain of dependent adds)\n", hz / 1e9);
	printf("%-12s %5s %8s %8s %9s %11s %8s\n", "", "lanes", "MB/s", "best",
	       "cycles/B", "cycles/step", "x scalar");
	for (int i = 0; i < n; i++) {
		struct item *it = &items[i];
		double bytes = (double)it->width * PER_LANE, med, mbs;

		if (i == 0 || (it->engine && !items[i - 1].engine))
			puts(it->engine ? "engines (lanes.h)" :
			     "one stream: md5.c's transforms");

		qsort(it->t, RUNS, sizeof it->t[0], by_value);
		med = it->t[RUNS / 2];
		mbs = bytes / med / 1e6;
		if (i == 0)
			base = mbs;
		if (it->transform)
			printf("%-12s %5u %8.0f %8.0f %9.2f %11s %8.2f\n", it->name,
			       1u, mbs, bytes / it->t[0] / 1e6, med * hz / bytes, "",
			       mbs / base);
		else
			printf("%-12s %5u %8.0f %8.0f %9s %11.2f %8.2f\n", it->name,
			       it->width, mbs, bytes / it->t[0] / 1e6, "",
			       med * hz / (PER_LANE / MD5_BLOCK_LENGTH) / 64, mbs / base);
	}
	free(data);
	return 0;
}
