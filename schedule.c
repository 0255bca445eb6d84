/* schedule.c - one by one, or many at once; see schedule.h. */
#include <stdlib.h>

#include "diag.h"
#include "input.h"
#include "parallel.h"
#include "progress.h"
#include "schedule.h"

static void run_one_by_one(const struct schedule *s, const struct job_source *src)
{
	uint8_t *buf = malloc(READ_SIZE);
	struct record rec;
	struct job j;

	if (!buf)
		die_no_memory(s->prog);
	record_init(&rec);
	while (src->next(src->ctx, &j)) {
		progress_waiting_for(j.name);
		if (!j.bad_line)
			j.err = hash_file(j.name, s->stdin_closed, buf, j.digest);
		src->format(src->ctx, &j, &rec);
		record_play(&rec, s->out, s->prog);
		src->account(src->ctx, &j);
		out_flush(s->out);
	}
	record_free(&rec);
	free(buf);
}

void run_jobs(const struct schedule *s, const struct job_source *src)
{
	if (!s->engines || !run_parallel(s, src))
		run_one_by_one(s, src);
}
