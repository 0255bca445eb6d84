/* diag.h - diagnostics about files, on standard error. */
#ifndef DIAG_H
#define DIAG_H

#include "out/out.h"

/* Print "PROG: NAME: TEXT" on standard error, NAME quoted as GNU quotes
 * it (quote.h) for the locale's character set. */
void error_file(const char *prog, const char *name, const char *text);

/* The same, after the output gathered in out so far, so that the two
 * streams read in order when they go to one place. */
void report_error(struct out *out, const char *prog, const char *name,
		  const char *text);

#endif
