/* sums.c - hash the named files and print their lines; see sums.h. */
#include <string.h>

#include "diag.h"
#include "errtext.h"
#include "out.h"
#include "progress.h"
#include "sums.h"

/* One line for one hashed file. */
static void print_digest(struct out *o, const struct sums_format *f,
			 const struct job *j)
{
	bool escape = !f->zero && strpbrk(j->name, "\\\n\r");
	char hex[MD5_DIGEST_STRING_LENGTH];

	md5_hex(j->digest, hex);
	if (escape)
		out_put(o, "\\", 1);
	if (f->tag) {
		out_str(o, "MD5 (");
	} else {
		out_str(o, hex);
		out_str(o, f->binary ? " *" : "  ");
	}
	if (escape)
		out_escaped(o, j->name);
	else
		out_str(o, j->name);
	if (f->tag) {
		out_str(o, ") = ");
		out_str(o, hex);
	}
	out_end_line(o, f->zero ? '\0' : '\n');
}

/* The command line's files, as jobs, and how their reports went. */
struct names {
	const struct sums_format *format;
	const struct schedule *sched;
	char **names;
	size_t count, next;
	bool *read_stdin;
	bool ok;
};

static bool next_name(void *ctx, struct job *j)
{
	struct names *n = ctx;

	if (n->next == n->count)
		return false;
	*j = (struct job){ .name = n->names[n->next++] };
	*n->read_stdin |= strcmp(j->name, "-") == 0;
	return true;
}

/* The file's line, or why it has none. */
static void report_name(void *ctx, struct job *j)
{
	struct names *n = ctx;

	if (j->err) {
		report_error(n->sched->out, n->sched->prog, j->name, error_text(j->err));
		n->ok = false;
	} else {
		print_digest(n->sched->out, n->format, j);
	}
	progress_file_done();
}

bool print_sums(const struct sums_format *f, const struct schedule *s,
		char **names, size_t count, bool *read_stdin)
{
	struct names n = { .format = f, .sched = s, .names = names,
			   .count = count, .read_stdin = read_stdin, .ok = true };
	struct job_source src = { next_name, report_name, &n };

	run_jobs(s, &src);
	return n.ok;
}
