/* fuzz_check.c - libFuzzer harness for md5sum -c: the line parser
 * (parse_check_line, check.h) and the whole check path (check_list: reading
 * the list, making jobs, hashing them one by one or in lanes on worker
 * threads, reporting and summarizing).
 *
 * Input: one byte of options, then the bytes of a checksum list.
 *   bits 0-1  0: default, 1: --quiet, 2: --status, 3: --warn
 *   bit 2     --strict            bit 3  --ignore-missing
 *   bit 4     lanes path (schedule.c, many at once); else one by one
 *   bit 5     two threads, started at once; else the one thread
 *   bit 6     the list is standard input ("-"); else a file called "list"
 *   bit 7     check the list twice in one run (the line form carries over),
 *             the files read as on a spinning disk; else as on an SSD
 *
 * Every line of the list is also parsed on its own, in a buffer of exactly
 * its size (so ASan sees any read past it), and a line that names a file
 * must round-trip: printed back as md5sum prints it, in both the GNU and
 * the --tag form, it must parse to the same name and digest.
 *
 * Names in the list reach only a private directory made at start-up, which
 * holds "a" ("abc"), "e" (empty), "h" ("hello\n") and "d" (a directory):
 * a name with a '/' is "not found".  The harness links its own
 * open_input and open_list (open.h) in place of open.c, and serves the
 * list from a temporary file.  Standard output goes through out.h, the
 * real output path, into a temporary file, which must then hold exactly
 * the lines that a model of -c's reports, written here from the sandbox's
 * files, expects: no byte more, none less, whatever the lengths of the
 * lines.  Run with -close_fd_mask=2 to silence md5sum's messages.
 *
 * Build and run: see fuzz/README.md ("make fuzz"). */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmd/check.h"
#include "read/open.h"
#include "lib/lanes.h"
#include "out/out.h"
#include "run/schedule.h"

/* libFuzzer's entry points. */
int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int sandbox = -1;	/* the private directory */
static int devnull = -1;
static const uint8_t *list_data;
static size_t list_size;

int open_input(const char *name)
{
	if (strchr(name, '/')) {
		errno = ENOENT;
		return -1;
	}
	return openat(sandbox, name, O_RDONLY | O_CLOEXEC);
}

/* A descriptor open on a file that holds the list, read from its start. */
static int list_fd(void)
{
	FILE *f = tmpfile();
	int fd;

	if (!f || fwrite(list_data, 1, list_size, f) != list_size || fflush(f) != 0)
		abort();
	fd = dup(fileno(f));
	fclose(f);
	if (fd < 0 || lseek(fd, 0, SEEK_SET) != 0)
		abort();
	return fd;
}

int open_list(const char *name)
{
	if (strcmp(name, "list") != 0) {
		errno = ENOENT;
		return -1;
	}
	return list_fd();
}

static void put_file(const char *name, const char *text)
{
	int fd = openat(sandbox, name, O_WRONLY | O_CREAT | O_TRUNC, 0644);

	if (fd < 0 || write(fd, text, strlen(text)) != (ssize_t)strlen(text) || close(fd) != 0)
		abort();
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	char dir[] = "/tmp/md5sum-fuzz.XXXXXX";

	(void)argc;
	(void)argv;
	if (!mkdtemp(dir) || (sandbox = open(dir, O_RDONLY | O_DIRECTORY)) < 0)
		abort();
	put_file("a", "abc");
	put_file("e", "");
	put_file("h", "hello\n");
	if (mkdirat(sandbox, "d", 0755) != 0)
		abort();
	devnull = open("/dev/null", O_RDWR);
	/* A listed "-" reads descriptor 0: make it empty, never a terminal. */
	if (devnull < 0 || dup2(devnull, STDIN_FILENO) < 0)
		abort();
	return 0;
}

/* The sandbox's files, for the model of the reports. */
static const struct {
	const char *name, *text;
} files[] = { { "a", "abc" }, { "e", "" }, { "h", "hello\n" } };

/* What md5sum -c prints, as a model of its own: a growing buffer. */
struct expect {
	char *buf;
	size_t len, size;
};

