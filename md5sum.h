/* md5sum.h - what the files of the md5sum command share.
 *
 * The command runs in three steps kept apart: an input (an argument, or a
 * line of a checksum list) becomes a job; hashing a job fills in its result;
 * reporting prints results in input order.  Any way of hashing jobs, one by
 * one or many at once, plugs in between and leaves reporting unchanged. */
#ifndef MD5SUM_H
#define MD5SUM_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "check.h"
#include "lanes.h"
#include "md5.h"

struct run;

/* The command line, once parsed. */
struct options {
	int binary;		/* -b: 1, -t: 0, neither: -1 */
	bool tag;		/* --tag: BSD-style lines */
	bool zero;		/* -z: NUL-ended lines, no name escaping */
	bool check;		/* -c: the files are checksum lists */
	bool ignore_missing;	/* -c: skip listed files that do not exist */
	bool quiet;		/* -c: no line for files that match */
	bool status;		/* -c: no output at all, only the exit status */
	bool strict;		/* -c: badly formatted lines make it fail */
	bool warn;		/* -c: warn about each badly formatted line */
	unsigned jobs;		/* -j: worker threads; 0 when not given */
};

/* One file to hash and, once hashed, what came of it. */
struct job {
	char *name;		/* the file; "-" is standard input */
	bool bad_line;		/* -c: the list line was not a checksum line */
	uintmax_t line;		/* -c: number of the line in its list */
	uint8_t expect[MD5_DIGEST_LENGTH];	/* -c: the digest listed */
	int err;		/* result: 0, or the errno that stopped it */
	atomic_bool hashed;	/* result: err and digest are set */
	uint8_t digest[MD5_DIGEST_LENGTH];	/* result: when err is 0 */
};

/* Room for reading: one aligned buffer reused for every file. */
enum { READ_SIZE = 128 * 1024 };

/* Standard output, gathered into whole lines: a line never straddles two
 * write(2) calls, so that concurrent md5sum runs do not mix their lines.
 * Reporting flushes it after each batch of results and before anything goes
 * to standard error, so output appears in order and without delay. */
struct out {
	int fd;
	int err;		/* errno of the first failed write, or 0 */
	bool hold;		/* -z: write only when full or at the end, as GNU */
	bool line_buffered;	/* flush every line: a terminal is watching */
	size_t len;		/* bytes in buf */
	size_t done;		/* bytes in buf that form whole lines */
	char buf[16384];
};

void out_init(struct out *o, int fd, bool hold);
void out_put(struct out *o, const void *p, size_t n);
void out_str(struct out *o, const char *s);
void out_end_line(struct out *o, char end);
/* Write the whole lines gathered so far, unless holding them. */
void out_flush(struct out *o);
/* Write what is left and close; false after any write error, with errno
 * set to the error of the last write or of close, or 0. */
bool out_close(struct out *o);

/* Put name into o with '\\', '\n' and '\r' written as \\, \n and \r. */
void out_escaped(struct out *o, const char *name);

/* Say "memory exhausted" and exit. */
_Noreturn void die_no_memory(const char *prog);

/* How many files to hash at once when -j is not given. */
unsigned default_jobs(void);

/* Where jobs come from and where their results go: the first and last of
 * the three steps, which run_jobs connects. */
struct job_source {
	/* Make the next input into *j; false when there is none. */
	bool (*next)(void *ctx, struct job *j);
	/* Report the hashed job j; the slot is reused after. */
	void (*report)(void *ctx, struct job *j);
	void *ctx;
};

/* Take every job from src, hash it and report it, in input order: one by
 * one, or with run->opt->jobs threads of SIMD lanes when run->lanes is set. */
void run_jobs(struct run *run, const struct job_source *src);
/* The same with worker threads and SIMD lanes (parallel.c). */
void run_jobs_parallel(struct run *run, const struct job_source *src);

/* Hash the file called name ("-" is standard input) with the run's buffer:
 * 0 or an errno. */
int hash_file(const struct run *run, const char *name,
	      uint8_t digest[MD5_DIGEST_LENGTH]);
/* Hash all that fd gives until its end: 0 or an errno. */
int hash_fd(int fd, uint8_t digest[MD5_DIGEST_LENGTH], uint8_t *buf);

/* Print "PROG: NAME: MSG" on standard error, NAME quoted as GNU does, after
 * the output gathered so far. */
void report_error(struct run *run, const char *name, const char *msg);
/* Print "PROG: NAME: MSG" on standard error, NAME quoted as GNU does. */
void error_file(const char *prog, const char *name, const char *msg);
/* Print "PROG: ", then the strings given up to a null pointer, then a
 * newline, on standard error. */
#if defined(__GNUC__)
__attribute__((sentinel))
#endif
void complain(const char *prog, ...);

/* A message for standard error, built piece by piece: it goes out in one
 * write(2) when it fits in buf, so concurrent runs do not mix messages. */
struct msg {
	size_t len;
	char buf[1024];
};

/* Begin m with "PROG: ". */
void msg_start(struct msg *m, const char *prog);
void msg_add(struct msg *m, const char *s);
/* End m with a newline and write it. */
void msg_end(struct msg *m);

/* What strerror(err) says in glibc, whatever the libc. */
const char *error_text(int err);

/* The shared state of one run of the command. */
struct run {
	const char *prog;	/* argv[0], to begin every message */
	const struct options *opt;
	struct out out;
	uint8_t *buf;		/* READ_SIZE bytes */
	bool read_stdin;	/* standard input was read: close it at the end */
	bool stdin_closed;	/* standard input was closed when we started */
	enum line_form form;	/* -c: which form of GNU line came first */
	const struct md5_engine *lanes;	/* hash files side by side, or NULL */
	bool forced;		/* lanes was named by MD5SUM_ENGINE: use only it */
};

/* -c: verify the checksum list called name; false when it fails. */
bool check_list(struct run *run, const char *name);

#endif
