/* judge_test.c - how a run judges the storage it reads, from a table of
 * devices: the way of reading from the latencies of its timed reads
 * (storage_judge: in disk order by one reader, or side by side in lanes)
 * and the depth, the threads that read at once, from the pace of a whole
 * run against a model of the device (pace_next).  The two are the run's
 * judgment: a device judged to spin, or not measured yet, is read by one
 * reader and gets no thread past the CPUs (schedule.c); one judged
 * solid, or with no block device under it (a network file system), gets
 * threads past the CPUs while they wait on it and each step pays.
 * Prints TAP. */
#include <stdio.h>

#include "pace.h"
#include "storage.h"
#include "tap.h"

enum { CPUS = 2, MOST_WAITING = 63, STEP_US = 100, RUN_US = 400000 };

/* A device: what its timed reads took, first to last (the reader's far
 * reads, or lanes' first reads), whether it says it rotates, and how
 * long a file takes with n reads in flight (latency_us, a function of n),
 * beside the CPU time a file costs.  none: no block device under it. */
struct device {
	const char *what;
	bool none, rotates;
	uint32_t timed[STORAGE_SAMPLES];
	unsigned n_timed;
	double (*latency_us)(unsigned depth);
	double cpu_us;
	/* what the run must do */
	enum storage_kind kind;
	unsigned depth_least, depth_most;	/* threads in the end */
};

static double flat_2ms(unsigned depth)
{
	(void)depth;
	return 2000;
}

/* Flash: its own parallelism of 16, beyond which requests queue. */
static double flash(unsigned depth)
{
	return depth <= 16 ? 100 : 100.0 * depth / 16;
}

/* A device that does only 4 reads at once: beyond them each waits. */
static double slows(unsigned depth)
{
	return depth <= 4 ? 400 : 400.0 * depth / 4;
}

static double seeks(unsigned depth)
{
	return 8500.0 * depth;	/* one head: every read waits for the rest */
}

static const struct device devices[] = {
	{ "steady flash, says it rotates", false, true, { 90, 110, 95, 105 }, 4, flash, 10,
	  STORAGE_SOLID, 8, 64 },
	{ "flash that says it does not rotate, nothing timed yet", false, false, { 0 }, 0, flash, 10,
	  STORAGE_SOLID, 8, 64 },
	{ "steady rotating", false, true, { 8700, 9100, 8400, 8900 }, 4, seeks, 10,
	  STORAGE_SPINNING, 1, CPUS },
	{ "rotating, its first read from the drive's cache", false, true, { 150, 8700, 9200 }, 3,
	  seeks, 10, STORAGE_SPINNING, 1, CPUS },
	{ "flash with one slow outlier", false, true, { 100, 12000, 95, 110 }, 4, flash, 10,
	  STORAGE_SOLID, 8, 64 },
	{ "rotating, not measured yet", false, true, { 9000, 8800 }, 2, seeks, 10,
	  STORAGE_UNSURE, 1, CPUS },
	{ "network file system: 2 ms that does not grow with depth", true, false, { 0 }, 0,
	  flat_2ms, 10, STORAGE_NONE, 32, 64 },
	{ "a device that slows under load past 4 reads", false, false, { 300, 350, 320 }, 3, slows,
	  10, STORAGE_SOLID, 2, 16 },
};

/* Whether the run reads deeper than the CPUs on it (schedule.c: not
 * where a device spins or may). */
static bool deep(enum storage_kind k)
{
	return k == STORAGE_SOLID || k == STORAGE_NONE;
}

/* A run of unknown length on the device, stepped as the calling thread
 * would: the threads it reads with in the end.  Each thread reads a file
 * and hashes it, waiting for the read once. */
static unsigned depth_of(const struct device *d, enum storage_kind k)
{
	struct pace p = pace_begin(0);
	unsigned running = 0, keep = 0;
	double work = 0, cpu = 0, waits = 0;

	for (int64_t now = 0; now < RUN_US; now += STEP_US) {
		unsigned threads = keep + 1;
		double busy = threads < CPUS ? threads : CPUS;
		double files = threads / (d->latency_us(threads) + d->cpu_us);	/* a us */
		struct pace_facts f = {
			.now = now, .work = (uint64_t)work, .running = running,
			.most = CPUS - 1, .most_waiting = deep(k) ? MOST_WAITING : 0,
			.cpu = { (uint64_t)cpu, (uint64_t)waits }, .left = SIZE_MAX,
		};
		struct pace_step s = pace_next(&p, &f);

		if (s.act == PACE_START)
			running = keep = s.helpers;
		else if (s.act == PACE_KEEP)
			keep = s.helpers;
		if (files * d->cpu_us > busy)
			files = busy / d->cpu_us;	/* the CPUs bound it */
		work += STEP_US * files * (4096 + 16384);
		cpu += STEP_US * files * d->cpu_us;
		waits += STEP_US * files;
	}
	return keep + 1;
}

int main(void)
{
	for (size_t i = 0; i < sizeof devices / sizeof devices[0]; i++) {
		const struct device *d = &devices[i];
		enum storage_kind k = d->none ? STORAGE_NONE
					      : storage_judge(d->rotates, d->timed, d->n_timed);
		unsigned depth = depth_of(d, k);

		ok(k == d->kind, "judge: %s: read as kind %d (got %d)", d->what, (int)d->kind, (int)k);
		ok(depth >= d->depth_least && depth <= d->depth_most,
		   "judge: %s: %u-%u threads read (got %u)", d->what, d->depth_least, d->depth_most,
		   depth);
	}
	return tap_done();
}
