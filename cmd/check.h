/* check.h - md5sum -c: verify the digests listed in checksum lists.
 *
 * Each list is read line by line (source.h) and its files hashed as a run
 * of their own through a schedule (schedule.h), each reported in list
 * order as results.h words it; then GNU's warnings for the list, from
 * what results counted.  A line's form carries from list to list in
 * check_run. */
#ifndef CHECK_H
#define CHECK_H

#include <stdbool.h>
#include <stddef.h>

#include "jobs/listline.h"
#include "jobs/results.h"
#include "run/schedule.h"


/* What checking lists needs, and what carries from one list to the next. */
struct check_run {
	const struct check_options *opt;
	const struct schedule *sched;	/* how to hash; its out and prog
					 * take the reports */
	enum line_form form;	/* FORM_UNKNOWN before the first list */
	bool read_stdin;	/* set once standard input was read */
};

/* Verify the list called name ("-": standard input): OUTCOME_FAILED when
 * a file is unread or mismatched, there is no line to check, a read error,
 * or (with strict) a bad line; OUTCOME_NO_MEMORY, said by the caller, when
 * memory ran out, the lines before that point written, and no summary. */
enum outcome check_list(struct check_run *c, const char *name);

/* Verify each of the n lists names, in turn, as check_list does, until
 * memory runs out: the worst outcome. */
enum outcome check_lists(struct check_run *c, char *const *names, size_t n);

#endif
