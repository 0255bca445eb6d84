/* lanes_bench.c - in-process throughput of the one-stream transforms
 * (md5.c) and of the block engines (lanes.h), on one core.
 *
 * Each transform hashes one stream of 1 MiB, each engine 1 MiB per lane
 * (its width streams at once), as md5sum hashes files: 64 times over a
 * buffer of 16 KiB a lane, which stays in the cache as md5sum's lane
 * buffers do (hasher.c: 512 KiB in all), where streams of 1 MiB a lane
 * measured the memory more than the engines.  In each of 5 rounds, after
 * one to warm up, every one of them runs once, so that they take turns,
 * each round starting one further along; a figure is the median of its 5
 * runs and the best of them: MB/s (10^6 bytes a second, over all lanes),
 * cycles a byte for one stream and cycles a step (64 a block, all the
 * engine's lanes at once) for an engine, at the clock a chain of dependent
 * adds shows, and the ratio of medians to the portable transform's.  Time
 * is this thread's CPU time, so that other work on the machine takes none
 * of it.  Optional arguments name the transforms and engines to run.  The
 * library's md5.c is compiled in, to reach the transforms it keeps to
 * itself.
 *
 * The lanes' buffers start a cache line apart modulo 4 KiB, as lanes.h
 * advises; with -a they all start at the same offset modulo 16 KiB instead,
 * which shows what the wide engines lose when every lane's block falls in
 * the same cache sets.  -k KIB gives each lane a buffer of KIB KiB instead
 * of 16, hashed whole each time (KIB / 1024 MiB a lane and run, when more
 * than 1): the engines' speed from L3 or from memory, as a library's caller
 * hashing buffers of its own meets it.
 *
 * --table times every engine this CPU runs, and no transform, in 9 series
 * of 21 rounds, 5 s apart: a minute, to ride out the bursts of other work
 * on a shared machine, which slow even this thread's CPU time, the wide
 * engines most; not work that lasts, as another make check, so it warns
 * of a load of 1 or more when it starts.  It prints the speed table of
 * this kind of CPU as lib/lanes_speeds.h holds it: a block that says
 * where, when and how it was measured, then a ROW of each engine with the
 * median of its series' medians, fastest first.  A table is refreshed by
 * running that pinned to one core (taskset -c 0) on an idle CPU of its
 * kind and putting what it prints in place of the old one.  It exits 1
 * when the order by speed breaks what lanes.c needs of a table, that each
 * engine needs all the features of those after it.
 *
 *	cc -std=c11 -D_POSIX_C_SOURCE=200809L -O2 -I. -Ilib -o lanes_bench \
 *		bench/lanes_bench.c lib/lanes.c */
#if defined(__linux__)
#define _GNU_SOURCE	/* sched_getaffinity */
#include <sched.h>
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bench/clock.h"
#include "bench/stats.h"
#include "lib/lanes.h"
#include "lib/md5.c"

enum {
	PER_LANE = 1 << 20,	/* bytes hashed per lane and run, at least */
	BUFFER = 16 << 10,	/* a lane's buffer, hashed per_lane / buffer times */
	RUNS = 5,
	TABLE_SERIES = 9,	/* --table: series of rounds, */
	TABLE_RUNS = 21,	/* rounds in each, */
	PAUSE = 5,		/* and seconds between them */
	LINE = 64,		/* stagger between lanes, bytes */
	MAX_ITEMS = 16,
};

/* -k: a lane's buffer, and the bytes hashed per lane and run. */
static size_t buffer = BUFFER, per_lane = PER_LANE;

/* The compiler, and the flags the Makefile built with. */
#if defined(__clang__)
#define COMPILER "clang " __clang_version__
#elif defined(__GNUC__)
#define COMPILER "gcc " __VERSION__
#else
#define COMPILER "an unknown compiler"
#endif
#ifndef BUILD_CFLAGS
#define BUILD_CFLAGS "unknown (not built by the Makefile)"
#endif

/* What is timed: a transform (width 1) or an engine. */
struct item {
	const char *name;
	const struct transform *transform;	/* or NULL */
	const struct md5_engine *engine;	/* or NULL */
	unsigned width;
	double t[TABLE_RUNS];	/* seconds of each run of a series */
	double series[TABLE_SERIES];	/* MB/s at each series' median, sorted */
	double mbs;		/* MB/s: the median of the series' */
};

