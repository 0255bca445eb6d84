/* lister.c - directories read ahead of their lookups on network storage;
 * see lister.h. */
#include <dirent.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/sysmacros.h>

#include "run/decide.h"
#include "run/lister.h"
#include "read/mountinfo.h"
#include "os/thread.h"

/* Devices and directories remembered at most: past them, a new one is
 * not listed (memory stays bounded, whatever the list names). */
enum { DEVICES_MAX = 16, DIRS_MAX = 4096, DIR_BUCKETS = 256 };

/* Entries read between two looks at the rule: about one reply of a
 * listing, read without the lock. */
enum { ENTRIES_A_STEP = 64 };

struct listdir {
	struct listdir *next;	/* in its bucket */
	struct listdir *queued;	/* next to read, after it */
	uint64_t names, entries;
	uint64_t size;		/* its size in bytes, once asked; 0: unknown */
	bool sized;		/* asked (stat) */
	bool waiting;		/* in the queue, or being read */
	bool done;		/* read to its end, or given up: never again */
	char path[];
};

struct lister {
	pthread_mutex_t lock;
	pthread_cond_t more;	/* a directory to read, more names, or stop */
	pthread_cond_t paused;	/* the directory being read ended, or waits */
	struct device_seen {
		dev_t dev;
		bool networked;
	} device[DEVICES_MAX];
	unsigned devices;
	struct listdir *bucket[DIR_BUCKETS];
	unsigned dirs;
	struct listdir *first, *last;	/* the queue, first met first */
	struct listdir *reading;	/* the thread's, between its steps */
	DIR *dir;			/* reading's, once opened: the thread's */
	bool started, stop;
	bool busy;		/* the thread waits on a request, unlocked */
	bool abandoned;		/* freed while busy: the thread frees it */
	pthread_t id;
};

struct lister *lister_new(void)
{
	struct lister *l = calloc(1, sizeof *l);

	if (!l)
		return NULL;
	if (pthread_mutex_init(&l->lock, NULL) != 0) {
		free(l);
		return NULL;
	}
	if (pthread_cond_init(&l->more, NULL) != 0) {
		pthread_mutex_destroy(&l->lock);
		free(l);
		return NULL;
	}
	if (pthread_cond_init(&l->paused, NULL) != 0) {
		pthread_cond_destroy(&l->more);
		pthread_mutex_destroy(&l->lock);
		free(l);
		return NULL;
	}
	return l;
}

/* ------------------------------------------------------------- the thread */

static struct listdir *dequeue(struct lister *l)
{
	struct listdir *d = l->first;

	if (d && !(l->first = d->queued))
		l->last = NULL;
	return d;
}

static enum list_act act_for(const struct listdir *d)
{
	struct list_facts f = { .networked = true, .names = d->names, .entries = d->entries,
				.size = d->size };

	return decide_listing(&f);
}

/* Read up to ENTRIES_A_STEP entries of dir: how many, and whether it
 * ended (its end, or an error). */
static unsigned read_step(DIR *dir, bool *ended)
{
	unsigned n = 0;

	while (n < ENTRIES_A_STEP) {
		if (!readdir(dir)) {
			*ended = true;
			break;
		}
		n++;
	}
	return n;
}

/* Give up the directory being read, if any, and let the workers that
 * wait for it go on; the lock held. */
static void end_reading(struct lister *l)
{
	pthread_cond_broadcast(&l->paused);
	if (l->reading) {
		l->reading->done = true;
		l->reading->waiting = false;
		l->reading = NULL;
	}
	if (l->dir) {
		(void)closedir(l->dir);
		l->dir = NULL;
	}
}

static void free_all(struct lister *l);

/* Unlock for a request of the server's, marked busy. */
static void unlock_busy(struct lister *l)
{
	l->busy = true;
	pthread_mutex_unlock(&l->lock);
}

/* Lock again after the request; false when l was freed meanwhile
 * (lister_free left it to this thread): then l is freed now, and the lock
 * not held. */
static bool relock(struct lister *l)
{
	pthread_mutex_lock(&l->lock);
	l->busy = false;
	if (!l->abandoned)
		return true;
	pthread_mutex_unlock(&l->lock);
	free_all(l);
	return false;
}

