/* check.c - md5sum -c: verify the digests in checksum lists, each line
 * parsed by listline.c. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "decimal.h"
#include "diag.h"
#include "errtext.h"
#include "listline.h"
#include "open.h"
#include "listread.h"
#include "msg.h"
#include "out.h"
#include "progress.h"

/* What -c found in one list, for its summary. */
struct tally {
	uintmax_t lines;	/* lines read */
	uintmax_t good;		/* properly formatted lines */
	uintmax_t bad;		/* improperly formatted lines */
	uintmax_t unreadable;	/* listed files not opened or read */
	uintmax_t mismatched;	/* listed files with another digest */
	uintmax_t matched;	/* listed files verified */
};

/* A list being checked: where its lines come from and how it went. */
struct list {
	const char *shown;	/* as named in messages */
	bool is_stdin;
	struct listread in;
	struct tally tally;
};

/* -c output for one file: "NAME: RESULT", escaped when NAME has a newline. */
static void print_result(struct outbox *r, const char *name, const char *result)
{
	if (strchr(name, '\n')) {
		outbox_put(r, "\\", 1);
		outbox_escaped(r, name);
	} else {
		outbox_name(r, name);
	}
	outbox_str(r, ": ");
	outbox_str(r, result);
	outbox_end_line(r, '\n');
}

/* What checking a line came to. */
enum outcome { BAD_LINE, IGNORED, UNREADABLE, MISMATCHED, MATCHED };

static enum outcome outcome_of(const struct check_options *opt, const struct job *j)
{
	if (j->bad_line)
		return BAD_LINE;
	if (j->err == ENOENT && opt->ignore_missing)
		return IGNORED;
	if (j->err)
		return UNREADABLE;
	if (memcmp(j->digest, j->expect, MD5_DIGEST_LENGTH) != 0)
		return MISMATCHED;
	return MATCHED;
}

/* What one line of the list prints, as the options ask. */
static void format_check(const struct check_options *opt, const struct list *l,
			 const struct job *j, struct outbox *r)
{
	char num[DECIMAL_SIZE], msg[DECIMAL_SIZE + 48];
	bool show = !opt->status;

	switch (outcome_of(opt, j)) {
	case BAD_LINE:
		if (opt->warn) {
			strcpy(stpcpy(msg, decimal(j->line, num)),
			       ": improperly formatted MD5 checksum line");
			outbox_error_file(r, l->shown, msg);
		}
		break;
	case IGNORED:
		break;
	case UNREADABLE:
		outbox_error_file(r, j->name, error_text(j->err));
		if (show)
			print_result(r, j->name, "FAILED open or read");
		break;
	case MISMATCHED:
		if (show)
			print_result(r, j->name, "FAILED");
		break;
	case MATCHED:
		if (show && !opt->quiet)
			print_result(r, j->name, "OK");
		break;
	}
}

/* Count one line of the list. */
static void count_check(const struct check_options *opt, struct tally *t,
			const struct job *j)
{
	enum outcome o = outcome_of(opt, j);

	t->bad += o == BAD_LINE;
	t->good += o != BAD_LINE;
	t->unreadable += o == UNREADABLE;
	t->mismatched += o == MISMATCHED;
	t->matched += o == MATCHED;
}

/* A list being checked, as a source of jobs. */
struct list_jobs {
	struct check_run *check;
	struct list *list;
	uintmax_t read;		/* bytes of the list read so far */
};

/* Make the next line of the list into a job: JOB_NONE at the end of the
 * list, on a read error, or when a line does not fit in memory
 * (listread.h).  A wait for the list's writer is shown by --progress. */
static enum next_job next_line(void *ctx, struct job *j, bool wait)
{
	struct list_jobs *lj = ctx;
	struct list *l = lj->list;
	char *name;
	ssize_t len;

