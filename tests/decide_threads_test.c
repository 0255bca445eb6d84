/* decide_threads_test.c - when a parallel run adds threads
 * (decide_threads.c, the facts as they are, no device): single steps
 * from a table of states and facts, then whole runs against a model of
 * how fast the run goes with each number of threads; prints TAP. */
#include <stdio.h>

#include "run/decide.h"
#include "tap.h"

#define UNKNOWN SIZE_MAX
#define W PACE_WARMING
#define M PACE_MEASURING
#define S PACE_SETTLED

static const struct row {
	struct pace before;
	struct pace_facts f;
	enum pace_act act;
	unsigned helpers;
	enum pace_state state_after;
	const char *what;
} rows[] = {
	{ { .state = W }, { .now = 0, .helpers_max = 1, .left = 25000 }, PACE_START, 1, S,
	  "25,000 names, 2 CPUs: every helper at once" },
	{ { .state = W }, { .now = 0, .helpers_max = 7, .left = 25000 }, PACE_START, 7, S,
	  "25,000 names, 8 CPUs: every helper at once" },
	{ { .state = W }, { .now = 0, .helpers_max = 1, .left = 100 }, PACE_WAIT, 0, W,
	  "100 names: warm up first" },
	{ { .state = W }, { .now = 0, .helpers_max = 1, .left = UNKNOWN }, PACE_WAIT, 0, W,
	  "names not counted (-c): warm up first" },
	{ { .state = W }, { .now = 0, .helpers_max = 0, .left = 25000 }, PACE_WAIT, 0, W,
	  "one CPU: no helper to start" },
	{ { .state = W }, { .now = 999, .helpers_max = 1, .left = UNKNOWN }, PACE_WAIT, 0, W,
	  "still warming up" },
	{ { .state = W }, { .now = 1000, .work = 50, .helpers_max = 1, .left = UNKNOWN }, PACE_WAIT, 0, M,
	  "warmed up: the measure begins" },
	{ { .state = M, .since = 1000 }, { .now = 3999, .helpers_max = 1, .left = UNKNOWN }, PACE_WAIT, 0, M,
	  "measuring" },
	{ { .state = M, .since = 1000, .work = 0 },
	  { .now = 4000, .work = 3000, .helpers_max = 3, .left = UNKNOWN }, PACE_START, 1, M,
	  "measured alone: one helper, and measure again" },
	{ { .state = M, .since = 1000, .work = 0 },
	  { .now = 4000, .work = 3000, .helpers_max = 3, .left = 0, .claimed = 40 }, PACE_SETTLE, 0, S,
	  "measured alone, no job left: settle" },
	{ { .state = M, .since = 1000, .work = 0 },
	  { .now = 4000, .work = 3000, .helpers_max = 3, .left = 10, .claimed = 1000 }, PACE_SETTLE, 0, S,
	  "measured alone, too little left for a helper: settle" },
	{ { .state = M, .since = 1000, .work = 0 },
	  { .now = 4000, .work = 3000, .helpers_max = 3, .left = 0, .claimed = 2, .to_hand_over = 100000 },
	  PACE_START, 1, M,
	  "measured alone, no job left, large files held: a helper to take some" },
	{ { .state = M, .since = 1000, .work = 0 },
	  { .now = 4000, .work = 3000, .helpers_max = 3, .left = 0, .claimed = 2, .to_hand_over = 2000 },
	  PACE_SETTLE, 0, S,
	  "measured alone, no job left, too little held for a helper: settle" },
	{ { .state = M, .since = 1000, .work = 0 },
	  { .now = 4000, .work = 3000, .helpers_max = 3, .left = 0, .claimed = 5, .to_hand_over = 6000 },
	  PACE_SETTLE, 0, S,
	  "measured alone, no job left, work held for two measures only: no helper for it" },
	{ { .state = M, .since = 1000, .work = 0 },
	  { .now = 4000, .work = 3000, .helpers_max = 3, .left = 10, .claimed = 1000, .to_hand_over = 9000 },
	  PACE_START, 1, M,
	  "measured alone, the jobs left and the work held of four measures: a helper" },
	{ { .state = M, .since = 4000, .work = 3000, .rate = 1000, .proven = 0, .asked = 1 },
	  { .now = 7000, .work = 9000, .running = 1, .helpers_max = 3, .left = 0, .claimed = 8,
	    .to_hand_over = 3000 },
	  PACE_SETTLE, 0, S,
	  "a helper took held files and doubled the pace; too little held for more" },
	{ { .state = M, .since = 4000, .work = 3000, .rate = 1000, .proven = 0, .asked = 1 },
	  { .now = 7000, .work = 9000, .running = 1, .helpers_max = 3, .left = UNKNOWN }, PACE_START, 3, M,
	  "one helper doubled the pace: three" },
	{ { .state = M, .since = 4000, .work = 3000, .rate = 1000, .proven = 0, .asked = 1 },
	  { .now = 7000, .work = 6250, .running = 1, .helpers_max = 3, .left = UNKNOWN }, PACE_SETTLE, 0, S,
	  "one helper brought 8% more: keep it, no more" },
	{ { .state = M, .since = 4000, .work = 3000, .rate = 1000, .proven = 0, .asked = 1 },
	  { .now = 7000, .work = 5500, .running = 1, .helpers_max = 3, .left = UNKNOWN }, PACE_WAIT, 0, M,
	  "one helper made the run 17% slower: measure again" },
	{ { .state = M, .since = 4000, .work = 3000, .rate = 1000, .proven = 0, .asked = 1, .doubted = 1 },
	  { .now = 7000, .work = 5500, .running = 1, .helpers_max = 3, .left = UNKNOWN }, PACE_CUT, 0, S,
	  "one helper made the run 17% slower twice: undo" },
	{ { .state = M, .since = 4000, .work = 3000, .rate = 1000, .proven = 0, .asked = 1, .doubted = 1 },
	  { .now = 7000, .work = 9000, .running = 1, .helpers_max = 3, .left = UNKNOWN }, PACE_START, 3, M,
	  "slower once, then twice as fast: three" },
	{ { .state = M, .since = 4000, .work = 3000, .rate = 1000, .proven = 0, .asked = 1 },
	  { .now = 7000, .work = 6000, .running = 0, .helpers_max = 3, .left = UNKNOWN }, PACE_SETTLE, 0, S,
	  "no helper could be started: settle" },
	{ { .state = M, .since = 7000, .work = 9000, .rate = 2000, .proven = 1, .asked = 3 },
	  { .now = 10000, .work = 21000, .running = 3, .helpers_max = 3, .left = UNKNOWN }, PACE_SETTLE, 0, S,
	  "all CPUs busy and paying: settle" },
	{ { .state = S }, { .now = 50000, .helpers_max = 3, .left = 25000 }, PACE_WAIT, 0, S,
	  "settled: nothing more" },
	/* Past the CPUs: one CPU's helper, 63 more while the threads wait. */
	{ { .state = W }, { .now = 0, .helpers_max = 1, .helpers_max_waiting = 63, .left = 25000 },
	  PACE_START, 1, M,
	  "jobs for all, threads may wait: the CPUs' helpers at once, then a measure" },
	{ { .state = M, .since = 1, .proven = 1, .asked = 1, .cpu = { 10000, 100 } },
	  { .now = 3001, .work = 3000, .running = 1, .helpers_max = 1, .helpers_max_waiting = 63,
	    .cpu = { 10600, 110 }, .left = UNKNOWN },
	  PACE_WAIT, 0, M,
	  "the first measure holds the threads' start: it cannot tell waiting; once more" },
	{ { .state = M, .since = 1000, .work = 1000, .cpu = { 1000, 10 } },
	  { .now = 5000, .work = 3000, .running = 0, .helpers_max = 1, .helpers_max_waiting = 63,
	    .cpu = { 1400, 20 }, .left = UNKNOWN },
	  PACE_START, 9, M,
	  "the calling thread alone used a tenth of its CPU and waited: its first measure tells it; "
	  "as many as would keep the CPUs busy, 9" },
	{ { .state = M, .since = 1000, .work = 1000, .cpu = { 1000, 10 } },
	  { .now = 5000, .work = 3000, .running = 0, .helpers_max = 1, .helpers_max_waiting = 63,
	    .cpu = { 4800, 12 }, .left = UNKNOWN },
	  PACE_START, 1, M,
	  "the calling thread alone kept its CPU busy: the CPU's helper, no more" },
	{ { .state = M, .since = 4000, .work = 3000, .rate = 1000, .proven = 1, .asked = 1,
	    .judged = 1, .cpu = { 10000, 100 } },
	  { .now = 7000, .work = 9000, .running = 1, .helpers_max = 1, .helpers_max_waiting = 63,
	    .cpu = { 10600, 110 }, .left = UNKNOWN },
	  PACE_START, 19, M,
	  "threads used a tenth of their CPU and waited every 600 us: past the CPUs, as many as "
	  "would keep them busy, 19" },
	{ { .state = M, .since = 4000, .work = 3000, .rate = 1000, .proven = 1, .asked = 1,
	    .judged = 1, .cpu = { 10000, 100 } },
	  { .now = 7000, .work = 9000, .running = 1, .helpers_max = 1, .helpers_max_waiting = 63,
	    .cpu = { 11800, 110 }, .left = UNKNOWN },
	  PACE_START, 6, M,
	  "threads used 30% of their CPU and waited: 7 threads would keep the CPUs busy" },
	{ { .state = M, .since = 4000, .work = 3000, .rate = 1000, .proven = 1, .asked = 1,
	    .judged = 1, .cpu = { 10000, 100 } },
	  { .now = 7000, .work = 9000, .running = 1, .helpers_max = 1, .helpers_max_waiting = 63,
	    .cpu = { 14000, 110 }, .left = UNKNOWN },
	  PACE_START, 3, M,
	  "threads used two thirds of their CPU and waited: 4 threads would keep the CPUs busy" },
	{ { .state = M, .since = 4000, .work = 3000, .rate = 1000, .proven = 1, .asked = 1,
	    .judged = 1, .cpu = { 10000, 100 } },
	  { .now = 7000, .work = 9000, .running = 1, .helpers_max = 1, .helpers_max_waiting = 63,
	    .cpu = { 14800, 110 }, .left = UNKNOWN },
	  PACE_SETTLE, 0, S,
	  "threads used four fifths of their CPU: no more than the CPUs" },
	{ { .state = M, .since = 7000, .work = 9000, .rate = 2000, .proven = 1, .asked = 3,
	    .fill = 3, .judged = 2, .cpu = { 10000, 100 } },
	  { .now = 10000, .work = 14700, .running = 3, .helpers_max = 1, .helpers_max_waiting = 63,
	    .cpu = { 21500, 110 }, .left = UNKNOWN },
	  PACE_SETTLE, 0, S,
	  "the threads that keep the CPUs busy brought 5% less, waiting no more: kept, the last" },
	{ { .state = M, .since = 7000, .work = 9000, .rate = 2000, .proven = 1, .asked = 3,
	    .fill = 3, .judged = 2, .doubted = 1, .cpu = { 10000, 100 } },
	  { .now = 10000, .work = 13500, .running = 3, .helpers_max = 1, .helpers_max_waiting = 63,
	    .cpu = { 21500, 110 }, .left = UNKNOWN },
	  PACE_CUT, 1, S,
	  "the threads that keep the CPUs busy cost 25%, twice: undone" },
	{ { .state = M, .since = 4000, .work = 3000, .rate = 1000, .proven = 1, .asked = 1,
	    .judged = 1, .cpu = { 10000, 100 } },
	  { .now = 7000, .work = 9000, .running = 1, .helpers_max = 1, .helpers_max_waiting = 63,
	    .cpu = { 14000, 101 }, .left = UNKNOWN },
	  PACE_SETTLE, 0, S,
	  "two thirds of their CPU, hardly a wait: no more than the CPUs" },
	{ { .state = M, .since = 4000, .work = 3000, .rate = 1000, .proven = 1, .asked = 1,
	    .judged = 1, .cpu = { 10000, 100 } },
	  { .now = 7000, .work = 9000, .running = 1, .helpers_max = 1, .helpers_max_waiting = 63,
	    .cpu = { 10600, 101 }, .left = UNKNOWN },
	  PACE_SETTLE, 0, S,
	  "little CPU but hardly a wait (CPUs busy with other work): no more than the CPUs" },
	{ { .state = M, .since = 10000, .work = 20000, .rate = 2000, .proven = 3, .asked = 7,
	    .judged = 3, .cpu = { 20000, 300 } },
	  { .now = 13000, .work = 26300, .running = 7, .helpers_max = 1, .helpers_max_waiting = 63,
	    .cpu = { 21000, 400 }, .left = UNKNOWN },
	  PACE_WAIT, 0, M,
	  "past the CPUs, a step that brought 5% more: measured again (it held the threads' start)" },
	{ { .state = M, .since = 10000, .work = 20000, .rate = 2000, .proven = 3, .asked = 7,
	    .judged = 3, .cpu = { 20000, 300 }, .doubted = 1 },
	  { .now = 13000, .work = 26300, .running = 7, .helpers_max = 1, .helpers_max_waiting = 63,
	    .cpu = { 21000, 400 }, .left = UNKNOWN },
	  PACE_CUT, 3, S,
	  "past the CPUs, a step that brought 5% more in two measures is undone" },
	{ { .state = M, .since = 10000, .work = 20000, .rate = 2000, .proven = 3, .asked = 7,
	    .judged = 3, .cpu = { 20000, 300 } },
	  { .now = 13000, .work = 32000, .running = 7, .helpers_max = 1, .helpers_max_waiting = 63,
	    .cpu = { 22000, 400 }, .left = UNKNOWN },
	  PACE_START, 15, M,
	  "past the CPUs, a step that doubled the pace, the threads waiting: twice as many, 15" },
	{ { .state = M, .since = 10000, .work = 20000, .rate = 2000, .proven = 3, .asked = 7,
	    .judged = 3, .cpu = { 20000, 300 } },
	  { .now = 13000, .work = 32000, .running = 7, .helpers_max = 1, .helpers_max_waiting = 63,
	    .cpu = { 21000, 400 }, .left = UNKNOWN },
	  PACE_START, 15, M,
	  "the same, the threads using 4% of their CPU: twice as many still, 15" },
	{ { .state = M, .since = 10000, .work = 20000, .rate = 2000, .proven = 3, .asked = 7,
	    .judged = 3, .past = true },
	  { .now = 13000, .work = 32000, .running = 7, .helpers_max = 1, .helpers_max_waiting = 63,
	    .left = UNKNOWN },
	  PACE_WAIT, 0, M,
	  "past the CPUs, a measure lasts 20 ms: still measuring at 3 ms" },
	{ { .state = M, .since = 4000, .work = 3000, .rate = 1000, .proven = 1, .asked = 1,
	    .judged = 1 },
	  { .now = 7000, .work = 9000, .running = 1, .helpers_max = 1, .left = UNKNOWN },
	  PACE_SETTLE, 0, S,
	  "no more may be had past the CPUs (a disk that rotates, -j): the CPUs' alone" },
	{ { .state = M, .since = 4000, .work = 3000, .rate = 1000, .proven = 1, .asked = 1,
	    .judged = 1, .cpu = { 10000, 100 } },
	  { .now = 7000, .work = 3000, .running = 1, .helpers_max = 1, .helpers_max_waiting = 63,
	    .cpu = { 10600, 110 }, .left = UNKNOWN },
	  PACE_WAIT, 0, M,
	  "no work done over the measure (first files still opening): it goes on" },
	{ { .state = M, .since = 4000, .work = 3000, .rate = 1000, .proven = 1, .asked = 1,
	    .judged = 1 },
	  { .now = 7000, .work = 9000, .running = 1, .helpers_max = 1, .left = UNKNOWN, .unsure = true },
	  PACE_WAIT, 0, M,
	  "the CPUs' alone, the storage not judged yet: measured again, not settled" },
	{ { .state = W }, { .now = 0, .helpers_max = 1, .left = 25000, .unsure = true }, PACE_START, 1, M,
	  "25,000 names, the storage not judged yet: every helper at once, then measured" },
	{ { .state = M, .since = 4000, .work = 3000, .rate = 1000, .proven = 0, .asked = 1,
	    .judged = 1, .cpu = { 10000, 100 } },
	  { .now = 7000, .work = 5000, .running = 1, .helpers_max = 1, .helpers_max_waiting = 63,
	    .cpu = { 10300, 120 }, .left = UNKNOWN },
	  PACE_START, 39, M,
	  "a helper within the CPUs seems to cost, the threads using 5% of their CPU: "
	  "not judged by a rate of few files; as many as keep the CPUs busy, 40" },
	{ { .state = M, .since = 4000, .work = 3000, .rate = 1000, .proven = 0, .asked = 1,
	    .judged = 1, .cpu = { 10000, 100 } },
	  { .now = 7000, .work = 6150, .running = 1, .helpers_max = 1, .helpers_max_waiting = 63,
	    .cpu = { 10300, 120 }, .left = UNKNOWN },
	  PACE_START, 39, M,
	  "a helper within the CPUs seems to bring too little, the threads mostly waiting: "
	  "not the last step" },
	{ { .state = M, .since = 4000, .work = 3000, .rate = 1000, .proven = 0, .asked = 1,
	    .judged = 1, .cpu = { 10000, 100 } },
	  { .now = 7000, .work = 6150, .running = 1, .helpers_max = 1, .helpers_max_waiting = 63,
	    .cpu = { 15800, 120 }, .left = UNKNOWN },
	  PACE_SETTLE, 0, S,
	  "the same, the threads using their CPU: too little, the last step" },
};

