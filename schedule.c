/* schedule.c - one by one, or many at once; see schedule.h. */
#include "fds.h"
#include "input.h"
#include "parallel.h"
#include "progress.h"
#include "schedule.h"

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
			j.err = hash_file(j.name, s->stdin_closed, s->threads != 1, buf,
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
void run_prepare(const struct schedule *s)
{
	if (!s->engines)
		return;
	(void)fds_free(PARALLEL_FDS_WANTED);
	fds_make_room(PARALLEL_FDS_WANTED);
}

void run_jobs(const struct schedule *s, const struct job_source *src)
{
	if (!s->engines || !run_parallel(s, src))
		run_one_by_one(s, src);
}
