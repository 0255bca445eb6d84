/* sums.c - hash the named files and print their lines; see sums.h. */
#include "cmd/sums.h"

enum outcome print_sums(const struct sums_format *f, const struct schedule *s,
			char **names, size_t count, bool *read_stdin)
{
	struct job_source n = { .files = names, .count = count };
	struct results r = { .sums = f, .ok = true };
	bool whole = schedule_run(s, &n, &r);

	*read_stdin = n.read_stdin;
	return !whole ? OUTCOME_NO_MEMORY : r.ok ? OUTCOME_OK : OUTCOME_FAILED;
}
