/* progress.h - md5sum --progress: a status line on standard error while
 * the run lasts, when standard error is a terminal.
 *
 * The run feeds the counters below.  The line tells the files done (of
 * how many, when known), the bytes hashed (of how many, when known: the
 * sizes of the FILEs, when all are regular files; with -c, how far
 * through its list the run is), the rate, the time left when it can be
 * told, and the file the run is waiting for, quoted as in messages
 * (statusline.h composes it).  A thread of its own (progress_draw.h)
 * draws it in place a few times a second, from about a second into the
 * run (a shorter run shows nothing), never as wide as the terminal, so
 * it never wraps, and not while the run is in the background of the
 * terminal's shell.  Whatever else goes to the terminal clears it first
 * (term.h).  The line is cleared at the end (progress_end), and on
 * SIGINT, SIGTERM, SIGQUIT and SIGPIPE before the signal takes its usual
 * effect.
 *
 * When standard error is not a terminal, or progress_start was not
 * called, or in the small static build (os/features.h), nothing is shown,
 * no thread runs, and every other call returns after testing one flag.
 * Standard output and the exit status never depend on it.
 *
 * It calls nothing of the command's but grow.h and progress_draw.h, to
 * which it hands the counters to draw. */
#ifndef PROGRESS_H
#define PROGRESS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* What the run goes through, as known before it starts. */
struct progress_plan {
	bool check;		/* -c: the names are lists */
	char *const *names;	/* the FILEs or the lists, "-" for stdin */
	size_t count;
};

/* Show progress, if standard error is a terminal.  Call once, before any
 * other thread of the run starts; p->names must outlive the run. */
void progress_start(const struct progress_plan *p);

/* Clear the line and stop, for good: before the run exits. */
void progress_end(void);

/* n bytes of an input were read; any thread. */
void progress_read(size_t n);

/* An input was reported (an argument, or a list line naming a file). */
void progress_file_done(void);

/* Whether the line is shown: what only feeds it may be left undone. */
bool progress_shown(void);

/* The run now waits for the input called name (copied), or for none
 * (NULL).  Any thread. */
void progress_waiting_for(const char *name);

/* -c: a list begins, open at fd (-1 when it could not be opened). */
void progress_list_begin(int fd);

/* -c: the lines of the list up to byte offset are reported. */
void progress_list_at(uintmax_t offset);

#endif
