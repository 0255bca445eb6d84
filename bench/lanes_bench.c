/* lanes_bench.c - in-process throughput of the block engines (lanes.h).
 *
 * Each engine hashes 1 MiB per lane (its width streams at once); the figure
 * is the aggregate over all lanes, in MB/s (10^6 bytes), the median of 5
 * runs and the best of them, next to md5_blocks hashing one 1 MiB stream;
 * the ratio compares medians.  Single-threaded, so it measures one core;
 * on a busy machine trust the best figures more.  Optional arguments name
 * the engines to run.
 *
 * The lanes' buffers start a cache line apart modulo 4 KiB, as lanes.h
 * advises; with -a they all start at the same offset modulo 1 MiB instead,
 * which shows what the wide engines lose when every lane's block falls in
 * the same cache sets.
 *
 *	cc -std=c11 -D_POSIX_C_SOURCE=200809L -O2 -I. -o lanes_bench \
 *		bench/lanes_bench.c lanes.c md5.c */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "lanes.h"
#include "md5.h"
#include "md5_steps.h"

enum {
	PER_LANE = 1 << 20,	/* bytes hashed per lane and run */
	RUNS = 5,
	LINE = 64,		/* stagger between lanes, bytes */
};

static size_t stagger = LINE;

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int by_value(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;

	return (a > b) - (a < b);
}

static void *xmalloc(size_t n)
{
	void *p = malloc(n);

	if (p == NULL) {
		perror("lanes_bench");
		exit(2);
	}
	return p;
}

/* Seconds for one run of engine e (NULL: md5_blocks on one stream): the
 * median of RUNS after a warm-up run, and in *best the shortest. */
static double time_engine(const struct md5_engine *e, const uint8_t *data,
			  double *best)
{
	unsigned w = e ? e->width : 1;
	uint32_t (*state)[4] = xmalloc(w * sizeof *state);
	const uint8_t **p = xmalloc(w * sizeof *p);
	double t[RUNS];
	uint32_t sink = 0;

	for (unsigned i = 0; i < w; i++)
		p[i] = data + (size_t)i * (PER_LANE + stagger);
	for (int r = -1; r < RUNS; r++) {
		double start;

		for (unsigned i = 0; i < w; i++)
			memcpy(state[i], md5_iv, sizeof state[i]);
		start = now();
		if (e)
			e->blocks(state, p, PER_LANE / MD5_BLOCK_LENGTH);
		else
			md5_blocks(state[0], p[0], PER_LANE / MD5_BLOCK_LENGTH);
		if (r >= 0)
			t[r] = now() - start;
		for (unsigned i = 0; i < w; i++)
			sink ^= state[i][0];
	}
	if (sink == 0x12345678)		/* keep the results alive */
		putchar(' ');
	free(p);
	free(state);
	qsort(t, RUNS, sizeof t[0], by_value);
	*best = t[0];
	return t[RUNS / 2];
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

int main(int argc, char **argv)
{
	const struct md5_engine *const *all = md5_engines();
	unsigned widest = 1;
	uint8_t *data;
	size_t size;
	double base, best;

	for (int i = 1; i < argc; i++)
		if (strcmp(argv[i], "-a") == 0)
			stagger = 0;
	for (const struct md5_engine *const *e = all; *e; e++)
		if ((*e)->width > widest)
			widest = (*e)->width;
	size = (size_t)widest * (PER_LANE + LINE);
	data = xmalloc(size);
	for (size_t i = 0; i < size; i++)
		data[i] = (uint8_t)(i * 2654435761u >> 13);

	printf("%-12s %5s %8s %8s %8s\n", "engine", "lanes", "MB/s", "best",
	       "x scalar");
	base = PER_LANE / time_engine(NULL, data, &best) / 1e6;
	printf("%-12s %5u %8.0f %8.0f %8.2f\n", "md5_blocks", 1, base,
	       PER_LANE / best / 1e6, 1.0);
	for (const struct md5_engine *const *e = all; *e; e++) {
		double bytes = (double)(*e)->width * PER_LANE, mbs;

		if (!wanted((*e)->name, argc, argv))
			continue;
		mbs = bytes / time_engine(*e, data, &best) / 1e6;
		printf("%-12s %5u %8.0f %8.0f %8.2f\n", (*e)->name,
		       (*e)->width, mbs, bytes / best / 1e6, mbs / base);
	}
	free(data);
	return 0;
}
