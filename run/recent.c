/* recent.c - what a hashing thread has learnt of its storage; see recent.h. */
#include "run/recent.h"

/* Of the files whose data had to come from a solid device, one in this
 * many is read unasked and timed, so that the device's measure goes on. */
enum { SAMPLE_EVERY = 512 };

/* Of the latest 8 files asked of the page cache, this many missed makes
 * a thread cold. */
enum { COLD_MISSES = 2 };

/* A cold thread asks flash for its files without asking the page cache
 * (readway.h), but for one in this many: enough to turn warm again within
 * some hundreds of files once they come from memory. */
enum { ASK_EVERY = 32 };

struct storage *recent_storage(struct recent_reads *s, dev_t dev)
{
	if (!s->storage || s->dev != dev) {
		s->storage = storage_of(dev);
		s->dev = dev;
	}
	return s->storage;
}

bool recent_cold(const struct recent_reads *s)
{
	unsigned n = 0;

	for (unsigned m = s->misses; m; m &= m - 1)
		n++;
	return n >= COLD_MISSES;
}

void recent_cache(struct recent_reads *s, enum cache_answer a, const struct storage *st)
{
	if (a == CACHE_UNKNOWABLE) {
		s->cache_unknowable = true;
		return;
	}
	s->misses = (unsigned char)(s->misses << 1 | (a == CACHE_MISS));
	s->unasked = 0;
	if (a == CACHE_MISS && storage_kind(st) == STORAGE_SOLID)
		s->unsampled++;
}

void recent_unasked(struct recent_reads *s, enum read_way w, const struct storage *st)
{
#ifndef MD5SUM_SMALL	/* no room: it counts only what the page cache answered */
	/* Files asked of flash unasked count as misses, for its measure. */
	if ((w == READ_LANES_ASKED || w == READ_LANES_TIMED) &&
	    storage_kind(st) == STORAGE_SOLID) {
		s->unasked++;
		s->unsampled++;
	}
#else
	(void)s;
	(void)w;
	(void)st;
#endif
}

void recent_sampled(struct recent_reads *s)
{
	s->unsampled = 0;
}

enum read_way recent_way(const struct recent_reads *s, const struct storage *st,
		       enum cache_answer a, enum disk_choice disk, bool readers)
{
	struct read_facts f = {
		.regular = true,
		.disk = disk,
		.cache = a == CACHE_UNASKED && s->cache_unknowable ? CACHE_UNKNOWABLE : a,
		.storage = storage_kind(st),
		.cold = recent_cold(s),
		.ask_due = s->unasked >= ASK_EVERY,
		.sample_due = s->unsampled >= SAMPLE_EVERY,
		.readers = readers,
	};

	return read_way_for(&f);
}

enum cache_answer recent_ask_cache(int fd)
{
	int has = storage_has_start(fd);

	return has < 0 ? CACHE_UNKNOWABLE : has ? CACHE_HIT : CACHE_MISS;
}