static void expect_add(struct expect *x, const char *p, size_t n)
{
	if (n == 0)
		return;
	if (x->len + n > x->size) {
		x->size = 2 * (x->len + n);
		if (!(x->buf = realloc(x->buf, x->size)))
			abort();
	}
	memcpy(x->buf + x->len, p, n);
	x->len += n;
}

/* The report on name, listed with digest, as md5sum -c words it: NULL for
 * none (a file missing under --ignore-missing). */
static const char *result_of(const char *name, const uint8_t digest[MD5_DIGEST_LENGTH],
			     const struct check_options *opt)
{
	const char *text = NULL;
	uint8_t d[MD5_DIGEST_LENGTH];
	struct md5 ctx;

	if (strcmp(name, "-") == 0)
		text = "";	/* standard input is /dev/null */
	for (size_t i = 0; i < sizeof files / sizeof *files; i++)
		if (strcmp(name, files[i].name) == 0)
			text = files[i].text;
	if (!text) {
		/* A directory, or a name too long (ENAMETOOLONG), is not
		 * missing: --ignore-missing skips only what is not there. */
		bool there = strcmp(name, "d") == 0 || strcmp(name, ".") == 0 ||
			     strcmp(name, "..") == 0 || (!strchr(name, '/') && strlen(name) > 255);

		return there || !opt->ignore_missing ? "FAILED open or read" : NULL;
	}
	md5_init(&ctx);
	md5_update(&ctx, text, strlen(text));
	md5_final(&ctx, d);
	return memcmp(d, digest, sizeof d) == 0 ? "OK" : "FAILED";
}

/* Add the lines md5sum -c prints for the list, checked from stdin or not,
 * its line form carried in *form from list to list. */
static void expect_list(struct expect *x, const struct check_options *opt, bool from_stdin,
			enum line_form *form)
{
	for (size_t at = 0; at < list_size;) {
		const uint8_t *nl = memchr(list_data + at, '\n', list_size - at);
		size_t end = nl ? (size_t)(nl - list_data) + 1 : list_size;
		char *s = malloc(end - at + 1), *name;
		uint8_t digest[MD5_DIGEST_LENGTH];
		const char *result;

		if (!s)
			abort();
		memcpy(s, list_data + at, end - at);
		if (parse_check_line(s, end - at, form, &name, digest) == LINE_CHECKSUM &&
		    !(from_stdin && strcmp(name, "-") == 0) &&
		    (result = result_of(name, digest, opt)) && !opt->status &&
		    !(opt->quiet && strcmp(result, "OK") == 0)) {
			if (strchr(name, '\n')) {
				expect_add(x, "\\", 1);
				for (const char *p = name; *p; p++)
					expect_add(x, *p == '\\' ? "\\\\" : *p == '\n' ? "\\n" :
						   *p == '\r' ? "\\r" : p, *p == '\\' || *p == '\n' ||
						   *p == '\r' ? 2 : 1);
			} else {
				expect_add(x, name, strlen(name));
			}
			expect_add(x, ": ", 2);
			expect_add(x, result, strlen(result));
			expect_add(x, "\n", 1);
		}
		free(s);
		at = end;
	}
}

/* The output written to f must be x's, byte for byte. */
static void compare_output(FILE *f, const struct expect *x)
{
	char *got = malloc(x->len + 1);
	size_t n;

	if (!got || fseek(f, 0, SEEK_SET) != 0)
		abort();
	n = fread(got, 1, x->len + 1, f);
	if (n != x->len || (n > 0 && memcmp(got, x->buf, n) != 0)) {
		fprintf(stderr, "standard output: %zu bytes, where the model expects %zu%s\n", n,
			x->len, n == x->len ? ", other bytes" : "");
		fprintf(stderr, "got (first 200): ");
		for (size_t i = 0; i < n && i < 200; i++)
			fprintf(stderr, (unsigned char)got[i] < 32 ? "\\%03o" : "%c", (unsigned char)got[i]);
		fprintf(stderr, "\nexpected: ");
		for (size_t i = 0; i < x->len && i < 200; i++)
			fprintf(stderr, (unsigned char)x->buf[i] < 32 ? "\\%03o" : "%c",
				(unsigned char)x->buf[i]);
		fprintf(stderr, "\n");
		abort();
	}
	free(got);
}

