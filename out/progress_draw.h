/* progress_draw.h - the drawing of the status line of --progress: a
 * thread that draws it on the terminal of standard error a few times a
 * second, from the counters that progress.c keeps.
 *
 * The counters are progress.c's: it writes them, and the drawing thread
 * only reads them (under their lock, where they have one), through the
 * struct below, so that the drawing never calls back into the module
 * that feeds it.  The thread starts about a second into the run (a
 * shorter run shows nothing), has statusline.h make the line and term.h
 * draw it, never while the run is in the background of the terminal's
 * shell.  Once a line is drawn, SIGINT, SIGTERM, SIGQUIT and SIGPIPE
 * clear it before taking their usual effect.
 *
 * The small static build draws nothing (os/features.h): there
 * PROGRESS_DRAW_BUILT is 0, and progress_draw_start starts nothing.
 *
 * A leaf: it calls nothing of the command's but the leaves quote.h,
 * thread.h, statusline.h and term.h. */
#ifndef PROGRESS_DRAW_H
#define PROGRESS_DRAW_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "os/features.h"

/* What the run has done so far, as the line tells it. */
struct progress_counters {
	/* Counted by the threads that read and report, without a lock. */
	atomic_uint_fast64_t bytes_read, files_done, list_offset;

	/* Said by the thread that reports, under lock. */
	pthread_mutex_t lock;
	char *waiting;		/* a copy of the name waited for, or NULL */
	size_t waiting_size;	/* bytes at waiting (grow.h) */
	size_t lists_begun;
	uint64_t list_size;	/* of the current list; 0: not known */
	struct timespec list_began;
};

/* Whether this build draws the line.  Known as it compiles, so that in
 * the small build the counters, which count only while the line is
 * drawn, fold away. */
enum { PROGRESS_DRAW_BUILT = HAS_STATUS_LINE };

/* Draw the line from *c, if standard error is a terminal, for a run
 * through count names (FILEs, or lists with check: progress.h's plan):
 * whether the thread that draws it runs.  Once, before any other thread
 * of the run starts; *c and the names must outlive the run. */
bool progress_draw_start(struct progress_counters *c, bool check, char *const *names,
			size_t count);

/* Clear the line and stop the thread, for good.  Only after a
 * progress_draw_start that said it runs. */
void progress_draw_end(void);

#endif
