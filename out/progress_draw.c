/* progress_draw.c - the thread that draws the status line of --progress;
 * see progress_draw.h.
 *
 * It wakes a few times a second, gathers the figures from the counters,
 * has statusline.h make the line of them, and term.h draw it.  A signal
 * handler clears the line when the run is interrupted.  The small static
 * build links progress_draw_none.c instead (os/features.h). */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "out/progress_draw.h"
#include "out/quote.h"
#include "os/thread.h"
#include "out/statusline.h"
#include "out/term.h"

enum {
	DELAY_MS = 1000,	/* a run shorter than this shows nothing */
	TICK_MS = 250,		/* between two draws */
	RATE_TICKS = 20,	/* the rate is that of the last this many ticks */
	SIZE_MS = 100,		/* of a tick spent sizing FILEs at most, so
				 * that many of them do not hold up the line */
};

_Static_assert(STATUS_LINE_SIZE - 1 <= TERM_LINE_MAX, "term.h draws every status line");

/* Set once, by progress_draw_start, before the drawing thread starts. */
static struct progress_counters *counters;
static struct plan { bool check; char *const *names; size_t count; } plan;	/* progress.h's */
static struct timespec began;

/* The drawing thread, under tick_lock. */
static pthread_mutex_t tick_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t wake;	/* the drawing thread runs, or is to stop */
static bool running;		/* the drawing thread has started */
static bool stopped;		/* for good */
static pthread_t drawer;

/* The signals that end a run, from the terminal or not, as they were
 * before we caught them. */
static const int caught[] = { SIGINT, SIGTERM, SIGQUIT, SIGPIPE };
enum { CAUGHT = sizeof caught / sizeof caught[0] };
static struct sigaction old_action[CAUGHT];
static bool catching[CAUGHT];

/* ------------------------------------------------------------ signals */

/* Only async-signal-safe calls: the line goes, then the signal does what
 * it would have done without us, once the handler returns and it is no
 * longer blocked. */
static void clear_and_reraise(int sig)
{
	struct sigaction dfl = { .sa_handler = SIG_DFL };
	int saved = errno;

	term_clear_at_signal();
	sigemptyset(&dfl.sa_mask);
	(void)sigaction(sig, &dfl, NULL);
	raise(sig);
	errno = saved;
}

/* Catch the signals, unless they are ignored: a run in the background of
 * a shell without job control must stay immune to SIGINT, and one told to
 * ignore SIGPIPE must see EPIPE. */
static void catch_signals(void)
{
	struct sigaction sa = { .sa_handler = clear_and_reraise };

	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < CAUGHT; i++) {
		if (sigaction(caught[i], NULL, &old_action[i]) != 0 ||
		    old_action[i].sa_handler == SIG_IGN)
			continue;
		catching[i] = sigaction(caught[i], &sa, NULL) == 0;
	}
}

/* The handler waits for a line being drawn (term.h): on the drawing
 * thread, it would wait for itself. */
static void keep_signals_off_this_thread(void)
{
	sigset_t set;

	sigemptyset(&set);
	for (size_t i = 0; i < CAUGHT; i++)
		sigaddset(&set, caught[i]);
	(void)pthread_sigmask(SIG_BLOCK, &set, NULL);
}

static void release_signals(void)
{
	for (size_t i = 0; i < CAUGHT; i++)
		if (catching[i])
			(void)sigaction(caught[i], &old_action[i], NULL);
}

/* ------------------------------------------------------------ figures */

static double seconds_since(const struct timespec *t0, const struct timespec *t)
{
	return (double)(t->tv_sec - t0->tv_sec) + (double)(t->tv_nsec - t0->tv_nsec) / 1e9;
}

static void add_ms(struct timespec *t, long ms)
{
	t->tv_sec += ms / 1000;
	t->tv_nsec += ms % 1000 * 1000000;
	if (t->tv_nsec >= 1000000000) {
		t->tv_sec++;
		t->tv_nsec -= 1000000000;
	}
}

