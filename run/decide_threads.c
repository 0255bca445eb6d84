/* decide_threads.c - how many threads a run has: the steps of adding
 * them, and their cap by the device; see decide.h. */
#include "run/decide.h"
#include "os/features.h"

/* The small static build has no room for the steps past the CPUs, and
 * its runs never ask for them (os/features.h). */
#define PAST_CPUS(f) (HAS_THREADS_PAST_CPUS && (f)->helpers_max_waiting > (f)->helpers_max)
#define UNSURE(f) (HAS_THREADS_PAST_CPUS && (f)->unsure)

struct pace decide_begin(int settled)
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
	       f->left / (f->helpers_max + 1) >= PACE_MEASURE_US / PACE_FILE_US_LEAST;
}

/* The time the work the calling thread could hand over would take at
 * the run's pace so far, in us. */
static uint64_t handover_us(const struct pace_facts *f)
{
	uint64_t per_ms = f->now > 0 ? f->work * 1000 / (uint64_t)f->now : 0;

	return per_ms > 0 ? f->to_hand_over * 1000 / per_ms : 0;
}

/* Helpers to have for a next step: times the threads, cap at most, and
 * no more than find a measure's worth of work each at the run's pace so
 * far, when the jobs left are known: in those jobs and in the work the
 * calling thread could hand over. */
