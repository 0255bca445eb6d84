/* diskplace_test.c - the runs of a disk that its reader asks for ahead
 * (diskplace_runs_on), from a table: a file just past the run's end, a
 * gap at the limit and one byte past it, a file that overlaps the run,
 * and wide gaps after files handed in among the latest and before them.
 * Prints TAP. */
#include "diskplace.h"
#include "tap.h"

enum { KIB = 1024, MIB = 1024 * 1024, END = 64 * MIB };

static const struct row {
	const char *what;
	uint64_t where, ago;
	int runs_on;
} rows[] = {
	{ "follows on at once, just handed in", END, 0, 1 },
	{ "a gap of DISKPLACE_GAP, just handed in", END + DISKPLACE_GAP, 0, 1 },
	{ "a byte past DISKPLACE_GAP, just handed in", END + DISKPLACE_GAP + 1, 0, 0 },
	{ "a byte past DISKPLACE_GAP, among the latest", END + DISKPLACE_GAP + 1, DISKPLACE_FRESH, 0 },
	{ "a byte past DISKPLACE_GAP, before the latest", END + DISKPLACE_GAP + 1,
	  DISKPLACE_FRESH + 1, 1 },
	{ "8 MiB on, among the latest", END + 8 * MIB, 1, 0 },
	{ "8 MiB on, long ago", END + 8 * MIB, 1000, 1 },
	{ "begins inside the run", END - 4 * KIB, 0, 1 },
};

int main(void)
{
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		const struct row *r = &rows[i];

		ok(diskplace_runs_on(END, r->where, r->ago) == r->runs_on, "%s: %s", r->what,
		   r->runs_on ? "runs on" : "the run ends");
	}
	return tap_done();
}
