/* results.h - what a finished job prints, and what it counts.
 *
 * Printing sums (md5sum FILE...): "DIGEST  NAME", "DIGEST *NAME" (binary)
 * or "MD5 (NAME) = DIGEST" (tag), with a leading backslash when NAME is
 * escaped; a file that cannot be read gets GNU's message on standard
 * error instead.  Checking (-c): "NAME: OK", "NAME: FAILED" or "NAME:
 * FAILED open or read", as the options ask, and a line that is not a
 * checksum line warned of with its number; each job is counted in the
 * list's tally, which check.c words as GNU's warnings after the list.
 *
 * A job is worded into an outbox (outbox.h) by the thread that finished
 * it, concurrently with others, so results_word only reads r; it is
 * counted once written, one thread at a time, in input order. */
#ifndef RESULTS_H
#define RESULTS_H

#include <stdbool.h>
#include <stdint.h>

#include "jobs/job.h"
#include "out/outbox.h"

/* How the lines of sums look. */
struct sums_format {
	bool binary;		/* '*' before the name */
	bool tag;		/* BSD-style lines */
	bool zero;		/* end lines with NUL; no escaping */
};

/* The options that only -c has. */
struct check_options {
	bool ignore_missing;	/* skip listed files that do not exist */
	bool quiet;		/* no line for files that match */
	bool status;		/* no output at all, only the exit status */
	bool strict;		/* badly formatted lines make a list fail */
	bool warn;		/* warn about each badly formatted line */
};

/* What -c found in one list, for its summary. */
struct tally {
	uintmax_t good;		/* properly formatted lines */
	uintmax_t bad;		/* improperly formatted lines */
	uintmax_t unreadable;	/* listed files not opened or read */
	uintmax_t mismatched;	/* listed files with another digest */
	uintmax_t matched;	/* listed files verified */
};

struct results {
	const struct sums_format *sums;	/* printing sums; NULL: checking */
	const struct check_options *check;	/* checking */
	const char *list_shown;	/* checking: the list, as messages name it */
	struct tally tally;	/* checking: what the list came to */
	bool ok;		/* printing sums: true until a file fails */
};

/* Word what the finished job j prints into o. */
void results_word(const struct results *r, const struct job *j, struct outbox *o);

/* Count j, its output written; and tell --progress. */
void results_count(struct results *r, const struct job *j);

#endif