static int by_speed(const void *x, const void *y)
{
	double a = ((const struct item *)x)->mbs, b = ((const struct item *)y)->mbs;

	return (a < b) - (a > b);
}

/* Seconds for one run of it over its lanes' per_lane bytes each. */
static double time_item(const struct item *it, const uint8_t *data, size_t stagger)
{
	uint32_t (*state)[4] = xmalloc(it->width * sizeof *state);
	const uint8_t **p = xmalloc(it->width * sizeof *p);
	uint32_t sink = 0;
	double start, t;

	for (unsigned i = 0; i < it->width; i++) {
		p[i] = data + (size_t)i * (buffer + stagger);
		memcpy(state[i], md5_iv, sizeof state[i]);
	}
	start = cpu_seconds();
	for (size_t pass = 0; pass < per_lane / buffer; pass++) {
		if (it->engine)
			it->engine->blocks(state, p, buffer / MD5_BLOCK_LENGTH);
		else
			it->transform->blocks(state[0], p[0], buffer / MD5_BLOCK_LENGTH);
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
		if (strcmp(argv[i], "-a") == 0 || strcmp(argv[i], "--table") == 0)
			continue;
		if (strcmp(argv[i], "-k") == 0) {
			i++;
			continue;
		}
		if (strcmp(argv[i], name) == 0)
			return 1;
		any = 1;
	}
	return !any;
}

/* Every engine this CPU runs: those of a CPU with its features of no
 * kind that has figures. */
static const struct md5_engine *const *all_engines(void)
{
	return md5_engines_of(cpu_features() & ~(unsigned)(CPU_INTEL | CPU_AMD));
}

/* The transforms (but with --table) and engines to time; the portable
 * transform first. */
static int choose(struct item *items, int argc, char **argv, int table)
{
	int n = 0;

	for (int i = TRANSFORMS - 1; i >= 0 && !table; i--) {
		const struct transform *t = &transforms[i];

		if (!(t->needs & ~cpu_features()) && (i == TRANSFORMS - 1 ||
						     wanted(t->name, argc, argv)))
			items[n++] = (struct item){ t->name, t, NULL, 1, { 0 }, { 0 }, 0 };
	}
	for (const struct md5_engine *const *e = all_engines(); *e && n < MAX_ITEMS; e++)
		if (wanted((*e)->name, argc, argv))
			items[n++] = (struct item){ (*e)->name, NULL, *e, (*e)->width,
						    { 0 }, { 0 }, 0 };
	return n;
}

/* The first number in the file path (/proc/loadavg), or -1. */
static double first_number(const char *path)
{
	FILE *f = fopen(path, "r");
	double x = -1;

	if (f) {
		if (fscanf(f, "%lf", &x) != 1)
			x = -1;
		fclose(f);
	}
	return x;
}

/* The block's line on the CPU: by cpuid on x86-64, from /proc/cpuinfo
 * elsewhere. */
#if defined(__x86_64__) && defined(__GNUC__)
/* s without the spaces cpuid pads its strings with, at either end. */
static const char *trimmed(char *s)
{
	size_t n = strlen(s);

	while (n > 0 && s[n - 1] == ' ')
		s[--n] = '\0';
	return s + strspn(s, " ");
}

static void print_cpu(void)
{
	long online = sysconf(_SC_NPROCESSORS_ONLN);
	unsigned r[12] = { 0 }, a = 0, b = 0, c = 0, d = 0, sig = 0, family, model;
	char vendor[13] = "", brand[49] = "", hypervisor[13] = "";

	__get_cpuid(0, &a, &r[0], &r[2], &r[1]);
	memcpy(vendor, r, 12);
	__get_cpuid(1, &sig, &b, &c, &d);
	family = (sig >> 8) & 0xf;
	model = (sig >> 4) & 0xf;
	if (family == 0xf)
		family += (sig >> 20) & 0xff;
	if (family == 6 || family >= 0xf)
		model |= ((sig >> 16) & 0xf) << 4;
	if (c & 1u << 31) {
		__cpuid(0x40000000, a, r[0], r[1], r[2]);
		memcpy(hypervisor, r, 12);
	}
	if ((unsigned)__get_cpuid_max(0x80000000, NULL) >= 0x80000004) {
		for (unsigned i = 0; i < 3; i++)
			__cpuid(0x80000002 + i, r[4 * i], r[4 * i + 1],
				r[4 * i + 2], r[4 * i + 3]);
		memcpy(brand, r, 48);
	}
	printf(" * cpu   %s %u/%u/%u \"%s\"; %ld online%s%s\n", vendor, family,
	       model, sig & 0xf, trimmed(brand), online,
	       hypervisor[0] ? "; guest of " : "", trimmed(hypervisor));
}
#else
/* The value of the first line of /proc/cpuinfo that starts with key, in
 * buf; "" when there is none. */
