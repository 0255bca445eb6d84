/* check.h - md5sum -c: verify the digests listed in checksum lists.
 *
 * Each list is read line by line; its files are hashed through a
 * schedule (schedule.h) and reported in list order: "NAME: OK", "NAME:
 * FAILED" or "NAME: FAILED open or read", then GNU's warnings for the
 * list.  The line parser is exposed on its own for tests and fuzzing. */
#ifndef CHECK_H
#define CHECK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "md5.h"
#include "schedule.h"

enum line_kind {
	LINE_SKIP,		/* blank line or comment: not counted */
	LINE_BAD,		/* improperly formatted */
	LINE_CHECKSUM,		/* a digest and a file name */
};

/* Which of GNU's "DIGEST  NAME" and "DIGEST NAME" forms the run has met
 * first: once one is seen, the other is taken as part of the name or
 * refused, across every list of the run. */
enum line_form { FORM_UNKNOWN = -1, FORM_TWO_SPACES = 0, FORM_ONE_SPACE = 1 };

/* Parse line s of len bytes (a trailing "\n" or "\r\n" is allowed; s[len]
 * must be writable).  For LINE_CHECKSUM, set *name to the file name, a
 * string inside s (unescaped, so s is changed), and digest to the listed
 * digest.  *form carries the line form from line to line. */
enum line_kind parse_check_line(char *s, size_t len, enum line_form *form,
				char **name, uint8_t digest[MD5_DIGEST_LENGTH]);

/* The options that only -c has. */
struct check_options {
	bool ignore_missing;	/* skip listed files that do not exist */
	bool quiet;		/* no line for files that match */
	bool status;		/* no output at all, only the exit status */
	bool strict;		/* badly formatted lines make a list fail */
	bool warn;		/* warn about each badly formatted line */
};

/* What checking lists needs, and what carries from one list to the next. */
struct check_run {
	const struct check_options *opt;
	const struct schedule *sched;	/* how to hash; its out and prog
					 * take the reports */
	enum line_form form;	/* FORM_UNKNOWN before the first list */
	bool read_stdin;	/* set once standard input was read */
};

/* Verify the list called name ("-": standard input); false when it fails:
 * a file unread or mismatched, no line to check, a read error, or (with
 * strict) a bad line.  Exits on "memory exhausted". */
bool check_list(struct check_run *c, const char *name);

/* Verify each of the n lists names, in turn, as check_list does; false
 * when any fails. */
bool check_lists(struct check_run *c, char *const *names, size_t n);

#endif
