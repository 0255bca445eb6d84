/* diag.h - diagnostics about files, on standard error, in GNU's words in
 * the user's language (lang.h). */
#ifndef DIAG_H
#define DIAG_H

#include "out/out.h"

/* Print "PROG: NAME: TEXT" on standard error, NAME quoted as GNU quotes
 * it (quote.h) for the locale's character set, TEXT glibc's English words
 * for an error (errtext.h), said as glibc says them in the user's
 * language. */
void error_file(const char *prog, const char *name, const char *text);

/* The same, after the output gathered in out so far, so that the two
 * streams read in order when they go to one place. */
void report_error(struct out *out, const char *prog, const char *name,
		  const char *text);

/* Print "PROG: " and coreutils' message msgid, its first conversion the
 * NAME quoted, the others args[1], args[2] ... (args[0] is NAME). */
void error_about(const char *prog, const char *msgid, const char *const *args, int n);

/* The same, after the output gathered in out so far. */
void report_about(struct out *out, const char *prog, const char *msgid,
		  const char *const *args, int n);

/* -c's "improperly formatted" line line (in decimal) of the list named
 * list, after the output gathered in out so far. */
void report_bad_line(struct out *out, const char *prog, const char *list, const char *line);

#endif
