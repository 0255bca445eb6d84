/* check.c - md5sum -c: each checksum list opened, its lines checked as a
 * run (source.h makes them jobs, results.h words and counts them), and
 * its summary; see check.h. */
#include <errno.h>
#include <inttypes.h>
#include <string.h>
#include <unistd.h>

#include "cmd/check.h"
#include "out/decimal.h"
#include "out/diag.h"
#include "out/errtext.h"
#include "out/format.h"
#include "out/lang.h"
#include "read/open.h"
#include "jobs/listread.h"
#include "out/msg.h"
#include "out/out.h"
#include "out/progress.h"

/* A list being checked. */
struct list {
	const char *shown;	/* as named in messages */
	bool is_stdin;
	struct listread in;
};

static void warn_count(const char *prog, uintmax_t n, const char *one, const char *many)
{
	char num[DECIMAL_SIZE];
	const char *args[] = { decimal(n, num) };
	struct msg m;

	if (n > 0) {
		msg_start(&m, prog);
		format_put(&m, lang_plural(one, many, n), args, 1);
		msg_end(&m);
	}
}

/* The warnings after a list, in GNU's words, from what its results
 * counted; false when the list failed. */
static bool summarize(const struct check_run *c, const struct list *l, const struct tally *t)
{
	const struct check_options *opt = c->opt;
	const char *prog = c->sched->prog;
	bool unverified = opt->ignore_missing && t->matched == 0;

	out_flush(c->sched->out);
	if (t->good == 0) {
		error_about(prog, "%s: no properly formatted checksum lines found", &l->shown, 1);
		return false;
	}
	if (!opt->status) {
		warn_count(prog, t->bad, "WARNING: %" PRIuMAX " line is improperly formatted",
			   "WARNING: %" PRIuMAX " lines are improperly formatted");
		warn_count(prog, t->unreadable, "WARNING: %" PRIuMAX " listed file could not be read",
			   "WARNING: %" PRIuMAX " listed files could not be read");
		warn_count(prog, t->mismatched, "WARNING: %" PRIuMAX " computed checksum did NOT match",
			   "WARNING: %" PRIuMAX " computed checksums did NOT match");
		if (unverified)
			error_about(prog, "%s: no file was verified", &l->shown, 1);
	}
	return t->unreadable == 0 && t->mismatched == 0 && !unverified &&
	       !(opt->strict && t->bad > 0);
}

enum outcome check_list(struct check_run *c, const char *name)
{
	const struct schedule *s = c->sched;
	bool is_stdin = strcmp(name, "-") == 0;
	struct list l = { .shown = is_stdin ? lang_text("standard input") : name,
			  .is_stdin = is_stdin };
	struct job_source n = { .list_name = name, .list_is_stdin = is_stdin, .form = &c->form };
	struct results r = { .check = c->opt, .list_shown = l.shown };
	enum outcome o;
	bool whole;
	int fd;

	progress_waiting_for(name);	/* a FIFO's open waits for its writer */
	fd = is_stdin ? STDIN_FILENO : open_list(name);
	progress_list_begin(fd);
	if (is_stdin && s->stdin_closed) {
		c->read_stdin = true;
		report_about(s->out, s->prog, "%s: read error", &l.shown, 1);
		return OUTCOME_FAILED;
	}
	if (fd < 0) {
		report_error(s->out, s->prog, name, error_text(errno));
		return OUTCOME_FAILED;
	}
	if (!listread_init(&l.in, fd)) {
		if (!is_stdin)
			close(fd);
		return OUTCOME_NO_MEMORY;
	}
	c->read_stdin |= is_stdin;
	n.list = &l.in;
	whole = schedule_run(s, &n, &r);
	c->read_stdin |= n.read_stdin;
	if (!is_stdin)
		close(fd);
	/* A line that did not fit in memory even one line at a time ended
	 * the list, as it ends GNU's (listread.h); memory that ran out
	 * otherwise ends the run. */
	if (!whole) {
		o = OUTCOME_NO_MEMORY;
	} else if (l.in.err) {
		report_about(s->out, s->prog, "%s: read error", &l.shown, 1);
		o = OUTCOME_FAILED;
	} else {
		o = summarize(c, &l, &r.tally) ? OUTCOME_OK : OUTCOME_FAILED;
	}
	listread_free(&l.in);
	return o;
}

enum outcome check_lists(struct check_run *c, char *const *names, size_t n)
{
	enum outcome worst = OUTCOME_OK, o;

	for (size_t i = 0; i < n && worst != OUTCOME_NO_MEMORY; i++)
		if ((o = check_list(c, names[i])) > worst)
			worst = o;
	return worst;
}
