/* grow.h - room made in a byte buffer of the heap: by realloc (os/grow.c),
 * which for a large buffer moves its pages rather than copying them, so a
 * long line costs no more memory than GNU's getline takes for it; in the
 * small static build, which would have realloc for this alone, by malloc,
 * copy and free (os/grow_copy.c). */
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
