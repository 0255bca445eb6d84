/* bench/stats.h - what the in-process benchmarks share: memory that must
 * be had (else the program says so and exits 2), and the median of their
 * rounds. */
#ifndef BENCH_STATS_H
#define BENCH_STATS_H

#include <stdio.h>
#include <stdlib.h>

static void *xmalloc(size_t n)
{
	void *p = malloc(n);

	if (p == NULL) {
		perror("malloc");
		exit(2);
	}
	return p;
}

static int by_value(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;

	return (a > b) - (a < b);
}

/* The median of v[0..n), which it sorts. */
static double median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof v[0], by_value);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

#endif
