/* statusline.c - the status line's text; see statusline.h. */
#include <stdio.h>
#include <string.h>
#include <wchar.h>

#include "out/statusline.h"

enum {
	NAME_MIN = 12,		/* columns below which the name is left out */
	PART_SIZE = 80,		/* bytes of a part but the name, with its NUL */
	AMOUNT_SIZE = 24,	/* bytes of an amount, with its NUL: 20 digits, a decimal */
};

static const char *const units[] = { "B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB" };

/* ------------------------------------------------------------ amounts */

/* The binary unit that n is shown in: the largest not above it. */
static unsigned unit_of(double n)
{
	unsigned u = 0;

	while (u + 1 < sizeof units / sizeof units[0] && n >= 1024.0) {
		n /= 1024.0;
		u++;
	}
	return u;
}

/* n in unit u, without the unit: whole bytes, else one decimal, rounded
 * half up (printf's %.1f would round half to even). */
static void amount(char out[AMOUNT_SIZE], double n, unsigned u)
{
	uintmax_t tenths;

	for (unsigned i = 0; i < u; i++)
		n /= 1024.0;
	if (u == 0) {
		snprintf(out, AMOUNT_SIZE, "%ju", (uintmax_t)(n + 0.5));
		return;
	}
	tenths = (uintmax_t)(n * 10 + 0.5);
	snprintf(out, AMOUNT_SIZE, "%ju.%ju", tenths / 10, tenths % 10);
}

/* "1.5 GiB", and then what follows. */
static void size_text(char out[PART_SIZE], double n, const char *after)
{
	char a[AMOUNT_SIZE];
	unsigned u = unit_of(n);

	amount(a, n, u);
	snprintf(out, PART_SIZE, "%s %s%s", a, units[u], after);
}

/* "0.5/4.0 GiB 12%": done in the unit of total; no share of nothing. */
static void size_of_text(char out[PART_SIZE], double done, double total)
{
	char d[AMOUNT_SIZE], t[AMOUNT_SIZE];
	unsigned u = unit_of(total);

	amount(d, done, u);
	amount(t, total, u);
	if (total > 0)
		snprintf(out, PART_SIZE, "%s/%s %s %ju%%", d, t, units[u],
			 (uintmax_t)(100 * (done < total ? done : total) / total));
	else
		snprintf(out, PART_SIZE, "%s/%s %s", d, t, units[u]);
}

/* "1:02:03 left", "2:05 left": a part of a second counts whole. */
static void left_text(char out[PART_SIZE], double seconds)
{
	double whole = seconds + 0.999;
	uintmax_t s = whole < 3.6e8 ? (uintmax_t)whole : 359999999;

	if (s >= 3600)
		snprintf(out, PART_SIZE, "%ju:%02ju:%02ju left", s / 3600, s / 60 % 60, s % 60);
	else
		snprintf(out, PART_SIZE, "%ju:%02ju left", s / 60, s % 60);
}

/* "1 file", "0/1 file", "2/5 files": the number last said counts. */
static void files_text(char out[PART_SIZE], const struct status_figures *f)
{
	if (f->check)
		snprintf(out, PART_SIZE, "%ju %s", (uintmax_t)f->files_done,
			 f->files_done == 1 ? "file" : "files");
	else
		snprintf(out, PART_SIZE, "%ju/%zu %s", (uintmax_t)f->files_done, f->inputs,
			 f->inputs == 1 ? "file" : "files");
}

/* -c: "list 2/3 33%", "list 2/3", "list 33%", or nothing. */
static void list_text(char out[PART_SIZE], const struct status_figures *f)
{
	bool several = f->check && f->inputs > 1, known = f->check && f->list_done >= 0;
	uintmax_t percent = known ? (uintmax_t)(100 * f->list_done) : 0;

	if (several && known)
		snprintf(out, PART_SIZE, "list %zu/%zu %ju%%", f->list, f->inputs, percent);
	else if (several)
		snprintf(out, PART_SIZE, "list %zu/%zu", f->list, f->inputs);
	else if (known)
		snprintf(out, PART_SIZE, "list %ju%%", percent);
	else
		out[0] = '\0';
}

/* --------------------------------------------------------- characters */

/* The bytes of the character at s, of the left bytes there, and in *cols
 * the columns it may take: 1 for ASCII, else 2, the most any character
 * takes, so that a line measured so never wraps. */
static size_t char_at(const char *s, size_t left, mbstate_t *st, size_t *cols)
{
	size_t n;

	*cols = 1;
	if ((unsigned char)*s < 0x80)
		return 1;
	*cols = 2;
	n = mbrtowc(NULL, s, left, st);
	if (n == (size_t)-1 || n == (size_t)-2 || n == 0) {
		memset(st, 0, sizeof *st);
		return 1;
	}
	return n;
}

static size_t columns(const char *s)
{
	size_t left = strlen(s), total = 0, cols;
	mbstate_t st = { 0 };

	while (left > 0) {
		size_t n = char_at(s, left, &st, &cols);

		s += n;
		left -= n;
		total += cols;
	}
	return total;
}

/* Copy the longest start of s that takes at most cols columns to out;
 * return the bytes copied. */
static size_t put_head(char *out, const char *s, size_t cols)
{
	size_t left = strlen(s), used = 0, c, done = 0;
	mbstate_t st = { 0 };

	while (left > 0) {
		size_t n = char_at(s + done, left, &st, &c);

		if (used + c > cols)
			break;
		used += c;
		done += n;
		left -= n;
	}
	memcpy(out, s, done);
	return done;
}

