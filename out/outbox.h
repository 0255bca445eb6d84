/* outbox.h - output recorded ahead of its turn: the lines that files give
 * on standard output and the messages about them on standard error,
 * recorded in the order they are to appear by the thread that hashed the
 * files, and read back later, in input order, by whichever thread's turn
 * it is to write them (window.h plays them).  A record only grows, until
 * it is emptied; it writes nothing itself.
 *
 * Text is copied; a file's name is not: the name given must last until
 * the record is read back.  A message about a file is recorded as its name
 * and its text, to be worded when written (diag.h), since quoting the name
 * needs the locale, which only one thread at a time may load.  A record
 * that cannot grow is lost from there on: what it holds of the jobs ended
 * before (outbox_end_job) can still be read back, and no more. */
#ifndef OUTBOX_H
#define OUTBOX_H

#include <stdbool.h>
#include <stddef.h>

struct outbox {
	char *buf;		/* entries: a kind, a length, that many bytes */
	size_t len, size;
	size_t text;		/* where the entry of the text being added
				 * begins, or SIZE_MAX when there is none */
	size_t whole;		/* the entries of the jobs ended end here */
	bool lost;		/* out of memory: entries were dropped */
};

/* What an entry is. */
enum outbox_kind {
	OUTBOX_TEXT = 't',	/* bytes of standard output */
	OUTBOX_NAME = 'n',	/* a file's name, as it is */
	OUTBOX_ESCAPED = 'x',	/* a file's name, to escape */
	OUTBOX_FILE_ERROR = 'e',	/* a message about a file */
	OUTBOX_BAD_LINE = 'l',	/* -c's message about a line of a list */
};

/* One entry, read back. */
struct outbox_entry {
	enum outbox_kind kind;
	const char *name;	/* all but TEXT */
	const char *text;	/* TEXT: len bytes; FILE_ERROR: the message's
				 * text, BAD_LINE: the line's number in
				 * decimal, NUL-ended */
	size_t len;
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
/* -c's message that line (in decimal) of the list named list is
 * improperly formatted (diag.h). */
void outbox_bad_line(struct outbox *r, const char *list, const char *line);

/* What is recorded so far is one job's output, or more, all of it: a
 * record lost later keeps it. */
void outbox_end_job(struct outbox *r);

/* The entry at *at, at 0 for the first, and *at moved past it: of the
 * jobs ended only; false after the last. */
bool outbox_next(const struct outbox *r, size_t *at, struct outbox_entry *e);

/* Empty r, keeping its memory; lost or not, it may grow again. */
void outbox_clear(struct outbox *r);

#endif
