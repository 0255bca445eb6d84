/* window_batch.c - one batch of a parallel run, and the size of batches; see
 * window_batch.h. */
#include <stdlib.h>
#include <string.h>

#include "window/window.h"
#include "window/window_batch.h"
#include "out/diag.h"
#include "os/grow.h"
#include "out/progress.h"

enum {
	BATCH_FIRST = 1,	/* before the size of files is known: a
				 * thread claims no more than it starts */
	BATCH_BYTES = 1024 * 1024,	/* a batch's work, about */
	SHRINK = 4,		/* a batch is at most 1/SHRINK of a thread's
				 * share of the jobs left */
};

struct batch *batch_new(struct window *all, struct batch_run *run)
{
	struct batch *b = calloc(1, sizeof *b);

	if (!b || !(b->task = calloc(BATCH_MAX, sizeof *b->task))) {
		free(b);
		return NULL;
	}
	b->all = all;
	b->run = run;
	outbox_init(&b->rec);
	return b;
}

/* Free the lines b took. */
static void free_lines(struct batch *b)
{
	for (unsigned i = 0; i < b->n_lines; i++)
		free(b->lines[i]);
	b->n_lines = 0;
}

void batch_free(struct batch *b)
{
	struct batch *next;

	for (; b; b = next) {
		next = b->next_spare;
		free_lines(b);
		outbox_free(&b->rec);
		free(b->names);
		free(b->task);
		free(b);
	}
}

/* Copy name, of n bytes with its NUL, into b; where, as an offset into
 * b->names, or SIZE_MAX when there is no memory for it. */
static size_t copy_name(struct batch *b, const char *name, size_t n)
{
	size_t at = b->names_len;

	if (!grow(&b->names, &b->names_size, at, n))
		return SIZE_MAX;
	memcpy(b->names + at, name, n);
	b->names_len += n;
	return at;
}

/* Names this long are not copied: the line that holds one is taken, and
 * the list's next line is read into memory of its own. */
enum { TAKE_LINE = 64 * 1024 };

/* Keep name, the last that the run's names gave, for b: its offset in
 * b->names, or SIZE_MAX when b took the line that holds it. */
static size_t keep_name(struct batch *b, const char *name)
{
	size_t n = strlen(name) + 1, at;

	if (n < TAKE_LINE && (at = copy_name(b, name, n)) != SIZE_MAX)
		return at;
	b->lines[b->n_lines++] = source_take_name(b->run->names);
	return SIZE_MAX;
}

enum next_job batch_fill(struct batch *b, unsigned size, bool wait)
{
	struct job_source *names = b->run->names;
	size_t at[BATCH_MAX];
	struct job j;
	enum next_job got = JOB_MADE;

	b->n = 0;
	b->names_len = 0;
	free_lines(b);
	while (b->n < size && (got = source_next(names, &j, wait && b->n == 0)) == JOB_MADE) {
		at[b->n] = j.name && !source_last(names) ? keep_name(b, j.name) : SIZE_MAX;
		b->task[b->n++] = (struct task){ .job = j, .batch = b };
	}
	/* Only now: b->names may have moved as it grew. */
	for (unsigned i = 0; i < b->n; i++)
		if (at[i] != SIZE_MAX)
			b->task[i].job.name = b->names + at[i];
	b->recorded = b->written = 0;
	atomic_store_explicit(&b->pending, b->n, memory_order_relaxed);
	atomic_store_explicit(&b->handing, (uint64_t)b->n << 32, memory_order_release);
	return got;
}

bool batch_done_before(const struct batch *b, const struct task *t)
{
	for (const struct task *p = b->task; p < t; p++)
		if (!atomic_load(&p->done))
			return false;
	return true;
}

void batch_say_what_delays(const struct batch *b)
{
	for (unsigned i = 0; i < b->n; i++) {
		if (!atomic_load_explicit(&b->task[i].done, memory_order_relaxed)) {
			progress_waiting_for(b->task[i].job.name);
			return;
		}
	}
}

void batch_record(struct batch *b, unsigned k)
{
	for (; b->recorded < k; b->recorded++) {
		results_word(b->run->results, &b->task[b->recorded].job, &b->rec);
		outbox_end_job(&b->rec);
	}
}

/* b's tasks are done: their files count. */
static void count_sizes(struct batch_sizes *s, const struct batch *b)
{
	uint64_t bytes = 0;

	for (unsigned i = 0; i < b->n; i++)
		bytes += b->task[i].size;
	atomic_fetch_add_explicit(&s->files_done, b->n, memory_order_relaxed);
	atomic_fetch_add_explicit(&s->bytes_done, bytes, memory_order_relaxed);
}

void batch_finish(struct batch *b, struct batch_sizes *s)
{
	batch_record(b, b->n);
	count_sizes(s, b);
	atomic_store_explicit(&b->finished, true, memory_order_release);
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

bool window_play(struct outbox *r, struct out *out, const char *prog)
{
	struct outbox_entry e;
	bool whole = !r->lost;

	for (size_t at = 0; outbox_next(r, &at, &e);) {
		switch (e.kind) {
		case OUTBOX_TEXT:
			put_text(out, e.text, e.len, out_line_end(out));
			break;
		case OUTBOX_NAME:
			out_str(out, e.name);
			break;
		case OUTBOX_ESCAPED:
			put_escaped(out, e.name);
			break;
		case OUTBOX_FILE_ERROR:
			report_error(out, prog, e.name, e.text);
			break;
		case OUTBOX_BAD_LINE:
			report_bad_line(out, prog, e.name, e.text);
			break;
		}
	}
	outbox_clear(r);
	return whole;
}

void batch_write(struct batch *b, unsigned k)
{
	struct batch_run *run = b->run;

	/* Once a record was lost, nothing after it is written. */
	if (!run->record_lost && !window_play(&b->rec, run->out, run->prog)) {
		run->record_lost = true;
		atomic_store(&run->no_memory, true);
	}
	outbox_clear(&b->rec);
	for (; b->written < k; b->written++)
		results_count(b->run->results, &b->task[b->written].job);
}

/* ------------------------------------------------------------ size */

unsigned batch_size(const struct batch_sizes *s, size_t count, size_t claimed)
{
	uint64_t files = atomic_load_explicit(&s->files_done, memory_order_relaxed) +
			 atomic_load_explicit(&s->files_sized, memory_order_relaxed);
	uint64_t bytes = atomic_load_explicit(&s->bytes_done, memory_order_relaxed) +
			 atomic_load_explicit(&s->bytes_sized, memory_order_relaxed);
	uint64_t size = BATCH_FIRST;

	if (files > 0)
		size = BATCH_BYTES / (bytes / files + FILE_COST);
	if (count) {
		uint64_t share = (count - claimed) /
				 (SHRINK * (uint64_t)atomic_load_explicit(&s->threads,
									 memory_order_relaxed));

		if (size > share)
			size = share;
	}
	return size < 1 ? 1 : size > BATCH_MAX ? BATCH_MAX : (unsigned)size;
}
