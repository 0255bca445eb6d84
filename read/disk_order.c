/* disk_order.c - part of module disk: which waiting file a disk's reader
 * reads next, and which it asks for ahead; see disk_order.h. */
#include <string.h>

#include "read/disk_order.h"


/* Whether the file's first read, made next, times the disk: not asked
 * ahead, not begun elsewhere, and PROBE_GAP or more behind the last read,
 * which a spinning disk must seek back to (a drive's cache holds what
 * lies ahead of its head, not behind), or FAR_GAP ahead, past its cache. */
bool disk_times_disk(const struct disk *d, const struct waiting *w)
{
	return w->placed && !w->ahead && !w->begun && w->size > 0 &&
	       (w->where + PROBE_GAP < d->at || w->where > d->end + FAR_GAP);
}

/* Whether the disk is in its first files while not measured yet, when
 * none is asked for ahead (PROBE_FILES). */
bool disk_probing(const struct disk *d, const struct waiting *w)
{
	return storage_kind(w->storage) == STORAGE_UNSURE && d->unsure_files < PROBE_FILES;
}

/* The next file of the sweep across the disk: the first at or past the
 * last one read, else, the sweep done, the first of all. */
static unsigned next_in_sweep(const struct disk *d)
{
	unsigned i = 0;

	while (i < d->n && d->file[i].where < d->at)
		i++;
	return i < d->n ? i : 0;
}

/* The next file to read: the next of the sweep, but while the disk's
 * kind is unsure (storage.h), one whose read times it, at the cost of a
 * seek where the sweep might not jump far for a long time: the first
 * far behind not asked for yet; else the last, if far ahead: timed if
 * FAR_GAP ahead, and else it leaves the next of the sweep far behind, to
 * be timed (files in disk order leave no far read to make). */
unsigned disk_next_to_read(const struct disk *d)
{
	unsigned i = next_in_sweep(d), last = d->n - 1;

	if (storage_kind(d->file[i].storage) == STORAGE_UNSURE) {
		for (unsigned k = 0; k < d->n && d->file[k].where + PROBE_GAP < d->at; k++)
			if (disk_times_disk(d, &d->file[k]))
				return k;
		if (d->file[last].where > d->end + PROBE_GAP)
			return last;
	}
	return i;
}

/* Up to AHEAD_FILES small files that follow file i in the sweep, not
 * asked for yet, up to the first large one, which will stream in its
 * turn, or the end of its run of the disk (diskplace.h), or the end of
 * the sweep: their descriptors into fd and sizes into size.  How many. */
unsigned disk_files_ahead(struct disk *d, unsigned i, int *fd, off_t *size)
{
	uint64_t end = d->file[i].where + (uint64_t)d->file[i].size;
	uint64_t came = d->file[i].came;
	bool in_order = diskplace_in_order(&d->order);
	unsigned n = 0;

	for (unsigned k = i + 1; k < d->n && n < AHEAD_FILES; k++) {
		struct waiting *w = &d->file[k];

		if (w->size > SMALL_FILE ||
		    (w->placed && !diskplace_runs_on(end, w->where, d->came - came, in_order)))
			break;
		if (w->where + (uint64_t)w->size > end)
			end = w->where + (uint64_t)w->size;
		came = w->came;
		if (!w->ahead && w->size > 0) {
			w->ahead = true;
			fd[n] = w->fd;
			size[n++] = w->size;
		}
	}
	return n;
}

/* Take file i out of the waiting ones. */
struct waiting disk_take_file(struct disk *d, unsigned i)
{
	struct waiting w = d->file[i];

	memmove(&d->file[i], &d->file[i + 1], (d->n - i - 1) * sizeof d->file[0]);
	d->n--;
	d->at = w.where;
	d->end = w.where + (uint64_t)w.size;
	pthread_cond_signal(&d->room);
	return w;
}