/* The drawing thread's own state. */
struct view {
	double t[RATE_TICKS];	/* samples: seconds into the run */
	double b[RATE_TICKS];	/* and bytes read then */
	unsigned samples, next;
	size_t sized;		/* FILEs sized so far */
	uint64_t total;		/* their bytes */
	bool total_unknown;	/* one is not a regular file */
	bool caught;		/* the signals are caught */
};

/* Bytes per second over the last RATE_TICKS ticks, with a new sample. */
static double rate_of(struct view *v, double now, double bytes)
{
	double t0 = 0, b0 = 0;

	if (v->samples == RATE_TICKS) {
		t0 = v->t[v->next];
		b0 = v->b[v->next];
	} else {
		v->samples++;
	}
	v->t[v->next] = now;
	v->b[v->next] = bytes;
	v->next = (v->next + 1) % RATE_TICKS;
	return now > t0 ? (bytes - b0) / (now - t0) : 0;
}

/* The bytes that the FILE called name will give: 0 when it is not there
 * or a directory (it fails unread), -1 when not known ("-", a pipe, a
 * device). */
static int64_t size_of(const char *name)
{
	struct stat st;

	if (strcmp(name, "-") == 0)
		return -1;
	if (stat(name, &st) != 0 || S_ISDIR(st.st_mode))
		return 0;
	return S_ISREG(st.st_mode) ? (int64_t)st.st_size : -1;
}

/* Size some more of the FILEs, for SIZE_MS at most: the total is known
 * once all are sized, if all are regular files. */
static void size_files(struct view *v)
{
	struct timespec t0, t;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (size_t n = 1; v->sized < plan.count && !v->total_unknown; n++) {
		int64_t size = size_of(plan.names[v->sized++]);

		if (size < 0)
			v->total_unknown = true;
		else
			v->total += (uint64_t)size;
		if (n % 256 == 0) {
			clock_gettime(CLOCK_MONOTONIC, &t);
			if (seconds_since(&t0, &t) * 1000 > SIZE_MS)
				break;
		}
	}
}

static bool total_known(const struct view *v)
{
	return !plan.check && v->sized == plan.count && !v->total_unknown;
}

/* The columns of the terminal. */
static size_t terminal_width(void)
{
	struct winsize ws;

	if (ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0)
		return ws.ws_col;
	return 80;
}

/* What the writing thread said, copied under its lock: the name waited
 * for, quoted (malloc'd; NULL for none), and the list's figures. */
struct heard {
	char *name;
	size_t list;
	uint64_t list_size;
	struct timespec list_began;
};

static void hear(struct heard *h)
{
	pthread_mutex_lock(&counters->lock);
	h->name = counters->waiting && *counters->waiting ? quote_name(counters->waiting) : NULL;
	h->list = counters->lists_begun;
	h->list_size = counters->list_size;
	h->list_began = counters->list_began;
	pthread_mutex_unlock(&counters->lock);
}

/* -c: how far through the list; the last list's time left, as its part
 * done so far took. */
static void check_figures(struct status_figures *f, const struct heard *h,
			  const struct timespec *now)
{
	double frac = -1;

	if (h->list_size > 0)
		frac = (double)atomic_load(&counters->list_offset) / (double)h->list_size;
	f->list_done = frac > 1 ? 1 : frac;
	if (f->list_done > 0 && h->list == plan.count)
		f->seconds_left = seconds_since(&h->list_began, now) * (1 - f->list_done) /
				  f->list_done;
}

/* FILEs: the bytes of all, once known, and the time left at the rate. */
static void hash_figures(struct status_figures *f, const struct view *v)
{
	if (!total_known(v))
		return;
	f->bytes_total = (double)v->total;
	if (f->rate > 0)
		f->seconds_left = f->bytes_done < f->bytes_total ?
				  (f->bytes_total - f->bytes_done) / f->rate : 0;
}