/* The next step from *p and f, without a device; *p moves on. */
static struct pace_step next(struct pace *p, const struct pace_facts *f)
{
	return decide_threads(p, f, NULL);
}

static void test_steps(void)
{
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		const struct row *r = &rows[i];
		struct pace p = r->before;
		struct pace_step s = next(&p, &r->f);

		ok(s.act == r->act && s.helpers == r->helpers && p.state == r->state_after,
		   "pace: %s (got %d %u, state %d)", r->what, (int)s.act, s.helpers, (int)p.state);
	}
	ok(decide_begin(1).state == PACE_SETTLED && decide_begin(0).state == PACE_WARMING,
	   "pace: -j settles at once, else it warms up");
}

/* A run of unknown length whose work a us with n helpers is speed[n],
 * but for a dip to 60% from dip_us for 3 ms (a measure's worth of larger
 * files), stepped every 100 us as the calling thread would: the helpers
 * it ends with. */
static unsigned model_run(const unsigned *speed, unsigned helpers_max, int64_t dip_us, int *undone)
{
	struct pace p = decide_begin(0);
	unsigned running = 0, keep = 0;
	uint64_t work = 0;

	*undone = 0;
	for (int64_t now = 0; now < 100000; now += 100) {
		struct pace_facts f = { .now = now, .work = work, .running = running,
					.helpers_max = helpers_max, .left = UNKNOWN };
		struct pace_step s = next(&p, &f);

		if (s.act == PACE_START)
			running = keep = s.helpers;
		else if (s.act == PACE_CUT)
			keep = s.helpers, *undone = 1;
		work += 100 * (uint64_t)speed[keep] * (now >= dip_us && now < dip_us + 3000 ? 6 : 10) / 10;
	}
	return keep;
}

