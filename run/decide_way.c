/* decide_way.c - which way each input is read; see decide.h. */
#include "run/decide.h"
#include "os/features.h"

/* A spinning disk's data: by the disk's reader, in disk order, or now,
 * one file at a time, where there is no reader. */
static enum read_way from_spinning(const struct read_facts *f)
{
	return f->readers ? READ_BY_DISK : READ_NOW;
}

/* Data that must come from the device. */
static enum read_way from_device(const struct read_facts *f)
{
	switch (f->storage) {
	case STORAGE_SPINNING:
		return from_spinning(f);
	case STORAGE_UNSURE:
		/* Read as if it spins until its reader's first far reads
		 * say (disk.h): lanes would ask for many files at once,
		 * each a seek if it does spin.  With no disk readers to
		 * measure it, it is measured in lanes, as it is read. */
		return HAS_DISK_READERS ? from_spinning(f) : READ_LANES_TIMED;
	case STORAGE_SOLID:
		return f->sample_due ? READ_LANES_TIMED : READ_LANES_ASKED;
	case STORAGE_NONE:
		break;
	}
	return READ_LANES;
}

enum read_way decide_way(const struct read_facts *f)
{
	if (f->is_stdin || !f->regular)
		return READ_IN_TURN;
	switch (f->disk) {
	case DISK_HDD:
		return from_spinning(f);
	case DISK_SSD:
		return READ_LANES_ASKED;
	case DISK_AUTO:
		break;
	}
	if (f->storage == STORAGE_NONE)
		return READ_LANES;	/* memory, or a device we cannot ask */
	switch (f->cache) {
	case CACHE_UNASKED:
		/* A look at the page cache by a read from memory starts the
		 * reading of what it misses, out of the disk's order: not on
		 * a disk that spins, nor once this thread's reads miss.  (With
		 * no disk readers, such a file is read at once: the look
		 * starts the read it makes next.) */
		if (HAS_DISK_READERS && f->storage == STORAGE_SPINNING)
			return READ_ASK_CACHE;
		/* Flash is asked for the file at once, as --disk=ssd does:
		 * for one in memory after all, the ask costs the system call
		 * that asking the page cache first would, and reads nothing.
		 * The page cache is asked now and then, so that the thread
		 * learns when its files come from memory again. */
		if (HAS_FLASH_ASKED_AT_ONCE && f->cold && f->storage == STORAGE_SOLID &&
		    !f->ask_due)
			return from_device(f);
		return f->cold ? READ_ASK_CACHE : READ_PROBE;
	case CACHE_HIT:
		return READ_LANES;
	case CACHE_MISS:
	case CACHE_UNKNOWABLE:
		break;
	}
	return from_device(f);
}

bool read_way_in_lanes(enum read_way w)
{
	return w >= READ_LANES && w <= READ_PROBE;
}