/* The next step on l->reading: its size asked, it opened, or some of its
 * entries read; false when l was freed meanwhile.  The lock held. */
static bool step(struct lister *l)
{
	struct listdir *d = l->reading;
	bool ended = false;
	struct stat st;
	unsigned got;
	int asked;

	if (!d->sized) {
		unlock_busy(l);
		asked = stat(d->path, &st);
		if (!relock(l))
			return false;
		d->sized = true;
		d->size = asked == 0 && st.st_size > 0 ? (uint64_t)st.st_size : 0;
		return true;
	}
	if (!l->dir) {
		unlock_busy(l);
		l->dir = opendir(d->path);
		if (!relock(l))
			return false;
		if (!l->dir)	/* search permission only, or gone */
			end_reading(l);
		return true;
	}
	unlock_busy(l);
	got = read_step(l->dir, &ended);
	if (!relock(l))
		return false;
	d->entries += got;
	if (ended)
		end_reading(l);
	return true;
}

/* The directories in the queue, each read while the rule says, one at a
 * time: asked its size, opened, read a step at a time, the lock held but
 * while the server is asked. */
static void *lister_main(void *arg)
{
	struct lister *l = arg;

	pthread_mutex_lock(&l->lock);
	while (!l->stop) {
		if (l->reading && act_for(l->reading) != LIST_READ && l->first)
			end_reading(l);	/* it waits for names: the next */
		if (!l->reading)
			l->reading = dequeue(l);
		if (!l->reading || act_for(l->reading) != LIST_READ) {
			pthread_cond_broadcast(&l->paused);
			pthread_cond_wait(&l->more, &l->lock);
			continue;
		}
		if (!step(l))
			return NULL;
	}
	end_reading(l);
	pthread_mutex_unlock(&l->lock);
	return NULL;
}

/* ---------------------------------------------------- what workers tell */

/* Whether the device of fd, dev, is served over a network: asked once a
 * device, outside the lock: by its type's name in mountinfo, else by
 * statfs's type (a round trip on most network file systems).  A block
 * device's major number is not 0, and a file system on one is local: not
 * even asked. */
static bool networked(struct lister *l, int fd, dev_t dev)
{
	struct statfs sf;
	char type[64];
	bool net;

	if (major(dev) != 0)
		return false;
	pthread_mutex_lock(&l->lock);
	for (unsigned i = 0; i < l->devices; i++) {
		if (l->device[i].dev == dev) {
			net = l->device[i].networked;
			pthread_mutex_unlock(&l->lock);
			return net;
		}
	}
	pthread_mutex_unlock(&l->lock);
	if (mountinfo_type(dev, type, sizeof type))
		net = fs_name_networked(type);
	else
		net = fstatfs(fd, &sf) == 0 && fs_type_networked((uint64_t)(unsigned long)sf.f_type);
	pthread_mutex_lock(&l->lock);
	if (l->devices < DEVICES_MAX)
		l->device[l->devices++] = (struct device_seen){ .dev = dev, .networked = net };
	pthread_mutex_unlock(&l->lock);
	return net;
}

/* FNV-1a of the len bytes at s. */
static size_t hash(const char *s, size_t len)
{
	uint64_t h = 14695981039346656037ULL;

	for (size_t i = 0; i < len; i++)
		h = (h ^ (unsigned char)s[i]) * 1099511628211ULL;
	return (size_t)h;
}

/* The directory of name: its path, and its length in *len. */
static const char *dir_of(const char *name, size_t *len)
{
	const char *slash = strrchr(name, '/');

	if (!slash) {
		*len = 1;
		return ".";
	}
	*len = slash == name ? 1 : (size_t)(slash - name);
	return slash == name ? "/" : name;
}

/* The directory of len bytes at path, or NULL if not met; the lock held. */
static struct listdir *dir_met(struct lister *l, const char *path, size_t len)
{
	struct listdir *d = l->bucket[hash(path, len) % DIR_BUCKETS];

	while (d && !(strncmp(d->path, path, len) == 0 && d->path[len] == '\0'))
		d = d->next;
	return d;
}

/* The directory of len bytes at path, made the first time; NULL past
 * DIRS_MAX or with no memory.  The lock held. */
static struct listdir *dir_named(struct lister *l, const char *path, size_t len)
{
	struct listdir **slot = &l->bucket[hash(path, len) % DIR_BUCKETS], *d;

