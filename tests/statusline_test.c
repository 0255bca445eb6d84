/* statusline_test.c - the status line of --progress (statusline.c), from
 * tables of figures and the line they give, byte for byte, and the line
 * never as wide as the terminal at any width, printing TAP.  Names with
 * characters beyond ASCII are read in a UTF-8 locale. */
#include <locale.h>
#include <stdio.h>
#include <string.h>

#include "out/statusline.h"
#include "tap.h"

#define NONE (-1.0)	/* a figure not known */

#define KiB 1024.0
#define MiB (1024.0 * KiB)
#define GiB (1024.0 * MiB)
#define TiB (1024.0 * GiB)
#define PiB (1024.0 * TiB)
#define EiB (1024.0 * PiB)

static bool utf8;	/* the locale is UTF-8's */

/* Nothing known yet of a run hashing inputs FILEs, or with -c checking
 * from inputs lists, on a terminal of 80 columns. */
static struct status_figures nothing_yet(bool check, size_t inputs)
{
	return (struct status_figures){ .check = check, .inputs = inputs, .list = check,
					.bytes_total = NONE, .seconds_left = NONE,
					.list_done = NONE, .width = 80 };
}

/* Whether s has a byte beyond ASCII. */
static bool beyond_ascii(const char *s)
{
	for (; s && *s; s++)
		if ((unsigned char)*s >= 0x80)
			return true;
	return false;
}

/* f makes the line want. */
static void expect(const struct status_figures *f, const char *want, const char *what)
{
	char line[STATUS_LINE_SIZE];
	size_t len;

	if (!utf8 && beyond_ascii(f->name)) {
		ok(1, "%s # skip no UTF-8 locale", what);
		return;
	}
	len = status_line(f, line);
	ok(len == strlen(want) && strcmp(line, want) == 0, "%s", what);
	if (strcmp(line, want) != 0)
		printf("# got:  \"%s\"\n# want: \"%s\"\n", line, want);
}

/* Files: of how many when hashing, checked with -c; the number last said
 * decides between "file" and "files". */
static void test_files(void)
{
	static const struct {
		bool check;
		uint64_t done;
		size_t inputs;
		const char *want, *what;
	} rows[] = {
		{ false, 0, 1, "0/1 file  0 B  0 B/s", "hashing one FILE: 0/1 file" },
		{ false, 1, 2, "1/2 files  0 B  0 B/s", "hashing two: 1/2 files" },
		{ true, 0, 1, "0 files  0 B  0 B/s", "-c: 0 files checked" },
		{ true, 1, 1, "1 file  0 B  0 B/s", "-c: 1 file checked" },
		{ true, 2, 1, "2 files  0 B  0 B/s", "-c: 2 files checked" },
	};

	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		struct status_figures f = nothing_yet(rows[i].check, rows[i].inputs);

		f.files_done = rows[i].done;
		expect(&f, rows[i].want, rows[i].what);
	}
}

/* Bytes and the rate, in the largest unit not above them, at the units'
 * boundaries; tenths rounded half up, so that just below a unit shows
 * 1024.0 of the one before. */
static void test_units(void)
{
	static const struct {
		double bytes, rate;
		const char *want, *what;
	} rows[] = {
		{ 1023, 1023, "0/2 files  1023 B  1023 B/s", "1023 bytes are bytes, whole" },
		{ KiB, KiB, "0/2 files  1.0 KiB  1.0 KiB/s", "1024 bytes are 1.0 KiB" },
		{ MiB - 1, MiB, "0/2 files  1024.0 KiB  1.0 MiB/s",
		  "a byte short of 1 MiB is 1024.0 KiB; 1 MiB is 1.0 MiB" },
		{ GiB - 1, GiB, "0/2 files  1024.0 MiB  1.0 GiB/s",
		  "a byte short of 1 GiB is 1024.0 MiB; 1 GiB is 1.0 GiB" },
		{ TiB, PiB, "0/2 files  1.0 TiB  1.0 PiB/s", "TiB and PiB at their boundaries" },
		{ EiB, 16 * EiB, "0/2 files  1.0 EiB  16.0 EiB/s",
		  "EiB, the last unit: 1.0 EiB, and 16.0 EiB for 2^64" },
		{ 1.25 * MiB, 1075, "0/2 files  1.3 MiB  1.0 KiB/s",
		  "tenths rounded half up: 1.25 MiB is 1.3 MiB; 1075 bytes 1.0 KiB" },
		{ 1076, 1076, "0/2 files  1.1 KiB  1.1 KiB/s", "1076 bytes are 1.1 KiB" },
	};

	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		struct status_figures f = nothing_yet(false, 2);

		f.bytes_done = rows[i].bytes;
		f.rate = rows[i].rate;
		expect(&f, rows[i].want, rows[i].what);
	}
}

/* Bytes of a known total: in the total's unit, with the share done,
 * rounded down and never above 100%.  The time left: a part of a second
 * counts whole; hours once there are 3600 seconds, then minutes of two
 * digits. */
