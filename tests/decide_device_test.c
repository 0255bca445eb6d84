/* decide_device_test.c - how a run's device caps its threads
 * (decide_threads.c, with the device's facts) and how the device's kind
 * is told (devkind.c), from a table of sequences: for each device, the
 * latencies of its far reads as they come in, one after another, and how
 * long a file takes with n reads in flight.  A whole run is stepped as
 * the calling thread steps it, each read revealed when it is over; at
 * every step devkind_of gives the way, decide_threads the depth.  Checked: the way after each read, the threads that read
 * at once in the end (on flash, twice the CPUs at most: its depth is in
 * the files asked for ahead, not in the threads, which this model does
 * not see), and that no step ever reads deeper than the CPUs while the
 * device spins or may.  Prints TAP. */
#include <stdio.h>
#include <string.h>

#include "run/decide.h"
#include "tap.h"

enum { CPUS = 2, MOST_WAITING = 63, STEP_US = 100, RUN_US = 400000, READS_MAX = 20 };

/* A device: whether a block device is under it and whether it says it
 * rotates; its far reads' latencies, first to last, each made when the
 * one before it is over; the way expected after each, a letter a read
 * (n none, s solid, r spinning, u unsure); how long a file takes with n
 * reads in flight (latency_us, a function of n) beside the CPU time a
 * file costs; and the threads expected to read at once in the end. */
struct device {
	const char *what;
	bool block, rotates;
	uint32_t far[READS_MAX];
	const char *ways;
	double (*latency_us)(unsigned depth);
	double cpu_us;
	unsigned depth_least, depth_most;
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
	{ "steady flash, says it rotates", true, true, { 90, 110, 95, 105, 100, 98 }, "uussss",
	  flash, 10, 3, 2 * CPUS },
	{ "flash that says it does not rotate", true, false, { 90, 110, 95 }, "sss", flash, 10, 3,
	  2 * CPUS },
	{ "steady rotating", true, true, { 8700, 9100, 8400, 8900, 9300 }, "uurrr", seeks, 10, 1,
	  CPUS },
	{ "rotating, its first read from the drive's cache", true, true, { 150, 8700, 9200, 8800 },
	  "uurr", seeks, 10, 1, CPUS },
	{ "rotating, says it does not", true, false, { 9000, 8400, 12000 }, "ssr", seeks, 10, 1,
	  CPUS },
	{ "flash with one slow outlier", true, true, { 100, 12000, 95, 110, 90 }, "uusss", flash, 10,
	  3, 2 * CPUS },
	{ "rotating, not measured past two reads", true, true, { 9000, 8800 }, "uu", seeks, 10, 1,
	  CPUS },
	{ "rotating behind a cache that holds half its reads", true, true, { 100, 9000, 120, 9100 },
	  "uusr", seeks, 10, 1, CPUS },
	{ "fast at first, then seeks: the latest eight count", true, true,
	  { 90, 95, 100, 92, 98, 94, 9000, 9100, 8800, 9200, 8900, 9300 }, "uusssssssrrr", seeks,
	  10, 1, CPUS },
	{ "network file system: 2 ms that does not grow with depth", false, false, { 0 }, "", flat_2ms,
	  10, 32, 64 },
	{ "a device that slows under load past 4 reads", true, false, { 300, 350, 320 }, "sss", slows,
	  10, 2, 16 },
};

static char letter(enum storage_kind k)
{
	return "nsru"[k];
}

/* A whole run of unknown length on d, stepped as the calling thread
 * steps it; ways gets the way after each far read, *deep_unsure whether
 * a step read deeper than the CPUs while d spun or might.  The threads
 * it reads with in the end.  Each thread reads a file and hashes it,
 * waiting for the read once. */
static unsigned run_on(const struct device *d, char *ways, bool *deep_unsure)
{
	struct pace p = decide_begin(0);
	uint32_t ring[STORAGE_SAMPLES];
	unsigned running = 0, keep = 0, timed = 0, n_far = (unsigned)strlen(d->ways);
	double work = 0, cpu = 0, waits = 0, next_far = d->far[0];

	*deep_unsure = false;
	for (int64_t now = 0; now < RUN_US; now += STEP_US) {
		unsigned threads = keep + 1;
		double busy = threads < CPUS ? threads : CPUS;
		double files = threads / (d->latency_us(threads) + d->cpu_us);	/* a us */
		struct device_facts dev = { d->block, d->rotates, ring, timed };
		struct pace_facts f = {
			.now = now, .work = (uint64_t)work, .running = running,
			.helpers_max = CPUS - 1, .helpers_max_waiting = MOST_WAITING,
			.cpu = { (uint64_t)cpu, (uint64_t)waits }, .left = SIZE_MAX,
		};
		struct pace_step j;
		enum storage_kind kind;

		/* The reads over by now, each judged as it comes in. */
		for (; timed < n_far && next_far <= now; next_far += d->far[timed]) {
			ring[timed % STORAGE_SAMPLES] = d->far[timed];
			dev.timed = ++timed;
			ways[timed - 1] = letter(devkind_of(&dev));
		}
		kind = devkind_of(&dev);
		j = decide_threads(&p, &f, &dev);
		if (j.act == PACE_START)
			running = keep = j.helpers;
		else if (j.act == PACE_CUT)
			keep = j.helpers;
		if ((kind == STORAGE_SPINNING || kind == STORAGE_UNSURE) && keep + 1 > CPUS)
			*deep_unsure = true;
		if (files * d->cpu_us > busy)
			files = busy / d->cpu_us;	/* the CPUs bound it */
		work += STEP_US * files * (4096 + 16384);
		cpu += STEP_US * files * d->cpu_us;
		waits += STEP_US * files;
	}
	ways[timed] = '\0';
	return keep + 1;
}

/* A device's first judgment, before any read: from its flag alone. */
static void test_unmeasured(void)
{
	struct device_facts says_rotates = { true, true, NULL, 0 },
			    says_solid = { true, false, NULL, 0 }, none = { false, true, NULL, 0 };
	struct pace warming = decide_begin(0);
	struct pace_facts f = { .helpers_max = CPUS - 1, .helpers_max_waiting = MOST_WAITING,
				.left = SIZE_MAX };
	struct pace_step d;

	ok(devkind_of(&says_rotates) == STORAGE_UNSURE,
	   "judge: says it rotates, nothing timed: unsure");
	ok(devkind_of(&says_solid) == STORAGE_SOLID,
	   "judge: says it does not rotate, nothing timed: solid");
	ok(devkind_of(&none) == STORAGE_NONE, "judge: no block device: none");
	d = decide_threads(&warming, &f, &says_rotates);
	ok(d.act == PACE_WAIT && f.helpers_max_waiting == MOST_WAITING && !f.unsure,
	   "judge: as the run starts, no step, and the facts handed in are not written");
}

int main(void)
{
	test_unmeasured();
	for (size_t i = 0; i < sizeof devices / sizeof devices[0]; i++) {
		const struct device *d = &devices[i];
		char ways[READS_MAX + 1];
		bool deep_unsure;
		unsigned depth = run_on(d, ways, &deep_unsure);

		ok(strcmp(ways, d->ways) == 0, "judge: %s: the way read by read \"%s\" (got \"%s\")",
		   d->what, d->ways, ways);
		ok(depth >= d->depth_least && depth <= d->depth_most,
		   "judge: %s: %u-%u threads read (got %u)", d->what, d->depth_least, d->depth_most,
		   depth);
		ok(!deep_unsure, "judge: %s: never deeper than the CPUs while it spins or may",
		   d->what);
	}
	return tap_done();
}
