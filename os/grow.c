/* grow.c - room in a heap buffer by realloc; see grow.h. */
#include <stdint.h>
#include <stdlib.h>

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
	if (!(grown = realloc(*p, want)))
		return false;
	*p = grown;
	*size = want;
	return true;
}
