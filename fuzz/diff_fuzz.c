/* diff_fuzz.c - the differential fuzzer: md5sum against GNU md5sum.
 *
 * usage: diff_fuzz [-n CASES] [-s SEED] [-w WORKERS] [-o DIR] [-t SECONDS]
 *                  [--tap] [--only N] [--notes FILE] [--locales L,L...] OURS GNU
 *
 * Each case is made from the seed and its number alone: a directory of
 * files (regular, empty, directories, a FIFO with a writer, unreadable,
 * symbolic links, loops, names with every awkward byte), checksum lists in
 * every form md5sum reads and many it does not (GNU and BSD lines, one
 * space, escapes, CRLF, upper case, NULs, junk, no final newline, lines
 * up to 1 MiB, escaped names that decode to 256 KiB), a command line of
 * GNU's options in any combination and any names, standard input (a file,
 * a pipe, /dev/null, a directory, closed) and standard output (a file, a
 * pipe, /dev/full, closed, shared with standard error).  Both programs run
 * on the case, as argv[0] "md5sum", in a new session, as a user of no
 * privilege when the fuzzer is root (so that unreadable files are; they
 * run from copies that user can reach, wherever the checkout is); ours
 * also with a random -j and --disk (as options or in MD5SUM_JOBS and
 * MD5SUM_DISK) and now and then --progress.  Each case runs in a locale of
 * those this machine has of a table (C, C.UTF-8 and eight languages whose
 * plural rules differ; --locales names those it may take), given by
 * LC_ALL, LANG, LC_MESSAGES or LANGUAGE as the case draws.  Their standard
 * output, standard error and exit status must be the same, byte for byte.
 *
 * A case that differs is written to DIR as a shell script that makes the
 * case again and runs both programs (MD5SUM= and GNU= choose them), so it
 * can be run alone, anywhere.  A difference that we mean is skipped by its
 * name, counted and told, only when the notes (tests/GNU-NOTES.md, section
 * "Deliberate differences") list that name.  The run ends with the line
 * "N cases, D differ" (and what was skipped), and exits 1 when D > 0.  With
 * --tap it prints one TAP line a case instead, for tests/run.  Stopped by
 * SIGINT or SIGTERM, it ends the cases under way and still prints that
 * line, for the cases that ran, and exits 2. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <locale.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>
#include <pthread.h>
#include <spawn.h>
#include <stdatomic.h>
#include <time.h>

#include "lib/md5.h"

extern char **environ;

/* ------------------------------------------------------------ random */

static uint64_t rng_state;

static uint64_t next_u64(void)
{
	uint64_t z = (rng_state += 0x9e3779b97f4a7c15u);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
	return z ^ (z >> 31);
}

/* 0 .. n-1 */
static size_t below(size_t n)
{
	return n ? (size_t)(next_u64() % n) : 0;
}

/* true one time in n */
static bool one_in(size_t n)
{
	return below(n) == 0;
}

/* A size from lo to hi, spread evenly over its powers of two. */
static size_t log_size(size_t lo, size_t hi)
{
	unsigned bits = 0;
	size_t n;

	while (((size_t)1 << bits) < hi)
		bits++;
	n = (size_t)1 << below(bits + 1);
	n += below(n);
	return n < lo ? lo : n > hi ? hi : n;
}

static void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (!p) {
		perror("diff_fuzz");
		exit(2);
	}
	return p;
}

static void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p) {
		perror("diff_fuzz");
		exit(2);
	}
	return p;
}

/* ------------------------------------------------------------- texts */

/* Bytes made of pieces, each some bytes repeated some times: how the
 * reproducer writes them back, so that a name of 256 KiB is a line. */
struct piece {
	char *bytes;
	size_t len, times;
};

struct text {
	struct piece *p;
	size_t n, cap;
};

static void text_rep(struct text *t, const void *bytes, size_t len, size_t times)
{
	if (len == 0 || times == 0)
		return;
	if (t->n > 0 && times == 1 && t->p[t->n - 1].times == 1) {
		struct piece *last = &t->p[t->n - 1];

		last->bytes = xrealloc(last->bytes, last->len + len);
		memcpy(last->bytes + last->len, bytes, len);
		last->len += len;
		return;
	}
	if (t->n == t->cap) {
		t->cap = t->cap ? 2 * t->cap : 8;
		t->p = xrealloc(t->p, t->cap * sizeof *t->p);
	}
	t->p[t->n].bytes = xmalloc(len);
	memcpy(t->p[t->n].bytes, bytes, len);
	t->p[t->n].len = len;
	t->p[t->n].times = times;
	t->n++;
}

static void text_add(struct text *t, const void *bytes, size_t len)
{
	text_rep(t, bytes, len, 1);
}

static void text_str(struct text *t, const char *s)
{
	text_add(t, s, strlen(s));
}

static void text_cat(struct text *t, const struct text *u)
{
	for (size_t i = 0; i < u->n; i++)
		text_rep(t, u->p[i].bytes, u->p[i].len, u->p[i].times);
}

static void text_free(struct text *t)
{
	for (size_t i = 0; i < t->n; i++)
		free(t->p[i].bytes);
	free(t->p);
	*t = (struct text){ 0 };
}

static size_t text_len(const struct text *t)
{
	size_t n = 0;

	for (size_t i = 0; i < t->n; i++)
		n += t->p[i].len * t->p[i].times;
	return n;
}

/* The bytes, with a NUL after them; *len set when len is not NULL. */
static char *text_flat(const struct text *t, size_t *len)
{
	size_t n = text_len(t), at = 0;
	char *s = xmalloc(n + 1);

	for (size_t i = 0; i < t->n; i++)
		for (size_t k = 0; k < t->p[i].times; k++) {
			memcpy(s + at, t->p[i].bytes, t->p[i].len);
			at += t->p[i].len;
		}
	s[n] = '\0';
	if (len)
		*len = n;
	return s;
}

/* Call fn on t's bytes in large pieces, however small its own; any
 * thread. */
static int text_each(const struct text *t, int (*fn)(void *arg, const char *p, size_t n),
		     void *arg)
{
	enum { SIZE = 1 << 16 };
	char *buf = xmalloc(SIZE);
	size_t n = 0;
	int r = 0;

	for (size_t i = 0; i < t->n; i++)
		for (size_t k = 0; k < t->p[i].times; k++) {
			const char *p = t->p[i].bytes;
			size_t len = t->p[i].len;

			if (n + len > SIZE) {
				if ((r = fn(arg, buf, n)) != 0)
					goto out;
				n = 0;
			}
			if (len > SIZE) {
				if ((r = fn(arg, p, len)) != 0)
					goto out;
				continue;
			}
			memcpy(buf + n, p, len);
			n += len;
		}
	r = n > 0 ? fn(arg, buf, n) : 0;
out:
	free(buf);
	return r;
}

static int md5_piece(void *ctx, const char *p, size_t n)
{
	md5_update(ctx, p, n);
	return 0;
}

static void text_md5_hex(const struct text *t, char hex[MD5_DIGEST_STRING_LENGTH])
{
	struct md5 ctx;
	uint8_t d[MD5_DIGEST_LENGTH];

	md5_init(&ctx);
	(void)text_each(t, md5_piece, &ctx);
	md5_final(&ctx, d);
	md5_hex(d, hex);
}

/* ------------------------------------------------------------- cases */

enum kind { K_REG, K_EMPTY, K_DIR, K_FIFO, K_UNREADABLE, K_LINK, K_LOOP };

/* A file of the case's directory. */
struct entry {
	char name[256];		/* no '/', no NUL, not "." or ".." */
	enum kind kind;
	struct text body;	/* K_REG, K_FIFO, K_UNREADABLE */
	char target[256];	/* K_LINK, K_LOOP */
	char hex[MD5_DIGEST_STRING_LENGTH];	/* of body */
	bool is_list;
	bool named;		/* a list named on the command line */
};

/* Many files now and then, for the lanes, threads and batches. */
enum { ENTRIES_MAX = 400, ARGS_MAX = 400, MANY_MAX = 300 };

enum in_kind { IN_FILE, IN_PIPE, IN_NULL, IN_CLOSED, IN_DIR };
enum out_kind { OUT_FILE, OUT_PIPE, OUT_FULL, OUT_CLOSED, OUT_SHARED };

