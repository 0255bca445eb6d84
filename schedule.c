/* schedule.c - one by one, or many at once; see schedule.h. */
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

void run_prepare(const struct schedule *s)
{
	if (s->engines)
		parallel_prepare(s);
}

void run_jobs(const struct schedule *s, const struct job_source *src)
{
	if (!s->engines || !run_parallel(s, src))
		run_one_by_one(s, src);
}