static void test_runs(void)
{
	static const unsigned scales[] = { 10, 20, 40, 60, 80, 90, 95, 98, 99 };
	static const unsigned flat[] = { 10, 10, 10, 10, 10, 10, 10, 10, 10 };
	static const unsigned worse[] = { 10, 7, 5, 4, 4, 4, 4, 4, 4 };
	static const unsigned two[] = { 10, 20, 20, 20, 20, 20, 20, 20, 20 };
	enum { NO_DIP = 1000000, DIP = 4000 };	/* the first measure with a helper */
	int undone;

	ok(model_run(scales, 7, NO_DIP, &undone) == 7 && !undone,
	   "pace model: threads that pay are all kept");
	ok(model_run(flat, 7, NO_DIP, &undone) == 1 && !undone,
	   "pace model: a helper that brings nothing is the last");
	ok(model_run(worse, 7, NO_DIP, &undone) == 0 && undone,
	   "pace model: a helper that costs is undone");
	ok(model_run(two, 7, NO_DIP, &undone) == 3 && !undone,
	   "pace model: a step that brings nothing more is the last");
	ok(model_run(flat, 7, DIP, &undone) == 1 && !undone,
	   "pace model: one slow measure does not undo a helper");
	ok(model_run(scales, 7, DIP, &undone) == 7 && !undone,
	   "pace model: nor keep threads that pay from being added");
}

int main(void)
{
	test_steps();
	test_runs();
	return tap_done();
}
