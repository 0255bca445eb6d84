/* schedule.c - one by one, or many at once; see schedule.h. */
#include <stdlib.h>

#include "fds.h"
#include "stream.h"
#include "msg.h"
#include "parallel.h"
#include "progress.h"
#include "schedule.h"

/* The lane engines for hashing many files: all that this CPU runs, or
 * only the one that MD5SUM_ENGINE names. */
static const struct md5_engine *const *choose_engines(const char *prog)
{
	static const struct md5_engine *named[2];
	const char *name = getenv("MD5SUM_ENGINE");

	if (!name || !*name)
		return md5_engines();
	named[0] = md5_engine_pick(name);
	if (!named[0]) {
		complain(prog, "MD5SUM_ENGINE: no engine '", name, "' on this machine",
			 (char *)NULL);
		exit(EXIT_FAILURE);
	}
	return named;
}

struct schedule schedule_for(const struct schedule_asked *a, struct out *out,
			     const char *prog)
{
	/* One file is hashed by the plain path; more, or a list, in lanes. */
	bool lanes = a->many || a->threads > 0;

	return (struct schedule){ .engines = lanes ? choose_engines(prog) : NULL,
				  .threads = a->threads, .read_ahead = a->threads != 1,
				  .disk = a->disk, .stdin_closed = a->stdin_closed,
				  .out = out, .prog = prog };
}

/* GNU's way.  Its buffer is static, so that a run short of memory can
 * always fall back on it. */
static void run_one_by_one(const struct schedule *s, const struct job_source *src)
{
	static uint8_t buf[READ_SIZE];
	struct record rec;
	struct job j;

	record_init(&rec);
	while (src->next(src->ctx, &j)) {
		progress_waiting_for(j.name);
		if (!j.bad_line)
			j.err = stream_hash_file(j.name, s->stdin_closed, s->read_ahead, buf,
					  j.digest);
		src->format(src->ctx, &j, &rec);
		record_play(&rec, s->out, s->prog);
		src->account(src->ctx, &j);
		out_flush(s->out);
	}
	record_free(&rec);
}

/* The table grown to hold the descriptors that a run of many files asks
 * to have free, the soft limit raised first as the run raises it: all
 * that it holds, but on a machine of very many CPUs, where the run grows
 * the table further for itself. */
void schedule_prepare(const struct schedule *s)
{
	if (!s->engines)
		return;
	(void)fds_free(PARALLEL_FDS_WANTED);
	fds_make_room(PARALLEL_FDS_WANTED);
}

void schedule_run(const struct schedule *s, const struct job_source *src)
{
	if (!s->engines || !parallel_run(s, src))
		run_one_by_one(s, src);
}
