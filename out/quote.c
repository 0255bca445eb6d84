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

/* Text given to a sink in runs: bytes kept as they are pass straight
 * from the name, the rest through a few bytes of its own. */
struct stream {
	quote_sink *put;
	void *to;
};

static void put_str(const struct stream *o, const char *s)
{
	o->put(o->to, s, strlen(s));
}

/* Put byte c as a C-style escape: a letter where one exists, else three
 * octal digits. */
static void put_escape(const struct stream *o, unsigned char c)
{
	char e[4] = { '\\' };
	size_t n = 2;

	if (c >= 7 && c <= 13) {
		e[1] = "abtnvfr"[c - 7];
	} else {
		e[1] = (char)('0' + (c >> 6));
		e[2] = (char)('0' + (c >> 3 & 7));
		e[3] = (char)('0' + (c & 7));
		n = 4;
	}
	o->put(o->to, e, n);
}

/* Put name in '...', with unprintable runs as '$'\ooo...', a run of
 * printable bytes at a time. */
static void single_quote(const struct stream *o, const char *name, size_t len,
			 struct summary s)
{
	mbstate_t st = { 0 };
	/* When a name holds a ' and ends in an escape, GNU starts as if an
	 * escape were still open: a stray "''" before a printable first
	 * piece, or no "'$'" before an unprintable one.  Mimic it. */
	bool in_escape = s.has_squote && s.ends_escaped;
	size_t plain = 0;	/* where the printable run not yet put begins */

	put_str(o, "'");
	for (size_t i = 0; i < len;) {
		struct piece pc = classify(name + i, len - i, i == 0, &st);

		if (pc.escape || name[i] == '\'') {
			o->put(o->to, name + plain, i - plain);
			plain = i + pc.len;
		}
		if (pc.escape) {
			if (!in_escape)
				put_str(o, "'$'");
			for (size_t k = 0; k < pc.len; k++)
				put_escape(o, (unsigned char)name[i + k]);
		} else if (name[i] == '\'') {
			put_str(o, "'\\''");
		} else if (in_escape) {
			put_str(o, "''");
		}
		in_escape = pc.escape;
		i += pc.len;
	}
	o->put(o->to, name + plain, len - plain);
	put_str(o, "'");
}

void quote_put(const char *name, quote_sink *put, void *to)
{
	const struct stream o = { put, to };
	size_t len = strlen(name);
	struct summary s = summarize(name, len);

	if (!s.quote) {
		put(to, name, len);
	} else if (!s.has_squote || !s.dquote_ok) {
		single_quote(&o, name, len, s);
	} else {
		/* GNU prefers "..." for a name with a ' when nothing in it
		 * would need escaping there. */
		put_str(&o, "\"");
		put(to, name, len);
		put_str(&o, "\"");
	}
}

/* quote_name's two passes: the length, then the bytes. */
struct filling {
	char *at;
	size_t len;
};

static void count_bytes(void *to, const char *p, size_t n)
{
	struct filling *f = to;

	(void)p;
	f->len = n > SIZE_MAX - f->len ? SIZE_MAX : f->len + n;
}

static void fill_bytes(void *to, const char *p, size_t n)
{
	struct filling *f = to;

	memcpy(f->at, p, n);
	f->at += n;
}

char *quote_name(const char *name)
{
	struct filling f = { NULL, 0 };
	char *out;

	quote_put(name, count_bytes, &f);
	if (f.len == SIZE_MAX || !(out = malloc(f.len + 1)))
		return NULL;
	f.at = out;
	quote_put(name, fill_bytes, &f);
	*f.at = '\0';
	return out;
}

void quote_use_locale(void)
{
	static bool loaded;

	if (!loaded)
		setlocale(LC_CTYPE, "");
	loaded = true;
}
