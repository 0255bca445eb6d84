/* source.c - the next job, from the FILEs or a list's lines; see source.h. */
#include <string.h>

#include "jobs/source.h"
#include "out/progress.h"

/* The command line's names never wait. */
static enum next_job next_file(struct job_source *n, struct job *j)
{
	if (n->next == n->count)
		return JOB_NONE;
	*j = (struct job){ .name = n->files[n->next++] };
	n->read_stdin |= strcmp(j->name, "-") == 0;
	return JOB_MADE;
}

/* The next line of the list that makes a job. */
static enum next_job next_line(struct job_source *n, struct job *j, bool wait)
{
	char *name;
	ssize_t len;

	for (;;) {
		bool waiting = false;

		while ((len = listread_line(n->list, waiting)) == LISTREAD_LATER) {
			if (!wait)
				return JOB_LATER;
			progress_waiting_for(n->list_name);
			waiting = true;
		}
		if (len < 0)
			return JOB_NONE;
		n->read += (uintmax_t)len;
		*j = (struct job){ .listed = { .line = ++n->lines, .end = n->read } };
		switch (parse_check_line(n->list->line, (size_t)len, n->form, &name,
					 j->listed.digest)) {
		case LINE_SKIP:
			continue;
		case LINE_BAD:
			j->no_file = true;
			return JOB_MADE;
		case LINE_CHECKSUM:
			/* A list read from standard input cannot name it too. */
			if (n->list_is_stdin && strcmp(name, "-") == 0) {
				j->no_file = true;
				return JOB_MADE;
			}
			j->name = name;
			n->read_stdin |= strcmp(name, "-") == 0;
			return JOB_MADE;
		}
	}
}

enum next_job source_next(struct job_source *n, struct job *j, bool wait)
{
	return n->files ? next_file(n, j) : next_line(n, j, wait);
}