static const char *cpuinfo(const char *key, char *buf, size_t size)
{
	FILE *f = fopen("/proc/cpuinfo", "r");
	char line[256];

	buf[0] = '\0';
	while (f && fgets(line, sizeof line, f)) {
		char *colon = strchr(line, ':');

		if (colon && strncmp(line, key, strlen(key)) == 0) {
			colon += strspn(colon + 1, " \t") + 1;
			colon[strcspn(colon, "\n")] = '\0';
			snprintf(buf, size, "%s", colon);
			break;
		}
	}
	if (f)
		fclose(f);
	return buf;
}

static void print_cpu(void)
{
	char buf[3][128];

	printf(" * cpu   \"%s\"; implementer %s, part %s; %ld online\n",
	       cpuinfo("model name", buf[0], sizeof buf[0]),
	       cpuinfo("CPU implementer", buf[1], sizeof buf[1]),
	       cpuinfo("CPU part", buf[2], sizeof buf[2]),
	       sysconf(_SC_NPROCESSORS_ONLN));
}
#endif

/* The CPU this process is pinned to, in buf, or how many it may use. */
static const char *pinning(char *buf, size_t size)
{
	snprintf(buf, size, "not known to be pinned to one CPU");
#if defined(__linux__) && defined(CPU_COUNT)
	{
		cpu_set_t set;

		if (sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 1)
			snprintf(buf, size, "not pinned: any of %d CPUs",
				 CPU_COUNT(&set));
		else if (CPU_COUNT(&set) == 1)
			for (size_t i = 0; i < CPU_SETSIZE; i++)
				if (CPU_ISSET(i, &set))
					snprintf(buf, size, "pinned to CPU %zu", i);
	}
#endif
	return buf;
}

/* The name of the table of this kind of CPU, in buf: its maker's and its
 * widest vector instructions'. */
static const char *kind(char *buf, size_t size)
{
	unsigned have = cpu_features();

	snprintf(buf, size, "%s_%s",
		 have & CPU_INTEL ? "intel" : have & CPU_AMD ? "amd" : "other",
		 have & CPU_AVX512F ? "avx512" : have & CPU_AVX2 ? "avx2" :
		 have & CPU_NEON ? "neon" : all_engines()[0]->width > 1 ? "sse2" :
		 "scalar");
	return buf;
}

/* The speed table of the n engines timed, as lib/lanes_speeds.h holds
 * it; 1 when the order by speed is not one lanes.c may use. */
static int print_table(struct item *items, int n, double *clocks, int nclocks,
		       double load)
{
	const char *transform = "?";
	char pinned[64], date[32], name[32];
	time_t now = time(NULL);
	double hz = median(clocks, nclocks);
	int bad = 0;

	for (int i = 0; i < TRANSFORMS; i++)
		if (transforms[i].blocks == transform_in_use())
			transform = transforms[i].name;
	strftime(date, sizeof date, "%Y-%m-%d %H:%M UTC", gmtime(&now));
	qsort(items, (size_t)n, sizeof items[0], by_speed);

	kind(name, sizeof name);
	printf("/* %s: bench/lanes_bench --table, %s; %s, %s\n", name, date,
	       COMPILER, BUILD_CFLAGS);
	print_cpu();
	printf(" * run   %s; clock %.2f GHz (%.2f-%.2f); load %.2f, then %.2f;\n",
	       pinning(pinned, sizeof pinned), hz / 1e9, clocks[0] / 1e9,
	       clocks[nclocks - 1] / 1e9, load, first_number("/proc/loadavg"));
	printf(" *       %d series of %d rounds, %d s apart; scalar: md5.c's %s */\n",
	       TABLE_SERIES, TABLE_RUNS, PAUSE, transform);
	printf("static const struct md5_engine *const %s[] = {\n", name);
	for (int i = 0; i < n; i++) {
		struct item *it = &items[i];

		printf("\tROW(%s, %.0f),\t/* %.0f-%.0f */\n", it->name, it->mbs,
		       it->series[0], it->series[TABLE_SERIES - 1]);
		if (i + 1 < n && (items[i + 1].engine->needs & ~it->engine->needs)) {
			fprintf(stderr, "lanes_bench: %s is faster than %s, which "
				"needs more of the CPU: lanes.c cannot use "
				"this order\n", it->name, items[i + 1].name);
			bad = 1;
		}
	}
	printf("\tNULL,\n};\n");
	if (md5_engines() == all_engines())
		fprintf(stderr, "lanes_bench: lanes.c has no table for this kind "
			"of CPU (%s): table() there would choose it\n", name);
	if (load >= 1)
		fprintf(stderr, "lanes_bench: the machine's load was %.2f: other "
			"work slows the wide engines most; run again when it is "
			"idle\n", load);
	if (strncmp(pinned, "pinned", 6) != 0)
		fprintf(stderr, "lanes_bench: %s; taskset -c 0 gives steadier "
			"figures\n", pinned);
	return bad;
}

