/* grow_copy.c - room in a heap buffer by malloc, copy and free, for the
 * small build, which would have realloc for this alone; see grow.h. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "os/grow.h"

bool grow(char **p, size_t *size, size_t len, size_t n)
{
	size_t want = *size > SIZE_MAX / 2 ? SIZE_MAX : 2 * *size;
	char *grown;

	if (n <= *size - len)
		return true;
	if (want < 256)
		want = 256;
	if (want - len < n)
		want = len + n;
	if (want < len + n)
		return false;
	if (!(grown = malloc(want)))
		return false;
	if (len > 0)
		memcpy(grown, *p, len);
	free(*p);
	*p = grown;
	*size = want;
	return true;
}