struct fcase {
	uint64_t seed, number;
	struct entry ent[ENTRIES_MAX];
	int n_ent;
	struct text arg[ARGS_MAX];	/* GNU's arguments, after argv[0] */
	int n_arg;
	char ours[3][32];	/* ours only, before the arguments */
	int n_ours;
	const char *env_jobs, *env_disk;	/* ours only, or NULL */
	bool posixly_correct;
	const char *locale;	/* the C locale the case had before it had
				 * languages: "C" or "C.UTF-8" */
	char loc_env[2][32];	/* the locale's variables, NAME=VALUE */
	int n_loc_env;
	char where[72];		/* them, for the case's line */
	enum in_kind in;
	struct text in_body;
	enum out_kind out;
	bool fifo_used;		/* the FIFO is named once: a second open
				 * would wait for ever, for both */
	bool stdin_used;
	const char *what;	/* a word on what the case is */
};

/* Bytes that names are made of: each awkward for someone. */
static const char *const name_bits[] = {
	"a", "b", "file", "x y", " ", "*", "(", ")", ") = ", "=", "#", "-", "--x",
	"\\", "\\n", "\n", "\r", "\t", "\\\\", "'", "\"", "$", "\xc3\xbc", "\xff",
	"\x01", "MD5 (", "md5", ".", "~", "?", "\xe2\x80\xa8", "  ", ":", "\x7f",
};

static void random_name(char name[256])
{
	size_t len = 0, parts = 1 + below(4);

	if (one_in(20))
		parts = 40 + below(40);	/* long, up to NAME_MAX */
	for (size_t i = 0; i < parts; i++) {
		const char *b = name_bits[below(sizeof name_bits / sizeof *name_bits)];
		size_t n = strlen(b);

		if (len + n > 255)
			break;
		memcpy(name + len, b, n);
		len += n;
	}
	name[len] = '\0';
	if (strcmp(name, ".") == 0 || strcmp(name, "..") == 0 || len == 0)
		strcpy(name, "dot");
}

static bool name_taken(const struct fcase *c, const char *name)
{
	for (int i = 0; i < c->n_ent; i++)
		if (strcmp(c->ent[i].name, name) == 0)
			return true;
	return false;
}

/* Random bytes of the given size, now and then repeated. */
static void random_body(struct text *t, size_t size)
{
	char buf[256];
	size_t unit = 1 + below(sizeof buf);

	if (size == 0)
		return;
	for (size_t i = 0; i < unit; i++)
		buf[i] = (char)(one_in(2) ? 'a' + below(26) : below(256));
	if (size <= unit) {
		text_add(t, buf, size);
		return;
	}
	text_rep(t, buf, unit, size / unit);
	text_add(t, buf, size % unit);
}

static struct entry *add_entry(struct fcase *c, enum kind k)
{
	struct entry *e;

	if (c->n_ent == ENTRIES_MAX)
		return NULL;
	e = &c->ent[c->n_ent];
	*e = (struct entry){ .kind = k };
	do
		random_name(e->name);
	while (name_taken(c, e->name));
	c->n_ent++;
	return e;
}

static void finish_entry(struct entry *e)
{
	text_md5_hex(&e->body, e->hex);
}

static void make_files(struct fcase *c)
{
	int n = one_in(15) ? (int)log_size(10, MANY_MAX) : 1 + (int)below(5);

	for (int i = 0; i < n; i++) {
		static const enum kind kinds[] = {
			K_REG, K_REG, K_REG, K_REG, K_EMPTY, K_DIR, K_FIFO, K_UNREADABLE,
			K_LINK, K_LOOP,
		};
		enum kind k = kinds[below(sizeof kinds / sizeof *kinds)];
		struct entry *e;

		if (k == K_FIFO && c->fifo_used)
			k = K_REG;
		if (k == K_FIFO)
			c->fifo_used = true;	/* one FIFO a case */
		e = add_entry(c, k);
		if (!e)
			return;
		/* A FIFO's name is not one that junk in a list names by
		 * chance (two spaces, say): named twice, both programs would
		 * wait for ever. */
		if (k == K_FIFO) {
			char name[256] = "fifo";
			size_t len = strlen(e->name);

			len = len < sizeof name - 5 ? len : sizeof name - 5;
			memcpy(name + 4, e->name, len);
			name[4 + len] = '\0';
			if (!name_taken(c, name))
				strcpy(e->name, name);
		}
		if (k == K_REG || k == K_FIFO || k == K_UNREADABLE)
			random_body(&e->body, one_in(30) ? log_size(4096, 3 << 20) : log_size(0, 4096));
		if (k == K_LINK) {
			/* Not to the FIFO: it would be opened twice. */
			const struct entry *to = c->n_ent > 1 ? &c->ent[below((size_t)c->n_ent - 1)] : NULL;

			strcpy(e->target, to && to->kind != K_FIFO ? to->name : "nowhere");
		}
		if (k == K_LOOP)
			strcpy(e->target, e->name);
		finish_entry(e);
	}
	c->fifo_used = false;	/* from now on: whether it was named */
}

/* A name that reaches no file, or one outside the directory; long ones
 * up to max bytes. */
static void other_name(struct text *t, size_t max)
{
	static const char *const others[] = {
		"nope", "no/such", "", "/proc/version", "/proc/self/mem", "/dev/null", "/",
		"/proc/sys/kernel/ostype", "/dev/tty", ".", "/proc/sys/vm/drop_caches",
	};

	if (one_in(12)) {
		size_t n = log_size(256, max);	/* ENAMETOOLONG */
		const char *unit = one_in(2) ? "\n" : one_in(2) ? "\\" : "x";

		text_rep(t, unit, 1, n);
		return;
	}
	text_str(t, others[below(sizeof others / sizeof *others)]);
}

/* A name for the entry, as a user might give it. */
static void entry_name(struct fcase *c, struct entry *e, struct text *t)
{
	if (one_in(10))
		text_str(t, "./");
	text_str(t, e->name);
	if (one_in(20))
		text_str(t, one_in(2) ? "/" : "/x");
	if (e->kind == K_FIFO)
		c->fifo_used = true;
}

/* Some name for a file to hash or check: an entry's, standard input's or
 * another.  Never the FIFO twice, nor standard input in a list read from
 * it.  An argument is shorter than the kernel's limit on one. */
static void any_name(struct fcase *c, struct text *t, bool stdin_ok, bool arg)
{
	size_t r = below(10);

	if (r == 0 && stdin_ok) {
		text_str(t, "-");
		c->stdin_used = true;
		return;
	}
	if (r <= 7 && c->n_ent > 0) {
		struct entry *e = &c->ent[below((size_t)c->n_ent)];

		if (!(e->kind == K_FIFO && c->fifo_used) && !e->is_list) {
			entry_name(c, e, t);
			return;
		}
	}
	other_name(t, arg ? 64 * 1024 : 256 * 1024);
}

/* The digest a list line gives, right for the entry named or not. */
static void line_digest(struct text *t, const char *hex)
{
	char d[40];
	size_t len = 32;

	memcpy(d, hex, 32);
	switch (below(12)) {
	case 0:			/* another */
		d[below(32)] ^= 1;
		break;
	case 1:			/* upper case */
		for (size_t i = 0; i < len; i++)
			if (d[i] >= 'a' && d[i] <= 'f')
				d[i] = (char)(d[i] - 'a' + 'A');
		break;
	case 2:			/* a digit short, or one too many */
		len = one_in(2) ? 31 : 33;
		d[32] = '0';
		break;
	case 3:			/* not hex, or a NUL */
		d[below(32)] = "gxz -\0"[below(6)];
		break;
	default:
		break;
	}
	text_add(t, d, len);
}

/* name escaped as md5sum escapes it, into t. */
static void escape_into(struct text *t, const struct text *name)
{
	size_t len;
	char *s = text_flat(name, &len);

	/* Long runs of one byte stay one piece. */
	if (name->n == 1 && name->p[0].len == 1) {
		char b = name->p[0].bytes[0];
		const char *e = b == '\\' ? "\\\\" : b == '\n' ? "\\n" : b == '\r' ? "\\r" : NULL;

		if (e) {
			text_rep(t, e, 2, name->p[0].times);
			free(s);
			return;
		}
	}
	for (size_t i = 0; i < len; i++) {
		const char *e = s[i] == '\\' ? "\\\\" : s[i] == '\n' ? "\\n" : s[i] == '\r' ? "\\r" : NULL;

		if (e)
			text_str(t, e);
		else
			text_add(t, s + i, 1);
	}
	free(s);
}