static void test_totals(void)
{
	static const struct {
		double done, total, rate, left;
		const char *want, *what;
	} rows[] = {
		{ 512, KiB, 512, 1, "0/1 file  0.5/1.0 KiB 50%  512 B/s  0:01 left",
		  "done in the unit of the total: 0.5/1.0 KiB 50%" },
		{ 999, 1000, 0, NONE, "0/1 file  999/1000 B 99%  0 B/s", "999 of 1000 bytes: 99%, not 100%" },
		{ 2 * KiB, KiB, KiB, 0, "0/1 file  2.0/1.0 KiB 100%  1.0 KiB/s  0:00 left",
		  "more done than the total said: 100%" },
		{ 0, 0, 0, NONE, "0/1 file  0/0 B  0 B/s", "a total of nothing: no share" },
		{ 0, 1, 2000, 0.0005, "0/1 file  0/1 B 0%  2.0 KiB/s  0:00 left",
		  "half a thousandth of a second left: 0:00" },
		{ 0, 2, 1000, 0.002, "0/1 file  0/2 B 0%  1000 B/s  0:01 left", "two thousandths: 0:01" },
		{ 0, 119, 2, 59.5, "0/1 file  0/119 B 0%  2 B/s  1:00 left", "59.5 seconds: 1:00" },
		{ 0, 3599, 1, 3599, "0/1 file  0.0/3.5 KiB 0%  1 B/s  59:59 left", "3599 seconds: 59:59" },
		{ 0, 359901, 100, 3599.01, "0/1 file  0.0/351.5 KiB 0%  100 B/s  1:00:00 left",
		  "just over 3599 seconds: 1:00:00" },
		{ 0, 36061, 1, 36061, "0/1 file  0.0/35.2 KiB 0%  1 B/s  10:01:01 left",
		  "10 hours, 1 minute and 1 second: 10:01:01" },
		{ 0, 1e12, 1, 1e12, "0/1 file  0.0/931.3 GiB 0%  1 B/s  99999:59:59 left",
		  "ever so long: 99999:59:59, at most" },
	};

	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		struct status_figures f = nothing_yet(false, 1);

		f.bytes_done = rows[i].done;
		f.bytes_total = rows[i].total;
		f.rate = rows[i].rate;
		f.seconds_left = rows[i].left;
		expect(&f, rows[i].want, rows[i].what);
	}
}

/* -c: which list of how many, when there are several; how far through
 * it, when its size is known. */
static void test_lists(void)
{
	static const struct {
		size_t list, lists;
		double done;
		const char *want, *what;
	} rows[] = {
		{ 1, 1, NONE, "3 files  3 B  3 B/s", "one list of a size not known: no list part" },
		{ 1, 1, 0, "3 files  3 B  list 0%  3 B/s", "one list just begun: list 0%" },
		{ 2, 3, NONE, "3 files  3 B  list 2/3  3 B/s", "the second of three, size not known: list 2/3" },
		{ 2, 3, 0.5, "3 files  3 B  list 2/3 50%  3 B/s", "the second of three, half done: list 2/3 50%" },
	};

	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		struct status_figures f = nothing_yet(true, rows[i].lists);

		f.files_done = 3;
		f.bytes_done = f.rate = 3;
		f.list = rows[i].list;
		f.list_done = rows[i].done;
		expect(&f, rows[i].want, rows[i].what);
	}
}

/* "日本語のファイル名/長い名前です.iso": 35 columns, 50 bytes. */
static const char cjk_name[] =
	"\346\227\245\346\234\254\350\252\236\343\201\256\343\203\225\343\202\241"
	"\343\202\244\343\203\253\345\220\215/\351\225\267\343\201\204\345\220\215"
	"\345\211\215\343\201\247\343\201\231.iso";

/* Whole lines, as the README shows them, and other runs. */
static const struct status_figures readme_hash = {
	.inputs = 3, .files_done = 1, .bytes_done = 2254857830.0, .bytes_total = 8482560410.0,
	.rate = 721630003.0, .seconds_left = 8.63, .list_done = NONE, .name = "debian-12.iso",
};
static const struct status_figures readme_check = {
	.check = true, .inputs = 1, .list = 1, .files_done = 1, .bytes_done = 2.3 * GiB,
	.bytes_total = NONE, .rate = 736624640.0, .seconds_left = 7, .list_done = 1 / 3.0,
	.name = "b.iso",
};
static const struct status_figures long_name = {
	.inputs = 2, .bytes_done = 2, .bytes_total = NONE, .rate = 2, .seconds_left = NONE,
	.list_done = NONE, .name = "a-long-name-that-does-not-fit-in-forty-columns.iso",
};
static const struct status_figures lists = {
	.check = true, .inputs = 3, .list = 2, .files_done = 3, .bytes_done = 3,
	.bytes_total = NONE, .rate = 3, .seconds_left = 7, .list_done = 0.5, .name = "slow1",
};
static const struct status_figures nothing = {
	.inputs = 2, .bytes_total = NONE, .seconds_left = NONE, .list_done = NONE,
};
static const struct status_figures cjk = {
	.inputs = 1, .bytes_done = 3, .bytes_total = NONE, .seconds_left = NONE,
	.list_done = NONE, .name = cjk_name,
};
static const struct status_figures latin = {	/* "café-ééééééé.txt" */
	.inputs = 1, .bytes_total = NONE, .seconds_left = NONE, .list_done = NONE,
	.name = "caf\303\251-\303\251\303\251\303\251\303\251\303\251\303\251\303\251.txt",
};

