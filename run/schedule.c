/* schedule.c - one by one, or many at once by a crew of workers (crew.h);
 * see schedule.h. */
#include <stdlib.h>

#include "run/budget.h"
#include "run/crew.h"
#include "os/fds.h"
#include "out/msg.h"
#include "out/progress.h"
#include "run/schedule.h"
#include "read/stream.h"
#include "window/window.h"

/* The lane engines for hashing many files: all that this CPU runs, or
 * only the one called name; NULL, said, when this CPU has no such one. */
static const struct md5_engine *const *choose_engines(const char *name, const char *prog)
{
	static const struct md5_engine *named[2];

	if (!name || !*name)
		return md5_engines();
	named[0] = md5_engine_pick(name);
	if (!named[0]) {
		complain(prog, "MD5SUM_ENGINE: no engine '", name, "' on this machine",
			 (char *)NULL);
		return NULL;
	}
	return named;
}

bool schedule_for(struct schedule *s, const struct schedule_asked *a, struct out *out,
		  const char *prog)
{
	/* One file is hashed by the plain path; more, or a list, in lanes. */
	bool lanes = a->many || a->threads > 0;

	*s = (struct schedule){ .engines = lanes ? choose_engines(a->engine, prog) : NULL,
				.threads = a->threads, .read_ahead = a->threads != 1,
				.disk = a->disk, .stdin_closed = a->stdin_closed,
				.out = out, .prog = prog };
	if (lanes && !s->engines)
		return false;
	s->devices = lanes ? devices_new() : NULL;
	s->lister = lanes ? lister_new() : NULL;
	return true;
}

void schedule_end(struct schedule *s)
{
	devices_free(s->devices);
	s->devices = NULL;
	lister_free(s->lister);
	s->lister = NULL;
}

/* A small buffer that a run short of memory can always fall back on:
 * small, since the address space it takes is taken from the start, and
 * a limit on that (ulimit -v) may be close to GNU's needs. */
enum { FALLBACK_SIZE = 4096 };

/* GNU's way; false when memory ran out. */
static bool run_one_by_one(const struct schedule *s, struct job_source *n, struct results *r)
{
	static uint8_t fallback[FALLBACK_SIZE];
	uint8_t *buf = malloc(READ_SIZE);
	size_t size = buf ? READ_SIZE : FALLBACK_SIZE;
	struct outbox rec;
	struct job j;
	bool whole = true;

	if (!buf)
		buf = fallback;
	outbox_init(&rec);
	while (whole && source_next(n, &j, true) == JOB_MADE) {
		progress_waiting_for(j.name);
		if (!j.no_file)
			j.err = stream_hash_file(j.name, s->stdin_closed, s->read_ahead, buf,
						 size, j.digest);
		results_word(r, &j, &rec);
		outbox_end_job(&rec);
		whole = window_play(&rec, s->out, s->prog);
		results_count(r, &j);
		out_flush(s->out);
	}
	outbox_free(&rec);
	if (buf != fallback)
		free(buf);
	return whole;
}

/* ------------------------------------------------------------ the run */

/* The table grown to hold the descriptors that a run of many files asks
 * to have free, the soft limit raised first as the run raises it: all
 * that it holds, but on a machine of very many CPUs, where the run grows
 * the table further for itself. */
void schedule_grow_fd_table(const struct schedule *s)
{
	if (!s->engines)
		return;
	(void)fds_free(FDS_WANTED);
	fds_make_room(FDS_WANTED);
}

/* Hash every job of n and write its output, in input order, many at
 * once; how it ended. */
static enum crew_end run_many_at_once(const struct schedule *s, struct job_source *n,
				      struct results *r)
{
	struct hasher_plan base = { .engines = s->engines, .disk = s->disk,
				    .stdin_closed = s->stdin_closed,
				    .read_ahead = s->read_ahead, .lister = s->lister };
	struct budget b = budget_for(&base, s->threads);
	/* A run's own devices where the schedule has none. */
	struct devices *own = s->devices ? NULL : devices_new();
	enum crew_end end = CREW_NO_LANES;

	if ((s->devices || own) && (!HAS_ADDRESS_SPACE_FIT || b.threads > 0))
		end = crew_run(&b, s->threads > 0, s->devices ? s->devices : own, n, r, s->out,
			       s->prog);
	devices_free(own);
	return end;
}

bool schedule_run(const struct schedule *s, struct job_source *n, struct results *r)
{
	enum crew_end end = s->engines ? run_many_at_once(s, n, r) : CREW_NO_LANES;

	/* A list's line that did not fit beside the crew's batches, buffers
	 * and stacks may fit once they are freed: the rest of the list is
	 * checked one line at a time, as GNU checks it. */
	if (end == CREW_NO_LANES || (end == CREW_DONE && source_short_of_memory(n)))
		return run_one_by_one(s, n, r);
	return end == CREW_DONE;
}
