/* job.h - what passes between where inputs come from and how they are
 * hashed.
 *
 * The command runs in three steps kept apart: an input (an argument, or a
 * line of a checksum list) becomes a job; a scheduler hashes jobs, one by
 * one or many at once (schedule.h); the job's output is recorded and
 * written in input order.  The first and the last step are a job source's
 * callbacks; struct schedule (schedule.h) is how the command asks for
 * the middle one. */
#ifndef JOB_H
#define JOB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lanes.h"
#include "md5.h"
#include "out.h"
#include "outbox.h"

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

/* What a job source's next made. */
enum next_job {
	JOB_MADE,		/* *j is the next job */
	JOB_NONE,		/* there are no more */
	JOB_LATER,		/* not told to wait, and making it would: its
				 * input (a list on a pipe, a FIFO or a
				 * terminal) has nothing to read yet */
};

/* Where jobs come from and where their results go. */
struct job_source {
	/* Make the next input into *j, waiting for input only when told to
	 * wait.  Called by one thread at a time, in input order; j->name
	 * need only last until the next call, unless names_last. */
	enum next_job (*next)(void *ctx, struct job *j, bool wait);
	/* Record what the hashed job j prints, on the thread that hashed
	 * it: concurrently with other calls, so it only reads ctx. */
	void (*format)(void *ctx, const struct job *j, struct outbox *r);
	/* Count j once its output is written: one thread at a time, in
	 * input order. */
	void (*account)(void *ctx, const struct job *j);
	void *ctx;
	size_t count;		/* how many jobs next makes, when known; else 0 */
	bool names_last;	/* j->name lasts the whole run (the command
				 * line's): it need not be copied */
};

#endif
