/* jobs.h - what passes between where inputs come from and how they are
 * hashed.
 *
 * The command runs in three steps kept apart: an input (an argument, or a
 * line of a checksum list) becomes a job; a scheduler hashes jobs, one by
 * one or many at once (schedule.h); reporting prints results in input
 * order.  The first and the last step are a job source's two callbacks. */
#ifndef JOBS_H
#define JOBS_H

#include <stdbool.h>
#include <stdint.h>

#include "md5.h"

/* One file to hash and, once hashed, what came of it. */
struct job {
	char *name;		/* the file; "-" is standard input */
	bool bad_line;		/* -c: the list line was not a checksum line;
				 * nothing to hash */
	uintmax_t line;		/* -c: number of the line in its list */
	uintmax_t list_end;	/* -c: bytes of the list up to this line's end */
	uint8_t expect[MD5_DIGEST_LENGTH];	/* -c: the digest listed */
	int err;		/* result: 0, or the errno that stopped it */
	uint8_t digest[MD5_DIGEST_LENGTH];	/* result: when err is 0 */
};

/* Where jobs come from and where their results go. */
struct job_source {
	/* Make the next input into *j; false when there is none. */
	bool (*next)(void *ctx, struct job *j);
	/* Report the hashed job j, in input order; the slot is reused after. */
	void (*report)(void *ctx, struct job *j);
	void *ctx;
};

#endif
