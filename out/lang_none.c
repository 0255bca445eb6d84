/* lang_none.c - the static build's stand-in for lang.c: English alone,
 * GNU's words in the "C" locale; see lang.h. */
#include "out/lang.h"

static const char *const verdicts[] = {
	[VERDICT_OK] = "OK",
	[VERDICT_FAILED] = "FAILED",
	[VERDICT_UNREADABLE] = "FAILED open or read",
};

void lang_load(void)
{
}

const char *lang_text(const char *msgid)
{
	return msgid;
}

const char *lang_libc(const char *msgid)
{
	return msgid;
}

const char *lang_plural(const char *one, const char *many, uintmax_t n)
{
	return n == 1 ? one : many;
}

const char *lang_verdict(enum lang_verdict v)
{
	return verdicts[v];
}

/* The English messages' conversions are "%s", "%c" and "%lu" alone. */
bool lang_step(struct lang_walk *w, struct lang_piece *p)
{
	const char *s = w->at;

	if (!*s)
		return false;
	p->text = s;
	p->arg = LANG_TEXT;
	p->len = 0;
	while (s[p->len] && s[p->len] != '%')
		p->len++;
	if (p->len == 0) {
		p->len = s[1] == 'l' ? 3 : 2;
		p->arg = w->next++;
	}
	w->at = s + p->len;
	return true;
}

const char *lang_quote(bool close)
{
	(void)close;
	return "'";
}