static bool needs_escape(const struct text *name)
{
	size_t len;
	char *s = text_flat(name, &len);
	bool r = memchr(s, '\\', len) || memchr(s, '\n', len) || memchr(s, '\r', len);

	free(s);
	return r;
}

/* The hex digest of what name names, when the case knows it; else a
 * random one. */
static void digest_of(const struct fcase *c, const struct text *name, char hex[33])
{
	size_t len;
	char *s = text_flat(name, &len);
	const char *base = strncmp(s, "./", 2) == 0 ? s + 2 : s;

	snprintf(hex, 33, "%016llx%016llx", (unsigned long long)next_u64(),
		 (unsigned long long)next_u64());
	for (int i = 0; i < c->n_ent; i++)
		if (strcmp(c->ent[i].name, base) == 0)
			strcpy(hex, c->ent[i].hex);
	if (strcmp(s, "-") == 0)
		text_md5_hex(&c->in_body, hex);
	if (strcmp(s, "/dev/null") == 0 || strcmp(s, "/proc/version") == 0)
		strcpy(hex, "d41d8cd98f00b204e9800998ecf8427e");
	free(s);
}

/* A line of junk: random bytes, or one byte many times. */
static void junk_line(struct text *t)
{
	char b[64];
	size_t n = below(sizeof b);

	if (one_in(4)) {
		b[0] = (char)below(256);
		text_rep(t, b, 1, log_size(1, 1 << 20));
		return;
	}
	for (size_t i = 0; i < n; i++)
		b[i] = one_in(3) ? (char)below(256) : " \t*()=#\\MD5abcdef0123"[below(21)];
	text_add(t, b, n);
}

/* One line of a checksum list. */
static void list_line(struct fcase *c, struct text *t, bool from_stdin)
{
	struct text name = { 0 };
	char hex[33];
	bool escaped;
	size_t form = below(20);

	if (one_in(8))
		text_str(t, one_in(2) ? " " : "\t ");
	if (form >= 17) {
		if (form == 17)
			junk_line(t);
		else if (form == 18)
			text_str(t, one_in(2) ? "#" : "");
		else
			text_str(t, one_in(2) ? "\r" : " \t");
	} else {
		if (one_in(25)) {	/* a long escaped name */
			const char *unit = one_in(2) ? "\n" : "\\";

			text_rep(&name, unit, 1, log_size(1024, 256 * 1024));
		} else {
			any_name(c, &name, !from_stdin, false);
		}
		digest_of(c, &name, hex);
		escaped = needs_escape(&name) ? !one_in(10) : one_in(20);
		if (escaped)
			text_str(t, "\\");
		if (form < 6) {
			static const char *const tags[] = {
				"MD5 (", "MD5 (", "MD5 (", "MD5(", "MD5  (", "md5 (", "SHA1 (",
				"MD5\t(", "MD5-128 (",
			};

			text_str(t, tags[below(sizeof tags / sizeof *tags)]);
			if (escaped)
				escape_into(t, &name);
			else
				text_cat(t, &name);
			text_str(t, one_in(6) ? ")= " : one_in(6) ? ") =\t" : ") = ");
			line_digest(t, hex);
		} else {
			static const char *const seps[] = {
				"  ", "  ", "  ", " *", " ", "\t", "\t*", "   ", " \t", "*",
			};

			line_digest(t, hex);
			text_str(t, seps[below(sizeof seps / sizeof *seps)]);
			if (escaped)
				escape_into(t, &name);
			else
				text_cat(t, &name);
			if (escaped && one_in(15))
				text_str(t, one_in(2) ? "\\t" : "\\");
		}
	}
	if (one_in(15)) {	/* a NUL and junk after the line */
		text_add(t, "\0", 1);
		junk_line(t);
	}
	text_free(&name);
}

/* A checksum list: lines, each ended somehow, now and then changed. */
static void make_list(struct fcase *c, struct text *t, bool from_stdin)
{
	size_t most = c->n_ent >= 10 ? (size_t)c->n_ent + 5 : 6;
	size_t lines = one_in(10) ? 0 : 1 + below(most);
	size_t len;

	for (size_t i = 0; i < lines; i++) {
		list_line(c, t, from_stdin);
		if (i + 1 < lines || !one_in(5))
			text_str(t, one_in(6) ? "\r\n" : one_in(30) ? "\r\r\n" : "\n");
	}
	/* A byte changed, a NUL put in: lines no honest tool writes. */
	len = text_len(t);
	if (len > 0 && len < 8192 && one_in(6)) {
		char *s = text_flat(t, &len);
		size_t at = below(len);

		s[at] = one_in(2) ? '\0' : (char)below(256);
		text_free(t);
		text_add(t, s, len);
		free(s);
	}
}

/* An option of GNU's, often as an abbreviation. */
static void gnu_option(struct text *t, bool check)
{
	static const char *const hashing[] = {
		"-b", "-t", "--tag", "-z", "--binary", "--text", "--zero", "--ta", "--bin",
		"--te", "--z", "-bz", "-tb",
	};
	static const char *const checking[] = {
		"-w", "--warn", "--quiet", "--status", "--strict", "--ignore-missing",
		"--q", "--sta", "--str", "--w", "--i", "--ign", "-wc",
	};
	static const char *const odd[] = {
		"--", "-", "--help", "--version", "--he", "--v", "-x", "--bogus", "--t",
		"--s", "--st", "--tag=1", "--check=x", "---", "-:", "--=x", "-W", "-h",
		"--Tag", "-cz", "-c-",
	};

	if (one_in(40))
		text_str(t, odd[below(sizeof odd / sizeof *odd)]);
	else if (check != one_in(12))
		text_str(t, checking[below(sizeof checking / sizeof *checking)]);
	else
		text_str(t, hashing[below(sizeof hashing / sizeof *hashing)]);
}

static struct text *new_arg(struct fcase *c)
{
	return c->n_arg < ARGS_MAX ? &c->arg[c->n_arg++] : NULL;
}

/* Options and names in a random order, options first more often. */
static void make_args(struct fcase *c, bool check, int names)
{
	int opts = (int)below(4);
	struct text *t;

	if (check && (t = new_arg(c)))
		text_str(t, one_in(3) ? "--check" : one_in(2) ? "--ch" : "-c");
	for (int i = 0; i < opts; i++)
		if ((t = new_arg(c)))
			gnu_option(t, check);
	for (int i = 0; i < names; i++) {
		if (!(t = new_arg(c)))
			break;
		any_name(c, t, !c->stdin_used || one_in(4), true);
		if (one_in(8) && (t = new_arg(c)))
			gnu_option(t, check);
	}
	/* Now and then, shuffled. */
	if (one_in(5))
		for (int i = c->n_arg - 1; i > 0; i--) {
			size_t j = below((size_t)i + 1);
			struct text tmp = c->arg[i];

			c->arg[i] = c->arg[j];
			c->arg[j] = tmp;
		}
}

static void make_stdin(struct fcase *c, bool check)
{
	static const enum in_kind kinds[] = {
		IN_FILE, IN_FILE, IN_PIPE, IN_PIPE, IN_NULL, IN_CLOSED, IN_DIR,
	};

	c->in = kinds[below(sizeof kinds / sizeof *kinds)];
	if (c->in == IN_FILE || c->in == IN_PIPE) {
		if (check && !one_in(4))
			make_list(c, &c->in_body, true);
		else
			random_body(&c->in_body, one_in(20) ? log_size(4096, 1 << 20) : log_size(0, 4096));
	}
}

