/* lang.h - GNU md5sum's messages in the user's language.
 *
 * A message is GNU's English message id, looked up with the C library's
 * gettext in the system's catalogs (no catalog of ours): coreutils' for
 * md5sum's own words, glibc's ("libc") for getopt's and for the texts of
 * errors.  The language is the one LANGUAGE, LC_ALL, LC_MESSAGES and LANG
 * give, as glibc reads them, in the character set of LC_CTYPE; where no
 * catalog has the message, it is the English, as GNU's.
 *
 * A translation is used only when its conversions are the English
 * message's: the same types, in order or every argument named by its
 * number ("%2$s"), and nothing but "%%" besides; any other (a corrupt or
 * hostile catalog) gives the English.  A format is never given to printf:
 * lang_step walks it (format.h puts it into a message).
 *
 * The locale is loaded the first time a message is looked up, or by
 * lang_load: by one thread at a time, before any other looks one up, as
 * quote_use_locale (quote.h), which it calls: messages are worded under
 * one lock (window.c), -c loads it before its run starts (its verdicts
 * are worded by the threads that hash), --progress before its thread
 * starts.  Only LC_CTYPE and LC_MESSAGES are loaded: LC_NUMERIC stays
 * "C"; but where a category's locale cannot load, GNU's setlocale(LC_ALL,
 * "") fails, and so messages are English, as its.  The static build
 * (lang_none.c) is English alone. */
#ifndef LANG_H
#define LANG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* setlocale(LC_MESSAGES, "") and quote_use_locale, once. */
void lang_load(void);

/* msgid in the user's language: coreutils' catalog, glibc's. */
const char *lang_text(const char *msgid);
const char *lang_libc(const char *msgid);
/* one or many, as the catalog's plural rule picks for n. */
const char *lang_plural(const char *one, const char *many, uintmax_t n);

/* -c's verdicts, looked up once, when the locale is loaded. */
enum lang_verdict { VERDICT_OK, VERDICT_FAILED, VERDICT_UNREADABLE };
const char *lang_verdict(enum lang_verdict v);

/* The quote that opens (or closes) an argument in coreutils' messages, as
 * gnulib's quote(): the catalog's, else '‘' and '’' in UTF-8, else '\''. */
const char *lang_quote(bool close);

/* One piece of a format: bytes to print as they are, or a conversion. */
enum { LANG_TEXT = -1, LANG_BAD = -2 };
struct lang_piece {
	const char *text;	/* the bytes ("%%" gives one '%') */
	size_t len;
	int arg;		/* a conversion's argument, from 0; LANG_TEXT;
				 * LANG_BAD for a '%' that begins none */
	bool numbered;		/* the conversion named its argument */
	char type[4];		/* its type: "s", "c", "lu" */
};

/* Where a walk through a format is. */
struct lang_walk {
	const char *at;
	int next;		/* the argument of the next unnumbered one */
};

/* Whether tr's conversions are msgid's, so that it may stand for it: each
 * argument used, with the type msgid gives it, all in order or all by
 * number (lang.c only: the static build has no translations). */
bool lang_fits(const char *msgid, const char *tr);

/* The piece of the format at w, and w moved past it; false at its end. */
bool lang_step(struct lang_walk *w, struct lang_piece *p);

#endif