/* The line never as wide as the terminal: the name shrinks in its middle
 * first, then the rate, the time left, the name, the list and the bytes
 * go, and last the files part is cut.  Characters beyond ASCII take two
 * columns each, the most they take: the name is cut between characters,
 * by columns. */
static const struct width_row {
	const struct status_figures *f;
	size_t width;
	const char *want, *what;
} width_rows[] = {
	{ &readme_hash, 80, "1/3 files  2.1/7.9 GiB 26%  688.2 MiB/s  0:09 left  debian-12.iso",
	  "the README's line" },
	{ &readme_check, 80, "1 file  2.3 GiB  list 33%  702.5 MiB/s  0:07 left  b.iso",
	  "the README's line of -c" },
	{ &readme_hash, 45, "1/3 files  2.1/7.9 GiB 26%  debian-12.iso",
	  "45 columns: the rate and the time left go before the name" },
	{ &readme_hash, 40, "1/3 files  2.1/7.9 GiB 26%", "40 columns: then the name" },
	{ &long_name, 80, "0/2 files  2 B  2 B/s  a-long-name-that-does-not-fit-in-forty-columns.iso",
	  "80 columns: a long name whole" },
	{ &long_name, 40, "0/2 files  2 B  2 B/s  a-long...mns.iso",
	  "40 columns: the name shortened in its middle to fit 39" },
	{ &long_name, 20, "0/2 files  2 B", "20 columns: the rate goes, then the name" },
	{ &lists, 40, "3 files  3 B  list 2/3 50%  slow1",
	  "40 columns, -c: the rate and the time left go, the list stays" },
	{ &lists, 20, "3 files  3 B", "20 columns, -c: the list goes before the bytes" },
	{ &nothing, 5, "0/2 ", "5 columns: the files part cut to 4" },
	{ &nothing, 1, "", "1 column: nothing" },
	{ &cjk, 40, "0/1 file  3 B  0 B/s  \346\227\245\346\234\254\350\252\236...\343\201\231.iso",
	  "40 columns: a name in Japanese shortened to 15 columns of 17, whole characters" },
	{ &latin, 40, "0/1 file  0 B  0 B/s  caf\303\251-...\303\251.txt",
	  "40 columns: café-ééééééé.txt shortened between characters, each é two columns" },
};

static void test_widths(void)
{
	for (size_t i = 0; i < sizeof width_rows / sizeof width_rows[0]; i++) {
		struct status_figures f = *width_rows[i].f;

		f.width = width_rows[i].width;
		expect(&f, width_rows[i].want, width_rows[i].what);
	}
}

/* The columns of s: one for an ASCII byte, two for a character beyond,
 * the lead byte of a UTF-8 sequence. */
static size_t columns_of(const char *s)
{
	size_t n = 0;

	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		n += c < 0x80 ? 1 : (c & 0xc0) == 0xc0 ? 2 : 0;
	}
	return n;
}

/* At every width from 0 to 600, the line of every run above fits in one
 * column less, and in 511 at most. */
static void test_never_wraps(void)
{
	unsigned tried = 0, wide = 0;

	for (size_t i = 0; i < sizeof width_rows / sizeof width_rows[0]; i++) {
		struct status_figures f = *width_rows[i].f;

		if (!utf8 && beyond_ascii(f.name))
			continue;
		for (size_t w = 0; w <= 600; w++) {
			char line[STATUS_LINE_SIZE];
			size_t most = w == 0 ? 0 : w > STATUS_COLUMNS_MAX ? STATUS_COLUMNS_MAX - 1 : w - 1;

			f.width = w;
			status_line(&f, line);
			tried++;
			wide += columns_of(line) > most;
		}
	}
	ok(wide == 0 && tried > 0, "no line at any width of 0 to 600 is as wide as the terminal (%u of %u)",
	   wide, tried);
}

/* A name of 600 columns, at 1000 columns: the line stops at 511. */
static void test_widest(void)
{
	char name[601], line[STATUS_LINE_SIZE];
	struct status_figures f = nothing_yet(false, 1);

	memset(name, 'n', 600);
	name[600] = '\0';
	f.name = name;
	f.width = 1000;
	ok(status_line(&f, line) == 511 && columns_of(line) == 511 &&
	   strncmp(line, "0/1 file  0 B  0 B/s  nnn", 25) == 0 && strstr(line, "n...n"),
	   "a terminal of 1000 columns: a line of 511, the name shortened");
}

int main(void)
{
	utf8 = setlocale(LC_CTYPE, "C.UTF-8") || setlocale(LC_CTYPE, "en_US.UTF-8");
	test_files();
	test_units();
	test_totals();
	test_lists();
	test_widths();
	test_never_wraps();
	test_widest();
	return tap_done();
}