static void make_ours(struct fcase *c)
{
	static const char *const jobs[] = { "1", "2", "3", "4", "8", "16", "64" };
	static const char *const disks[] = { "auto", "hdd", "ssd" };
	const char *j = one_in(4) ? NULL : jobs[below(sizeof jobs / sizeof *jobs)];
	const char *d = one_in(3) ? NULL : disks[below(sizeof disks / sizeof *disks)];

	if (one_in(2)) {
		c->env_jobs = j;
		c->env_disk = d;
	} else {
		if (j)
			snprintf(c->ours[c->n_ours++], sizeof c->ours[0], "-j%s", j);
		if (d)
			snprintf(c->ours[c->n_ours++], sizeof c->ours[0], "--disk=%s", d);
	}
	if (one_in(10))
		strcpy(c->ours[c->n_ours++], "--progress");
}

/* The locales a case may run in: the C locales, and eight whose
 * catalogs' plural rules differ, each with the language LANGUAGE names
 * it by.  Those that this machine lacks, or that --locales leaves out,
 * are not taken (present[], from main): a case that draws one runs in
 * its C locale, so that the draws, and so the cases, stay those of the
 * seed wherever it runs. */
static const struct {
	const char *name, *language;
} locales[] = {
	{ "C", NULL }, { "C.UTF-8", NULL },
	{ "de_DE.UTF-8", "de" }, { "fr_FR.UTF-8", "fr" }, { "ja_JP.UTF-8", "ja" },
	{ "ru_RU.UTF-8", "ru" }, { "pl_PL.UTF-8", "pl" }, { "zh_CN.UTF-8", "zh_CN" },
	{ "es_ES.UTF-8", "es" }, { "pt_BR.UTF-8", "pt_BR" },
};
enum { LOCALES = sizeof locales / sizeof *locales };
static bool present[LOCALES];

static void set_loc_env(struct fcase *c, const char *name, const char *value)
{
	snprintf(c->loc_env[c->n_loc_env++], sizeof c->loc_env[0], "%s=%s", name, value);
}

/* The locale of the case and the variable that gives it: LC_ALL, LANG,
 * LC_MESSAGES (the rest from LANG, the case's C locale: under "C",
 * messages in ASCII) or LANGUAGE (over LANG, the case's C locale: under
 * "C", ignored). */
static void pick_locale(struct fcase *c)
{
	size_t i = below(LOCALES);
	size_t how = below(4);
	bool plain = one_in(3);

	c->n_loc_env = 0;
	if (plain || !present[i] || (how == 3 && !locales[i].language))
		how = 0, i = strcmp(c->locale, "C") == 0 ? 0 : 1;
	switch (how) {
	case 0:
		set_loc_env(c, "LC_ALL", locales[i].name);
		break;
	case 1:
		set_loc_env(c, "LANG", locales[i].name);
		break;
	case 2:
		set_loc_env(c, "LANG", c->locale);
		set_loc_env(c, "LC_MESSAGES", locales[i].name);
		break;
	default:
		set_loc_env(c, "LANG", c->locale);
		set_loc_env(c, "LANGUAGE", locales[i].language);
		break;
	}
	snprintf(c->where, sizeof c->where, "%s%s%s", c->loc_env[0], c->n_loc_env > 1 ? " " : "",
		 c->n_loc_env > 1 ? c->loc_env[1] : "");
}

/* Which locales of the table cases may take: those setlocale takes here,
 * of the comma-separated names in only (NULL: all). */
static void probe_locales(const char *only)
{
	for (size_t i = 0; i < LOCALES; i++) {
		size_t n = strlen(locales[i].name);
		const char *at = only;

		if (only) {
			while ((at = strstr(at, locales[i].name)) != NULL &&
			       !((at == only || at[-1] == ',') && (at[n] == ',' || at[n] == '\0')))
				at++;
			if (!at)
				continue;
		}
		present[i] = i < 2 || setlocale(LC_ALL, locales[i].name) != NULL;
	}
	setlocale(LC_ALL, "C");
}

static void make_case(struct fcase *c, uint64_t seed, uint64_t number)
{
	static const enum out_kind outs[] = {
		OUT_FILE, OUT_FILE, OUT_FILE, OUT_FILE, OUT_FILE, OUT_FILE, OUT_PIPE,
		OUT_PIPE, OUT_SHARED, OUT_SHARED, OUT_FULL, OUT_CLOSED,
	};
	bool check;

	*c = (struct fcase){ .seed = seed, .number = number };
	rng_state = seed * 0x2545f4914f6cdd1du ^ number;
	(void)next_u64();
	check = one_in(2);
	make_files(c);
	make_stdin(c, check);
	if (check) {
		int lists = (int)below(4);

		for (int i = 0; i < lists; i++) {
			struct entry *e = add_entry(c, K_REG);

			if (!e)
				break;
			e->is_list = true;
			make_list(c, &e->body, false);
			finish_entry(e);
		}
	}
	c->what = check ? "check" : "hash";
	if (check) {
		int names = (int)below(4);
		struct text *t;

		make_args(c, true, 0);
		for (int i = 0; i < names && (t = new_arg(c)); i++) {
			struct entry *e = NULL;

			for (int k = 0; k < c->n_ent && !e; k++)
				if (c->ent[k].is_list && !c->ent[k].named && !one_in(3))
					e = &c->ent[k];
			if (e) {
				e->named = true;
				entry_name(c, e, t);
			}
			else
				any_name(c, t, true, true);
		}
	} else {
		make_args(c, false, c->n_ent >= 10 ? c->n_ent + (int)below(5) : (int)below(7));
	}
	make_ours(c);
	c->posixly_correct = one_in(20);
	c->locale = one_in(4) ? "C" : "C.UTF-8";
	c->out = outs[below(sizeof outs / sizeof *outs)];
	/* Drawn last, so that a seed's cases are those it made before the
	 * languages, each now in a locale. */
	pick_locale(c);
}

static void free_case(struct fcase *c)
{
	for (int i = 0; i < c->n_ent; i++)
		text_free(&c->ent[i].body);
	for (int i = 0; i < c->n_arg; i++)
		text_free(&c->arg[i]);
	text_free(&c->in_body);
}

/* ------------------------------------------------------------ running */

/* Where a worker runs its cases: dir/c holds the case's files. */
/* The user and group a root fuzzer runs as: no one's, and not nobody,
 * whose processes tests/limits.bats limits (ulimit -u) beside it. */
enum { UNPRIVILEGED = 65533 };

struct place {
	char dir[64];
	char files[80];
	char out[80], err[80], in[80];
};

