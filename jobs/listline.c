/* listline.c - one line of a checksum list, parsed; see listline.h. */
#include <stdbool.h>
#include <string.h>

#include "jobs/listline.h"

static bool is_blank(char c)
{
	return c == ' ' || c == '\t';
}

static int hex_value(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* Read 32 hex digits at s, either case, into digest. */
static bool parse_hex(const char *s, uint8_t digest[MD5_DIGEST_LENGTH])
{
	for (int i = 0; i < MD5_DIGEST_LENGTH; i++) {
		int hi = hex_value(s[2 * i]), lo = hi < 0 ? -1 : hex_value(s[2 * i + 1]);

		if (lo < 0)
			return false;
		digest[i] = (uint8_t)(hi << 4 | lo);
	}
	return true;
}

/* Undo the escapes in the len bytes at s, in place, and end them with a
 * NUL; false on an unknown escape, a lone '\\' at the end, or a NUL. */
static bool unescape(char *s, size_t len)
{
	char *to = s, *end = s + len;

	for (; s < end; s++) {
		char c = *s;

		if (c == '\\') {
			if (++s == end)
				return false;
			c = *s == 'n' ? '\n' : *s == 'r' ? '\r' : *s == '\\' ? '\\' : '\0';
		}
		if (c == '\0')
			return false;	/* a NUL, or an unknown escape */
		*to++ = c;
	}
	*to = '\0';
	return true;
}

/* The name that runs from s to end: unescaped, or as a string, which ends
 * at its first NUL, as GNU takes it. */
static enum line_kind take_name(char *s, char *end, bool escaped, char **name)
{
	*name = s;
	if (escaped)
		return unescape(s, (size_t)(end - s)) ? LINE_CHECKSUM : LINE_BAD;
	*end = '\0';
	return LINE_CHECKSUM;
}

/* "(NAME) = DIGEST" after "MD5" or "MD5 ": NAME runs to the last ')', and
 * blanks may stand around the '='. */
static enum line_kind parse_tag_line(char *s, size_t len, bool escaped,
				     char **name, uint8_t digest[MD5_DIGEST_LENGTH])
{
	char *close = s + len;
	char *p;

	while (close > s + 1 && close[-1] != ')')
		close--;
	if (close <= s + 1)
		return LINE_BAD;
	close--;
	for (p = close + 1; is_blank(*p); p++)
		;
	if (*p++ != '=')
		return LINE_BAD;
	while (is_blank(*p))
		p++;
	if (strlen(p) != 2 * MD5_DIGEST_LENGTH || !parse_hex(p, digest))
		return LINE_BAD;
	return take_name(s + 1, close, escaped, name);
}

/* "DIGEST  NAME", "DIGEST *NAME" or "DIGEST NAME"; the blank after DIGEST
 * may be a tab.  The one-space form is taken only while the two-space one
 * has not been seen, and then a second space belongs to the name. */
static enum line_kind parse_gnu_line(char *s, size_t len, bool escaped,
				     enum line_form *form, char **name,
				     uint8_t digest[MD5_DIGEST_LENGTH])
{
	size_t i = 2 * MD5_DIGEST_LENGTH + 1;

	if (len < i + 1 || !parse_hex(s, digest) || !is_blank(s[i - 1]))
		return LINE_BAD;
	if (len - i == 1 || (s[i] != ' ' && s[i] != '*')) {
		if (*form == FORM_TWO_SPACES)
			return LINE_BAD;
		*form = FORM_ONE_SPACE;
	} else if (*form != FORM_ONE_SPACE) {
		*form = FORM_TWO_SPACES;
		i++;
	}
	return take_name(s + i, s + len, escaped, name);
}

enum line_kind parse_check_line(char *s, size_t len, enum line_form *form,
				char **name, uint8_t digest[MD5_DIGEST_LENGTH])
{
	bool escaped;
	size_t i = 0;

	if (len > 0 && s[len - 1] == '\n')
		len--;
	if (len > 0 && s[len - 1] == '\r')
		len--;
	s[len] = '\0';
	if (len == 0 || s[0] == '#')
		return LINE_SKIP;
	while (is_blank(s[i]))
		i++;
	escaped = s[i] == '\\';
	i += escaped;
	if (strncmp(s + i, "MD5", 3) != 0)
		return parse_gnu_line(s + i, len - i, escaped, form, name, digest);
	i += 3;
	i += s[i] == ' ';
	if (s[i] != '(')
		return LINE_BAD;
	return parse_tag_line(s + i, len - i, escaped, name, digest);
}