static unsigned next_helpers(const struct pace_facts *f, unsigned cap, unsigned times)
{
	unsigned n = times * (f->running + 1) - 1;

	if (n > cap)
		n = cap;
	if (f->left != SIZE_MAX && (f->claimed > 0 || f->left == 0)) {
		uint64_t us = handover_us(f), worth;

		if (us < PACE_HANDOVER_MEASURES_LEAST * PACE_MEASURE_US)
			us = 0;
		if (f->claimed > 0)
			us += (uint64_t)f->now * f->left / f->claimed;
		worth = us / PACE_MEASURE_US;
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

/* A measure from now, with the threads s leaves; a long one (for the
 * steps past the CPUs) where longer. */
static struct pace_step measure_from_now(struct pace *p, const struct pace_facts *f,
					 struct pace_step s, bool longer)
{
	unsigned helpers = s.act == PACE_START || s.act == PACE_CUT ? s.helpers : f->running;

	p->state = PACE_MEASURING;
	p->since = f->now;
	p->work = f->work;
	p->past = PAST_CPUS(f) && (longer || helpers > f->helpers_max);
	if (PAST_CPUS(f))
		p->cpu = f->cpu;
	return s;
}

static struct pace_step settle(struct pace *p, struct pace_step s)
{
	p->state = PACE_SETTLED;
	return s;
}

/* The share of their CPU time that the threads of the measure just over
 * used, in percent, where they waited on the storage (see decide.h); else
 * 100.  Not the first measure with helpers: it holds their start.  The
 * calling thread's, alone, tells it: on a network file system it may
 * take a few files, each of round trips, before its first step. */
static uint64_t waited_share(const struct pace *p, const struct pace_facts *f)
{
	uint64_t wall = (uint64_t)(f->now - p->since) * (f->running + 1), share;

	if (!PAST_CPUS(f) || (p->judged < 2 && f->running > 0) || p->cpu.us == 0 ||
	    f->cpu.us < p->cpu.us ||
	    f->cpu.waits < p->cpu.waits || f->cpu.waits - p->cpu.waits < f->running + 1 ||
	    (f->cpu.waits - p->cpu.waits) * PACE_WAIT_CPU_US < f->cpu.us - p->cpu.us || wall == 0)
		return 100;
	share = (f->cpu.us - p->cpu.us) * 100 / wall;
	return share < PACE_WAITING_PERCENT ? share : 100;
}

/* The last step judged by the rate it brought: true with *s what to do
 * when it cost, or brought too little to go on.  Within the CPUs,
 * threads that mostly waited are not judged so: a measure sees few
 * files done where each costs round trips, so that one file more or less
 * makes a step seem to cost or bring nothing; the steps past the CPUs
 * judge them, over longer.  A step that costs, or past the CPUs brings
 * too little, is measured once more before it is undone: the first
 * measure holds the new threads' start, before their first files are
 * done. */
static bool by_rate(struct pace *p, const struct pace_facts *f, uint64_t rate, uint64_t share,
		    struct pace_step *s)
{
	unsigned within = f->helpers_max > p->fill ? f->helpers_max : p->fill;
	bool undo = (PAST_CPUS(f) && f->running > within) ||
		    rate * 100 < p->rate * (100 - PACE_SLOWER_PERCENT);

	if ((share < 100 && f->running <= within) ||
	    rate * 100 >= p->rate * (100 + PACE_FASTER_PERCENT)) {
		p->doubted = 0;
		return false;	/* it pays */
	}
	if (undo && !p->doubted) {
		p->doubted = 1;
		*s = measure_from_now(p, f, step(PACE_WAIT, 0), false);
		return true;
	}
	/* It costs, or brings too little: the last step. */
	*s = settle(p, undo ? step(PACE_CUT, p->proven) : step(PACE_SETTLE, 0));
	return true;
}

/* Helpers that would keep the CPUs busy, were the storage to serve
 * them all as fast as the threads that used share percent of their CPU
 * time: the first step past the CPUs. */
static unsigned filling(const struct pace_facts *f, uint64_t share)
{
	uint64_t threads = ((uint64_t)f->running + 1) * 100, n;

	n = share > 0 ? (threads + share - 1) / share - 1 : f->helpers_max_waiting;
	if (n < f->helpers_max)
		n = f->helpers_max;
	return n > f->helpers_max_waiting ? f->helpers_max_waiting : (unsigned)n;
}

/* A measure is over: judge the last step, and take the next. */
static struct pace_step step_after_measure(struct pace *p, const struct pace_facts *f)
{
	uint64_t rate = rate_since(p, f), share;
	unsigned n, cap, times = 2;

	/* A measure that saw no work done (every thread still waits for
	 * its first files: a network file system) cannot judge a step, nor
	 * be the measure the next is judged against: it goes on. */
	if (f->work == p->work)
		return step(PACE_WAIT, 0);
	if (PAST_CPUS(f))
		p->judged++;
	share = waited_share(p, f);
	if (f->running > p->proven) {
		struct pace_step s;

		if (by_rate(p, f, rate, share, &s))
			return s;
	} else if (p->asked > p->proven) {
		return settle(p, step(PACE_SETTLE, 0));	/* none could be started */
	}
	p->rate = rate;
	p->proven = f->running;
	/* Threads at the CPUs that wait: at once as many as would keep the
	 * CPUs busy, proven unless they cost (by_rate); past them, twice as
	 * many a step, proven only where they pay. */
	cap = share < 100 ? f->helpers_max_waiting : f->helpers_max;
	if (share < 100 && f->running <= f->helpers_max) {
		p->fill = cap = filling(f, share);
		times = cap / (f->running + 1) + 1;
	}
	n = next_helpers(f, cap, times);
	if (n <= f->running) {
		if (PAST_CPUS(f) && p->judged == 1)
			return measure_from_now(p, f, step(PACE_WAIT, 0), true);	/* once more */
		return settle(p, step(PACE_SETTLE, 0));
	}
	p->asked = n;
	return measure_from_now(p, f, step(PACE_START, n), false);
}

/* The next step from *p and f; *p moves on. */
static struct pace_step pace_next(struct pace *p, const struct pace_facts *f)
{
	struct pace_step s;

	switch (p->state) {
	case PACE_WARMING:
		if (f->helpers_max > 0 && work_for_all(f)) {
			if (!PAST_CPUS(f)) {
				s = settle(p, step(PACE_START, f->helpers_max));
				break;
			}
			/* Measured with them all, as if asked for, proven. */
			p->asked = p->proven = f->helpers_max;
			return measure_from_now(p, f, step(PACE_START, f->helpers_max), false);
		}
		if (f->now < PACE_WARMUP_US)
			return step(PACE_WAIT, 0);
		return measure_from_now(p, f, step(PACE_WAIT, 0), false);
	case PACE_MEASURING:
		if (!decide_due(p, f->now))
			return step(PACE_WAIT, 0);
		s = step_after_measure(p, f);
		break;
	default:
		return step(PACE_WAIT, 0);
	}
	/* Not the last step while the storage may yet want more threads:
	 * once its reads say so, the steps go on past the CPUs. */
	if (UNSURE(f) && p->state == PACE_SETTLED)
		return measure_from_now(p, f, s.act == PACE_SETTLE ? step(PACE_WAIT, 0) : s, false);
	return s;
}

bool decide_due(const struct pace *p, int64_t now)
{
	return p->state == PACE_WARMING ||
	       (p->state == PACE_MEASURING &&
		now >= p->since + (p->past ? PACE_MEASURE_PAST_US : PACE_MEASURE_US));
}

/* The facts f as the run's device d caps them: no threads past the CPUs
 * where d spins or may, and unsure while it is not measured; on flash,
 * DECIDE_FLASH_HELPERS at most. */
static struct pace_facts capped_by_device(const struct pace_facts *f,
					  const struct device_facts *d)
{
	struct pace_facts c = *f;
	enum storage_kind kind;

	if (!HAS_THREADS_PAST_CPUS)
		return c;
	kind = devkind_of(d);
	if (kind == STORAGE_SPINNING || kind == STORAGE_UNSURE) {
		c.unsure = kind == STORAGE_UNSURE && c.helpers_max_waiting > c.helpers_max;
		c.helpers_max_waiting = 0;
	} else if (kind == STORAGE_SOLID &&
		   c.helpers_max_waiting > DECIDE_FLASH_HELPERS(c.helpers_max)) {
		c.helpers_max_waiting = DECIDE_FLASH_HELPERS(c.helpers_max);
	}
	return c;
}

struct pace_step decide_threads(struct pace *p, const struct pace_facts *f,
				const struct device_facts *d)
{
	struct pace_facts capped;

	if (!d)
		return pace_next(p, f);
	capped = capped_by_device(f, d);
	return pace_next(p, &capped);
}