/* Where the shortest end of s that takes at most cols columns begins; s
 * takes total columns. */
static const char *tail_of(const char *s, size_t total, size_t cols)
{
	size_t left = strlen(s), c;
	mbstate_t st = { 0 };

	while (left > 0 && total > cols) {
		size_t n = char_at(s, left, &st, &c);

		s += n;
		left -= n;
		total -= c;
	}
	return s;
}

/* s shortened to cols columns, its middle made "...": the start and the
 * end of a path tell the most.  Return the bytes written. */
static size_t put_shortened(char *out, const char *s, size_t total, size_t cols)
{
	size_t head = (cols - 3) / 2, n;
	const char *tail;

	if (total <= cols) {
		n = strlen(s);
		memcpy(out, s, n);
		return n;
	}
	n = put_head(out, s, head);
	memcpy(out + n, "...", 3);
	n += 3;
	tail = tail_of(s, total, cols - 3 - head);
	memcpy(out + n, tail, strlen(tail));
	return n + strlen(tail);
}

/* ------------------------------------------------------ the line itself */

/* One part of the line.  Parts of a higher rank are left out first when
 * the line does not fit; the name shrinks before it is left out. */
struct part {
	const char *text;
	size_t cols;
	int rank;
	bool on;
};

enum { P_FILES, P_BYTES, P_LIST, P_RATE, P_LEFT, P_NAME, PARTS };

static const int rank_of[PARTS] = {
	[P_FILES] = 0, [P_BYTES] = 1, [P_LIST] = 2, [P_NAME] = 3,
	[P_LEFT] = 4, [P_RATE] = 5,
};

/* The texts of the parts but the name. */
struct texts {
	char files[PART_SIZE], bytes[PART_SIZE], list[PART_SIZE], rate[PART_SIZE],
		left[PART_SIZE];
};

static void describe(struct texts *t, const struct status_figures *f)
{
	files_text(t->files, f);
	if (f->bytes_total >= 0)
		size_of_text(t->bytes, f->bytes_done, f->bytes_total);
	else
		size_text(t->bytes, f->bytes_done, "");
	list_text(t->list, f);
	size_text(t->rate, f->rate, "/s");
	t->left[0] = '\0';
	if (f->seconds_left >= 0)
		left_text(t->left, f->seconds_left);
}

/* The columns of the terminal, less one: the cursor stays off the last
 * column, where some terminals wrap. */
static size_t room(size_t width)
{
	if (width > STATUS_COLUMNS_MAX)
		width = STATUS_COLUMNS_MAX;
	return width > 0 ? width - 1 : 0;
}

static size_t width_of(const struct part *p)
{
	size_t w = 0, n = 0;

	for (int i = 0; i < PARTS; i++) {
		if (p[i].on) {
			w += p[i].cols;
			n++;
		}
	}
	return n ? w + 2 * (n - 1) : 0;
}

/* Leave out parts, from the highest rank, and shrink the name, until the
 * line fits in avail columns; the files part is cut if need be.  The name
 * then takes back what the parts left out made room for. */
static void fit(struct part *p, size_t avail)
{
	size_t w, full = p[P_NAME].cols;

	while ((w = width_of(p)) > avail) {
		int drop = -1;

		if (p[P_NAME].on && p[P_NAME].cols > NAME_MIN) {
			size_t over = w - avail, spare = p[P_NAME].cols - NAME_MIN;

			p[P_NAME].cols -= over < spare ? over : spare;
			continue;
		}
		for (int i = 0; i < PARTS; i++)
			if (p[i].on && p[i].rank > 0 && (drop < 0 || p[i].rank > p[drop].rank))
				drop = i;
		if (drop < 0) {
			p[P_FILES].cols = avail;
			break;
		}
		p[drop].on = false;
	}
	if (p[P_NAME].on && (w = width_of(p)) < avail)
		p[P_NAME].cols += avail - w < full - p[P_NAME].cols ? avail - w : full - p[P_NAME].cols;
}

/* Put the parts that are on into line, two spaces apart. */
static size_t join_parts(const struct part *p, char *line)
{
	size_t len = 0;

	for (int i = 0; i < PARTS; i++) {
		if (!p[i].on)
			continue;
		if (len > 0) {
			memcpy(line + len, "  ", 2);
			len += 2;
		}
		if (i == P_NAME) {
			len += put_shortened(line + len, p[i].text, columns(p[i].text), p[i].cols);
		} else {
			size_t n = strlen(p[i].text);

			n = n < p[i].cols ? n : p[i].cols;
			memcpy(line + len, p[i].text, n);
			len += n;
		}
	}
	line[len] = '\0';
	return len;
}

size_t status_line(const struct status_figures *f, char line[STATUS_LINE_SIZE])
{
	struct texts t;
	struct part p[PARTS];

	describe(&t, f);
	const char *text[PARTS] = { [P_FILES] = t.files, [P_BYTES] = t.bytes,
				    [P_LIST] = t.list, [P_RATE] = t.rate,
				    [P_LEFT] = t.left, [P_NAME] = f->name };

	for (int i = 0; i < PARTS; i++) {
		p[i] = (struct part){ text[i], 0, rank_of[i], text[i] && *text[i] };
		if (p[i].on)
			p[i].cols = i == P_NAME ? columns(text[i]) : strlen(text[i]);
	}
	fit(p, room(f->width));
	return join_parts(p, line);
}
