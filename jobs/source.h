/* source.h - where the next job comes from: the command line's FILEs, or
 * the lines of a checksum list being read (-c).
 *
 * A list's line is read by listread.h and parsed by listline.h: a line
 * that names a file is a job; a line that is not a checksum line is a job
 * with no file, reported in its place; blank lines and comments are
 * passed over.  A list on a pipe, a FIFO or a terminal may have nothing
 * to read yet: the next job then waits for its writer only when told it
 * may, and --progress names what it waits for.  One thread at a time
 * takes the next job (window.h holds the lock). */
#ifndef SOURCE_H
#define SOURCE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "jobs/job.h"
#include "jobs/listline.h"
#include "jobs/listread.h"

struct job_source {
	char *const *files;	/* the command line's FILEs; NULL: a list */
	size_t count, next;	/* of the FILEs */
	struct listread *list;	/* the list being read */
	const char *list_name;	/* as named on the command line ("-") */
	bool list_is_stdin;	/* "-": it cannot name itself */
	enum line_form *form;	/* carries from list to list */
	uintmax_t lines, read;	/* of the list: lines and bytes so far */
	bool read_stdin;	/* a job named "-" was made */
};

/* What source_next made. */
enum next_job {
	JOB_MADE,		/* *j is the next job */
	JOB_NONE,		/* there are no more: the end of the FILEs, or
				 * of the list, a read error, or a line that
				 * does not fit in memory (listread.h,
				 * source_short_of_memory) */
	JOB_LATER,		/* not told to wait, and making it would */
};

/* Make the next job into *j, waiting for a list's writer only when told
 * to wait.  j->name lasts until the next call, unless source_last. */
enum next_job source_next(struct job_source *n, struct job *j, bool wait);

/* How many jobs there are, when known (the FILEs); else 0. */
static inline size_t source_count(const struct job_source *n)
{
	return n->files ? n->count : 0;
}

/* Whether the jobs' names last the whole run (the FILEs): they need not
 * be copied. */
static inline bool source_last(const struct job_source *n)
{
	return n->files != NULL;
}

/* Whether the jobs ended at a list's line that did not fit in memory:
 * source_next may be asked again once memory is freed. */
static inline bool source_short_of_memory(const struct job_source *n)
{
	return !n->files && n->list->short_of_memory;
}

/* The memory that holds the name of the job that source_next made last,
 * a list's line, for the caller to free: the name then lasts until it
 * does.  NULL for the FILEs, whose names last anyway. */
static inline char *source_take_name(struct job_source *n)
{
	return n->files ? NULL : listread_take_line(n->list);
}

#endif
