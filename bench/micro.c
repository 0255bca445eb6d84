/* bench/micro.c - in-process speed of the hash alone: md5_init, md5_update
 * and md5_final once per message, for a few message sizes, from an aligned
 * buffer and from one starting at an odd address.  Prints MB/s (10^6 bytes
 * per second) and nanoseconds per message, best of several timed runs.
 * Time is this process's CPU time, so other load on the machine shows less.
 *
 * usage: bench/micro [SECONDS]	(time per measurement, default 0.3, or
 *				 $BENCH_MICRO_SECONDS) */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "md5.h"

enum { RUNS = 5 };	/* timed runs per measurement; the best one counts */

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static volatile uint8_t sink;	/* keeps the digests, so they are computed */

/* Hash the len bytes at p n times; return the seconds taken. */
static double hash_n(const uint8_t *p, size_t len, long n)
{
	uint8_t digest[MD5_DIGEST_LENGTH];
	uint8_t acc = 0;
	double t0 = now();

	for (long i = 0; i < n; i++) {
		struct md5 ctx;

		md5_init(&ctx);
		md5_update(&ctx, p, len);
		md5_final(&ctx, digest);
		acc ^= digest[0];
	}
	sink = acc;
	return now() - t0;
}

/* Best seconds per message over RUNS runs of about `seconds` each. */
static double per_message(const uint8_t *p, size_t len, double seconds)
{
	long n = 1;
	double best = 1e30;

	/* Calibrate: double n until one run takes a tenth of the budget. */
	while (hash_n(p, len, n) < seconds / 10 && n < (1L << 40))
		n *= 2;
	n = (long)((double)n * 10.0 / RUNS) + 1;
	for (int r = 0; r < RUNS; r++) {
		double t = hash_n(p, len, n) / (double)n;

		if (t < best)
			best = t;
	}
	return best;
}

int main(int argc, char **argv)
{
	static const size_t sizes[] = { 8, 1024, 8192, 1 << 20 };
	const char *env = getenv("BENCH_MICRO_SECONDS");
	double seconds = argc > 1 ? atof(argv[1]) : env ? atof(env) : 0.3;
	size_t max = sizes[sizeof sizes / sizeof sizes[0] - 1];
	uint8_t *buf = malloc(max + 64);

	if (!buf || !(seconds > 0)) {
		fprintf(stderr, "usage: %s [SECONDS]\n", argv[0]);
		return 2;
	}
	for (size_t i = 0; i < max + 64; i++)
		buf[i] = (uint8_t)(i * 167 + 13);

	/* malloc's result is 16-byte aligned; +1 makes every word unaligned. */
	printf("%-9s %14s %14s %12s\n", "message", "aligned MB/s",
	       "offset 1 MB/s", "ns/message");
	for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
		size_t len = sizes[k];
		double al = per_message(buf, len, seconds);
		double un = per_message(buf + 1, len, seconds);
		char name[24];

		if (len >= 1 << 20)
			snprintf(name, sizeof name, "%zu MiB", len >> 20);
		else if (len >= 1024)
			snprintf(name, sizeof name, "%zu KiB", len >> 10);
		else
			snprintf(name, sizeof name, "%zu B", len);
		printf("%-9s %14.1f %14.1f %12.1f\n", name, (double)len / al / 1e6,
		       (double)len / un / 1e6, al * 1e9);
	}
	free(buf);
	return 0;
}
