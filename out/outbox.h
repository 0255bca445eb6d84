/* outbox.h - output written ahead of its turn: the lines that files give
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
#ifndef OUTBOX_H
#define OUTBOX_H

#include <stdbool.h>
#include <stddef.h>

#include "out/out.h"

struct outbox {
	char *buf;		/* entries: a kind, a length, that many bytes */
	size_t len, size;
	size_t text;		/* where the entry of the text being added
				 * begins, or SIZE_MAX when there is none */
	bool lost;		/* out of memory: entries were dropped */
};

void outbox_init(struct outbox *r);
void outbox_free(struct outbox *r);

/* Standard output, as out.h puts it: end every line with outbox_end_line. */
void outbox_put(struct outbox *r, const void *p, size_t n);
void outbox_str(struct outbox *r, const char *s);
/* A file's name, as it is. */
void outbox_name(struct outbox *r, const char *name);
/* A file's name with '\\', '\n' and '\r' written as \\, \n and \r. */
void outbox_escaped(struct outbox *r, const char *name);
/* End the line with end ('\n', or '\0' for -z). */
void outbox_end_line(struct outbox *r, char end);

/* A message "PROG: NAME: TEXT", NAME quoted as GNU quotes it. */
void outbox_error_file(struct outbox *r, const char *name, const char *text);

/* Write what r holds, in order: its lines through out, and each message
 * once the lines before it are written; then empty r.  A lost record
 * says "memory exhausted" and exits. */
void outbox_play(struct outbox *r, struct out *out, const char *prog);

#endif
