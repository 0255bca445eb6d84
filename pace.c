/* pace.c - when a parallel run adds threads; see pace.h. */
#include "pace.h"

/* A measure lasts MEASURE_US, after WARMUP_US of the run.  The files of a
 * tree differ from one part of it to the next, and a large file read in
 * one measure and not in the next weighs much, so that two measures differ
 * with the threads unchanged: a step is undone only when it makes the run
 * SLOWER_PERCENT slower in two measures running, and one that brings less
 * than FASTER_PERCENT more is the last. */
enum { WARMUP_US = 1000, MEASURE_US = 3000, SLOWER_PERCENT = 10, FASTER_PERCENT = 10 };

/* The least a file can take, in us: its open, fstat, read and close.
 * Jobs enough that every thread would find a measure's worth of them,
 * at that, start every helper at once. */
enum { FILE_US_LEAST = 4 };

struct pace pace_begin(int settled)
{
	return (struct pace){ .state = settled ? PACE_SETTLED : PACE_WARMING };
}

static struct pace_step step(enum pace_act act, unsigned helpers)
{
	return (struct pace_step){ .act = act, .helpers = helpers };
}

/* Whether the jobs left keep every thread busy for a measure at least. */
static int work_for_all(const struct pace_facts *f)
{
	return f->left != SIZE_MAX &&
	       f->left / (f->most + 1) >= MEASURE_US / FILE_US_LEAST;
}

/* Work held is worth a helper only when it would last this many
 * measures: the helper takes files from the thread that holds them
 * (gifts), and each then hashes fewer side by side, at a higher cost a
 * byte, so that a short run would gain less than the helper costs. */
enum { HELD_MEASURES_LEAST = 4 };

/* The time the work held would take at the run's pace so far, in us. */
static uint64_t held_us(const struct pace_facts *f)
{
	uint64_t per_ms = f->now > 0 ? f->work * 1000 / (uint64_t)f->now : 0;

	return per_ms > 0 ? f->held * 1000 / per_ms : 0;
}

/* Helpers to have for a next step: twice the threads, as many as may be
 * had at most, and no more than find a measure's worth of work each at
 * the run's pace so far, when the jobs left are known: in those jobs and
 * in the work held. */
static unsigned next_helpers(const struct pace_facts *f)
{
	unsigned n = 2 * f->running + 1;

	if (n > f->most)
		n = f->most;
	if (f->left != SIZE_MAX && (f->claimed > 0 || f->left == 0)) {
		uint64_t us = held_us(f), worth;

		if (us < HELD_MEASURES_LEAST * MEASURE_US)
			us = 0;
		if (f->claimed > 0)
			us += (uint64_t)f->now * f->left / f->claimed;
		worth = us / MEASURE_US;
		if (worth < n)
			n = (unsigned)worth;
	}
	return n;
}

/* Work a ms since the measure began. */
static uint64_t rate_since(const struct pace *p, const struct pace_facts *f)
{
	int64_t us = f->now > p->since + 1 ? f->now - p->since : 1;

	return (f->work - p->work) * 1000 / (uint64_t)us;
}

static struct pace_step measure_from_now(struct pace *p, const struct pace_facts *f,
					 struct pace_step s)
{
	p->state = PACE_MEASURING;
	p->since = f->now;
	p->work = f->work;
	return s;
}

static struct pace_step settle(struct pace *p, struct pace_step s)
{
	p->state = PACE_SETTLED;
	return s;
}

/* A measure is over: judge the last step, and take the next. */
static struct pace_step judge(struct pace *p, const struct pace_facts *f)
{
	uint64_t rate = rate_since(p, f);
	unsigned n;

	if (f->running > p->kept) {
		if (rate * 100 < p->rate * (100 - SLOWER_PERCENT)) {
			if (p->doubted)
				return settle(p, step(PACE_KEEP, p->kept));	/* they cost */
			p->doubted = 1;
			return measure_from_now(p, f, step(PACE_WAIT, 0));
		}
		p->doubted = 0;
		if (rate * 100 < p->rate * (100 + FASTER_PERCENT))
			return settle(p, step(PACE_SETTLE, 0));	/* too little */
	} else if (p->asked > p->kept) {
		return settle(p, step(PACE_SETTLE, 0));	/* none could be started */
	}
	p->rate = rate;
	p->kept = f->running;
	n = next_helpers(f);
	if (n <= f->running)
		return settle(p, step(PACE_SETTLE, 0));
	p->asked = n;
	return measure_from_now(p, f, step(PACE_START, n));
}

struct pace_step pace_next(struct pace *p, const struct pace_facts *f)
{
	switch (p->state) {
	case PACE_WARMING:
		if (f->most > 0 && work_for_all(f))
			return settle(p, step(PACE_START, f->most));
		if (f->now < WARMUP_US)
			return step(PACE_WAIT, 0);
		return measure_from_now(p, f, step(PACE_WAIT, 0));
	case PACE_MEASURING:
		if (f->now < p->since + MEASURE_US)
			return step(PACE_WAIT, 0);
		return judge(p, f);
	default:
		return step(PACE_WAIT, 0);
	}
}
