/* grow.h - room made in a byte buffer of the heap, without realloc (which
 * the static build would have for this alone). */
#ifndef GROW_H
#define GROW_H

#include <stdbool.h>
#include <stddef.h>

/* Room at *p, of *size bytes, for n bytes after the len bytes it holds,
 * which are kept: its size doubles, or, when that is not enough, becomes
 * just enough (a long line or name takes no more).  False, *p unchanged,
 * when there is no memory for it. */
bool grow(char **p, size_t *size, size_t len, size_t n);

#endif
