/* storage.c - what reading costs, as measured; see storage.h. */
#define _GNU_SOURCE		/* preadv2 and RWF_NOWAIT, where libc has them */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

#include "os/monotime.h"
#include "read/storage.h"
#include "read/sysfs.h"
#include "os/features.h"

/* Devices a run keeps a measure of; files of one run seldom span more. */
enum { DEVICES_MAX = 16 };

struct storage {
	struct devices *all;	/* whose lock guards what follows */
	dev_t dev;
	bool rotates;		/* what the device says of itself */
	atomic_int kind;	/* enum storage_kind, as judged last */
	unsigned n;		/* reads timed */
	uint32_t us[STORAGE_SAMPLES];	/* the latest, a ring */
};

struct devices {
	pthread_mutex_t lock;	/* guards the records' measures */
	struct storage known[DEVICES_MAX];
	unsigned known_used;
	struct storage none;	/* of every file with no block device under
				 * it: never measured */
};

struct devices *devices_new(void)
{
	struct devices *all = calloc(1, sizeof *all);

	if (!all)
		return NULL;
	if (pthread_mutex_init(&all->lock, NULL) != 0) {
		free(all);
		return NULL;
	}
	all->none.all = all;
	atomic_init(&all->none.kind, STORAGE_NONE);
	return all;
}

void devices_free(struct devices *all)
{
	if (!all)
		return;
	pthread_mutex_destroy(&all->lock);
	free(all);
}

/* The judgment of s's way, from its facts (devkind.h).  Under lock. */
static enum storage_kind judged(const struct storage *s)
{
	return devkind_of(&(struct device_facts){ true, s->rotates, s->us, s->n });
}

/* The record for dev, added if need be; all->none when dev has no block
 * device under it.  Past DEVICES_MAX devices, the last shares its record
 * with the rest.  Under all's lock. */
static struct storage *look_up(struct devices *all, dev_t dev)
{
	enum sysfs_kind kind;
	struct storage *s;

	for (unsigned i = 0; i < all->known_used; i++)
		if (all->known[i].dev == dev)
			return &all->known[i];
	kind = sysfs_kind(dev);
	if (kind == SYSFS_UNKNOWN)
		return &all->none;
	if (all->known_used == DEVICES_MAX)
		return &all->known[DEVICES_MAX - 1];
	s = &all->known[all->known_used++];
	s->all = all;
	s->dev = dev;
	s->rotates = kind == SYSFS_SPINNING;
	atomic_store(&s->kind, judged(s));
	return s;
}

struct storage *storage_of(struct devices *all, dev_t dev)
{
	struct storage *s;

	/* Held across the look-up in sysfs too: two threads then never
	 * race to add the same device. */
	if (pthread_mutex_lock(&all->lock) != 0)
		return &all->none;
	s = look_up(all, dev);
	pthread_mutex_unlock(&all->lock);
	return s;
}

enum storage_kind storage_kind(const struct storage *s)
{
	return (enum storage_kind)atomic_load_explicit(&s->kind, memory_order_relaxed);
}

void storage_time_first_read(struct storage *s, int fd, void *buf)
{
	uint64_t t = monotime_us();

	if (pread(fd, buf, STORAGE_TIMED_BYTES, 0) >= 0)
		storage_sample(s, (uint32_t)(monotime_us() - t));
}

/* Whether the run reads s as if it spins. */
static bool read_as_spinning(const struct storage *s)
{
	enum storage_kind k = storage_kind(s);

	return k == STORAGE_SPINNING || k == STORAGE_UNSURE;
}

struct device_facts devices_facts(struct devices *all, uint32_t us[STORAGE_SAMPLES])
{
	/* Unsure where the records cannot be read. */
	struct device_facts d = { true, true, us, 0 };
	const struct storage *s = NULL;

	if (pthread_mutex_lock(&all->lock) != 0)
		return d;
	for (unsigned i = 0; i < all->known_used && !s; i++)
		if (read_as_spinning(&all->known[i]))
			s = &all->known[i];
	if (!s && all->known_used > 0)
		s = &all->known[0];
	if (s) {
		d.rotates = s->rotates;
		d.timed = s->n;
		memcpy(us, s->us, sizeof s->us);
	} else {
		d.block = false;
	}
	pthread_mutex_unlock(&all->lock);
	return d;
}

void storage_sample(struct storage *s, uint32_t us)
{
	if (s == &s->all->none || pthread_mutex_lock(&s->all->lock) != 0)
		return;
	s->us[s->n++ % STORAGE_SAMPLES] = us;
	if (s->n == 2 * STORAGE_SAMPLES)
		s->n = STORAGE_SAMPLES;	/* the ring is full: keep n small */
	atomic_store_explicit(&s->kind, judged(s), memory_order_relaxed);
	pthread_mutex_unlock(&s->all->lock);
}

#if defined(__linux__) && defined(RWF_NOWAIT)

ssize_t storage_read_cached(int fd, void *buf, size_t n)
{
	struct iovec v = { .iov_base = buf, .iov_len = n };
	ssize_t got;

	while ((got = preadv2(fd, &v, 1, -1, RWF_NOWAIT)) < 0 && errno == EINTR)
		;
	/* Kernels and file systems that cannot read without waiting say so
	 * each their own way. */
	if (got < 0 && (errno == EOPNOTSUPP || errno == ENOSYS))
		errno = ENOTSUP;
	return got;
}

#else

ssize_t storage_read_cached(int fd, void *buf, size_t n)
{
	(void)fd;
	(void)buf;
	(void)n;
	errno = ENOTSUP;
	return -1;
}

#endif

/* cachestat(2), Linux 6.5: a number that libc's headers may not know
 * yet, the same on the architectures of the common table. */
#if defined(__linux__) && !defined(__NR_cachestat) && !defined(__ILP32__) && \
	(defined(__x86_64__) || defined(__aarch64__) || defined(__s390x__) || \
	 defined(__riscv) || defined(__powerpc64__) || defined(__loongarch__))
#define __NR_cachestat 451
#endif

#if defined(__NR_cachestat)

/* As the kernel's struct cachestat_range and struct cachestat. */
struct range {
	uint64_t off, len;
};
struct pages {
	uint64_t cache, dirty, writeback, evicted, recently_evicted;
};

int storage_has_start(int fd)
{
	struct range r = { 0, 1 };
	struct pages p;

	if (!HAS_CACHESTAT)	/* the small build has no room for it */
		return -1;
	if (syscall(__NR_cachestat, (unsigned)fd, &r, &p, 0u) != 0)
		return -1;
	return p.cache > 0;
}

#else

int storage_has_start(int fd)
{
	(void)fd;
	return -1;
}

#endif
