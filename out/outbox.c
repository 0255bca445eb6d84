/* outbox.c - output recorded ahead of its turn; see outbox.h. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "out/diag.h"
#include "os/grow.h"
#include "out/outbox.h"

/* What an entry holds. */
enum {
	TEXT = 't',		/* bytes of standard output */
	NAME = 'n',		/* a pointer to a name */
	ESCAPED = 'x',		/* a pointer to a name, to escape */
	FILE_ERROR = 'e',	/* a pointer to a name, then the text */
};

/* An entry begins with its kind and the length of what follows. */
enum { HEAD = 1 + sizeof(size_t) };

void outbox_init(struct outbox *r)
{
	*r = (struct outbox){ .text = SIZE_MAX };
}

void outbox_free(struct outbox *r)
{
	free(r->buf);
	outbox_init(r);
}

/* Room for n more bytes; false, and the record lost, when there is none. */
static bool make_room(struct outbox *r, size_t n)
{
	if (!r->lost && !grow(&r->buf, &r->size, r->len, n))
		r->lost = true;
	return !r->lost;
}

/* Begin an entry of kind; where it begins, or SIZE_MAX when lost. */
static size_t begin_entry(struct outbox *r, char kind)
{
	size_t zero = 0, at = r->len;

	if (!make_room(r, HEAD))
		return SIZE_MAX;
	r->buf[at] = kind;
	memcpy(r->buf + at + 1, &zero, sizeof zero);
	r->len += HEAD;
	r->text = kind == TEXT ? at : SIZE_MAX;
	return at;
}

/* Add n bytes at p to the entry that begins at entry. */
static void add_to_entry(struct outbox *r, size_t entry, const void *p, size_t n)
{
	size_t len;

	if (entry == SIZE_MAX || !make_room(r, n))
		return;
	memcpy(r->buf + r->len, p, n);
	r->len += n;
	memcpy(&len, r->buf + entry + 1, sizeof len);
	len += n;
	memcpy(r->buf + entry + 1, &len, sizeof len);
}

void outbox_put(struct outbox *r, const void *p, size_t n)
{
	add_to_entry(r, r->text != SIZE_MAX ? r->text : begin_entry(r, TEXT), p, n);
}

void outbox_str(struct outbox *r, const char *s)
{
	outbox_put(r, s, strlen(s));
}

void outbox_end_line(struct outbox *r, char end)
{
	outbox_put(r, &end, 1);
}

void outbox_name(struct outbox *r, const char *name)
{
	add_to_entry(r, begin_entry(r, NAME), &name, sizeof name);
}

void outbox_escaped(struct outbox *r, const char *name)
{
	add_to_entry(r, begin_entry(r, ESCAPED), &name, sizeof name);
}

void outbox_error_file(struct outbox *r, const char *name, const char *text)
{
	size_t entry = begin_entry(r, FILE_ERROR);

	add_to_entry(r, entry, &name, sizeof name);
	add_to_entry(r, entry, text, strlen(text) + 1);
}

/* Put name with '\\', '\n' and '\r' written as \\, \n and \r. */
static void put_escaped(struct out *out, const char *name)
{
	for (const char *p = name; *p; p++) {
		size_t plain = strcspn(p, "\\\n\r");

		out_put(out, p, plain);
		p += plain;
		if (*p == '\0')
			break;
		out_put(out, *p == '\\' ? "\\\\" : *p == '\n' ? "\\n" : "\\r", 2);
	}
}

/* Put text: the end of a line, whole lines, the start of one, as it
 * comes between names. */
static void put_text(struct out *out, const char *p, size_t n, char end)
{
	size_t whole = n;

	while (whole > 0 && p[whole - 1] != end)
		whole--;
	if (whole > 0)
		out_lines(out, p, whole);
	out_put(out, p + whole, n - whole);
}

void outbox_play(struct outbox *r, struct out *out, const char *prog)
{
	if (r->lost) {
		out_before_message(out);
		die_no_memory(prog);
	}
	for (size_t at = 0; at < r->len;) {
		const char *p = r->buf + at + HEAD, *name = NULL;
		size_t len;

		memcpy(&len, r->buf + at + 1, sizeof len);
		/* A TEXT entry holds no pointer, and may end closer than one
		 * to the end of what was written. */
		if (r->buf[at] != TEXT)
			memcpy(&name, p, sizeof name);
		switch (r->buf[at]) {
		case TEXT:
			put_text(out, p, len, out_line_end(out));
			break;
		case NAME:
			out_str(out, name);
			break;
		case ESCAPED:
			put_escaped(out, name);
			break;
		default:
			report_error(out, prog, name, p + sizeof name);
			break;
		}
		at += HEAD + len;
	}
	r->len = 0;
	r->text = SIZE_MAX;
}
