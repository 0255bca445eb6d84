/* outbox.c - output recorded ahead of its turn; see outbox.h. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "os/grow.h"
#include "out/outbox.h"

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
	r->text = kind == OUTBOX_TEXT ? at : SIZE_MAX;
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
	add_to_entry(r, r->text != SIZE_MAX ? r->text : begin_entry(r, OUTBOX_TEXT), p, n);
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
	add_to_entry(r, begin_entry(r, OUTBOX_NAME), &name, sizeof name);
}

void outbox_escaped(struct outbox *r, const char *name)
{
	add_to_entry(r, begin_entry(r, OUTBOX_ESCAPED), &name, sizeof name);
}

static void add_message(struct outbox *r, char kind, const char *name,
			const char *text)
{
	size_t entry = begin_entry(r, kind);

	add_to_entry(r, entry, &name, sizeof name);
	add_to_entry(r, entry, text, strlen(text) + 1);
}

void outbox_error_file(struct outbox *r, const char *name, const char *text)
{
	add_message(r, OUTBOX_FILE_ERROR, name, text);
}

void outbox_bad_line(struct outbox *r, const char *list, const char *line)
{
	add_message(r, OUTBOX_BAD_LINE, list, line);
}

void outbox_end_job(struct outbox *r)
{
	if (!r->lost)
		r->whole = r->len;
}

bool outbox_next(const struct outbox *r, size_t *at, struct outbox_entry *e)
{
	const char *p;

	if (*at >= r->whole)
		return false;
	p = r->buf + *at + HEAD;
	e->kind = (enum outbox_kind)r->buf[*at];
	memcpy(&e->len, r->buf + *at + 1, sizeof e->len);
	*at += HEAD + e->len;
	e->name = NULL;
	e->text = p;
	/* A TEXT entry holds no pointer, and may end closer than one to the
	 * end of what was written. */
	if (e->kind != OUTBOX_TEXT) {
		memcpy(&e->name, p, sizeof e->name);
		e->text = p + sizeof e->name;
	}
	return true;
}

void outbox_clear(struct outbox *r)
{
	r->len = r->whole = 0;
	r->text = SIZE_MAX;
	r->lost = false;
}
