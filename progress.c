/* progress.c - the status line of --progress; see progress.h.
 *
 * Three sides meet here.  The threads that read count bytes in an atomic
 * counter, and the thread that writes the output says what the run waits
 * for, under seen_lock: neither ever waits on the terminal.  The drawing
 * thread wakes a few times a second, makes the line from what they said,
 * and has term.h draw it, under the lock that every other write to the
 * terminal holds as well, so that the line is cleared before it and never
 * drawn in the middle of it.  A signal handler clears the line when the
 * run is interrupted. */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <wchar.h>

#include "progress.h"
#include "quote.h"
#include "spawn.h"
#include "term.h"

enum {
	DELAY_MS = 1000,	/* a run shorter than this shows nothing */
	TICK_MS = 250,		/* between two draws */
	RATE_TICKS = 20,	/* the rate is that of the last this many ticks */
	SIZE_MS = 100,		/* of a tick spent sizing FILEs at most, so
				 * that many of them do not hold up the line */
	NAME_MIN = 12,		/* columns below which the name is left out */
	COLUMNS_MAX = 512,	/* the line is never wider than this */
	LINE_BYTES = 4 * COLUMNS_MAX + 16,	/* a UTF-8 character has 4 */
};

/* Set once, by progress_start, before any thread that reads it. */
static bool active;
static struct progress_plan plan;
static struct timespec began;

static atomic_uint_fast64_t bytes_read, files_done, list_offset;

/* What the reporting thread says, for the drawing thread. */
static pthread_mutex_t seen_lock = PTHREAD_MUTEX_INITIALIZER;
static char *waiting;		/* a copy of the name waited for, or NULL */
static size_t waiting_size;	/* bytes malloc'd at waiting */
static size_t lists_begun;
static uint64_t list_size;	/* of the current list; 0: not known */
static struct timespec list_began;

_Static_assert(LINE_BYTES - 1 <= TERM_LINE_MAX, "term.h draws every status line");

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

static void release_signals(void)
{
	for (size_t i = 0; i < CAUGHT; i++)
		if (catching[i])
			(void)sigaction(caught[i], &old_action[i], NULL);
}

/* ------------------------------------------------------- figures, text */

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

static const char *const units[] = { "B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB" };

/* Append s to the string in buf, of size bytes, as far as it has room. */
static void append(char *buf, size_t size, const char *s)
{
	size_t len = strlen(buf), n = strlen(s);

	if (n > size - 1 - len)
		n = size - 1 - len;
	memcpy(buf + len, s, n);
	buf[len + n] = '\0';
}

/* Append n in decimal, with at least digits digits. */
static void append_number(char *buf, size_t size, uintmax_t n, int digits)
{
	char text[3 * sizeof n + 2], *p = text + sizeof text - 1;

	*p = '\0';
	do {
		*--p = (char)('0' + n % 10);
		n /= 10;
	} while (--digits > 0 || n > 0);
	append(buf, size, p);
}

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

/* Append n in unit u, without the unit: whole bytes, else one decimal. */
static void append_amount(char *buf, size_t size, double n, unsigned u)
{
	uintmax_t tenths;

	for (unsigned i = 0; i < u; i++)
		n /= 1024.0;
	if (u == 0) {
		append_number(buf, size, (uintmax_t)(n + 0.5), 1);
		return;
	}
	tenths = (uintmax_t)(n * 10 + 0.5);
	append_number(buf, size, tenths / 10, 1);
	append(buf, size, ".");
	append_number(buf, size, tenths % 10, 1);
}

/* "1.5 GiB" */
static void append_size(char *buf, size_t size, double n)
{
	unsigned u = unit_of(n);

	append_amount(buf, size, n, u);
	append(buf, size, " ");
	append(buf, size, units[u]);
}

/* "0.5/4.0 GiB 12%": done in the unit of total. */
static void append_size_of(char *buf, size_t size, double done, double total)
{
	unsigned u = unit_of(total);

	append_amount(buf, size, done, u);
	append(buf, size, "/");
	append_amount(buf, size, total, u);
	append(buf, size, " ");
	append(buf, size, units[u]);
	if (total > 0) {
		append(buf, size, " ");
		append_number(buf, size, (uintmax_t)(100 * (done < total ? done : total) / total), 1);
		append(buf, size, "%");
	}
}

