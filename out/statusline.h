/* statusline.h - the text of the status line of --progress, from its
 * figures.
 *
 * Pure: the same figures give the same text, whatever the clock, the
 * files or the terminal say (progress.c gathers the figures).  The line
 * is made of parts, two spaces apart:
 *
 *   files  "2/5 files" of the FILEs; with -c "3 files" checked
 *   bytes  "2.1/7.9 GiB 26%" when the total is known, else "2.1 GiB"
 *   list   with -c: "list 2/3 33%", which list (when there are several)
 *          and how far through it (when its size is known)
 *   rate   "688.2 MiB/s"
 *   left   "0:09 left", "1:02:03 left", when known
 *   name   the input waited for, as given
 *
 * Amounts are in the largest binary unit not above them, bytes whole and
 * the others to one decimal.  The line is never as wide as the terminal,
 * so that it never wraps: the name is shortened in its middle first, then
 * the parts that matter least are left out (the rate, the time left, the
 * name, the list, the bytes), and last the files part is cut.  A
 * character takes one column when ASCII, else two, the most any takes;
 * which bytes make a character follows the locale's LC_CTYPE, as the
 * quoting of the name does (quote.h). */
#ifndef STATUSLINE_H
#define STATUSLINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum {
	STATUS_COLUMNS_MAX = 512,	/* the line is never wider */
	STATUS_LINE_SIZE = 4 * STATUS_COLUMNS_MAX + 16,	/* bytes, with its NUL */
};

/* What the line tells. */
struct status_figures {
	bool check;		/* -c: the inputs are lists */
	uint64_t files_done;	/* inputs reported */
	size_t inputs;		/* the FILEs, or the lists */
	double bytes_done;	/* hashed */
	double bytes_total;	/* of the FILEs; < 0: not known */
	double rate;		/* bytes a second */
	double seconds_left;	/* < 0: not known */
	size_t list;		/* -c: which list, from 1 */
	double list_done;	/* -c: the part of it done, 0 to 1; < 0: not known */
	const char *name;	/* the input waited for, quoted; NULL: none */
	size_t width;		/* the terminal's columns */
};

/* The line that f makes, into line; its length in bytes, 0 when the
 * terminal has no room for any of it. */
size_t status_line(const struct status_figures *f, char line[STATUS_LINE_SIZE]);

#endif