	if ((d = dir_met(l, path, len)))
		return d;
	if (l->dirs == DIRS_MAX || !(d = calloc(1, sizeof *d + len + 1)))
		return NULL;
	memcpy(d->path, path, len);
	d->next = *slot;
	*slot = d;
	l->dirs++;
	return d;
}

/* Start the thread, once; false if it cannot be (the run goes on
 * without).  The lock held. */
static bool started(struct lister *l)
{
	if (!l->started && !l->stop) {
		if (thread_start(&l->id, lister_main, l) == 0)
			l->started = true;
		else
			l->stop = true;	/* never again */
	}
	return l->started;
}

/* One name more opened in d, or about to be; the lock held. */
static void count_name(struct lister *l, struct listdir *d)
{
	d->names++;
	if (d->done || act_for(d) != LIST_READ)
		return;
	if (d->waiting) {
		if (d == l->reading)
			pthread_cond_signal(&l->more);	/* it may read on */
		return;
	}
	if (!started(l))
		return;
	d->waiting = true;
	if (l->last)
		l->last->queued = d;
	else
		l->first = d;
	l->last = d;
	pthread_cond_signal(&l->more);
}

/* Lookups of names in a directory being read queue behind its listing's
 * requests and hold them up where the client serves them one at a time:
 * a worker whose name's directory is to be read, or being read, waits for
 * the listing's end (or for the thread to pause on it), then finds the
 * name in the client's cache.  The name counts as it is about to be opened
 * (so that the first names of a list, opened side by side, do not each
 * wait a round trip in a row before the directory is read), where its
 * directory is known to be on networked storage; the first of a directory
 * counts once opened.  A name tried again (no descriptor was free) is not
 * counted again. */
bool lister_before_open(struct lister *l, const struct lister_memo *memo, const char *name,
			bool again)
{
	struct listdir *d;
	const char *path;
	size_t len;

	/* A worker that has opened no file yet does not know its device: its
	 * name is looked for among the directories seen networked. */
	if (memo->known && !memo->networked)
		return false;
	path = dir_of(name, &len);
	pthread_mutex_lock(&l->lock);
	if ((d = dir_met(l, path, len)) && !again)
		count_name(l, d);
	while (d && d->waiting && !l->stop && act_for(d) == LIST_READ)
		pthread_cond_wait(&l->paused, &l->lock);
	pthread_mutex_unlock(&l->lock);
	return d != NULL;
}

void lister_opened(struct lister *l, struct lister_memo *memo, const char *name, int fd,
		   dev_t dev, bool counted)
{
	struct listdir *d;
	const char *path;
	size_t len;

	if (!memo->known || memo->dev != dev)
		*memo = (struct lister_memo){ .dev = dev, .known = true,
					      .networked = networked(l, fd, dev) };
	if (!memo->networked || counted)
		return;
	path = dir_of(name, &len);
	pthread_mutex_lock(&l->lock);
	if ((d = dir_named(l, path, len)))
		count_name(l, d);
	pthread_mutex_unlock(&l->lock);
}

/* Everything l holds, and l. */
static void free_all(struct lister *l)
{
	if (l->dir)
		(void)closedir(l->dir);
	for (unsigned b = 0; b < DIR_BUCKETS; b++) {
		while (l->bucket[b]) {
			struct listdir *d = l->bucket[b];

			l->bucket[b] = d->next;
			free(d);
		}
	}
	pthread_cond_destroy(&l->paused);
	pthread_cond_destroy(&l->more);
	pthread_mutex_destroy(&l->lock);
	free(l);
}

/* The run does not wait for a request of the thread's (a listing of a
 * large directory can take the server a while): the thread, detached,
 * frees l once it returns. */
void lister_free(struct lister *l)
{
	if (!l)
		return;
	pthread_mutex_lock(&l->lock);
	l->stop = true;
	if (l->started && l->busy) {
		l->abandoned = true;
		(void)pthread_detach(l->id);
		pthread_mutex_unlock(&l->lock);
		return;
	}
	pthread_cond_signal(&l->more);
	pthread_mutex_unlock(&l->lock);
	if (l->started)
		pthread_join(l->id, NULL);
	free_all(l);
}
