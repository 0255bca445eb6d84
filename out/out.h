/* out.h - standard output gathered into whole lines.
 *
 * A line never straddles two write(2) calls, and a write is at most
 * PIPE_BUF bytes of whole lines when the lines allow, so concurrent runs
 * writing to one pipe never mix their lines and a killed run leaves no
 * part of a line behind.  Callers flush after each batch of results and
 * before anything goes to standard error, so output appears in order and
 * without delay.  Errors are kept and told by out_close, as stdio keeps
 * them until fclose.  Written to a terminal, the lines clear the status
 * line of --progress first (term.h). */
#ifndef OUT_H
#define OUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Kept by every function here, whatever the lengths put:
 *   done <= len <= sizeof buf;
 *   buf[0..done) is whole lines, each ended as out_line_end says;
 *   buf[done..len) is the start of the line being put;
 *   waiting_since is 0 when no whole line waits (done is 0, or -z keeps
 *   them until buf is full).
 * A line longer than buf cannot go out in one write: the whole lines
 * before it are written, then it, in pieces, as it is put. */
struct out {
	int fd;
	_Atomic int_least64_t waiting_since;	/* ms, monotonic, when whole
						 * lines began to wait in buf;
						 * 0: none wait */
	int err;		/* errno of the first failed write, or 0 */
	bool until_full;	/* -z: write only when full or at the end, as GNU */
	bool line_buffered;	/* flush every line: a terminal is watching */
	size_t len;		/* bytes in buf */
	size_t done;		/* bytes in buf that form whole lines */
	char buf[16384];
};

void out_init(struct out *o, int fd, bool until_full);
void out_put(struct out *o, const void *p, size_t n);
void out_str(struct out *o, const char *s);
/* End the line with end ('\n', or '\0' for -z). */
void out_end_line(struct out *o, char end);
/* Put n bytes of whole lines, each ended as out_end_line ends one. */
void out_lines(struct out *o, const void *p, size_t n);
/* What ends a line: '\0' with -z, else '\n'. */
char out_line_end(const struct out *o);
/* Write the whole lines gathered, if they have waited ms milliseconds;
 * with out_waited, lines written now and then do not wait while a
 * long file is hashed. */
void out_flush_waited(struct out *o, int ms);
/* Whether whole lines have waited ms milliseconds: any thread may ask,
 * whichever writes to o. */
bool out_waited(struct out *o, int ms);
/* Write the whole lines gathered so far, unless -z keeps them until the
 * buffer is full. */
void out_flush(struct out *o);
/* Write the whole lines gathered so far, even with -z: before a message
 * on standard error, as GNU's error() flushes standard output first. */
void out_before_message(struct out *o);
/* Write what is left and close; false after any write error, with errno
 * set to the error of the last write or of close, or 0. */
bool out_close(struct out *o);

#endif
