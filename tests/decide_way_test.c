/* decide_way_test.c - how each input is read (decide_way.c), from a
 * table of the facts and the way each gives, printing TAP.  How a device
 * is judged from the reads timed on it: decide_device_test.c. */
#include <stdio.h>
#include <string.h>

#include "run/decide.h"
#include "tap.h"

enum { STDIN = 1, IRREGULAR = 2, COLD = 4, DUE = 8, READERS = 16, ASK_DUE = 32 };

static const struct row {
	unsigned flags;
	enum disk_choice disk;
	enum cache_answer cache;
	enum storage_kind storage;
	enum read_way way;
	const char *what;
} rows[] = {
	{ STDIN, DISK_AUTO, CACHE_UNASKED, STORAGE_NONE, READ_IN_TURN, "standard input: in its turn" },
	{ STDIN | READERS, DISK_SSD, CACHE_HIT, STORAGE_SOLID, READ_IN_TURN, "standard input, --disk=ssd: in its turn" },
	{ IRREGULAR, DISK_AUTO, CACHE_UNASKED, STORAGE_SPINNING, READ_IN_TURN, "a pipe or device: in its turn" },
	{ IRREGULAR, DISK_HDD, CACHE_UNASKED, STORAGE_SPINNING, READ_IN_TURN, "a pipe, --disk=hdd: in its turn" },
	{ READERS, DISK_HDD, CACHE_HIT, STORAGE_NONE, READ_BY_DISK, "--disk=hdd: by the disk's reader, cached or not" },
	{ 0, DISK_HDD, CACHE_UNASKED, STORAGE_SOLID, READ_NOW, "--disk=hdd, no reader: now" },
	{ 0, DISK_SSD, CACHE_UNASKED, STORAGE_SPINNING, READ_LANES_ASKED, "--disk=ssd: lanes, asked ahead" },
	{ COLD, DISK_AUTO, CACHE_UNASKED, STORAGE_NONE, READ_LANES, "no block device: lanes, nothing asked" },
	{ 0, DISK_AUTO, CACHE_UNASKED, STORAGE_SPINNING, READ_ASK_CACHE,
	  "spinning disk, warm thread: ask the cache, no read out of order" },
	{ 0, DISK_AUTO, CACHE_UNASKED, STORAGE_UNSURE, READ_PROBE, "warm thread, unsure: the first read tells" },
	{ 0, DISK_AUTO, CACHE_UNASKED, STORAGE_SOLID, READ_PROBE, "warm thread, solid: the first read tells" },
	{ COLD, DISK_AUTO, CACHE_UNASKED, STORAGE_UNSURE, READ_ASK_CACHE, "cold thread: ask the cache first" },
	{ COLD | READERS, DISK_AUTO, CACHE_UNASKED, STORAGE_SPINNING, READ_ASK_CACHE,
	  "cold thread, spinning: ask the cache first" },
	{ COLD, DISK_AUTO, CACHE_UNASKED, STORAGE_SOLID, READ_LANES_ASKED,
	  "cold thread, solid: lanes, asked ahead, the cache not asked" },
	{ COLD | DUE, DISK_AUTO, CACHE_UNASKED, STORAGE_SOLID, READ_LANES_TIMED,
	  "cold thread, solid, a measure due: timed, the cache not asked" },
	{ COLD | ASK_DUE, DISK_AUTO, CACHE_UNASKED, STORAGE_SOLID, READ_ASK_CACHE,
	  "cold thread, solid, the cache due a question: ask it" },
	{ ASK_DUE, DISK_AUTO, CACHE_UNASKED, STORAGE_SOLID, READ_PROBE,
	  "warm thread, solid, the cache due a question: the first read tells" },
	{ READERS, DISK_AUTO, CACHE_HIT, STORAGE_SPINNING, READ_LANES, "cached on a spinning disk: lanes" },
	{ 0, DISK_AUTO, CACHE_HIT, STORAGE_UNSURE, READ_LANES, "cached on an unsure disk: lanes" },
	{ READERS, DISK_AUTO, CACHE_MISS, STORAGE_SPINNING, READ_BY_DISK, "missed, spinning: the disk's reader" },
	{ 0, DISK_AUTO, CACHE_MISS, STORAGE_SPINNING, READ_NOW, "missed, spinning, no reader: now" },
	{ READERS, DISK_AUTO, CACHE_MISS, STORAGE_UNSURE, READ_BY_DISK, "missed, unsure: the disk's reader, which measures it" },
	{ 0, DISK_AUTO, CACHE_MISS, STORAGE_UNSURE, READ_NOW, "missed, unsure, no reader: now, measured" },
	{ READERS, DISK_AUTO, CACHE_MISS, STORAGE_SOLID, READ_LANES_ASKED, "missed, solid: lanes, asked ahead" },
	{ DUE, DISK_AUTO, CACHE_MISS, STORAGE_SOLID, READ_LANES_TIMED, "missed, solid, a measure due: timed" },
	{ READERS, DISK_AUTO, CACHE_UNKNOWABLE, STORAGE_SPINNING, READ_BY_DISK, "cannot tell, spinning: the disk's reader" },
	{ 0, DISK_AUTO, CACHE_UNKNOWABLE, STORAGE_SOLID, READ_LANES_ASKED, "cannot tell, solid: lanes, asked ahead" },
};

static void test_routes(void)
{
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		const struct row *r = &rows[i];
		struct read_facts f = {
			.is_stdin = r->flags & STDIN, .regular = !(r->flags & IRREGULAR),
			.disk = r->disk, .cache = r->cache, .storage = r->storage,
			.cold = r->flags & COLD, .ask_due = r->flags & ASK_DUE,
			.sample_due = r->flags & DUE,
			.readers = r->flags & READERS,
		};
		enum read_way w = decide_way(&f);

		ok(w == r->way, "route: %s (got %d)", r->what, (int)w);
	}
	ok(!read_way_in_lanes(READ_BY_DISK) && !read_way_in_lanes(READ_NOW) &&
	   !read_way_in_lanes(READ_IN_TURN) && read_way_in_lanes(READ_LANES) &&
	   read_way_in_lanes(READ_PROBE) && !read_way_in_lanes(READ_ASK_CACHE),
	   "route: which ways read in lanes");
}

int main(void)
{
	test_routes();
	return tap_done();
}
