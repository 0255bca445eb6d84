/* diskplace_test.c - the runs of a disk that its reader asks for ahead
 * (diskplace_runs_on), from tables: a file just past the run's end, gaps
 * at each limit and one byte past them, the hole of a small file not
 * handed in yet, a file that overlaps the run, and wide gaps after files
 * handed in among the latest and before them, files coming in the disk's
 * order and in none; and sequences of files handed in that come in the
 * disk's order or not (diskplace_in_order).  Prints TAP. */
#include "read/diskplace.h"
#include "tap.h"

enum { KIB = 1024, MIB = 1024 * 1024, END = 64 * MIB };

static const struct row {
	const char *what;
	uint64_t where, ago;
	int in_order, runs_on;
} rows[] = {
	{ "follows on at once, just handed in", END, 0, 0, 1 },
	{ "a gap of DISKPLACE_GAP, just handed in", END + DISKPLACE_GAP, 0, 0, 1 },
	{ "a byte past DISKPLACE_GAP, just handed in", END + DISKPLACE_GAP + 1, 0, 0, 0 },
	{ "a byte past DISKPLACE_GAP, among the latest", END + DISKPLACE_GAP + 1,
	  DISKPLACE_FRESH, 0, 0 },
	{ "a byte past DISKPLACE_GAP, before the latest", END + DISKPLACE_GAP + 1,
	  DISKPLACE_FRESH + 1, 0, 1 },
	{ "8 MiB on, among the latest", END + 8 * MIB, 1, 0, 0 },
	{ "8 MiB on, long ago", END + 8 * MIB, 1000, 0, 1 },
	{ "begins inside the run", END - 4 * KIB, 0, 0, 1 },
	{ "in disk order: follows on at once", END, 0, 1, 1 },
	{ "in disk order: a gap of DISKPLACE_PAD", END + DISKPLACE_PAD, 0, 1, 1 },
	{ "in disk order: a byte past DISKPLACE_PAD", END + DISKPLACE_PAD + 1, 0, 1, 0 },
	{ "in disk order: past the hole of an 8 KiB file, among the latest", END + 8 * KIB,
	  DISKPLACE_FRESH, 1, 0 },
	{ "in disk order: past the hole of an 8 KiB file, before the latest", END + 8 * KIB,
	  DISKPLACE_FRESH + 1, 1, 1 },
	{ "in disk order: begins inside the run", END - 4 * KIB, 0, 1, 1 },
};

/* Sequences of files handed in, 8 KiB each unless said, each a place
 * in KiB from the start of a run of the disk, or NOWHERE. */
enum { NOWHERE = -1, SEQ_MAX = 64 };

static const struct order_row {
	const char *what;
	int in_order;
	int kib[SEQ_MAX];	/* ends at the first 0 after the first */
} order_rows[] = {
	{ "one run in disk order", 1,
	  { 0, 8, 16, 24, 32, 40, 48, 56, 64, 72, 80, 88, 96, 104, 112, 120,
	    128, 136, 144, 152, 160, 168, 176, 184, 192, 200, 208, 216, 224, 232, 240, 248 } },
	{ "two threads' batches in disk order, taken in turns", 1,
	  { 0, 800, 8, 808, 16, 816, 24, 824, 32, 832, 40, 840, 48, 848, 56, 856,
	    64, 864, 72, 872, 80, 880, 88, 888, 96, 896, 104, 904, 112, 912, 120, 920 } },
	{ "shuffled", 0,
	  { 640, 88, 1200, 16, 904, 376, 2000, 48, 1496, 720, 256, 1800, 8, 1112, 440, 96,
	    1640, 328, 560, 1960, 136, 1024, 208, 1336, 600, 1768, 32, 880, 472, 1400, 184, 744 } },
	{ "in disk order with a gap of 12 KiB each", 0,
	  { 0, 20, 40, 60, 80, 100, 120, 140, 160, 180, 200, 220, 240, 260, 280, 300,
	    320, 340, 360, 380, 400, 420, 440, 460, 480, 500, 520, 540, 560, 580, 600, 620 } },
	{ "not placed (inode numbers)", 0,
	  { NOWHERE, NOWHERE, NOWHERE, NOWHERE, NOWHERE, NOWHERE, NOWHERE, NOWHERE,
	    NOWHERE, NOWHERE, NOWHERE, NOWHERE, NOWHERE, NOWHERE, NOWHERE, NOWHERE,
	    NOWHERE, NOWHERE, NOWHERE, NOWHERE, NOWHERE, NOWHERE, NOWHERE, NOWHERE } },
	{ "too few yet", 0, { 0, 8, 16, 24, 32, 40, 48, 56 } },
	{ "shuffled after a run in disk order", 0,
	  { 0, 8, 16, 24, 32, 40, 48, 56, 64, 72, 80, 88, 96, 104, 112, 120,
	    640, 1088, 1200, 2016, 904, 376, 2000, 1048, 1496, 720, 256, 1800, 3008, 1112, 440, 4096,
	    1640, 328, 560, 1960, 5136, 1024, 208, 1336, 600, 1768, 3032, 880, 472, 1400, 184, 744 } },
};

static bool order_of(const struct order_row *r)
{
	struct diskplace_order o = { 0 };

	for (size_t i = 0; i < SEQ_MAX && (i == 0 || r->kib[i] != 0); i++)
		diskplace_note(&o, r->kib[i] == NOWHERE ? DISKPLACE_NOWHERE
						   : END + (uint64_t)r->kib[i] * KIB,
			       8 * KIB);
	return diskplace_in_order(&o);
}

int main(void)
{
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		const struct row *r = &rows[i];

		ok(diskplace_runs_on(END, r->where, r->ago, r->in_order) == r->runs_on, "%s: %s",
		   r->what, r->runs_on ? "runs on" : "the run ends");
	}
	for (size_t i = 0; i < sizeof order_rows / sizeof order_rows[0]; i++) {
		const struct order_row *r = &order_rows[i];

		ok(order_of(r) == r->in_order, "%s: %s", r->what,
		   r->in_order ? "in the disk's order" : "in no order");
	}
	return tap_done();
}
