/* schedule.c - one by one, or in lanes on worker threads; see schedule.h. */
#include <stdlib.h>

#include "diag.h"
#include "input.h"
#include "parallel.h"
#include "progress.h"
#include "schedule.h"

static void run_one_by_one(const struct schedule *s, const struct job_source *src)
{
	uint8_t *buf = malloc(READ_SIZE);
	struct job j;

	if (!buf)
		die_no_memory(s->prog);
	while (src->next(src->ctx, &j)) {
		progress_waiting_for(j.name);
		if (!j.bad_line)
			j.err = hash_file(j.name, s->stdin_closed, buf, j.digest);
		src->report(src->ctx, &j);
		out_flush(s->out);
	}
	free(buf);
}

void run_jobs(const struct schedule *s, const struct job_source *src)
{
	if (s->engines)
		run_parallel(s, src);
	else
		run_one_by_one(s, src);
}
