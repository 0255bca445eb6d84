/* listline_test.c - one line of a checksum list (listline.c), from a table
 * of lines and what they parse to, printing TAP: each line form, escaped
 * names, the line form carried from line to line, and malformed lines.
 * Each row is what GNU md5sum 9.1 -c --warn made of the same line, seen
 * from the name it reported or the line it called improperly formatted;
 * the differential suite (tests/diff_check.bats) checks whole lists. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jobs/listline.h"
#include "tap.h"

#define H "d41d8cd98f00b204e9800998ecf8427e"	/* MD5 of nothing */
#define U "D41D8CD98F00B204E9800998ECF8427E"

static const uint8_t empty_md5[MD5_DIGEST_LENGTH] = {
	0xd4, 0x1d, 0x8c, 0xd9, 0x8f, 0x00, 0xb2, 0x04,
	0xe9, 0x80, 0x09, 0x98, 0xec, 0xf8, 0x42, 0x7e,
};

/* A line, its NULs counted, the line form before and after it, and the
 * name it gives (NULL when it gives none). */
struct row {
	const char *what;
	const char *line;
	size_t len;
	enum line_form before, after;
	enum line_kind kind;
	const char *name;
};

#define LINE(s) s, sizeof s - 1
#define NEW FORM_UNKNOWN
#define TWO FORM_TWO_SPACES
#define ONE FORM_ONE_SPACE

