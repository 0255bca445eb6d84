/* results.c - what a finished job prints and counts; see results.h. */
#include <errno.h>
#include <string.h>

#include "out/decimal.h"
#include "out/errtext.h"
#include "out/lang.h"
#include "out/progress.h"
#include "jobs/results.h"

/* One line of sums for one hashed file. */
static void word_sum(struct outbox *o, const struct sums_format *f, const struct job *j)
{
	bool escape = !f->zero && strpbrk(j->name, "\\\n\r");
	char hex[MD5_DIGEST_STRING_LENGTH];

	md5_hex(j->digest, hex);
	if (escape)
		outbox_put(o, "\\", 1);
	if (f->tag) {
		outbox_str(o, "MD5 (");
	} else {
		outbox_str(o, hex);
		outbox_str(o, f->binary ? " *" : "  ");
	}
	if (escape)
		outbox_escaped(o, j->name);
	else
		outbox_name(o, j->name);
	if (f->tag) {
		outbox_str(o, ") = ");
		outbox_str(o, hex);
	}
	outbox_end_line(o, f->zero ? '\0' : '\n');
}

/* -c output for one file: "NAME: RESULT", escaped when NAME has a newline. */
static void word_verdict(struct outbox *o, const char *name, const char *result)
{
	if (strchr(name, '\n')) {
		outbox_put(o, "\\", 1);
		outbox_escaped(o, name);
	} else {
		outbox_name(o, name);
	}
	outbox_str(o, ": ");
	outbox_str(o, result);
	outbox_end_line(o, '\n');
}

/* What checking a line came to. */
enum outcome { BAD_LINE, IGNORED, UNREADABLE, MISMATCHED, MATCHED };

static enum outcome outcome_of(const struct check_options *opt, const struct job *j)
{
	if (j->no_file)
		return BAD_LINE;
	if (j->err == ENOENT && opt->ignore_missing)
		return IGNORED;
	if (j->err)
		return UNREADABLE;
	if (memcmp(j->digest, j->listed.digest, MD5_DIGEST_LENGTH) != 0)
		return MISMATCHED;
	return MATCHED;
}

/* What one line of a list prints, as the options ask. */
static void word_check(const struct results *r, const struct job *j, struct outbox *o)
{
	const struct check_options *opt = r->check;
	char num[DECIMAL_SIZE];
	bool show = !opt->status;

	switch (outcome_of(opt, j)) {
	case BAD_LINE:
		if (opt->warn)
			outbox_bad_line(o, r->list_shown, decimal(j->listed.line, num));
		break;
	case IGNORED:
		break;
	case UNREADABLE:
		outbox_error_file(o, j->name, error_text(j->err));
		if (show)
			word_verdict(o, j->name, lang_verdict(VERDICT_UNREADABLE));
		break;
	case MISMATCHED:
		if (show)
			word_verdict(o, j->name, lang_verdict(VERDICT_FAILED));
		break;
	case MATCHED:
		if (show && !opt->quiet)
			word_verdict(o, j->name, lang_verdict(VERDICT_OK));
		break;
	}
}

void results_word(const struct results *r, const struct job *j, struct outbox *o)
{
	if (!r->sums)
		word_check(r, j, o);
	else if (j->err)
		outbox_error_file(o, j->name, error_text(j->err));
	else
		word_sum(o, r->sums, j);
}

void results_count(struct results *r, const struct job *j)
{
	struct tally *t = &r->tally;
	enum outcome o;

	if (r->sums) {
		r->ok &= j->err == 0;
		progress_file_done();
		return;
	}
	o = outcome_of(r->check, j);
	t->bad += o == BAD_LINE;
	t->good += o != BAD_LINE;
	t->unreadable += o == UNREADABLE;
	t->mismatched += o == MISMATCHED;
	t->matched += o == MATCHED;
	if (!j->no_file)
		progress_file_done();
	progress_list_at(j->listed.end);
}
