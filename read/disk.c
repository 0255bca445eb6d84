/* disk.c - one reader per spinning disk; see disk.h.  The small static
 * build links read/disk_none.c instead (os/features.h). */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>

#include "read/disk.h"
#include "read/disk_order.h"
#include "read/diskplace.h"
#include "read/stream.h"
#include "os/thread.h"

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
		i = disk_next_to_read(d);
		if (d->file[i].size <= SMALL_FILE && !disk_probing(d, &d->file[i]))
			n = disk_files_ahead(d, i, fd, size);
		far = disk_times_disk(d, &d->file[i]);
		if (storage_kind(d->file[i].storage) == STORAGE_UNSURE)
			d->unsure_files++;
		w = disk_take_file(d, i);
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
