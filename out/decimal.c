/* decimal.c - numbers in decimal; see decimal.h. */
#include "out/decimal.h"

const char *decimal(uintmax_t n, char buf[DECIMAL_SIZE])
{
	char *p = buf + DECIMAL_SIZE - 1;

	*p = '\0';
	do
		*--p = (char)('0' + n % 10);
	while ((n /= 10) > 0);
	return p;
}
