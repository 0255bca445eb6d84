/* disk.c - one reader per spinning disk; see disk.h.
 *
 * The small static build (MD5SUM_SMALL) has no room for them: there, at
 * the end, no disk has a reader, and files that must come from a
 * spinning disk are read one at a time, in input order, where they come
 * (readway.h: READ_NOW), as GNU reads them. */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "read/disk.h"
#include "read/diskplace.h"
#include "read/stream.h"
#include "os/thread.h"

#ifndef MD5SUM_SMALL

enum {
	MAX_DISKS = 16,		/* more disks share the last one's reader */
	MAX_WAITING = 1024,	/* files waiting per disk, each holding a
				 * descriptor, at most */
	AHEAD_FILES = 16,	/* small files read ahead of the one being read */
	SMALL_FILE = 256 * 1024,	/* read ahead whole; larger ones stream */
	/* A read this far ahead of the end of the last one is timed as one
	 * that does not follow on: well past a drive's cache and track. */
	FAR_GAP = 4 * 1024 * 1024,
	/* A read this far behind the start of the last one is timed too: a
	 * spinning disk seeks back, over STORAGE_SEEK_US.  Only far reads:
	 * files in disk order read as fast from a drive's cache as from
	 * flash. */
	PROBE_GAP = 1024 * 1024,
	/* Files read while it is not measured with none asked for ahead (a
	 * file asked for ahead is not one to time); after them, with no
	 * verdict yet, the sweep asks ahead as on a spinning disk. */
	PROBE_FILES = 64,
	/* Files that may wait while it is not measured: few, so that flash,
	 * once measured, is read in lanes soon, but enough to span the
	 * PROBE_GAP of a far read among small files. */
	UNSURE_WAITING = 512,
};

/* A file handed in, waiting for its turn. */
struct waiting {
	struct task *task;
	int fd;
	off_t size;
	struct storage *storage;
	struct md5 *begun;	/* see disk_file; owned */
	uint64_t where;		/* its place on the disk (diskplace.h) */
	bool placed;		/* where is a physical offset, not an inode */
	bool ahead;		/* already asked for, ahead of its turn */
	uint64_t came;		/* the disk's count of files handed in, when
				 * it was */
};

struct disk {
	dev_t dev;
	struct disks *all;
	pthread_t thread;
	pthread_cond_t more;	/* a file was handed in, or the end came */
	pthread_cond_t room;	/* a file was taken */
	struct waiting file[MAX_WAITING];	/* in order of where */
	unsigned n;
	bool reading;		/* a file taken, not yet closed */
	atomic_uint_fast64_t work;	/* bytes read (a file's FILE_COST is
					 * its hasher's, who took it) */
	uint64_t at;		/* where the file read last begins ... */
	uint64_t end;		/* ... and ends */
	unsigned unsure_files;	/* files read while its kind was unsure */
	uint64_t came;		/* files handed in so far */
	struct diskplace_order order;	/* of the files handed in */
	uint8_t *buf;		/* READ_SIZE bytes */
};

struct disks {
	pthread_mutex_t lock;	/* guards every disk's waiting files */
	unsigned waiting_max;	/* files waiting per disk */
	bool end;		/* no more files will come */
	unsigned n;
	struct disk *disk[MAX_DISKS];
};

/* Hash the file, close it and make its result known. */
static void hash_waiting(struct waiting *w, uint8_t *buf)
{
	struct job *j = &w->task->job;
	struct md5 ctx;

	/* Advice only: a larger read-ahead for a file read from end to end. */
	if (w->size > SMALL_FILE)
		(void)posix_fadvise(w->fd, 0, 0, POSIX_FADV_SEQUENTIAL);
	if (w->begun)
		ctx = *w->begun;
	else
		md5_init(&ctx);
	/* Readers run beside helpers only, never with -j 1: reading ahead is
	 * allowed. */
	j->err = stream_hash_fd_from(w->fd, &ctx, j->digest, buf, READ_SIZE, true);
	if (close(w->fd) != 0 && j->err == 0)
		j->err = errno;
	free(w->begun);
	window_task_done_may_write(w->task);
}