/* The text of the line, now, into line; its length. */
static size_t compose(struct view *v, char *line)
{
	struct status_figures f = { .check = plan.check, .inputs = plan.count,
				    .bytes_total = -1, .seconds_left = -1, .list_done = -1 };
	struct timespec now;
	struct heard h;
	size_t len;

	f.bytes_done = (double)atomic_load(&counters->bytes_read);
	f.files_done = atomic_load(&counters->files_done);
	clock_gettime(CLOCK_MONOTONIC, &now);
	f.rate = rate_of(v, seconds_since(&began, &now), f.bytes_done);
	hear(&h);
	f.list = h.list;
	f.name = h.name;
	if (plan.check)
		check_figures(&f, &h, &now);
	else
		hash_figures(&f, v);
	f.width = terminal_width();
	len = status_line(&f, line);
	free(h.name);
	return len;
}

/* ------------------------------------------------------------ drawing */

/* Not in the background of the terminal's shell: a run started with '&'
 * must not write over what is typed.  A terminal that is not ours
 * (2>/dev/pts/N) has no foreground to ask for, and gets the line. */
static bool in_foreground(void)
{
	pid_t fg = tcgetpgrp(STDERR_FILENO);

	return fg == -1 || fg == getpgrp();
}

/* With tick_lock held, so that no line is drawn once stopped: the line,
 * with the signals that would leave it behind caught first. */
static void draw(struct view *v, const char *line, size_t len)
{
	if (!in_foreground())
		return;
	if (len > 0 && !v->caught) {
		catch_signals();
		v->caught = true;
	}
	term_show(line, len);
}

/* With tick_lock held: wait until the time at, or until stopped. */
static void wait_until(const struct timespec *at)
{
	while (!stopped)
		if (pthread_cond_timedwait(&wake, &tick_lock, at) != 0)
			break;
}

/* The drawing thread's state: there is only ever one. */
static struct view view;
static char next_line[STATUS_LINE_SIZE];

static void *draw_now_and_then(void *arg)
{
	struct view *v = &view;
	char *line = next_line;
	struct timespec at = began;

	(void)arg;
	keep_signals_off_this_thread();
	pthread_mutex_lock(&tick_lock);
	running = true;
	pthread_cond_broadcast(&wake);
	add_ms(&at, DELAY_MS);
	wait_until(&at);
	while (!stopped) {
		size_t len;

		pthread_mutex_unlock(&tick_lock);
		if (!plan.check)
			size_files(v);
		len = compose(v, line);
		pthread_mutex_lock(&tick_lock);
		if (!stopped)
			draw(v, line, len);
		clock_gettime(CLOCK_MONOTONIC, &at);
		add_ms(&at, TICK_MS);
		wait_until(&at);
	}
	pthread_mutex_unlock(&tick_lock);
	return NULL;
}

bool progress_draw_start(struct progress_counters *c, bool check, char *const *names, size_t count)
{
	pthread_condattr_t attr;
	bool ready;

	if (!isatty(STDERR_FILENO) || pthread_condattr_init(&attr) != 0)
		return false;
	ready = pthread_condattr_setclock(&attr, CLOCK_MONOTONIC) == 0 &&
		pthread_cond_init(&wake, &attr) == 0;
	pthread_condattr_destroy(&attr);
	if (!ready)
		return false;
	counters = c;
	plan = (struct plan){ check, names, count };
	/* Names are quoted as messages quote them, in the locale's character
	 * set, loaded now, before the thread that quotes starts. */
	quote_use_locale();
	clock_gettime(CLOCK_MONOTONIC, &began);
	if (thread_start(&drawer, draw_now_and_then, NULL) != 0)
		return false;
	/* A thread still starting up while the run begins slows the whole
	 * run on some machines (doc/performance.md): wait until it runs. */
	pthread_mutex_lock(&tick_lock);
	while (!running)
		pthread_cond_wait(&wake, &tick_lock);
	pthread_mutex_unlock(&tick_lock);
	term_share();
	return true;
}

void progress_draw_end(void)
{
	bool join;

	pthread_mutex_lock(&tick_lock);
	join = !stopped;
	stopped = true;
	term_clear();
	pthread_cond_broadcast(&wake);
	pthread_mutex_unlock(&tick_lock);
	if (join) {
		pthread_join(drawer, NULL);
		release_signals();
	}
}
