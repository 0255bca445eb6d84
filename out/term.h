/* term.h - writing whole buffers, and the terminal of standard error,
 * which the status line of --progress shares with every other write.
 *
 * write_all is the one loop that writes a buffer for the command, to any
 * descriptor.  The status line is drawn at the start of a line of the
 * terminal and cleared before anything else is written, so that what
 * stays on the terminal is what a run without it leaves: every other
 * write that may reach the terminal goes between term_pause and
 * term_resume, which hold the lock that the line is drawn under.  Until
 * term_share, there is no status line, and term_pause and term_resume
 * return after testing one flag.
 *
 * A leaf: it calls nothing of the command's. */
#ifndef TERM_H
#define TERM_H

#include <stdbool.h>
#include <stddef.h>

/* Bytes of a status line, at most: 512 columns of up to 4 bytes each. */
enum { TERM_LINE_MAX = 4 * 512 + 16 };

/* Write n bytes at p to fd, whatever write(2) takes at a time, retrying
 * when interrupted: 0 or an errno. */
int write_all(int fd, const void *p, size_t n);

/* A status line may be drawn from now on.  Once, while the process has
 * one thread, before the thread that draws it starts. */
void term_share(void);

/* Around every other write to the terminal: term_pause clears the status
 * line and keeps it off until term_resume, told whether what was written
 * ended its line. */
void term_pause(void);
void term_resume(bool line_ended);

/* Draw line, len bytes of one line, as the status line in place of the
 * one drawn, unless it is there already or what was written last did not
 * end its line; len 0 clears it. */
void term_show(const char *line, size_t len);

/* Clear the status line, if drawn. */
void term_clear(void);

/* The same from a signal handler that ends the run, which must not take
 * the lock: only async-signal-safe calls.  No line is drawn after it; it
 * waits a little for one being drawn, so it must not run on the thread
 * that calls term_show. */
void term_clear_at_signal(void);

#endif