/* "1:02:03 left", "2:05 left" */
static void append_left(char *buf, size_t size, double seconds)
{
	double whole = seconds + 0.999;
	uintmax_t s = whole < 3.6e8 ? (uintmax_t)whole : 359999999;

	if (s >= 3600) {
		append_number(buf, size, s / 3600, 1);
		append(buf, size, ":");
	}
	append_number(buf, size, s / 60 % 60, s >= 3600 ? 2 : 1);
	append(buf, size, ":");
	append_number(buf, size, s % 60, 2);
	append(buf, size, " left");
}

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

/* The columns of the terminal, less one: the cursor stays off the last
 * column, where some terminals wrap. */
static size_t room(void)
{
	struct winsize ws;
	size_t cols = 80;

	if (ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0)
		cols = ws.ws_col;
	if (cols > COLUMNS_MAX)
		cols = COLUMNS_MAX;
	return cols - 1;
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
	pthread_mutex_lock(&seen_lock);
	h->name = waiting && *waiting ? quote_name(waiting) : NULL;
	h->list = lists_begun;
	h->list_size = list_size;
	h->list_began = list_began;
	pthread_mutex_unlock(&seen_lock);
}

/* The texts of the parts of the line. */
struct texts {
	char files[64], bytes[64], list[64], rate[64], left[64];
};

/* -c: files checked, bytes hashed, how far through which list; the time
 * left, or -1. */
static double describe_check(struct texts *t, double done, const struct heard *h,
			     const struct timespec *now)
{
	double frac = -1;

	append_size(t->bytes, sizeof t->bytes, done);
	if (h->list_size > 0)
		frac = (double)atomic_load(&list_offset) / (double)h->list_size;
	frac = frac > 1 ? 1 : frac;
	if (plan.count > 1 || frac >= 0)
		append(t->list, sizeof t->list, "list");
	if (plan.count > 1) {
		append(t->list, sizeof t->list, " ");
		append_number(t->list, sizeof t->list, h->list, 1);
		append(t->list, sizeof t->list, "/");
		append_number(t->list, sizeof t->list, plan.count, 1);
	}
	if (frac >= 0) {
		append(t->list, sizeof t->list, " ");
		append_number(t->list, sizeof t->list, (uintmax_t)(100 * frac), 1);
		append(t->list, sizeof t->list, "%");
	}
	/* The last list's time left, as its part done so far took. */
	if (frac > 0 && h->list == plan.count)
		return seconds_since(&h->list_began, now) * (1 - frac) / frac;
	return -1;
}

/* FILEs: of how many, bytes hashed, of how many when known; the time
 * left, or -1. */
static double describe_hash(struct texts *t, const struct view *v, double done,
			    double speed)
{
	double total = (double)v->total;

	append(t->files, sizeof t->files, "/");
	append_number(t->files, sizeof t->files, plan.count, 1);
	if (!total_known(v)) {
		append_size(t->bytes, sizeof t->bytes, done);
		return -1;
	}
	append_size_of(t->bytes, sizeof t->bytes, done, total);
	if (speed <= 0)
		return -1;
	return done < total ? (total - done) / speed : 0;
}

