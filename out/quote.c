/* quote.c - quote file names for diagnostics the way GNU md5sum 9.1 does.
 *
 * The rules were found by running GNU md5sum on generated names and
 * reading its messages; tests/quote_test.sh checks them against it. */
#include "out/quote.h"

#include <locale.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>
#include <wctype.h>

/* Bytes that never make GNU quote a name; '#', '~', '{' and '}' only
 * sometimes do, see classify_ascii. */
static const char plain_chars[] =
	"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789%+,-./@]_";

/* What one character of a name asks of its quoting. */
struct piece {
	size_t len;		/* bytes it spans */
	bool escape;		/* unprintable: written as $'\ooo' */
	bool quote;		/* forces quotes around the name */
	bool dquote_ok;		/* GNU lets it stand between double quotes */
};

/* What the whole name asks of its quoting. */
struct summary {
	bool quote;		/* some piece forces quotes */
	bool dquote_ok;		/* every piece may stand in double quotes */
	bool has_squote;	/* the name holds a ' */
	bool ends_escaped;	/* the last piece is unprintable */
};

/* GNU judges '#' and '~' as the shell would: special only when leading,
 * and '{' and '}' only as a whole word. */
static struct piece classify_ascii(unsigned char c, bool first, bool alone)
{
	struct piece pc = { 1, false, true, false };

	if (c < 0x20 || c == 0x7f) {
		pc.escape = true;
	} else if (c == '#' || c == '~') {
		pc.quote = pc.dquote_ok = first;
	} else if (c == '{' || c == '}') {
		pc.quote = alone;
	} else {
		pc.quote = !strchr(plain_chars, c);
		pc.dquote_ok = !pc.quote || strchr(" :'", c);
	}
	return pc;
}

/* Bytes >= 0x80 go through the locale: a printable character is kept as
 * is, an unprintable one escaped, and an invalid or truncated sequence
 * escaped one byte at a time so decoding resumes right after it. */
static struct piece classify(const char *p, size_t left, bool first,
			     mbstate_t *st)
{
	struct piece pc = { 1, true, true, false };
	wchar_t wc;
	size_t n;

	if ((unsigned char)*p < 0x80)
		return classify_ascii((unsigned char)*p, first, first && left == 1);
	n = mbrtowc(&wc, p, left, st);
	if (n == (size_t)-1 || n == (size_t)-2 || n == 0) {
		memset(st, 0, sizeof *st);
		return pc;
	}
	pc.len = n;
	pc.escape = pc.quote = !iswprint((wint_t)wc);
	pc.dquote_ok = !pc.escape;
	return pc;
}

static struct summary summarize(const char *name, size_t len)
{
	struct summary s = { len == 0, true, false, false };
	mbstate_t st = { 0 };

	for (size_t i = 0; i < len;) {
		struct piece pc = classify(name + i, len - i, i == 0, &st);

		s.quote |= pc.quote;
		s.dquote_ok &= pc.dquote_ok;
		s.has_squote |= name[i] == '\'';
		s.ends_escaped = pc.escape;
		i += pc.len;
	}
	return s;
}

/* Append byte c as a C-style escape: a letter where one exists, else
 * three octal digits. */
static char *put_escape(char *o, unsigned char c)
{
	*o++ = '\\';
	if (c >= 7 && c <= 13) {
		*o++ = "abtnvfr"[c - 7];
	} else {
		*o++ = (char)('0' + (c >> 6));
		*o++ = (char)('0' + (c >> 3 & 7));
		*o++ = (char)('0' + (c & 7));
	}
	return o;
}

/* Quote name in '...', with unprintable runs as '$'\ooo...'. */
static char *single_quote(const char *name, size_t len, struct summary s)
{
	char *out, *o;
	mbstate_t st = { 0 };
	/* When a name holds a ' and ends in an escape, GNU starts as if an
	 * escape were still open: a stray "''" before a printable first
	 * piece, or no "'$'" before an unprintable one.  Mimic it. */
	bool in_escape = s.has_squote && s.ends_escaped;

	/* At worst 7 bytes ("'$'\ooo") per byte, two quotes, "''", NUL. */
	if (len > (SIZE_MAX - 5) / 7 || !(out = o = malloc(7 * len + 5)))
		return NULL;
	*o++ = '\'';
	for (size_t i = 0; i < len;) {
		struct piece pc = classify(name + i, len - i, i == 0, &st);

		if (pc.escape) {
			if (!in_escape)
				o = stpcpy(o, "'$'");
			for (size_t k = 0; k < pc.len; k++)
				o = put_escape(o, (unsigned char)name[i + k]);
		} else if (name[i] == '\'') {
			o = stpcpy(o, "'\\''");
		} else {
			if (in_escape)
				o = stpcpy(o, "''");
			memcpy(o, name + i, pc.len);
			o += pc.len;
		}
		in_escape = pc.escape;
		i += pc.len;
	}
	strcpy(o, "'");
	return out;
}

char *quote_name(const char *name)
{
	size_t len = strlen(name);
	struct summary s;
	char *out;

	if (len > 0 && strspn(name, plain_chars) == len)
		return strdup(name);
	s = summarize(name, len);
	if (!s.quote)
		return strdup(name);
	if (!s.has_squote || !s.dquote_ok)
		return single_quote(name, len, s);
	/* GNU prefers "..." for a name with a ' when nothing in it would
	 * need escaping there. */
	if ((out = malloc(len + 3)))
		strcpy(stpcpy(stpcpy(out, "\""), name), "\"");
	return out;
}

void quote_use_locale(void)
{
	static bool loaded;

	if (!loaded)
		setlocale(LC_CTYPE, "");
	loaded = true;
}
