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
 * list from a temporary file.  Output goes to /dev/null; run with
 * -close_fd_mask=2 to silence md5sum's messages.
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

#include "check.h"
#include "open.h"
#include "lanes.h"
#include "out.h"
#include "schedule.h"

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
	out_init(&out, devnull, false);
	for (int pass = 0; pass < (flags & 128 ? 2 : 1); pass++) {
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
	out_flush(&out);
	return 0;
}
