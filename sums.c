/* sums.c - hash the named files and print their lines; see sums.h. */
#include <string.h>

#include "errtext.h"
#include "out.h"
#include "progress.h"
#include "sums.h"

/* One line for one hashed file. */
static void print_digest(struct outbox *r, const struct sums_format *f,
			 const struct job *j)
{
	bool escape = !f->zero && strpbrk(j->name, "\\\n\r");
	char hex[MD5_DIGEST_STRING_LENGTH];

	md5_hex(j->digest, hex);
	if (escape)
		outbox_put(r, "\\", 1);
	if (f->tag) {
		outbox_str(r, "MD5 (");
	} else {
		outbox_str(r, hex);
		outbox_str(r, f->binary ? " *" : "  ");
	}
	if (escape)
		outbox_escaped(r, j->name);
	else
		outbox_name(r, j->name);
	if (f->tag) {
		outbox_str(r, ") = ");
		outbox_str(r, hex);
	}
	outbox_end_line(r, f->zero ? '\0' : '\n');
}

/* The command line's files, as jobs, and how their reports went. */
struct names {
	const struct sums_format *format;
	char **names;
	size_t count, next;
	bool *read_stdin;
	bool ok;
};

/* The command line's names never wait. */
static enum next_job next_name(void *ctx, struct job *j, bool wait)
{
	struct names *n = ctx;

	(void)wait;
	if (n->next == n->count)
		return JOB_NONE;
	*j = (struct job){ .name = n->names[n->next++] };
	*n->read_stdin |= strcmp(j->name, "-") == 0;
	return JOB_MADE;
}

/* The file's line, or why it has none. */
static void format_name(void *ctx, const struct job *j, struct outbox *r)
{
	const struct names *n = ctx;

	if (j->err)
		outbox_error_file(r, j->name, error_text(j->err));
	else
		print_digest(r, n->format, j);
}

static void account_name(void *ctx, const struct job *j)
{
	struct names *n = ctx;

	n->ok &= j->err == 0;
	progress_file_done();
}

bool print_sums(const struct sums_format *f, const struct schedule *s,
		char **names, size_t count, bool *read_stdin)
{
	struct names n = { .format = f, .names = names,
			   .count = count, .read_stdin = read_stdin, .ok = true };
	struct job_source src = { next_name, format_name, account_name, &n, count, true };

	schedule_run(s, &src);
	return n.ok;
}