int main(int argc, char **argv)
{
	struct item items[MAX_ITEMS];
	size_t stagger = LINE, size;
	unsigned widest = 1;
	double clocks[TABLE_SERIES + 1], hz, base = 0;
	double load = first_number("/proc/loadavg");
	int n, table = 0, series, runs, nclocks = 0;
	uint8_t *data;

	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "-a") == 0)
			stagger = 0;
		if (strcmp(argv[i], "--table") == 0)
			table = 1;
		if (strcmp(argv[i], "-k") == 0) {
			long kib = i + 1 < argc ? strtol(argv[i + 1], NULL, 10) : 0;

			if (kib < 1 || kib > 1 << 20) {
				fprintf(stderr, "lanes_bench: -k takes KiB a lane, 1 to %d\n", 1 << 20);
				return 2;
			}
			buffer = (size_t)kib << 10;
			per_lane = buffer * ((PER_LANE + buffer - 1) / buffer);
			i++;
		}
	}
	series = table ? TABLE_SERIES : 1;
	runs = table ? TABLE_RUNS : RUNS;
	n = choose(items, argc, argv, table);
	for (int i = 0; i < n; i++)
		widest = items[i].width > widest ? items[i].width : widest;
	size = (size_t)widest * (buffer + LINE);
	data = xmalloc(size);
	for (size_t i = 0; i < size; i++)
		data[i] = (uint8_t)(i * 2654435761u >> 13);

	/* Each round starts one further along, so that none always follows
	 * the same one; the clock before each series and after the last. */
	for (int k = 0; k < series; k++) {
		if (k > 0)
			sleep(PAUSE);
		clocks[nclocks++] = clock_hz();
		for (int r = -1; r < runs; r++)
			for (int j = 0; j < n; j++) {
				int i = (j + r + 1) % n;
				double t = time_item(&items[i], data, stagger);

				if (r >= 0)
					items[i].t[r] = t;
			}
		for (int i = 0; i < n; i++)
			items[i].series[k] = (double)items[i].width * (double)per_lane /
					     median(items[i].t, runs) / 1e6;
	}
	clocks[nclocks++] = clock_hz();
	for (int i = 0; i < n; i++)
		items[i].mbs = median(items[i].series, series);
	if (table) {
		free(data);
		return print_table(items, n, clocks, nclocks, load);
	}
	hz = median(clocks, nclocks);

	printf("clock %.2f GHz (a chain of dependent adds)\n", hz / 1e9);
	printf("%-12s %5s %8s %8s %9s %11s %8s\n", "", "lanes", "MB/s", "best",
	       "cycles/B", "cycles/step", "x scalar");
	for (int i = 0; i < n; i++) {
		struct item *it = &items[i];
		double bytes = (double)it->width * (double)per_lane, mbs = it->mbs;
		double med = bytes / mbs / 1e6;

		if (i == 0 || (it->engine && !items[i - 1].engine))
			puts(it->engine ? "engines (lanes.h)" :
			     "one stream: md5.c's transforms");
		if (i == 0)
			base = mbs;
		if (it->transform)
			printf("%-12s %5u %8.0f %8.0f %9.2f %11s %8.2f\n", it->name,
			       1u, mbs, bytes / it->t[0] / 1e6, med * hz / bytes, "",
			       mbs / base);
		else
			printf("%-12s %5u %8.0f %8.0f %9s %11.2f %8.2f\n", it->name,
			       it->width, mbs, bytes / it->t[0] / 1e6, "",
			       med * hz / (double)(per_lane / MD5_BLOCK_LENGTH) / 64, mbs / base);
	}
	free(data);
	return 0;
}