static int write_bytes(int fd, const char *p, size_t n)
{
	while (n > 0) {
		ssize_t w = write(fd, p, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			return -1;
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

static int write_piece(void *fd, const char *p, size_t n)
{
	return write_bytes(*(int *)fd, p, n);
}

/* Write t to fd in large writes, however small its pieces. */
static int write_text(int fd, const struct text *t)
{
	return text_each(t, write_piece, &fd);
}

static void die(const char *what)
{
	perror(what);
	exit(2);
}

static void put_file(const char *path, const struct text *t, mode_t mode)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);

	if (fd < 0 || write_text(fd, t) != 0 || fchmod(fd, mode) != 0 || close(fd) != 0)
		die(path);
}

/* Make the case's files in p->files, which is empty. */
static void lay_out(const struct fcase *c, const struct place *p)
{
	int dir = open(p->files, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (dir < 0)
		die(p->files);
	for (int i = 0; i < c->n_ent; i++) {
		const struct entry *e = &c->ent[i];
		char path[512];
		int r = 0;

		snprintf(path, sizeof path, "%s/%s", p->files, e->name);
		switch (e->kind) {
		case K_REG:
		case K_EMPTY:
			put_file(path, &e->body, 0644);
			break;
		case K_UNREADABLE:
			put_file(path, &e->body, 0);
			break;
		case K_DIR:
			r = mkdirat(dir, e->name, 0755);
			break;
		case K_FIFO:
			r = mkfifoat(dir, e->name, 0644);
			break;
		case K_LINK:
		case K_LOOP:
			r = symlinkat(e->target, dir, e->name);
			break;
		}
		if (r != 0)
			die(path);
	}
	close(dir);
	put_file(p->in, &c->in_body, 0644);
}

static void clear_out(const struct fcase *c, const struct place *p)
{
	int dir = open(p->files, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (dir < 0)
		die(p->files);
	for (int i = 0; i < c->n_ent; i++)
		if (unlinkat(dir, c->ent[i].name, c->ent[i].kind == K_DIR ? AT_REMOVEDIR : 0) != 0)
			die(c->ent[i].name);
	close(dir);
}

/* What a program did. */
struct result {
	char *out, *err;
	size_t out_len, err_len;
	int status;		/* exit status, or 128 + signal */
	bool timed_out;
};

static volatile sig_atomic_t alarmed;

static void on_alarm(int sig)
{
	(void)sig;
	alarmed = 1;
}

static char **argv_of(const struct fcase *c, bool ours)
{
	char **v = xmalloc(sizeof *v * (size_t)(c->n_arg + c->n_ours + 2));
	int n = 0;

	v[n++] = "md5sum";
	for (int i = 0; ours && i < c->n_ours; i++)
		v[n++] = (char *)c->ours[i];
	for (int i = 0; i < c->n_arg; i++)
		v[n++] = text_flat(&c->arg[i], NULL);
	v[n] = NULL;
	return v;
}

static void free_argv(const struct fcase *c, char **v, bool ours)
{
	for (int i = 1 + (ours ? c->n_ours : 0); v[i]; i++)
		free(v[i]);
	free(v);
}

/* The environment: a known one, and ours' own settings; ours also gets
 * the driver's settings of the sanitizers, so that a sanitizer build
 * under test (tests/sanitized) reports where its runner looks. */
enum { SANITIZER_VARS = 3 };
static void env_of(const struct fcase *c, bool ours, char env[8][48], char **envp)
{
	static const char *const sanitizer[SANITIZER_VARS] = {
		"ASAN_OPTIONS=", "UBSAN_OPTIONS=", "TSAN_OPTIONS=",
	};
	int n = 0, m;

	snprintf(env[n++], 48, "PATH=/usr/bin:/bin");
	for (int i = 0; i < c->n_loc_env; i++)
		snprintf(env[n++], 48, "%s", c->loc_env[i]);
	if (c->posixly_correct)
		snprintf(env[n++], 48, "POSIXLY_CORRECT=1");
	if (ours && c->env_jobs)
		snprintf(env[n++], 48, "MD5SUM_JOBS=%s", c->env_jobs);
	if (ours && c->env_disk)
		snprintf(env[n++], 48, "MD5SUM_DISK=%s", c->env_disk);
	for (m = 0; m < n; m++)
		envp[m] = env[m];
	for (char **e = environ; ours && *e; e++)
		for (int i = 0; i < SANITIZER_VARS; i++)
			if (strncmp(*e, sanitizer[i], strlen(sanitizer[i])) == 0)
				envp[m++] = *e;
	envp[m] = NULL;
}

/* A thread that gives a FIFO or a pipe its bytes, then closes it. */
struct writer {
	pthread_t id;
	const char *fifo;	/* a FIFO to open, or NULL: fd */
	int fd;
	const struct text *body;
	atomic_bool stop;	/* the program ended: give up */
};

static void *write_body(void *arg)
{
	struct writer *w = arg;
	static const struct timespec nap = { .tv_nsec = 50 * 1000 };

	/* A FIFO is opened once it has a reader, as a writer that waits in
	 * open would be; but this one can be told to stop waiting. */
	while (w->fifo && (w->fd = open(w->fifo, O_WRONLY | O_NONBLOCK | O_CLOEXEC)) < 0) {
		if (errno != ENXIO || atomic_load(&w->stop))
			return NULL;
		nanosleep(&nap, NULL);
	}
	if (w->fifo)
		fcntl(w->fd, F_SETFL, 0);
	(void)write_text(w->fd, w->body);
	close(w->fd);
	return NULL;
}

static void start_writer(struct writer *w, const char *fifo, int fd, const struct text *body)
{
	sigset_t all, old;

	*w = (struct writer){ .fifo = fifo, .fd = fd, .body = body };
	/* The alarm is for the thread that waits for the program. */
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	if (pthread_create(&w->id, NULL, write_body, w) != 0)
		die("pthread_create");
	pthread_sigmask(SIG_SETMASK, &old, NULL);
}

static void stop_writer(struct writer *w)
{
	atomic_store(&w->stop, true);
	pthread_join(w->id, NULL);
}

static char *slurp(const char *path, size_t *len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	size_t cap = 4096, n = 0;
	char *s = xmalloc(cap);
	ssize_t r;

	if (fd < 0)
		die(path);
	while ((r = read(fd, s + n, cap - n)) != 0) {
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			die(path);
		n += (size_t)r;
		if (n == cap)
			s = xrealloc(s, cap *= 2);
	}
	close(fd);
	*len = n;
	return s;
}

/* The descriptor the program's standard input is, or -1 for none. */
static int stdin_fd(const struct fcase *c, const struct place *p, int pipe_in)
{
	switch (c->in) {
	case IN_FILE: return open(p->in, O_RDONLY | O_CLOEXEC);
	case IN_PIPE: return pipe_in;
	case IN_NULL: return open("/dev/null", O_RDONLY | O_CLOEXEC);
	case IN_DIR: return open(p->files, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	case IN_CLOSED: return -1;
	}
	return -1;
}

/* Its standard output, given its standard error err, or -1 for none. */
static int stdout_fd(const struct fcase *c, const struct place *p, int pipe_out, int err)
{
	switch (c->out) {
	case OUT_FILE: return open(p->out, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	case OUT_PIPE: return pipe_out;
	case OUT_FULL: return open("/dev/full", O_WRONLY | O_CLOEXEC);
	case OUT_SHARED: return err;
	case OUT_CLOSED: return -1;
	}
	return -1;
}

/* Start bin on the case, in a session of its own, with its standard
 * streams: its process id. */
static pid_t spawn(const struct fcase *c, const struct place *p, const char *bin, bool ours,
		   int in, int out, int err)
{
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t at;
	sigset_t def, none;
	char **argv = argv_of(c, ours), env[8][48], *envp[9 + SANITIZER_VARS];
	pid_t pid;

	env_of(c, ours, env, envp);
	posix_spawn_file_actions_init(&fa);
	if (in >= 0)
		posix_spawn_file_actions_adddup2(&fa, in, 0);
	else
		posix_spawn_file_actions_addclose(&fa, 0);
	if (out >= 0)
		posix_spawn_file_actions_adddup2(&fa, out, 1);
	else
		posix_spawn_file_actions_addclose(&fa, 1);
	posix_spawn_file_actions_adddup2(&fa, err, 2);
	/* Nothing of the fuzzer's, nor of whatever started it, is inherited. */
	posix_spawn_file_actions_addclosefrom_np(&fa, 3);
	posix_spawn_file_actions_addchdir_np(&fa, p->files);
	posix_spawnattr_init(&at);
	sigemptyset(&def);
	sigaddset(&def, SIGPIPE);
	sigaddset(&def, SIGALRM);
	sigemptyset(&none);
	posix_spawnattr_setsigdefault(&at, &def);
	posix_spawnattr_setsigmask(&at, &none);
	posix_spawnattr_setflags(&at, POSIX_SPAWN_SETSID | POSIX_SPAWN_SETSIGDEF |
				      POSIX_SPAWN_SETSIGMASK);
	if (posix_spawn(&pid, bin, &fa, &at, argv, envp) != 0)
		die(bin);
	posix_spawn_file_actions_destroy(&fa);
	posix_spawnattr_destroy(&at);
	free_argv(c, argv, ours);
	return pid;
}

/* Copy the pipe at fd to the file path until its end, or the alarm. */
static void drain(int fd, const char *path)
{
	int to = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	char buf[65536];
	ssize_t k;

	if (to < 0)
		die(path);
	while ((k = read(fd, buf, sizeof buf)) != 0 && !alarmed)
		if (k > 0 && write_bytes(to, buf, (size_t)k) != 0)
			die(path);
	close(to);
}

static void run(const struct fcase *c, const struct place *p, const char *bin,
		bool ours, unsigned timeout, struct result *r)
{
	int in[2] = { -1, -1 }, out[2] = { -1, -1 }, status, fds[3];
	struct writer w[2];	/* one FIFO at most, and a pipe */
	char fifo[512];
	int nw = 0;
	pid_t pid;

	*r = (struct result){ 0 };
	if (c->in == IN_PIPE && pipe2(in, O_CLOEXEC) != 0)
		die("pipe");
	if (c->out == OUT_PIPE && pipe2(out, O_CLOEXEC) != 0)
		die("pipe");
	for (int i = 0; i < c->n_ent; i++)
		if (c->ent[i].kind == K_FIFO) {
			snprintf(fifo, sizeof fifo, "%s/%s", p->files, c->ent[i].name);
			start_writer(&w[nw], fifo, -1, &c->ent[i].body);
			nw++;
		}
	if (c->in == IN_PIPE) {
		start_writer(&w[nw++], NULL, in[1], &c->in_body);
	}
	fds[2] = open(p->err, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	fds[0] = stdin_fd(c, p, in[0]);
	fds[1] = stdout_fd(c, p, out[1], fds[2]);
	if (fds[2] < 0 || (fds[0] < 0 && c->in != IN_CLOSED) ||
	    (fds[1] < 0 && c->out != OUT_CLOSED))
		die(p->dir);
	alarmed = 0;
	alarm(timeout);
	pid = spawn(c, p, bin, ours, fds[0], fds[1], fds[2]);
	for (int i = 0; i < 3; i++)
		if (fds[i] >= 0 && (i < 2 || fds[i] != fds[1]))
			close(fds[i]);
	if (c->out == OUT_PIPE) {
		drain(out[0], p->out);
		close(out[0]);
	}
	while (waitpid(pid, &status, 0) < 0) {
		if (errno != EINTR)
			die("waitpid");
		if (alarmed) {
			kill(-pid, SIGKILL);
			kill(pid, SIGKILL);
		}
	}
	alarm(0);
	r->timed_out = alarmed;
	for (int i = 0; i < nw; i++)
		stop_writer(&w[i]);
	r->status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
	if (c->out == OUT_FULL || c->out == OUT_CLOSED) {
		r->out = xmalloc(1);
		r->out_len = 0;
	} else {
		r->out = slurp(c->out == OUT_SHARED ? p->err : p->out, &r->out_len);
	}
	r->err = slurp(p->err, &r->err_len);
}

/* What the reproducer's header tells of a result. */
struct outline {
	int status;
	bool timed_out;
	size_t out, err;	/* bytes */
};

static void free_result(struct result *r)
{
	free(r->out);
	free(r->err);
}

/* ------------------------------------------------- what differs, or not */

/* Differences we mean (tests/GNU-NOTES.md, "Deliberate differences"):
 * what GNU did that shows one, and which of the results then are not
 * compared. */
struct deliberate {
	const char *name;
	bool (*shows)(const struct result *gnu);
	bool skip_out;		/* standard output is not compared */
	bool listed;		/* the notes list it */
};

/* GNU's help in any language: its first line is "Usage: md5sum [...",
 * the word translated (Aufruf, Uso, ...); no line of a hash or a check
 * holds "md5sum [" (the fuzzer's names have no '['), nor starts as a
 * line of help does. */
static bool gnu_helped(const struct result *g)
{
	const char *nl = g->out_len ? memchr(g->out, '\n', g->out_len) : NULL;

	return g->status == 0 && nl && !strchr("0123456789abcdef\\", g->out[0]) &&
	       memmem(g->out, (size_t)(nl - g->out), "md5sum [", 8) != NULL;
}

static bool gnu_versioned(const struct result *g)
{
	return g->status == 0 && g->out_len >= 22 &&
	       memcmp(g->out, "md5sum (GNU coreutils)", 22) == 0;
}

static struct deliberate deliberate[] = {
	{ "help-text", gnu_helped, true, false },
	{ "version-text", gnu_versioned, true, false },
};
enum { DELIBERATE = sizeof deliberate / sizeof *deliberate };

/* Mark the differences that the notes list, under their heading. */
static void read_notes(const char *path)
{
	FILE *f = fopen(path, "r");
	char line[1024];
	bool in_section = false;

	if (!f) {
		fprintf(stderr, "diff_fuzz: %s: %s (no difference is taken as deliberate)\n",
			path, strerror(errno));
		return;
	}
	while (fgets(line, sizeof line, f)) {
		if (strncmp(line, "## ", 3) == 0)
			in_section = strstr(line, "Deliberate differences") != NULL;
		if (!in_section || strncmp(line, "* `", 3) != 0)
			continue;
		for (int i = 0; i < DELIBERATE; i++) {
			size_t n = strlen(deliberate[i].name);

			if (strncmp(line + 3, deliberate[i].name, n) == 0 && line[3 + n] == '`')
				deliberate[i].listed = true;
		}
	}
	fclose(f);
}

/* -1: the same; DELIBERATE + 0: differs; else the deliberate difference
 * that it shows. */
enum { SAME = -1, DIFFERS = DELIBERATE };

static int compare(const struct result *o, const struct result *g, bool shared)
{
	bool skip_out = false;
	int why = SAME;

	for (int i = 0; i < DELIBERATE; i++)
		if (deliberate[i].listed && deliberate[i].shows(g)) {
			skip_out = deliberate[i].skip_out;
			why = i;
		}
	/* Both waiting for ever (a FIFO named twice) is GNU's way: what each
	 * wrote until it was killed must still be the same. */
	if (o->timed_out != g->timed_out || o->status != g->status)
		return DIFFERS;
	/* Standard error, when not where standard output went too. */
	if (!(skip_out && shared) &&
	    (o->err_len != g->err_len || memcmp(o->err, g->err, o->err_len) != 0))
		return DIFFERS;
	if (!skip_out && (o->out_len != g->out_len || memcmp(o->out, g->out, o->out_len) != 0))
		return DIFFERS;
	return why;
}

/* ------------------------------------------------------- reproducers */

/* t as arguments of the script's rep: "rep TIMES 'BYTES'" lines, in
 * printf's octal for every byte but letters and digits. */
static void put_rep(FILE *f, const struct text *t)
{
	if (t->n == 0)
		fputs("\t:\n", f);
	for (size_t i = 0; i < t->n; i++) {
		fprintf(f, "\trep %zu '", t->p[i].times);
		for (size_t k = 0; k < t->p[i].len; k++) {
			unsigned char b = (unsigned char)t->p[i].bytes[k];

			if ((b >= 'a' && b <= 'z') || (b >= 'A' && b <= 'Z') || (b >= '0' && b <= '9'))
				fputc(b, f);
			else
				fprintf(f, "\\%03o", b);
		}
		fputs("'\n", f);
	}
}

/* A word as the shell will see it: 'printf' of its octal, an X to keep
 * a final newline, taken off again. */
static void put_word(FILE *f, const char *var, const struct text *t)
{
	fprintf(f, "%s=$(\n", var);
	put_rep(f, t);
	fprintf(f, "\techo X); %s=${%s%%X}\n", var, var);
}

static void write_repro(const struct fcase *c, const char *dir, const struct outline *o,
			const struct outline *g, char *path, size_t size)
{
	static const char *const ins[] = { "file", "pipe", "/dev/null", "closed", "a directory" };
	static const char *const outs[] = {
		"a file", "a pipe", "/dev/full", "closed", "shared with standard error",
	};
	FILE *f;

	snprintf(path, size, "%s/case-%llu-%llu.sh", dir, (unsigned long long)c->seed,
		 (unsigned long long)c->number);
	f = fopen(path, "w");
	if (!f)
		die(path);
	fprintf(f, "#!/bin/bash\n"
		   "# diff_fuzz seed %llu case %llu (%s): ours exit %d%s, GNU exit %d%s;\n"
		   "# stdout %zu / %zu bytes, stderr %zu / %zu bytes.\n"
		   "# Standard input: %s; standard output: %s; locale: %s.\n"
		   "# Run: MD5SUM=build/md5sum GNU=/usr/bin/md5sum bash %s\n"
		   "# (KEEP=1 keeps the case's directory and says where it is.)\n"
		   "set -u\n"
		   "ours=$(realpath \"${MD5SUM:-build/md5sum}\"); gnu=$(realpath \"${GNU:-/usr/bin/md5sum}\")\n"
		   "top=$(mktemp -d); [ -n \"${KEEP-}\" ] && echo \"case in $top\" || trap 'rm -rf \"$top\"' EXIT\n"
		   "chmod 755 \"$top\"; mkdir \"$top/c\"; cd \"$top/c\" || exit 2\n"
		   "rep() {\t# rep TIMES BYTES: BYTES (printf's escapes) TIMES times\n"
		   "\tlocal n=$1; printf \"$2\" >\"$top/p\"; : >\"$top/r\"\n"
		   "\twhile [ \"$n\" -gt 0 ]; do\n"
		   "\t\t[ $((n %% 2)) = 1 ] && cat \"$top/p\" >>\"$top/r\"\n"
		   "\t\tcat \"$top/p\" \"$top/p\" >\"$top/q\"; mv \"$top/q\" \"$top/p\"; n=$((n / 2))\n"
		   "\tdone; cat \"$top/r\"\n"
		   "}\n",
		(unsigned long long)c->seed, (unsigned long long)c->number, c->what, o->status,
		o->timed_out ? " (timed out)" : "", g->status, g->timed_out ? " (timed out)" : "",
		o->out, g->out, o->err, g->err, ins[c->in], outs[c->out], c->where, path);
	for (int i = 0; i < c->n_ent; i++) {
		const struct entry *e = &c->ent[i];
		struct text name = { 0 }, target = { 0 };

		text_str(&name, e->name);
		put_word(f, "n", &name);
		switch (e->kind) {
		case K_REG: case K_EMPTY: case K_UNREADABLE: case K_FIFO:
			fputs(e->kind == K_FIFO ? "mkfifo -- \"$n\"; {\n" : "{\n", f);
			put_rep(f, &e->body);
			fprintf(f, "} >%s\n", e->kind == K_FIFO ? "\"$top/fifo\"" : "\"$n\"");
			if (e->kind == K_UNREADABLE)
				fputs("chmod 0 -- \"$n\"\n", f);
			if (e->kind == K_FIFO)
				fputs("fifo=$n\n", f);
			break;
		case K_DIR:
			fputs("mkdir -- \"$n\"\n", f);
			break;
		case K_LINK: case K_LOOP:
			text_str(&target, e->target);
			put_word(f, "t", &target);
			fputs("ln -s -- \"$t\" \"$n\"\n", f);
			break;
		}
		text_free(&name);
		text_free(&target);
	}
	fputs("{\n", f);
	put_rep(f, &c->in_body);
	fputs("} >\"$top/in\"\nargs=()\n", f);
	for (int i = 0; i < c->n_arg; i++) {
		put_word(f, "a", &c->arg[i]);
		fputs("args+=(\"$a\")\n", f);
	}
	fputs("ours_args=(", f);
	for (int i = 0; i < c->n_ours; i++)
		fprintf(f, " %s", c->ours[i]);
	fprintf(f, " )\nours_env=(%s%s%s%s)\n", c->env_jobs ? " MD5SUM_JOBS=" : "",
		c->env_jobs ? c->env_jobs : "", c->env_disk ? " MD5SUM_DISK=" : "",
		c->env_disk ? c->env_disk : "");
	fprintf(f, "env=(PATH=/usr/bin:/bin %s%s)\n", c->where,
		c->posixly_correct ? " POSIXLY_CORRECT=1" : "");
	{
		static const char *const in_redir[] = {
			"<\"$top/in\"", "< <(cat \"$top/in\")", "</dev/null", "<.", "<&-",
		};
		static const char *const out_redir[] = {
			">\"$top/$name.out\" 2>\"$top/$name.err\"",
			"2>\"$top/$name.err\" | cat >\"$top/$name.out\"",
			">/dev/full 2>\"$top/$name.err\"",
			">&- 2>\"$top/$name.err\"",
			">\"$top/$name.err\" 2>&1",
		};

		fprintf(f, "as=(); [ \"$(id -u)\" = 0 ] && as=(setpriv --reuid=%d --regid=%d --clear-groups --)\n",
			UNPRIVILEGED, UNPRIVILEGED);
		fputs(
		      "chmod 777 \"$top\"\n"
		      "run() {\t# run NAME BINARY ARGS...: $top/NAME.out, .err and .rc\n"
		      "\tlocal name=$1 bin=$2 extra=() w=; shift 2\n"
		      "\t[ \"$name\" = ours ] && extra=(\"${ours_env[@]}\")\n"
		      "\t[ -n \"${fifo-}\" ] && { cat \"$top/fifo\" >\"$fifo\" & w=$!; }\n"
		      "\ttimeout -k 5 20 setsid \"${as[@]}\" env -i \"${env[@]}\" \"${extra[@]}\" \\\n"
		      "\t\tbash -c 'exec -a md5sum \"$0\" \"$@\"' \"$bin\" \"$@\" ", f);
		fprintf(f, "%s %s\n", in_redir[c->in], out_redir[c->out]);
		fputs("\techo \"${PIPESTATUS[0]}\" >\"$top/$name.rc\"\n"
		      "\t[ -n \"$w\" ] && { kill \"$w\" 2>/dev/null; wait \"$w\" 2>/dev/null; }\n"
		      "\ttouch \"$top/$name.out\"\n"
		      "}\n"
		      "run ours \"$ours\" \"${ours_args[@]}\" \"${args[@]}\"\n"
		      "run gnu \"$gnu\" \"${args[@]}\"\n"
		      "same=0\n"
		      "for s in out err rc; do\n"
		      "\tcmp -s \"$top/ours.$s\" \"$top/gnu.$s\" && continue\n"
		      "\tsame=1; echo \"std$s differs (< GNU, > ours):\"\n"
		      "\tdiff <(od -c \"$top/gnu.$s\" | head -40) <(od -c \"$top/ours.$s\" | head -40)\n"
		      "done\n"
		      "[ $same = 0 ] && echo same\n"
		      "exit $same\n", f);
	}
	if (fclose(f) != 0)
		die(path);
	chmod(path, 0755);
}

/* ---------------------------------------------------------- the run */

struct config {
	uint64_t seed, cases, only;
	bool only_one;
	unsigned workers, timeout;
	const char *ours, *gnu, *dir;
	const char *locales;	/* --locales, or NULL: all */
	bool tap;
};

/* What a worker tells the parent of a case. */
struct verdict {
	uint64_t number;
	int why;		/* SAME, DIFFERS or a deliberate difference */
	char what[8];
	char where[72];		/* the locale's variables */
	struct outline ours, gnu;
};

static void run_case(const struct config *cf, const struct place *p, uint64_t number,
		     struct verdict *v)
{
	struct fcase *c = xmalloc(sizeof *c);
	struct result o, g;

	make_case(c, cf->seed, number);
	lay_out(c, p);
	run(c, p, cf->ours, true, cf->timeout, &o);
	run(c, p, cf->gnu, false, cf->timeout, &g);
	clear_out(c, p);
	*v = (struct verdict){ .number = number, .why = compare(&o, &g, c->out == OUT_SHARED),
			       .ours = { o.status, o.timed_out, o.out_len, o.err_len },
			       .gnu = { g.status, g.timed_out, g.out_len, g.err_len } };
	snprintf(v->what, sizeof v->what, "%s", c->what);
	snprintf(v->where, sizeof v->where, "%s", c->where);
	free_result(&o);
	free_result(&g);
	free_case(c);
	free(c);
}

static void make_place(struct place *p, const char *top, unsigned w)
{
	snprintf(p->dir, sizeof p->dir, "%s/w%u", top, w);
	snprintf(p->files, sizeof p->files, "%s/c", p->dir);
	snprintf(p->out, sizeof p->out, "%s/out", p->dir);
	snprintf(p->err, sizeof p->err, "%s/err", p->dir);
	snprintf(p->in, sizeof p->in, "%s/in", p->dir);
	if (mkdir(p->dir, 0755) != 0 || mkdir(p->files, 0755) != 0)
		die(p->dir);
}

/* Become a user of no privilege, if root, so that a file without
 * permissions is unreadable: the worker, and so the programs it starts. */
static void drop_root(const struct place *p)
{
	if (geteuid() != 0)
		return;
	if (chown(p->dir, UNPRIVILEGED, UNPRIVILEGED) != 0 ||
	    chown(p->files, UNPRIVILEGED, UNPRIVILEGED) != 0 || setgroups(0, NULL) != 0 ||
	    setgid(UNPRIVILEGED) != 0 || setuid(UNPRIVILEGED) != 0)
		die("dropping root");
}

/* Copy the program at from to a new file to, which anyone may run. */
static void copy_program(const char *from, const char *to)
{
	int in = open(from, O_RDONLY | O_CLOEXEC);
	int out = open(to, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0755);
	char buf[65536];
	ssize_t k;

	if (in < 0)
		die(from);
	if (out < 0)
		die(to);
	while ((k = read(in, buf, sizeof buf)) != 0)
		if (k < 0 ? errno != EINTR : write_bytes(out, buf, (size_t)k) != 0)
			die(k < 0 ? from : to);
	if (fchmod(out, 0755) != 0 || close(out) != 0)
		die(to);
	close(in);
}

/* A root fuzzer runs copies of the programs, in top: the user it becomes
 * may not reach the originals, in a checkout that only root can. */
static void copy_programs(struct config *cf, const char *top)
{
	static char ours[64], gnu[64];

	if (geteuid() != 0)
		return;
	snprintf(ours, sizeof ours, "%s/ours", top);
	snprintf(gnu, sizeof gnu, "%s/gnu", top);
	copy_program(cf->ours, ours);
	copy_program(cf->gnu, gnu);
	cf->ours = ours;
	cf->gnu = gnu;
}

/* Worker w of the run: cases w, w + workers, ..., each verdict written
 * to fd. */
static void worker(const struct config *cf, const char *top, unsigned w, int fd)
{
	struct place p;

	make_place(&p, top, w);
	drop_root(&p);
	for (uint64_t i = w; i < cf->cases; i += cf->workers) {
		struct verdict v;

		run_case(cf, &p, cf->only_one ? cf->only : i, &v);
		if (write(fd, &v, sizeof v) != (ssize_t)sizeof v)
			die("write");
	}
	_exit(0);
}

static volatile sig_atomic_t stopped;

static void on_stop(int sig)
{
	(void)sig;
	stopped = 1;
}

static void usage(void)
{
	fputs("usage: diff_fuzz [-n CASES] [-s SEED] [-w WORKERS] [-o DIR] [-t SECONDS]\n"
	      "                 [--tap] [--only N] [--notes FILE] [--locales L,L...] OURS GNU\n",
	      stderr);
	exit(2);
}

static void parse_args(int argc, char **argv, struct config *cf, const char **notes)
{
	int i;

	for (i = 1; i < argc && argv[i][0] == '-'; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;

		if (strcmp(a, "--tap") == 0) {
			cf->tap = true;
			continue;
		}
		if (!v)
			usage();
		i++;
		if (strcmp(a, "-n") == 0)
			cf->cases = strtoull(v, NULL, 10);
		else if (strcmp(a, "-s") == 0)
			cf->seed = strtoull(v, NULL, 10);
		else if (strcmp(a, "-w") == 0)
			cf->workers = (unsigned)strtoul(v, NULL, 10);
		else if (strcmp(a, "-o") == 0)
			cf->dir = v;
		else if (strcmp(a, "-t") == 0)
			cf->timeout = (unsigned)strtoul(v, NULL, 10);
		else if (strcmp(a, "--notes") == 0)
			*notes = v;
		else if (strcmp(a, "--locales") == 0)
			cf->locales = v;
		else if (strcmp(a, "--only") == 0) {
			cf->only = strtoull(v, NULL, 10);
			cf->only_one = true;
			cf->cases = 1;
		} else
			usage();
	}
	if (argc - i != 2 || cf->workers == 0)
		usage();
	/* The programs run in the case's directory. */
	cf->ours = realpath(argv[i], NULL);
	cf->gnu = realpath(argv[i + 1], NULL);
	if (!cf->ours || !cf->gnu) {
		perror(!cf->ours ? argv[i] : argv[i + 1]);
		exit(2);
	}
}

int main(int argc, char **argv)
{
	struct config cf = { .seed = 1, .cases = 1000, .timeout = 20, .dir = "build/diff-fuzz" };
	const char *notes = "tests/GNU-NOTES.md";
	char top[] = "/tmp/diff_fuzz.XXXXXX";
	uint64_t skipped[DELIBERATE] = { 0 }, seen = 0, differ = 0;
	pid_t *workers;
	int fds[2];
	struct verdict v;
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);

	cf.workers = cpus > 0 ? (unsigned)cpus : 1;
	parse_args(argc, argv, &cf, &notes);
	if (cf.workers > cf.cases)
		cf.workers = cf.cases ? (unsigned)cf.cases : 1;
	read_notes(notes);
	probe_locales(cf.locales);
	signal(SIGPIPE, SIG_IGN);
	/* Not restarted: the alarm must end a wait for the program. */
	sigaction(SIGALRM, &(struct sigaction){ .sa_handler = on_alarm }, NULL);
	if (!mkdtemp(top) || chmod(top, 0755) != 0)
		die(top);
	if (mkdir(cf.dir, 0755) != 0 && errno != EEXIST)
		die(cf.dir);
	copy_programs(&cf, top);
	if (pipe2(fds, O_CLOEXEC) != 0)
		die("pipe");
	workers = xmalloc(cf.workers * sizeof *workers);
	for (unsigned w = 0; w < cf.workers; w++) {
		pid_t pid = fork();

		if (pid < 0)
			die("fork");
		if (pid == 0) {
			close(fds[0]);
			worker(&cf, top, w, fds[1]);
		}
		workers[w] = pid;
	}
	close(fds[1]);
	/* The parent only, and not restarted: a stop ends the wait for the
	 * next verdict, and the tally is still printed. */
	sigaction(SIGINT, &(struct sigaction){ .sa_handler = on_stop }, NULL);
	sigaction(SIGTERM, &(struct sigaction){ .sa_handler = on_stop }, NULL);
	if (cf.tap)
		printf("1..%llu\n", (unsigned long long)cf.cases);
	while (!stopped && read(fds[0], &v, sizeof v) == (ssize_t)sizeof v) {
		unsigned long long n = ++seen, seed = cf.seed, number = v.number;
		char repro[256] = "";

		if (v.why == DIFFERS) {
			/* The case again, from its seed and number. */
			struct fcase *c = xmalloc(sizeof *c);

			make_case(c, cf.seed, v.number);
			write_repro(c, cf.dir, &v.ours, &v.gnu, repro, sizeof repro);
			free_case(c);
			free(c);
			differ++;
		} else if (v.why != SAME) {
			skipped[v.why]++;
		}
		if (cf.tap && v.why == DIFFERS)
			printf("not ok %llu - seed %llu case %llu (%s, %s) differs from GNU: bash %s\n",
			       n, seed, number, v.what, v.where, repro);
		else if (cf.tap && v.why != SAME)
			printf("ok %llu - seed %llu case %llu (%s, %s) # skip deliberate: %s (tests/GNU-NOTES.md)\n",
			       n, seed, number, v.what, v.where, deliberate[v.why].name);
		else if (cf.tap)
			printf("ok %llu - seed %llu case %llu (%s, %s) as GNU\n", n, seed, number, v.what,
			       v.where);
		else if (v.why == DIFFERS)
			printf("case %llu (%s, %s) differs: bash %s\n", number, v.what, v.where, repro);
		fflush(stdout);
	}
	if (stopped)
		for (unsigned w = 0; w < cf.workers; w++)
			kill(workers[w], SIGTERM);
	free(workers);
	while (wait(NULL) > 0)
		;
	{
		char cmd[64];

		snprintf(cmd, sizeof cmd, "rm -rf %s", top);
		if (system(cmd) != 0)
			fprintf(stderr, "diff_fuzz: could not remove %s\n", top);
	}
	printf("%s%llu cases, %llu differ", cf.tap ? "# " : "", (unsigned long long)seen,
	       (unsigned long long)differ);
	for (int i = 0; i < DELIBERATE; i++)
		if (skipped[i])
			printf(", %llu skipped as %s", (unsigned long long)skipped[i],
			       deliberate[i].name);
	printf("\n");
	if (seen != cf.cases) {
		fprintf(stderr, "diff_fuzz: %llu of %llu cases ran\n", (unsigned long long)seen,
			(unsigned long long)cf.cases);
		return 2;
	}
	return differ > 0;
}