/* The text of the line, now, into line; its length. */
static size_t compose(struct view *v, char *line)
{
	struct texts t = { "", "", "", "", "" };
	struct part p[PARTS];
	struct timespec now;
	struct heard h;
	double done = (double)atomic_load(&bytes_read), speed, secs;
	uint64_t files = atomic_load(&files_done);
	size_t len;

	clock_gettime(CLOCK_MONOTONIC, &now);
	speed = rate_of(v, seconds_since(&began, &now), done);
	hear(&h);
	append_number(t.files, sizeof t.files, files, 1);
	if (plan.check)
		secs = describe_check(&t, done, &h, &now);
	else
		secs = describe_hash(&t, v, done, speed);
	/* "1 file", "0/1 file", "2/5 files": the number last said counts. */
	append(t.files, sizeof t.files, (plan.check ? files : plan.count) == 1 ? " file" : " files");
	append_size(t.rate, sizeof t.rate, speed);
	append(t.rate, sizeof t.rate, "/s");
	if (secs >= 0)
		append_left(t.left, sizeof t.left, secs);
	p[P_FILES] = (struct part){ t.files, strlen(t.files), 0, true };
	p[P_BYTES] = (struct part){ t.bytes, strlen(t.bytes), 0, true };
	p[P_LIST] = (struct part){ t.list, strlen(t.list), 0, t.list[0] != '\0' };
	p[P_RATE] = (struct part){ t.rate, strlen(t.rate), 0, true };
	p[P_LEFT] = (struct part){ t.left, strlen(t.left), 0, secs >= 0 };
	p[P_NAME] = (struct part){ h.name, h.name ? columns(h.name) : 0, 0, h.name != NULL };
	for (int i = 0; i < PARTS; i++)
		p[i].rank = rank_of[i];
	fit(p, room());
	len = join_parts(p, line);
	free(h.name);
	return len;
}

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
static char next_line[LINE_BYTES];

static void *draw_now_and_then(void *arg)
{
	struct view *v = &view;
	char *line = next_line;
	struct timespec at = began;

	(void)arg;
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

/* ------------------------------------------------------------ the API */

void progress_start(const struct progress_plan *p)
{
	pthread_condattr_t attr;
	bool ready;

#ifdef MD5SUM_SMALL
	/* The small static build draws no line: the drawing is the bulk of
	 * this file, and would take that build over its budget. */
	return;
#endif
	if (!isatty(STDERR_FILENO) || pthread_condattr_init(&attr) != 0)
		return;
	ready = pthread_condattr_setclock(&attr, CLOCK_MONOTONIC) == 0 &&
		pthread_cond_init(&wake, &attr) == 0;
	pthread_condattr_destroy(&attr);
	if (!ready)
		return;
	plan = *p;
	/* Names are quoted as messages quote them, in the locale's character
	 * set, loaded now, before the thread that quotes starts. */
	quote_use_locale();
	clock_gettime(CLOCK_MONOTONIC, &began);
	list_began = began;
	if (spawn(&drawer, draw_now_and_then, NULL) != 0)
		return;
	/* A thread still starting up while the run begins slows the whole
	 * run on some machines (README, Performance): wait until it runs. */
	pthread_mutex_lock(&tick_lock);
	while (!running)
		pthread_cond_wait(&wake, &tick_lock);
	pthread_mutex_unlock(&tick_lock);
	term_share();
	active = true;
}

void progress_end(void)
{
	bool join;

	if (!active)
		return;
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

void progress_read(size_t n)
{
	if (active)
		atomic_fetch_add_explicit(&bytes_read, n, memory_order_relaxed);
}

void progress_file_done(void)
{
	if (active)
		atomic_fetch_add_explicit(&files_done, 1, memory_order_relaxed);
}

bool progress_shown(void)
{
	return active;
}

void progress_waiting_for(const char *name)
{
	size_t n;

	if (!active)
		return;
	n = name ? strlen(name) + 1 : 1;
	pthread_mutex_lock(&seen_lock);
	/* Not realloc, which the static build would have for this alone. */
	if (n > waiting_size) {
		free(waiting);
		waiting = malloc(n);
		waiting_size = waiting ? n : 0;
	}
	/* Out of memory, the line shows no name: it must not end the run. */
	if (waiting)
		memcpy(waiting, name ? name : "", n);
	pthread_mutex_unlock(&seen_lock);
}

void progress_list_begin(int fd)
{
	struct stat st;
	uint64_t size = 0;
	struct timespec now;

	if (!active)
		return;
	if (fd >= 0 && fstat(fd, &st) == 0 && S_ISREG(st.st_mode))
		size = (uint64_t)st.st_size;
	clock_gettime(CLOCK_MONOTONIC, &now);
	pthread_mutex_lock(&seen_lock);
	lists_begun++;
	list_size = size;
	list_began = now;
	atomic_store_explicit(&list_offset, 0, memory_order_relaxed);
	pthread_mutex_unlock(&seen_lock);
}

void progress_list_at(uintmax_t offset)
{
	if (active)
		atomic_store_explicit(&list_offset, offset, memory_order_relaxed);
}
