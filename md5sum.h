/* md5sum.h - what the files of the md5sum command share.
 *
 * The command runs in three steps kept apart: an input (an argument, or a
 * line of a checksum list) becomes a job; hashing a job fills in its result;
 * reporting prints results in input order.  Any way of hashing jobs, one by
 * one or many at once, plugs in between and leaves reporting unchanged. */
#ifndef MD5SUM_H
#define MD5SUM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "check.h"
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
	unsigned jobs;		/* files hashed at once; 1: one by one */
};

/* One file to hash and, once hashed, what came of it. */
struct job {
	char *name;		/* the file; "-" is standard input */
	bool bad_line;		/* -c: the list line was not a checksum line */
	uintmax_t line;		/* -c: number of the line in its list */
	uint8_t expect[MD5_DIGEST_LENGTH];	/* -c: the digest listed */
	int err;		/* result: 0, or the errno that stopped it */
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
	bool line_buffered;	/* flush every line: a terminal is watching */
	size_t len;		/* bytes in buf */
	size_t done;		/* bytes in buf that form whole lines */
	char buf[16384];
};

void out_init(struct out *o, int fd);
void out_put(struct out *o, const void *p, size_t n);
void out_str(struct out *o, const char *s);
void out_end_line(struct out *o, char end);
/* Write the whole lines gathered so far. */
void out_flush(struct out *o);
/* Write what is left and close; false after any write error, with errno
 * set to close's error or 0. */
bool out_close(struct out *o);

/* Put name into o with '\\', '\n' and '\r' written as \\, \n and \r. */
void out_escaped(struct out *o, const char *name);

/* Hash every job in jobs[0..n), filling in err and digest. */
void hash_jobs(struct job *jobs, size_t n, uint8_t *buf, unsigned nthreads);
/* Say "memory exhausted" and exit. */
_Noreturn void die_no_memory(const char *prog);

/* How many files to hash at once when -j is not given. */
unsigned default_jobs(void);

/* Hash the file called name ("-" is standard input): 0 or an errno. */
int hash_file(const char *name, uint8_t digest[MD5_DIGEST_LENGTH], uint8_t *buf);

/* Print "PROG: NAME: MSG" on standard error, NAME quoted as GNU does, after
 * the output gathered so far. */
void report_error(struct run *run, const char *name, const char *msg);
/* Print "PROG: NAME: MSG" on standard error, NAME quoted as GNU does. */
void error_file(const char *prog, const char *name, const char *msg);
/* Print "PROG: " and the message on standard error, and a newline. */
void complain(const char *prog, const char *fmt, ...);

/* The shared state of one run of the command. */
struct run {
	const char *prog;	/* argv[0], to begin every message */
	const struct options *opt;
	struct out out;
	uint8_t *buf;		/* READ_SIZE bytes */
	bool read_stdin;	/* standard input was read: close it at the end */
	enum line_form form;	/* -c: which form of GNU line came first */
};

/* -c: verify the checksum list called name; false when it fails. */
bool check_list(struct run *run, const char *name);

#endif
