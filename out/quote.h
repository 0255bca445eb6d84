/* quote.h - quote a file name for a diagnostic exactly as GNU md5sum does.
 *
 * The result is a shell word: unchanged when safe, else in "..." or '...'
 * with unprintable bytes as $'\ooo' escapes.  What counts as printable
 * follows LC_CTYPE, so the caller must have set it (for example with
 * setlocale(LC_ALL, "")) before the first call; it may do so lazily, just
 * before printing its first diagnostic, through quote_use_locale.
 * Thread-safe; no global state.  Quoting needs no memory: the quoted name
 * is given to a sink in pieces, as long as it is. */
#ifndef QUOTE_H
#define QUOTE_H

#include <stddef.h>

/* Takes n bytes at p, the next piece of a quoted name. */
typedef void quote_sink(void *to, const char *p, size_t n);

/* Give name, quoted, to put, a piece at a time; to is put's own. */
void quote_put(const char *name, quote_sink *put, void *to);

/* Return name quoted as a malloc'd string, or NULL if out of memory. */
char *quote_name(const char *name);

/* Load the locale's character set, setlocale(LC_CTYPE, ""), the first time
 * it is asked, and never again: a second setlocale would change what
 * quote_name depends on under another thread quoting.  By one thread at a
 * time, before any other quotes: messages about files are written under
 * one lock (window.c), --progress loads it before its thread starts, and
 * a run under a limit on address space before its threads start
 * (budget.c), to count what it maps. */
void quote_use_locale(void);

#endif
