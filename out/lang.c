/* lang.c - GNU's messages in the user's language, through the C
 * library's gettext; see lang.h. */
#include <langinfo.h>
#include <libintl.h>
#include <limits.h>
#include <locale.h>
#include <stdlib.h>
#include <string.h>

#include "out/lang.h"
#include "out/quote.h"

/* Where GNU coreutils finds its catalogs (its LOCALEDIR). */
#ifndef LOCALEDIR
#define LOCALEDIR "/usr/share/locale"
#endif

static const char domain[] = "coreutils";

extern char **environ;

/* The most conversions a message of ours has, with room to spare. */
enum { ARGS_MAX = 8 };

static bool loaded;
/* LC_MESSAGES is not "C": gettext may find a catalog.  In "C" it finds
 * none, and glibc does not read LANGUAGE. */
static bool translating;

static const char *const english_verdicts[] = {
	[VERDICT_OK] = "OK",
	[VERDICT_FAILED] = "FAILED",
	[VERDICT_UNREADABLE] = "FAILED open or read",
};
static const char *verdicts[] = {
	[VERDICT_OK] = "OK",
	[VERDICT_FAILED] = "FAILED",
	[VERDICT_UNREADABLE] = "FAILED open or read",
};

/* The conversion after the '%' at s into p: "[N$][hljzt]{0,2}X" with X
 * one of "csdiux"; false for anything else (flags, widths, precisions). */
static bool conversion(const char *s, struct lang_piece *p)
{
	const char *at = s + 1;
	size_t k = 0;

	if (*at >= '1' && *at <= '9' && (at[1] == '$' || (at[1] >= '0' && at[1] <= '9' &&
							  at[2] == '$'))) {
		p->arg = *at++ - '1';
		if (*at != '$')
			p->arg = 10 * (p->arg + 1) + *at++ - '0' - 1;
		at++;
		p->numbered = true;
	}
	while (k < 2 && *at && strchr("hljzt", *at))
		p->type[k++] = *at++;
	if (!*at || !strchr("csdiux", *at))
		return false;
	p->type[k++] = *at++;
	p->type[k] = '\0';
	p->len = (size_t)(at - s);
	return true;
}

bool lang_step(struct lang_walk *w, struct lang_piece *p)
{
	const char *s = w->at;

	if (!*s)
		return false;
	p->text = s;
	p->arg = LANG_TEXT;
	p->numbered = false;
	if (*s != '%') {
		p->len = strcspn(s, "%");
	} else if (s[1] == '%') {
		p->text = s + 1;
		p->len = 1;
		s++;
	} else if (conversion(s, p)) {
		if (!p->numbered)
			p->arg = w->next++;
	} else {
		p->arg = LANG_BAD;
		p->len = 1;
	}
	w->at = s + p->len;
	return true;
}

bool lang_fits(const char *msgid, const char *tr)
{
	char types[ARGS_MAX][4];
	struct lang_walk w = { msgid, 0 };
	struct lang_piece p;
	int n = 0, numbered = -1;
	unsigned used = 0;

	while (lang_step(&w, &p)) {
		if (p.arg == LANG_BAD || p.numbered || n == ARGS_MAX)
			return false;
		if (p.arg >= 0)
			memcpy(types[n++], p.type, sizeof p.type);
	}
	w = (struct lang_walk){ tr, 0 };
	while (lang_step(&w, &p)) {
		if (p.arg == LANG_TEXT)
			continue;
		if (p.arg == LANG_BAD || p.arg >= n || strcmp(p.type, types[p.arg]) != 0 ||
		    (numbered >= 0 && numbered != p.numbered))
			return false;
		numbered = p.numbered;
		used |= 1u << p.arg;
	}
	return used == (1u << n) - 1;
}

/* tr, gettext's answer for msgid, if it may stand for it. */
static const char *checked(const char *msgid, const char *tr)
{
	return tr != msgid && tr && lang_fits(msgid, tr) ? tr : msgid;
}

/* Whether setlocale(LC_ALL, "") would succeed, as GNU's does at its
 * start: where the locale of one category cannot load, GNU stays in "C"
 * whole and speaks English.  LC_ALL, or a name equal to messages (loaded
 * already), needs no look; any other variable's, newlocale tries them all
 * (rather than each time, as it costs a file a category in C.UTF-8). */
static bool all_categories_load(const char *messages)
{
	const char *all = getenv("LC_ALL");
	locale_t l;

	if (all && *all)
		return true;
	for (char **e = environ; *e; e++) {
		const char *v = strchr(*e, '=');

		if (!v || (strncmp(*e, "LC_", 3) != 0 && strncmp(*e, "LANG=", 5) != 0) ||
		    !v[1] || strcmp(v + 1, messages) == 0)
			continue;
		if ((l = newlocale(LC_ALL_MASK, "", (locale_t)0)))
			freelocale(l);
		return l != NULL;
	}
	return true;
}

void lang_load(void)
{
	const char *name;

	if (loaded)
		return;
	loaded = true;
	/* gettext gives its texts in LC_CTYPE's character set. */
	quote_use_locale();
	name = setlocale(LC_MESSAGES, "");
	translating = name && strcmp(name, "C") != 0 && all_categories_load(name) &&
		      bindtextdomain(domain, LOCALEDIR);
	for (size_t i = 0; i < sizeof verdicts / sizeof *verdicts; i++)
		verdicts[i] = lang_text(english_verdicts[i]);
}

const char *lang_text(const char *msgid)
{
	lang_load();
	return translating ? checked(msgid, dgettext(domain, msgid)) : msgid;
}

const char *lang_libc(const char *msgid)
{
	lang_load();
	return translating ? checked(msgid, dgettext("libc", msgid)) : msgid;
}

const char *lang_plural(const char *one, const char *many, uintmax_t n)
{
	/* GNU's select_plural: n itself where it fits an unsigned long. */
	unsigned long k = n <= ULONG_MAX ? (unsigned long)n : (unsigned long)(n % 1000000 + 1000000);
	const char *english = n == 1 ? one : many;

	lang_load();
	return translating ? checked(english, dngettext(domain, one, many, k)) : english;
}

const char *lang_verdict(enum lang_verdict v)
{
	return verdicts[v];
}

const char *lang_quote(bool close)
{
	const char *msgid = close ? "'" : "`", *tr = lang_text(msgid);

	if (tr != msgid)
		return tr;
	if (strcmp(nl_langinfo(CODESET), "UTF-8") == 0)
		return close ? "\xe2\x80\x99" : "\xe2\x80\x98";
	return "'";
}
