/* open.h - how the command opens what it reads: the one place that calls
 * open(2) for inputs and checksum lists.  A harness that must keep the
 * command inside a sandbox (fuzz/) links its own. */
#ifndef OPEN_H
#define OPEN_H

/* open(2) name for reading, not inherited by children: a descriptor, or -1
 * with errno set.  It may not wait for a FIFO's writer, as a plain open
 * would: its reads are then non-blocking until stream.h's reading makes
 * them wait, when the input's turn has come; so that no line held back
 * waits with it. */
int open_input(const char *name);

/* The same, for a checksum list. */
int open_list(const char *name);

#endif