static const struct row rows[] = {
	/* GNU's forms, and BSD's tag */
	{ "two spaces", LINE(H "  a\n"), NEW, TWO, LINE_CHECKSUM, "a" },
	{ "binary '*'", LINE(H " *a\n"), NEW, TWO, LINE_CHECKSUM, "a" },
	{ "one space", LINE(H " a\n"), NEW, ONE, LINE_CHECKSUM, "a" },
	{ "a tab after the digest", LINE(H "\ta\n"), NEW, ONE, LINE_CHECKSUM, "a" },
	{ "space, tab: the tab is the name's", LINE(H " \tb\n"), NEW, ONE, LINE_CHECKSUM, "\tb" },
	{ "two spaces then '*': the '*' is the name's", LINE(H "  *a\n"), NEW, TWO,
	  LINE_CHECKSUM, "*a" },
	{ "no newline at the end", LINE(H "  a"), NEW, TWO, LINE_CHECKSUM, "a" },
	{ "CR LF at the end", LINE(H "  a\r\n"), NEW, TWO, LINE_CHECKSUM, "a" },
	{ "a CR inside the name", LINE(H "  a\rb\n"), NEW, TWO, LINE_CHECKSUM, "a\rb" },
	{ "leading blanks", LINE("  \t" H "  a\n"), NEW, TWO, LINE_CHECKSUM, "a" },
	{ "\"H  \" names a space", LINE(H "  \n"), NEW, ONE, LINE_CHECKSUM, " " },
	{ "\"H *\" names '*'", LINE(H " *\n"), NEW, ONE, LINE_CHECKSUM, "*" },
	{ "a NUL ends the name", LINE(H "  a\0b\n"), NEW, TWO, LINE_CHECKSUM, "a" },
	{ "tag", LINE("MD5 (a) = " H "\n"), NEW, NEW, LINE_CHECKSUM, "a" },
	{ "tag without spaces", LINE("MD5(a)=" H "\n"), NEW, NEW, LINE_CHECKSUM, "a" },
	{ "tag, tabs around '='", LINE("MD5 (a)\t=\t" H "\n"), NEW, NEW, LINE_CHECKSUM, "a" },
	{ "tag, upper-case digest", LINE("MD5 (a) = " U "\n"), NEW, NEW, LINE_CHECKSUM, "a" },
	{ "tag, name to the last ')'", LINE("MD5 (a) b) = " H "\n"), NEW, NEW, LINE_CHECKSUM,
	  "a) b" },
	{ "tag, '=' in the name", LINE("MD5 (a =) = " H "\n"), NEW, NEW, LINE_CHECKSUM, "a =" },
	{ "tag, empty name", LINE("MD5 () = " H "\n"), NEW, NEW, LINE_CHECKSUM, "" },
	{ "tag, the form kept", LINE("MD5 (a) = " H "\n"), ONE, ONE, LINE_CHECKSUM, "a" },

	/* escaped names */
	{ "escaped \\n", LINE("\\" H "  a\\nb\n"), NEW, TWO, LINE_CHECKSUM, "a\nb" },
	{ "escaped tag \\\\", LINE("\\MD5 (a\\\\b) = " H "\n"), NEW, NEW, LINE_CHECKSUM, "a\\b" },
	{ "escaped tag \\r", LINE("\\MD5 (a\\r) = " H "\n"), NEW, NEW, LINE_CHECKSUM, "a\r" },
	{ "blanks before the backslash", LINE(" \\" H "  a\n"), NEW, TWO, LINE_CHECKSUM, "a" },
	{ "unknown escape \\t, the form still set", LINE("\\" H "  a\\tb\n"), NEW, TWO, LINE_BAD,
	  NULL },
	{ "a lone backslash at the end", LINE("\\" H "  ab\\\n"), NEW, TWO, LINE_BAD, NULL },
	{ "a NUL in an escaped name", LINE("\\" H "  a\0b\n"), NEW, TWO, LINE_BAD, NULL },
	{ "a blank after the backslash", LINE("\\ " H "  a\n"), NEW, NEW, LINE_BAD, NULL },

	/* the line form carried from line to line */
	{ "one space after two", LINE(H " b\n"), TWO, TWO, LINE_BAD, NULL },
	{ "two spaces after one: a space in the name", LINE(H "  a\n"), ONE, ONE,
	  LINE_CHECKSUM, " a" },
	{ "'*' after one space: the name's", LINE(H " *a\n"), ONE, ONE, LINE_CHECKSUM, "*a" },
	{ "a tab after two spaces", LINE(H "\tc\n"), TWO, TWO, LINE_BAD, NULL },
	{ "'*' after two spaces", LINE(H " *c\n"), TWO, TWO, LINE_CHECKSUM, "c" },

	/* skipped */
	{ "empty", LINE(""), NEW, NEW, LINE_SKIP, NULL },
	{ "a newline alone", LINE("\n"), NEW, NEW, LINE_SKIP, NULL },
	{ "CR LF alone", LINE("\r\n"), NEW, NEW, LINE_SKIP, NULL },
	{ "a comment", LINE("# c\n"), NEW, NEW, LINE_SKIP, NULL },

	/* malformed */
	{ "a blank before '#'", LINE(" #c\n"), NEW, NEW, LINE_BAD, NULL },
	{ "a digest of 31 digits", LINE("41d8cd98f00b204e9800998ecf8427e  a\n"), NEW, NEW,
	  LINE_BAD, NULL },
	{ "a digest of 33 digits", LINE(H "0  a\n"), NEW, NEW, LINE_BAD, NULL },
	{ "not hex", LINE("g41d8cd98f00b204e9800998ecf8427e  a\n"), NEW, NEW, LINE_BAD, NULL },
	{ "a digest alone", LINE(H "\n"), NEW, NEW, LINE_BAD, NULL },
	{ "a digest and one space", LINE(H " \n"), NEW, NEW, LINE_BAD, NULL },
	{ "'-' after the digest", LINE(H "-a\n"), NEW, NEW, LINE_BAD, NULL },
	{ "lower-case tag", LINE("md5 (a) = " H "\n"), NEW, NEW, LINE_BAD, NULL },
	{ "tag without parentheses", LINE("MD5 a = " H "\n"), NEW, NEW, LINE_BAD, NULL },
	{ "tag, two spaces before '('", LINE("MD5  (a) = " H "\n"), NEW, NEW, LINE_BAD, NULL },
	{ "tag without '='", LINE("MD5 (a)  " H "\n"), NEW, NEW, LINE_BAD, NULL },
	{ "tag, text after the digest", LINE("MD5 (a) = " H " x\n"), NEW, NEW, LINE_BAD, NULL },
	{ "tag, a digest of 31 digits", LINE("MD5 (a) = 41d8cd98f00b204e9800998ecf8427e\n"),
	  NEW, NEW, LINE_BAD, NULL },
	{ "tag without ')'", LINE("MD5 (a = " H "\n"), NEW, NEW, LINE_BAD, NULL },
};

static bool row_passes(const struct row *r)
{
	char *s = malloc(r->len + 1), *name = NULL;
	uint8_t digest[MD5_DIGEST_LENGTH];
	enum line_form form = r->before;
	enum line_kind kind;
	bool pass;

	if (!s)
		abort();
	memcpy(s, r->line, r->len);
	kind = parse_check_line(s, r->len, &form, &name, digest);
	pass = kind == r->kind && form == r->after;
	if (pass && kind == LINE_CHECKSUM)
		pass = strcmp(name, r->name) == 0 &&
		       memcmp(digest, empty_md5, MD5_DIGEST_LENGTH) == 0;
	free(s);
	return pass;
}

int main(void)
{
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++)
		ok(row_passes(&rows[i]), "%s", rows[i].what);
	return tap_done();
}
