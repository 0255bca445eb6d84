/* decimal.h - numbers in decimal, without printf (which the static build
 * would have for this alone).  A leaf. */
#ifndef DECIMAL_H
#define DECIMAL_H

#include <stdint.h>

/* Room for any uintmax_t in decimal, and a NUL. */
enum { DECIMAL_SIZE = 3 * sizeof(uintmax_t) + 1 };

/* n in decimal, written at the end of buf; where it begins. */
const char *decimal(uintmax_t n, char buf[DECIMAL_SIZE]);

#endif