/* Whether the file's first read, made next, times the disk: not asked
 * ahead, not begun elsewhere, and PROBE_GAP or more behind the last read,
 * which a spinning disk must seek back to (a drive's cache holds what
 * lies ahead of its head, not behind), or FAR_GAP ahead, past its cache. */
static bool times_disk(const struct disk *d, const struct waiting *w)
{
	return w->placed && !w->ahead && !w->begun && w->size > 0 &&
	       (w->where + PROBE_GAP < d->at || w->where > d->end + FAR_GAP);
}

/* Whether the disk is in its first files while not measured yet, when
 * none is asked for ahead (PROBE_FILES). */
static bool probing(const struct disk *d, const struct waiting *w)
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
static unsigned next_to_read(const struct disk *d)
{
	unsigned i = next_in_sweep(d), last = d->n - 1;

	if (storage_kind(d->file[i].storage) == STORAGE_UNSURE) {
		for (unsigned k = 0; k < d->n && d->file[k].where + PROBE_GAP < d->at; k++)
			if (times_disk(d, &d->file[k]))
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
static unsigned files_ahead(struct disk *d, unsigned i, int *fd, off_t *size)
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
static struct waiting take_file(struct disk *d, unsigned i)
{
	struct waiting w = d->file[i];

	memmove(&d->file[i], &d->file[i + 1], (d->n - i - 1) * sizeof d->file[0]);
	d->n--;
	d->at = w.where;
	d->end = w.where + (uint64_t)w.size;
	pthread_cond_signal(&d->room);
	return w;
}

/* A disk's thread: its files in the order of the sweep, one at a time;
 * while a small one is read, the small ones after it are asked for, so
 * that the disk's queue holds them all. */
static void *read_disk(void *arg)
{
	struct disk *d = arg;
	struct disks *all = d->all;

	pthread_mutex_lock(&all->lock);
	for (;;) {
		int fd[AHEAD_FILES];
		off_t size[AHEAD_FILES];
		unsigned i, n = 0;
		struct waiting w;
		bool far;

		while (d->n == 0 && !all->end)
			pthread_cond_wait(&d->more, &all->lock);
		if (d->n == 0)
			break;
		i = next_to_read(d);
		if (d->file[i].size <= SMALL_FILE && !probing(d, &d->file[i]))
			n = files_ahead(d, i, fd, size);
		far = times_disk(d, &d->file[i]);
		if (storage_kind(d->file[i].storage) == STORAGE_UNSURE)
			d->unsure_files++;
		w = take_file(d, i);
		d->reading = true;
		pthread_mutex_unlock(&all->lock);
		/* A start already in memory (read ahead by another thread's
		 * look at the page cache, or by a file before it) says
		 * nothing of the disk.  The file is timed, or asked for, before
		 * the files after it are: else the disk's queue holds them
		 * first, and the disk goes past it and back. */
		if (far && storage_has_start(w.fd) != 1)
			storage_time_first_read(w.storage, w.fd, d->buf);
		else if (n > 0 && !w.ahead)
			(void)posix_fadvise(w.fd, 0, w.size, POSIX_FADV_WILLNEED);
		/* Only this thread closes them: they stay open out of the lock. */
		for (unsigned k = 0; k < n; k++)
			(void)posix_fadvise(fd[k], 0, size[k], POSIX_FADV_WILLNEED);
		hash_waiting(&w, d->buf);
		atomic_fetch_add_explicit(&d->work, (uint64_t)w.size,
					  memory_order_relaxed);
		pthread_mutex_lock(&all->lock);
		d->reading = false;
	}
	pthread_mutex_unlock(&all->lock);
	return NULL;
}

/* A new disk with its thread started; NULL when no thread can be had. */
static struct disk *start_disk(struct disks *all, dev_t dev)
{
	struct disk *d = calloc(1, sizeof *d);

	if (!d)
		return NULL;
	d->dev = dev;
	d->all = all;
	if (!(d->buf = malloc(READ_SIZE)) || pthread_cond_init(&d->more, NULL) != 0 ||
	    pthread_cond_init(&d->room, NULL) != 0 ||
	    thread_start(&d->thread, read_disk, d) != 0) {
		free(d->buf);
		free(d);
		return NULL;
	}
	return d;
}

/* The disk that dev is on, started if need be; NULL when no thread can be
 * had for it. */
static struct disk *disk_of(struct disks *all, dev_t dev)
{
	for (unsigned i = 0; i < all->n; i++)
		if (all->disk[i]->dev == dev)
			return all->disk[i];
	if (all->n == MAX_DISKS)
		return all->disk[MAX_DISKS - 1];
	all->disk[all->n] = start_disk(all, dev);
	return all->disk[all->n] ? all->disk[all->n++] : NULL;
}

struct disks *disks_start(unsigned waiting)
{
	struct disks *all = calloc(1, sizeof *all);

	if (!all || pthread_mutex_init(&all->lock, NULL) != 0) {
		free(all);
		return NULL;
	}
	all->waiting_max = waiting < MAX_WAITING ? waiting : MAX_WAITING;
	return all;
}

uint64_t disks_work(struct disks *all)
{
	uint64_t work = 0;

	pthread_mutex_lock(&all->lock);
	for (unsigned i = 0; i < all->n; i++)
		work += atomic_load_explicit(&all->disk[i]->work, memory_order_relaxed);
	pthread_mutex_unlock(&all->lock);
	return work;
}

bool disks_held(struct disks *all)
{
	bool held = false;

	pthread_mutex_lock(&all->lock);
	for (unsigned i = 0; i < all->n && !held; i++)
		held = all->disk[i]->n > 0 || all->disk[i]->reading;
	pthread_mutex_unlock(&all->lock);
	return held;
}

/* Files that may wait for a disk's reader (UNSURE_WAITING while its
 * kind is not measured yet). */
static unsigned waiting_most(const struct disks *all, const struct waiting *w)
{
	if (storage_kind(w->storage) == STORAGE_UNSURE && all->waiting_max > UNSURE_WAITING)
		return UNSURE_WAITING;
	return all->waiting_max;
}

bool disks_submit(struct disks *all, struct task *t, const struct disk_file *f)
{
	struct waiting w = { .task = t, .fd = f->fd, .size = f->size,
			     .storage = f->storage };
	struct disk *d;
	unsigned i;

	/* One begun with nothing read yet (it left the lanes at its first
	 * read) is as not begun: its first read can be timed. */
	if (f->begun && f->begun->count > 0 && !(w.begun = malloc(sizeof *w.begun)))
		return false;
	if (w.begun)
		*w.begun = *f->begun;
	w.where = diskplace_of(f->fd, f->ino, &w.placed);
	pthread_mutex_lock(&all->lock);
	d = disk_of(all, f->dev);
	if (!d) {
		pthread_mutex_unlock(&all->lock);
		free(w.begun);
		return false;
	}
	while (d->n >= waiting_most(all, &w))
		pthread_cond_wait(&d->room, &all->lock);
	diskplace_note(&d->order, w.placed ? w.where : DISKPLACE_NOWHERE, (uint64_t)w.size);
	w.came = d->came++;
	for (i = d->n; i > 0 && d->file[i - 1].where > w.where; i--)
		d->file[i] = d->file[i - 1];
	d->file[i] = w;
	d->n++;
	pthread_cond_signal(&d->more);
	pthread_mutex_unlock(&all->lock);
	return true;
}

void disks_stop(struct disks *all)
{
	pthread_mutex_lock(&all->lock);
	all->end = true;
	for (unsigned i = 0; i < all->n; i++)
		pthread_cond_signal(&all->disk[i]->more);
	pthread_mutex_unlock(&all->lock);
	for (unsigned i = 0; i < all->n; i++) {
		struct disk *d = all->disk[i];

		pthread_join(d->thread, NULL);
		pthread_cond_destroy(&d->more);
		pthread_cond_destroy(&d->room);
		free(d->buf);
		free(d);
	}
	pthread_mutex_destroy(&all->lock);
	free(all);
}

#else

struct disks *disks_start(unsigned waiting)
{
	(void)waiting;
	return NULL;
}

bool disks_submit(struct disks *d, struct task *t, const struct disk_file *f)
{
	(void)d;
	(void)t;
	(void)f;
	return false;
}

uint64_t disks_work(struct disks *d)
{
	(void)d;
	return 0;
}

bool disks_held(struct disks *d)
{
	(void)d;
	return false;
}

void disks_stop(struct disks *d)
{
	(void)d;
}

#endif
