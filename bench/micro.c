/* bench/micro.c - in-process speed of the hash alone: md5_init, md5_update
 * and md5_final once per message, for a few message sizes, from an aligned
 * buffer and from one starting at an odd address, with each one-stream
 * transform of md5.c that this CPU runs, side by side.  Prints MB/s (10^6
 * bytes per second), nanoseconds per message and cycles per byte at the
 * clock a chain of dependent adds shows, best of several timed runs in
 * which the transforms take turns.  Time is this thread's CPU time, so
 * other load on the machine shows less.  The library's source is compiled
 * in, to reach the transforms it keeps to itself.
 *
 * usage: bench/micro [SECONDS]	(time per measurement, default 0.3, or
 *				 $BENCH_MICRO_SECONDS) */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/clock.h"
#include "lib/md5.c"

enum { RUNS = 5 };	/* timed runs per measurement; the best one counts */

static volatile uint8_t sink;	/* keeps the digests, so they are computed */

/* Hash the len bytes at p n times; return the seconds taken. */
static double hash_n(const uint8_t *p, size_t len, long n)
{
	uint8_t digest[MD5_DIGEST_LENGTH];
	uint8_t acc = 0;
	double t0 = cpu_seconds();

	for (long i = 0; i < n; i++) {
		struct md5 ctx;

		md5_init(&ctx);
		md5_update(&ctx, p, len);
		md5_final(&ctx, digest);
		acc ^= digest[0];
	}
	sink = acc;
	return cpu_seconds() - t0;
}

/* Messages a run, for runs of about `seconds` / RUNS: n doubled until
 * one run takes a tenth of the budget. */
static long calibrate(const uint8_t *p, size_t len, double seconds)
{
	long n = 1;

	while (hash_n(p, len, n) < seconds / 10 && n < (1L << 40))
		n *= 2;
	return (long)((double)n * 10.0 / RUNS) + 1;
}

/* The transforms this CPU runs, at most TRANSFORMS of them. */
static int runnable(const struct transform *run[TRANSFORMS])
{
	int n = 0;

	for (int i = 0; i < TRANSFORMS; i++)
		if (!(transforms[i].needs & ~cpu_features()))
			run[n++] = &transforms[i];
	return n;
}

/* The name of the transform md5_blocks picks by itself. */
static const char *picked(void)
{
	transform_fn *blocks = transform_in_use();

	for (int i = 0; i < TRANSFORMS; i++)
		if (transforms[i].blocks == blocks)
			return transforms[i].name;
	return "?";
}

static void size_name(char *name, size_t size, size_t len)
{
	if (len >= 1 << 20)
		snprintf(name, size, "%zu MiB", len >> 20);
	else if (len >= 1024)
		snprintf(name, size, "%zu KiB", len >> 10);
	else
		snprintf(name, size, "%zu B", len);
}

int main(int argc, char **argv)
{
	static const size_t sizes[] = { 8, 1024, 8192, 1 << 20 };
	const char *env = getenv("BENCH_MICRO_SECONDS");
	double seconds = argc > 1 ? atof(argv[1]) : env ? atof(env) : 0.3;
	size_t max = sizes[sizeof sizes / sizeof sizes[0] - 1];
	uint8_t *buf = malloc(max + 64);
	const struct transform *run[TRANSFORMS];
	int nrun = runnable(run);
	double hz;

	if (!buf || !(seconds > 0)) {
		fprintf(stderr, "usage: %s [SECONDS]\n", argv[0]);
		return 2;
	}
	for (size_t i = 0; i < max + 64; i++)
		buf[i] = (uint8_t)(i * 167 + 13);

	hz = clock_hz();
	printf("md5_blocks picks %s; cycles at %.2f GHz, the clock a chain of "
	       "dependent adds shows\n", picked(), hz / 1e9);
	/* malloc's result is 16-byte aligned; +1 makes every word unaligned. */
	printf("%-9s %-9s %14s %14s %12s %9s\n", "message", "transform",
	       "aligned MB/s", "offset 1 MB/s", "ns/message", "cycles/B");
	for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
		size_t len = sizes[k];
		double al[TRANSFORMS], un[TRANSFORMS];
		long n = calibrate(buf, len, seconds);
		char name[24];

		for (int t = 0; t < nrun; t++)
			al[t] = un[t] = 1e30;
		for (int r = 0; r < RUNS; r++)
			for (int t = 0; t < nrun; t++) {
				double a, u;

				atomic_store(&in_use, run[t]->blocks);
				a = hash_n(buf, len, n) / (double)n;
				u = hash_n(buf + 1, len, n) / (double)n;
				al[t] = a < al[t] ? a : al[t];
				un[t] = u < un[t] ? u : un[t];
			}
		size_name(name, sizeof name, len);
		for (int t = 0; t < nrun; t++)
			printf("%-9s %-9s %14.1f %14.1f %12.1f %9.2f\n", name,
			       run[t]->name, (double)len / al[t] / 1e6,
			       (double)len / un[t] / 1e6, al[t] * 1e9,
			       al[t] * hz / (double)len);
	}
	free(buf);
	return 0;
}