	for (;;) {
		bool waiting = false;

		while ((len = listread_line(&l->in, waiting)) == LISTREAD_LATER) {
			if (!wait)
				return JOB_LATER;
			progress_waiting_for(l->is_stdin ? "-" : l->shown);
			waiting = true;
		}
		if (len < 0)
			return JOB_NONE;
		lj->read += (uintmax_t)len;
		*j = (struct job){ .line = ++l->tally.lines, .list_end = lj->read };
		switch (parse_check_line(l->in.line, (size_t)len, &lj->check->form, &name,
					 j->expect)) {
		case LINE_SKIP:
			continue;
		case LINE_BAD:
			j->bad_line = true;
			return JOB_MADE;
		case LINE_CHECKSUM:
			/* A list read from standard input cannot name it too. */
			if (l->is_stdin && strcmp(name, "-") == 0) {
				j->bad_line = true;
				return JOB_MADE;
			}
			j->name = name;
			lj->check->read_stdin |= strcmp(name, "-") == 0;
			return JOB_MADE;
		}
	}
}

static void format_line(void *ctx, const struct job *j, struct outbox *r)
{
	const struct list_jobs *lj = ctx;

	format_check(lj->check->opt, lj->list, j, r);
}

static void account_line(void *ctx, const struct job *j)
{
	struct list_jobs *lj = ctx;

	count_check(lj->check->opt, &lj->list->tally, j);
	if (!j->bad_line)
		progress_file_done();
	progress_list_at(j->list_end);
}

/* Hash the files of the list and report them in order. */
static void check_lines(struct check_run *c, struct list *l)
{
	struct list_jobs lj = { .check = c, .list = l };
	struct job_source src = { next_line, format_line, account_line, &lj, 0, false };

	schedule_run(c->sched, &src);
}

static void warn_count(const char *prog, uintmax_t n, const char *one, const char *many)
{
	char num[DECIMAL_SIZE];

	if (n > 0)
		complain(prog, "WARNING: ", decimal(n, num), " ", n == 1 ? one : many,
			 (char *)NULL);
}

/* The warnings after a list, in GNU's words; false when the list failed. */
static bool summarize(const struct check_run *c, const struct list *l)
{
	const struct check_options *opt = c->opt;
	const char *prog = c->sched->prog;
	const struct tally *t = &l->tally;
	bool unverified = opt->ignore_missing && t->matched == 0;

	out_flush(c->sched->out);
	if (t->good == 0) {
		error_file(prog, l->shown, "no properly formatted checksum lines found");
		return false;
	}
	if (!opt->status) {
		warn_count(prog, t->bad, "line is improperly formatted",
			   "lines are improperly formatted");
		warn_count(prog, t->unreadable, "listed file could not be read",
			   "listed files could not be read");
		warn_count(prog, t->mismatched, "computed checksum did NOT match",
			   "computed checksums did NOT match");
		if (unverified)
			error_file(prog, l->shown, "no file was verified");
	}
	return t->unreadable == 0 && t->mismatched == 0 && !unverified &&
	       !(opt->strict && t->bad > 0);
}

bool check_list(struct check_run *c, const char *name)
{
	const struct schedule *s = c->sched;
	bool is_stdin = strcmp(name, "-") == 0;
	struct list l = { .shown = is_stdin ? "standard input" : name,
			  .is_stdin = is_stdin };
	bool ok;
	int fd;

	progress_waiting_for(name);	/* a FIFO's open waits for its writer */
	fd = is_stdin ? STDIN_FILENO : open_list(name);
	progress_list_begin(fd);
	if (is_stdin && s->stdin_closed) {
		c->read_stdin = true;
		report_error(s->out, s->prog, l.shown, "read error");
		return false;
	}
	if (fd < 0) {
		report_error(s->out, s->prog, name, error_text(errno));
		return false;
	}
	if (!listread_init(&l.in, fd))
		die_no_memory(s->prog);
	c->read_stdin |= is_stdin;
	check_lines(c, &l);
	/* Neither the end nor an error: a line did not fit in memory, and the
	 * rest of the list went unread.  (GNU takes that for the end of the
	 * list, and may exit 0.) */
	if (!l.in.eof && !l.in.err) {
		out_before_message(s->out);
		die_no_memory(s->prog);
	}
	if (!is_stdin)
		close(fd);
	if (l.in.err) {
		report_error(s->out, s->prog, l.shown, "read error");
		ok = false;
	} else {
		ok = summarize(c, &l);
	}
	listread_free(&l.in);
	return ok;
}

bool check_lists(struct check_run *c, char *const *names, size_t n)
{
	bool ok = true;

	for (size_t i = 0; i < n; i++)
		ok &= check_list(c, names[i]);
	return ok;
}