static char *escape(const char *s)
{
	char *r = malloc(2 * strlen(s) + 1), *p = r;

	if (!r)
		abort();
	for (; *s; s++) {
		if (*s == '\\' || *s == '\n' || *s == '\r') {
			*p++ = '\\';
			*p++ = *s == '\\' ? '\\' : *s == '\n' ? 'n' : 'r';
		} else {
			*p++ = *s;
		}
	}
	*p = '\0';
	return r;
}

/* Parse the line as md5sum -c does and check the round trip. */
static void parse_one(const uint8_t *data, size_t len)
{
	char *s = malloc(len + 1), *name;
	uint8_t digest[MD5_DIGEST_LENGTH];
	enum line_form form = FORM_UNKNOWN;
	enum line_kind kind;

	if (!s)
		abort();
	memcpy(s, data, len);
	kind = parse_check_line(s, len, &form, &name, digest);
	if (kind != LINE_SKIP && kind != LINE_BAD && kind != LINE_CHECKSUM)
		abort();
	if (kind == LINE_CHECKSUM) {
		char hex[MD5_DIGEST_STRING_LENGTH];
		bool esc = strpbrk(name, "\\\n\r") != NULL;
		char *e = esc ? escape(name) : NULL;
		const char *shown = esc ? e : name;
		size_t n = 3 * strlen(shown) + 64;
		char *line = malloc(n), *name2;
		uint8_t digest2[MD5_DIGEST_LENGTH];

		if (name < s || name > s + len || !line)
			abort();
		md5_hex(digest, hex);
		for (int tag = 0; tag < 2; tag++) {
			int k;

			if (!tag && !*name)
				continue;	/* "H  " names " ", as GNU reads it */
			if (tag)
				k = snprintf(line, n, "%sMD5 (%s) = %s\n", esc ? "\\" : "", shown, hex);
			else
				k = snprintf(line, n, "%s%s  %s\n", esc ? "\\" : "", hex, shown);
			form = FORM_UNKNOWN;
			if (parse_check_line(line, (size_t)k, &form, &name2, digest2) != LINE_CHECKSUM ||
			    strcmp(name, name2) != 0 ||
			    memcmp(digest, digest2, sizeof digest) != 0) {
				fprintf(stderr, "round trip (%s form) failed\n", tag ? "tag" : "GNU");
				abort();
			}
		}
		free(line);
		free(e);
	}
	free(s);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct check_options opt = { 0 };
	struct out out;
	struct schedule sched = { .prog = "md5sum", .out = &out };
	struct check_run run = { .opt = &opt, .sched = &sched, .form = FORM_UNKNOWN };
	enum line_form form = FORM_UNKNOWN;
	struct expect x = { 0 };
	FILE *output;
	int out_fd;
	unsigned flags;

	if (size == 0)
		return 0;
	flags = data[0];
	list_data = data + 1;
	list_size = size - 1;

	for (size_t at = 0; at < list_size;) {
		const uint8_t *nl = memchr(list_data + at, '\n', list_size - at);
		size_t end = nl ? (size_t)(nl - list_data) + 1 : list_size;

		parse_one(list_data + at, end - at);
		at = end;
	}

	opt.quiet = (flags & 3) == 1;
	opt.status = (flags & 3) == 2;
	opt.warn = (flags & 3) == 3;
	opt.strict = flags & 4;
	opt.ignore_missing = flags & 8;
	sched.threads = flags & 32 ? 2 : 1;
	sched.disk = flags & 128 ? DISK_HDD : DISK_SSD;
	if (flags & 16)
		sched.engines = md5_engines();
	output = tmpfile();
	if (!output || (out_fd = dup(fileno(output))) < 0)
		abort();
	out_init(&out, out_fd, false);
	for (int pass = 0; pass < (flags & 128 ? 2 : 1); pass++) {
		expect_list(&x, &opt, flags & 64, &form);
		if (flags & 64) {
			int fd = list_fd();

			if (dup2(fd, STDIN_FILENO) < 0 || close(fd) != 0)
				abort();
			check_list(&run, "-");
			if (dup2(devnull, STDIN_FILENO) < 0)
				abort();
		} else {
			check_list(&run, "list");
		}
	}
	if (!out_close(&out))
		abort();
	compare_output(output, &x);
	fclose(output);
	free(x.buf);
	return 0;
}
