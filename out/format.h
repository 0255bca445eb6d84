/* format.h - a message's format (lang.h: GNU's English, or a translation
 * that fits it) put into a message, without printf. */
#ifndef FORMAT_H
#define FORMAT_H

#include "out/lang.h"
#include "out/msg.h"

/* Add fmt to m, conversion k as args[k] (k < n; numbers in decimal, a
 * character as a string of one), "%%" as '%', a '%' that begins no
 * conversion as it is. */
void format_put(struct msg *m, const char *fmt, const char *const *args, int n);

#endif
