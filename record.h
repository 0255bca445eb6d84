/* record.h - output written ahead of its turn: the lines that files give
 * on standard output and the messages about them on standard error,
 * recorded in the order they are to appear by the thread that hashed the
 * files, and played later, in input order, by whichever thread's turn it
 * is.
 *
 * Text is copied; a file's name is not: the name given must last until
 * the record is played.  A message about a file is worded when played
 * (diag.h), since quoting the name needs the locale, which only one thread
 * at a time may load.  A record that cannot grow is lost: playing it says
 * "memory exhausted" instead. */
#ifndef RECORD_H
#define RECORD_H

#include <stdbool.h>
#include <stddef.h>

#include "out.h"

struct record {
	char *buf;		/* entries: a kind, a length, that many bytes */
	size_t len, size;
	size_t text;		/* where the entry of the text being added
				 * begins, or SIZE_MAX when there is none */
	bool lost;		/* out of memory: entries were dropped */
};

void record_init(struct record *r);
void record_free(struct record *r);

/* Standard output, as out.h puts it: end every line with record_end_line. */
void record_put(struct record *r, const void *p, size_t n);
void record_str(struct record *r, const char *s);
/* A file's name, as it is. */
void record_name(struct record *r, const char *name);
/* A file's name with '\\', '\n' and '\r' written as \\, \n and \r. */
void record_escaped(struct record *r, const char *name);
/* End the line with end ('\n', or '\0' for -z). */
void record_end_line(struct record *r, char end);

/* A message "PROG: NAME: TEXT", NAME quoted as GNU quotes it. */
void record_error_file(struct record *r, const char *name, const char *text);

/* Write what r holds, in order: its lines through out, and each message
 * once the lines before it are written; then empty r.  A lost record
 * says "memory exhausted" and exits. */
void record_play(struct record *r, struct out *out, const char *prog);

#endif
