/* files.h - how the command opens what it reads: the one place that calls
 * open(2) and fopen(3) for inputs and checksum lists.  A harness that
 * must keep the command inside a sandbox (fuzz/) links its own. */
#ifndef FILES_H
#define FILES_H

#include <stdio.h>

/* open(2) name for reading, not inherited by children: a descriptor, or -1
 * with errno set. */
int open_input(const char *name);

/* fopen(3) name for reading lines. */
FILE *open_list(const char *name);

#endif
