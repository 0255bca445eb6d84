/* recent.c - what a hashing thread has learnt of its storage; see recent.h. */
#include "run/recent.h"
#include "os/features.h"

struct recent_reads recent_begin(struct devices *devices)
{
	return (struct recent_reads){ .devices = devices };
}

struct storage *recent_storage(struct recent_reads *s, dev_t dev)
{
	if (!s->storage || s->dev != dev) {
		s->storage = storage_of(s->devices, dev);
		s->dev = dev;
	}
	return s->storage;
}

bool recent_cold(const struct recent_reads *s)
{
	unsigned n = 0;

	for (unsigned m = s->misses; m; m &= m - 1)
		n++;
	return n >= WAY_COLD_MISSES;
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
	/* Files asked of flash unasked count as misses, for its measure;
	 * without (the small build), only what the page cache answered. */
	if (HAS_FLASH_ASKED_AT_ONCE && (w == READ_LANES_ASKED || w == READ_LANES_TIMED) &&
	    storage_kind(st) == STORAGE_SOLID) {
		s->unasked++;
		s->unsampled++;
	}
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
		.ask_due = s->unasked >= WAY_ASK_EVERY,
		.sample_due = s->unsampled >= WAY_SAMPLE_EVERY,
		.readers = readers,
	};

	return decide_way(&f);
}

enum cache_answer recent_ask_cache(int fd)
{
	int has = storage_has_start(fd);

	return has < 0 ? CACHE_UNKNOWABLE : has ? CACHE_HIT : CACHE_MISS;
}
