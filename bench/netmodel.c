/* bench/netmodel.c - serve a directory through a model of a network file
 * system: bench/netmodel.py's model, in C, so that the model's own cost
 * stays far below a round trip even with many requests in flight.
 *
 * usage: netmodel [--rtt-ms X] [--mbps Y] [--lookups MODE] [--cache-s S]
 *		   [--allow-other] SOURCE MOUNTPOINT
 *	X the round trip of every request in ms (0.5), Y the transfer rate
 *	of each read in 10^6 bytes/s (1000), MODE parallel (the default) or
 *	serial, S how long what a listing or a lookup brought answers
 *	lookups, in seconds (0 in parallel mode, 20 in serial: 0 never); runs
 *	in the foreground.
 *
 * The mount shows SOURCE, read-only: its directories, regular files and
 * symbolic links, as they are (a passthrough); and one file more, hidden
 * (not listed) at the top:
 *
 *   .netmodel  read: the settings and counters, one "key value" a line;
 *              write "key=value ..." to change a setting at run time
 *              (rtt_ms, mbps, lookups, cache_s) or "reset" to zero the
 *              counters.  Requests about it cost nothing and are not
 *              counted.
 *
 * The model is a file server at the other end of a network, as NFS and SMB
 * are: every request the kernel sends costs one round trip before it is
 * answered: each lookup and getattr, access, open, opendir, readdir,
 * statfs, readlink and read, and the rest the Python model answers (writes
 * refused, xattrs, fsync); a read costs its transfer time too, the bytes it returns / the rate, for each request on
 * its own (the link is not shared).  Closing (flush, release, releasedir)
 * is free.  Requests are served side by side: libfuse's multi-threaded
 * loop, up to MAX_THREADS requests at once, each waiting only for its own
 * time with no lock held (but a directory's, in serial mode, below).  Time is modelled by sleeping until the request
 * would be answered, so the real work on SOURCE (best kept in /dev/shm) is
 * hidden while it is quicker than the model; the sleeps end sooner than
 * asked by as much as they were seen to end late, so that on average a
 * request is answered on time.  What the model cannot hide is its own
 * cost: on a busy 2-CPU guest some 30-45 us of CPU a request at a 0.5 ms
 * round trip, four fifths of it the kernel's (the FUSE device, the sleeps'
 * timers and wake-ups), where the Python model takes 70-180 us, the more
 * the more requests in flight.
 *
 * Two modes of lookups.  parallel: lookups are served side by side, as
 * NFS and SMB servers serve them, and a directory listing brings names
 * alone.  serial: lookups in one directory are served one at a time (those
 * in different directories side by side), as on a FUSE file system
 * without parallel directory operations (sshfs), and a listing brings each
 * entry's attributes, from which a lookup of that name within cache_s
 * is answered without a round trip, as is a lookup of a name that a
 * lookup answered within cache_s (sshfs's cache; NFS's and SMB's
 * READDIRPLUS): so checking a list (md5sum -c), which looks its names up
 * one at a time, takes a round trip a file more than hashing the names a
 * glob found, unless the directory is read first.  Both live in the model,
 * not in the kernel's flags (see "directories and their listings").  Each
 * readdir request (the kernel asks for a buffer's worth) costs a round
 * trip in both modes.  The counters lookups_listed and lookups_cached
 * (lookups answered from a listing, or from an earlier lookup: free, not
 * among the requests) and max_dir_lookups (the most lookups in flight at
 * once in one directory) tell the modes apart.
 *
 * Everything the Python model does, this does alike: the same requests
 * cost the same and are counted under the same names (fusepy's: getattr by
 * name, for lookups and stat; fgetattr by handle, for fstat), the same
 * answers (but for a hard link: EROFS here, EINVAL from the Python model,
 * whose Link object hides fusepy's link), the same .netmodel, the same line
 * at exit.  libfuse 3 asks the kernel for more than libfuse 2 (fusepy's)
 * did by default: parallel lookups in a directory, readdirplus, atomic
 * O_TRUNC, asynchronous direct I/O, reads of up to 1 MiB, renameat2 with
 * flags; init() and rename() take none of them, so that the kernel sends
 * this model the very requests it sends the Python one (a fresh mount's
 * lookups of names never seen one at a time in a directory; reads of 128
 * KiB at most; O_TRUNC as a truncate).
 *
 * The mount is made with direct_io, so that the kernel's page cache never
 * answers a read that the model has not timed, and with attr_timeout=0,
 * entry_timeout=0 and negative_timeout=0, so that the kernel caches no
 * lookup or attribute either.  It is not mounted ro, so that .netmodel can
 * be written; the model refuses every other write (EROFS), and SOURCE is
 * never written.  fusermount -u MOUNTPOINT (or SIGINT, SIGTERM, SIGHUP)
 * ends it, and it prints the counters on stderr when it does, one line
 * that starts "netmodel: ".
 *
 * Build: make build/bench/netmodel (make bench-net does): libfuse 3.12 or
 * later (its loop's thread limit), Debian: libfuse3-dev and pkg-config;
 * fuse3 to run.  Exits 2 on a usage error, 1 if it cannot mount. */
#define _POSIX_C_SOURCE 200809L
#define _XOPEN_SOURCE 700	/* realpath */
#define FUSE_USE_VERSION 312
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <float.h>
#include <ftw.h>
#include <fuse.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <time.h>
#include <unistd.h>

#define CONTROL "/.netmodel"
#define CONTROL_FH ((uint64_t)1 << 62)	/* the control file's handle: no descriptor */
#define NS 1000000000LL

/* Past this many requests in flight the others wait in the kernel for a
 * thread, unanswered whatever their round trip, and max_inflight stops
 * here: far more than bench/net's deepest run, -j64, should send. */
enum { MAX_THREADS = 256 };

/* libfuse 2's high-level library, which the Python model runs on, read at
 * most 32 pages a request and asked for none of these; the kernel sends
 * other requests when they are on (see the header comment). */
#define LIBFUSE3_ONLY (FUSE_CAP_PARALLEL_DIROPS | FUSE_CAP_READDIRPLUS | \
	FUSE_CAP_READDIRPLUS_AUTO | FUSE_CAP_ATOMIC_O_TRUNC | FUSE_CAP_ASYNC_DIO | \
	FUSE_CAP_AUTO_INVAL_DATA | FUSE_CAP_HANDLE_KILLPRIV | FUSE_CAP_IOCTL_DIR | \
	FUSE_CAP_SPLICE_READ)
enum { LIBFUSE2_MAX_IO = 32 * 4096 };

/* The kinds of request counted, by fusepy's names, in the order the report
 * lists them (Python's sorted()). */
enum kind {
	K_ACCESS, K_CHMOD, K_CHOWN, K_CREATE, K_FGETATTR, K_FSYNC, K_FSYNCDIR,
	K_GETATTR, K_GETXATTR, K_IOCTL, K_LINK, K_LISTXATTR, K_MKDIR, K_MKNOD,
	K_OPEN, K_OPENDIR, K_READ, K_READDIR, K_READLINK, K_REMOVEXATTR,
	K_RENAME, K_RMDIR, K_SETXATTR, K_STATFS, K_SYMLINK, K_TRUNCATE,
	K_UNLINK, K_UTIMENS, K_WRITE, KINDS,
	K_FREE = KINDS		/* about .netmodel: not timed, not counted */
};

static const char *const kind_name[KINDS] = {
	"access", "chmod", "chown", "create", "fgetattr", "fsync", "fsyncdir",
	"getattr", "getxattr", "ioctl", "link", "listxattr", "mkdir", "mknod",
	"open", "opendir", "read", "readdir", "readlink", "removexattr",
	"rename", "rmdir", "setxattr", "statfs", "symlink", "truncate",
	"unlink", "utimens", "write",
};

/* The network: what a request costs, and counters of what was asked.
 * Every field is atomic and none is locked: a reset or a report that races
 * with requests blurs a count by the requests in between, no more. */
static struct {
	_Atomic double rtt;		/* seconds */
	_Atomic double rate;		/* bytes/s */
	atomic_llong bias;		/* ns: how much sooner to wake than the deadline */
	atomic_llong inflight, reads;
	atomic_llong max_inflight, max_reads;
	atomic_ullong counts[KINDS];
	atomic_ullong bytes;
	atomic_llong late;		/* ns: the sum of how late requests were answered */
	atomic_ullong timed;
	atomic_int serial;		/* lookups in one directory one at a time */
	_Atomic double cache;		/* s: how long what a listing or lookup brought answers lookups */
	atomic_ullong listed;		/* lookups answered from a listing, no round trip */
	atomic_ullong cached;		/* lookups answered from an earlier lookup, alike */
	atomic_llong max_dir_lookups;	/* the most lookups in flight in one directory */
} net;

static int root_fd = -1;		/* SOURCE */
static char *root;			/* SOURCE, resolved: for statvfs, which has no *at */

/* ------------------------------------------------------------- the clock */

static int64_t now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (int64_t)t.tv_sec * NS + t.tv_nsec;
}

static void sleep_until(int64_t when)
{
	struct timespec t = { .tv_sec = (time_t)(when / NS), .tv_nsec = (long)(when % NS) };

	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &t, NULL) == EINTR)
		continue;
}

/* A round trip and a transfer, in ns; capped, so that an absurd rate
 * cannot overflow a deadline. */
static int64_t cost_ns(double rtt, double rate, size_t nbytes)
{
	double s = rtt + (double)nbytes / rate;

	return s < 1e9 ? (int64_t)(s * 1e9 + 0.5) : NS * NS;
}

static int64_t clamp(int64_t v, int64_t lo, int64_t hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

/* Sleep until when; return how late that was.  A sleep ends late, by tens
 * of us on a busy machine, which would add to every round trip: so wake up
 * bias sooner, a bias that follows the lateness seen, up to rtt (an
 * integral controller: on average a request is answered on time). */
static int64_t wait_until(int64_t when, int64_t rtt)
{
	int64_t now = now_ns(), bias, late;

	if (now >= when)	/* late by the work alone: nothing to learn */
		return now - when;
	bias = atomic_load(&net.bias);
	if (when - bias > now)
		sleep_until(when - bias);
	late = now_ns() - when;
	/* Races between threads here only blur the estimate a little. */
	atomic_store(&net.bias, clamp(bias + late / 10, 0, rtt));
	return late;
}

/* ---------------------------------------------------------- the counters */

static void raise_to(atomic_llong *max, long long value)
{
	long long seen = atomic_load(max);

	while (seen < value && !atomic_compare_exchange_weak(max, &seen, value))
		continue;
}

/* Zero the counters (those in flight stay in flight). */
static void reset(void)
{
	for (int k = 0; k < KINDS; k++)
		atomic_store(&net.counts[k], 0);
	atomic_store(&net.bytes, 0);
	atomic_store(&net.max_inflight, atomic_load(&net.inflight));
	atomic_store(&net.max_reads, atomic_load(&net.reads));
	atomic_store(&net.late, 0);
	atomic_store(&net.timed, 0);
	atomic_store(&net.listed, 0);
	atomic_store(&net.cached, 0);
	atomic_store(&net.max_dir_lookups, 0);
}

struct request {
	enum kind kind;
	int64_t start;
};

/* A request arrives: count it, unless it is about .netmodel. */
static struct request begin(const char *path, enum kind kind)
{
	struct request r = { K_FREE, 0 };

	if (path && strcmp(path, CONTROL) == 0)
		return r;
	r.kind = kind;
	r.start = now_ns();
	atomic_fetch_add(&net.counts[kind], 1);
	raise_to(&net.max_inflight, atomic_fetch_add(&net.inflight, 1) + 1);
	if (kind == K_READ)
		raise_to(&net.max_reads, atomic_fetch_add(&net.reads, 1) + 1);
	return r;
}

/* Answer a request with result (bytes read, or -errno) when its time has
 * come: a round trip after it arrived, a read its transfer time more.  The
 * settings are read now, as the Python model reads them. */
static int answer(const struct request *r, int result)
{
	size_t nbytes = r->kind == K_READ && result > 0 ? (size_t)result : 0;
	double rtt = atomic_load(&net.rtt);
	int64_t late;

	if (r->kind == K_FREE)
		return result;
	late = wait_until(r->start + cost_ns(rtt, atomic_load(&net.rate), nbytes),
			  cost_ns(rtt, 1, 0) /* the round trip alone */);
	atomic_fetch_sub(&net.inflight, 1);
	atomic_fetch_add(&net.late, late);
	atomic_fetch_add(&net.timed, 1);
	if (r->kind == K_READ) {
		atomic_fetch_sub(&net.reads, 1);
		atomic_fetch_add(&net.bytes, nbytes);
	}
	return result;
}

/* Append to buf[*len..size), as far as it goes. */
__attribute__((format(printf, 4, 5)))
static void put(char *buf, size_t size, size_t *len, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (*len >= size)
		return;
	va_start(ap, fmt);
	n = vsnprintf(buf + *len, size - *len, fmt, ap);
	va_end(ap);
	if (n > 0)
		*len = *len + (size_t)n < size ? *len + (size_t)n : size - 1;
}

/* The settings and counters, one "key value" a line, as the Python model
 * writes them; returns the length. */
static size_t report(char *buf, size_t size)
{
	unsigned long long counts[KINDS], requests = 0, timed;
	size_t len = 0;

	for (int k = 0; k < KINDS; k++)
		requests += counts[k] = atomic_load(&net.counts[k]);
	put(buf, size, &len, "rtt_ms %g\nmbps %g\nlookups %s\ncache_s %g\nrequests %llu\n",
	    atomic_load(&net.rtt) * 1000, atomic_load(&net.rate) / 1e6,
	    atomic_load(&net.serial) ? "serial" : "parallel", atomic_load(&net.cache), requests);
	for (int k = 0; k < KINDS; k++)
		if (counts[k])
			put(buf, size, &len, "%s %llu\n", kind_name[k], counts[k]);
	timed = atomic_load(&net.timed);
	put(buf, size, &len, "bytes %llu\nmax_inflight %lld\nmax_reads_inflight %lld\n"
	    "late_ms %.3f\nlookups_listed %llu\nlookups_cached %llu\nmax_dir_lookups %lld\n",
	    atomic_load(&net.bytes), atomic_load(&net.max_inflight), atomic_load(&net.max_reads),
	    (double)atomic_load(&net.late) / (double)(timed ? timed : 1) / 1e6,
	    atomic_load(&net.listed), atomic_load(&net.cached), atomic_load(&net.max_dir_lookups));
	return len;
}

enum { REPORT_MAX = 4096 };	/* over twice what every kind counted takes */

/* ---------------------------------------------------------- .netmodel */

static int control_stat(struct stat *st)
{
	/* Size 0: with direct_io the kernel asks us anyway. */
	memset(st, 0, sizeof *st);
	st->st_mode = S_IFREG | 0644;
	st->st_nlink = 1;
	st->st_uid = getuid();
	st->st_gid = getgid();
	return 0;
}

static int control_read(char *out, size_t size, off_t offset)
{
	char buf[REPORT_MAX];
	size_t len = report(buf, sizeof buf);

	if (offset < 0 || (size_t)offset >= len)
		return 0;
	if (size > len - (size_t)offset)
		size = len - (size_t)offset;
	memcpy(out, buf + offset, size);
	return (int)size;
}

/* A setting's value: a finite number, or -1. */
static double number(const char *text)
{
	char *end;
	double v = strtod(text, &end);

	return *text && !*end && v <= DBL_MAX && v >= -DBL_MAX ? v : -1;
}

/* "serial" 1, "parallel" 0, else -1. */
static int lookups_mode(const char *text)
{
	return strcmp(text, "serial") == 0 ? 1 : strcmp(text, "parallel") == 0 ? 0 : -1;
}

/* One word written to .netmodel: "reset", "rtt_ms=X" (X >= 0),
 * "mbps=Y" (Y > 0), "lookups=serial" or "lookups=parallel", or
 * "cache_s=S" (S >= 0); word is writable, and ends at its NUL. */
static int control_word(char *word)
{
	char *value = strchr(word, '=');
	double v;

	if (strcmp(word, "reset") == 0) {
		reset();
		return 0;
	}
	if (!value)
		return -EINVAL;
	*value++ = '\0';
	v = number(value);
	if (strcmp(word, "rtt_ms") == 0 && v >= 0)
		atomic_store(&net.rtt, v / 1000.0);
	else if (strcmp(word, "mbps") == 0 && v > 0)
		atomic_store(&net.rate, v * 1e6);	/* MB/s are 10^6 bytes/s */
	else if (strcmp(word, "lookups") == 0 && lookups_mode(value) >= 0)
		atomic_store(&net.serial, lookups_mode(value));
	else if (strcmp(word, "cache_s") == 0 && v >= 0)
		atomic_store(&net.cache, v);
	else
		return -EINVAL;
	return 0;
}

/* White space as Python's str.split() sees it in ASCII. */
static int space(char c)
{
	return c == ' ' || (c >= '\t' && c <= '\r') || (c >= '\x1c' && c <= '\x1f');
}

/* Words apart by white space, each applied in turn: a bad one is EINVAL,
 * and those before it stay applied, as in the Python model. */
static int control_write(const char *data, size_t size)
{
	char *text = malloc(size + 1);
	int rc = (int)size;

	if (!text)
		return -ENOMEM;
	memcpy(text, data, size);
	for (size_t i = 0, start; i < size && rc >= 0;) {
		while (i < size && space(text[i]))
			i++;
		for (start = i; i < size && !space(text[i]); i++)
			continue;
		if (start == i)
			break;
		text[i++] = '\0';	/* over the space after the word, or past the end */
		if (strlen(text + start) != i - 1 - start || control_word(text + start) < 0)
			rc = -EINVAL;	/* a NUL byte in the word, or a bad word */
	}
	free(text);
	return rc;
}

/* ------------------------------------------------------------- SOURCE */

/* path, relative to SOURCE ("/" is "."). */
static const char *rel(const char *path)
{
	return path[0] == '/' && path[1] ? path + 1 : ".";
}

/* The fields the Python model passes (fusepy zeroes the rest): st_blksize
 * 0, so that the kernel reports its own block size, as for the Python one. */
static void copy_stat(struct stat *out, const struct stat *st)
{
	memset(out, 0, sizeof *out);
	out->st_mode = st->st_mode;
	out->st_nlink = st->st_nlink;
	out->st_size = st->st_size;
	out->st_blocks = st->st_blocks;
	out->st_rdev = st->st_rdev;
	out->st_uid = st->st_uid;
	out->st_gid = st->st_gid;
	out->st_atim = st->st_atim;
	out->st_mtim = st->st_mtim;
	out->st_ctim = st->st_ctim;
}

static int source_stat(const char *path, struct stat *out, const struct fuse_file_info *fi)
{
	struct stat st;
	int rc = fi ? fstat((int)fi->fh, &st) : fstatat(root_fd, rel(path), &st, AT_SYMLINK_NOFOLLOW);

	if (rc != 0)
		return -errno;
	copy_stat(out, &st);
	return 0;
}

static int source_statfs(const char *path, struct statvfs *st)
{
	size_t n = strlen(root);
	char *full = malloc(n + strlen(path) + 1);
	int rc;

	if (!full)
		return -ENOMEM;
	memcpy(full, root, n);
	strcpy(full + n, path);
	rc = statvfs(full, st) == 0 ? 0 : -errno;
	free(full);
	return rc;
}

static int source_open(const char *path, struct fuse_file_info *fi)
{
	int fd;

	if ((fi->flags & O_ACCMODE) != O_RDONLY)
		return -EROFS;
	fd = openat(root_fd, rel(path), O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	fi->fh = (uint64_t)fd;
	return 0;
}

static int source_read(char *buf, size_t size, off_t offset, const struct fuse_file_info *fi)
{
	ssize_t n = pread((int)fi->fh, buf, size, offset);

	return n < 0 ? -errno : (int)n;
}

static int source_readlink(const char *path, char *buf, size_t size)
{
	ssize_t n = size ? readlinkat(root_fd, rel(path), buf, size - 1) : 0;

	if (n < 0)
		return -errno;
	if (size)
		buf[n] = '\0';
	return 0;
}

/* ------------------------------------- directories and their listings */

/* A FUSE file system without parallel directory operations (sshfs, and
 * every libfuse 2 one) has the kernel look names up in one directory one
 * at a time, under the directory's lock, and read the directory under it
 * too; lookups in different directories go side by side.  With lookups
 * "serial" the model does so itself, with a lock of its own for each
 * directory, held while a lookup or a directory read in it waits its round
 * trip: so the mode does not hang on the kernel's flags or on which names
 * the kernel has seen (it takes its lock only for names it has never seen,
 * and checks a name seen once, at entry_timeout=0, without it).  The
 * directories are few (those the runs name): kept until the end. */
struct dir {
	struct dir *next;
	pthread_mutex_t lock;		/* taken in serial mode */
	atomic_llong lookups;		/* lookups in flight in it, either mode */
	char path[];
};

enum { DIR_BUCKETS = 256, KNOWN_BUCKETS = 1 << 17 };

static pthread_mutex_t dirs_lock = PTHREAD_MUTEX_INITIALIZER;
static struct dir *dirs[DIR_BUCKETS];

/* FNV-1a of the len bytes at s. */
static size_t hash(const char *s, size_t len)
{
	uint64_t h = 14695981039346656037ULL;

	for (size_t i = 0; i < len; i++)
		h = (h ^ (unsigned char)s[i]) * 1099511628211ULL;
	return (size_t)h;
}

/* The directory of that path (len bytes: "/" or "/a/b"), made the first
 * time; NULL if there is no memory for it (then it takes no lock). */
static struct dir *dir_named(const char *path, size_t len)
{
	struct dir **slot = &dirs[hash(path, len) % DIR_BUCKETS], *d;

	pthread_mutex_lock(&dirs_lock);
	for (d = *slot; d; d = d->next)
		if (strlen(d->path) == len && memcmp(d->path, path, len) == 0)
			break;
	if (!d && (d = malloc(sizeof *d + len + 1)) != NULL) {
		pthread_mutex_init(&d->lock, NULL);
		atomic_init(&d->lookups, 0);
		memcpy(d->path, path, len);
		d->path[len] = '\0';
		d->next = *slot;
		*slot = d;
	}
	pthread_mutex_unlock(&dirs_lock);
	return d;
}

/* The directory a name is looked up in: "/a" for "/a/b", "/" for "/b". */
static struct dir *parent_of(const char *path)
{
	size_t len = (size_t)(strrchr(path, '/') - path);

	return len ? dir_named(path, len) : dir_named("/", 1);
}

/* Enter d for a lookup or a directory read: its lock in serial mode;
 * returns whether it was taken, for leave(). */
static int enter(struct dir *d)
{
	int serial = d && atomic_load(&net.serial);

	if (serial)
		pthread_mutex_lock(&d->lock);
	return serial;
}

static void leave(struct dir *d, int locked)
{
	if (locked)
		pthread_mutex_unlock(&d->lock);
}

/* What a listing or a lookup brought: a lookup of a name within cache_s
 * of when a listing handed the name out, or a lookup answered it with a
 * round trip, is answered from that without one, as sshfs answers from its
 * cache (cache_timeout, 20 s by default) and NFS and SMB clients from what
 * READDIRPLUS or an earlier answer brought (the kernel asks again on
 * opening a name it has just looked up, at attr_timeout=0: that too).  The
 * model keeps it, not the kernel (readdirplus, timeouts > 0): so it
 * counts such lookups (lookups_listed, lookups_cached), and the kernel
 * sends the same requests in both modes and both models (libfuse 2 has no
 * readdirplus).  In parallel mode cache_s is 0: nothing is kept, as before
 * the serial mode was; and bench/net's prewalk, in that mode only, would
 * leave every name known.
 *
 * The attributes are SOURCE's as the model found them when it started (a
 * walk of SOURCE before mounting; SOURCE does not change under a bench):
 * a server reads them for READDIRPLUS on its own CPUs, which an lstat of
 * each entry here, some 2-4 us on a busy guest, would take from the runs',
 * 0.4 s for a listing of 100,000 names.  A name the walk did not find is
 * never answered from what was kept. */
struct known {
	struct known *next;
	atomic_llong listed;		/* ns, when a listing handed it out; 0: never */
	atomic_llong looked;		/* ns, when a lookup answered it; 0: never */
	struct stat st;
	char path[];
};

static struct known *known[KNOWN_BUCKETS];	/* made before mounting, then read-only */

static struct known *known_path(const char *path, size_t len)
{
	struct known *k = known[hash(path, len) % KNOWN_BUCKETS];

	while (k && (strncmp(k->path, path, len) != 0 || k->path[len] != '\0'))
		k = k->next;
	return k;
}

/* nftw's callback: every entry of SOURCE but SOURCE itself, by its path
 * in the mount. */
static size_t source_len;

static int know(const char *full, const struct stat *st, int type, struct FTW *ftw)
{
	const char *path = full + source_len;
	size_t len = strlen(path);
	struct known *k, **slot;

	(void)type;
	if (ftw->level == 0)
		return 0;
	k = malloc(sizeof *k + len + 1);
	if (!k)
		return 1;	/* the rest unknown: looked up by a round trip */
	atomic_init(&k->listed, 0);
	atomic_init(&k->looked, 0);
	copy_stat(&k->st, st);
	memcpy(k->path, path, len + 1);
	slot = &known[hash(path, len) % KNOWN_BUCKETS];
	k->next = *slot;
	*slot = k;
	return 0;
}

/* Walk SOURCE (resolved, so that every path starts with it). */
static void know_source(const char *source)
{
	source_len = strlen(source);
	if (source_len == 1)
		source_len = 0;		/* "/": the paths as they are */
	nftw(source, know, 64, FTW_PHYS);
}

/* The names that a reply of dir's listing handed out, from first to end:
 * listed now. */
static void remember(const char *dir, char *const *names, off_t first, off_t end, int64_t now)
{
	size_t n = strlen(dir) == 1 ? 0 : strlen(dir), cap = 0;
	char *path = NULL;

	for (off_t i = first; i < end; i++) {
		size_t len = n + 1 + strlen(names[i]);
		struct known *k;

		if (len + 1 > cap) {
			char *p = realloc(path, cap = len + 64);

			if (!p)
				break;
			path = p;
			memcpy(path, dir, n);
			path[n] = '/';
		}
		strcpy(path + n + 1, names[i]);
		if ((k = known_path(path, len)) != NULL)
			atomic_store(&k->listed, now);
	}
	free(path);
}

/* Whether what a listing or a lookup brought within cache_s answers a
 * lookup of path: if so, *st is its attributes, and the counter of those
 * so answered counts it. */
static int recall(const char *path, struct stat *st)
{
	double keep = atomic_load(&net.cache) * 1e9;
	struct known *k;
	int64_t now;

	if (!(keep > 0) || (k = known_path(path, strlen(path))) == NULL)
		return 0;
	now = now_ns();
	if (atomic_load(&k->listed) && (double)(now - atomic_load(&k->listed)) < keep)
		atomic_fetch_add(&net.listed, 1);
	else if (atomic_load(&k->looked) && (double)(now - atomic_load(&k->looked)) < keep)
		atomic_fetch_add(&net.cached, 1);
	else
		return 0;
	*st = k->st;
	return 1;
}

/* A lookup of path answered with a round trip: kept, if anything is. */
static void keep_lookup(const char *path)
{
	struct known *k;

	if (atomic_load(&net.cache) > 0 && (k = known_path(path, strlen(path))) != NULL)
		atomic_store(&k->looked, now_ns());
}

/* An open directory: its entries' names, read at opendir. */
struct listing {
	size_t n;
	char **names;
};

static void listing_free(struct listing *l)
{
	if (!l)
		return;
	for (size_t i = 0; i < l->n; i++)
		free(l->names[i]);
	free(l->names);
	free(l);
}

/* path's entries but "." and "..", or NULL with errno set. */
static struct listing *listing_read(const char *path)
{
	int fd = openat(root_fd, rel(path), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *dir = fd < 0 ? NULL : fdopendir(fd);
	struct listing *l = calloc(1, sizeof *l);
	size_t cap = 0;
	struct dirent *de;
	int err = 0;

	if (!dir || !l) {
		err = errno;
		if (fd >= 0 && !dir)
			close(fd);
		goto out;
	}
	errno = 0;
	while ((de = readdir(dir)) != NULL) {
		char **names = l->names;

		if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
			continue;
		if (l->n == cap && (names = realloc(l->names, (cap = cap * 2 + 64) * sizeof *names)) == NULL)
			break;
		l->names = names;
		if ((l->names[l->n] = strdup(de->d_name)) == NULL)
			break;
		l->n++;
		errno = 0;
	}
	err = errno;
out:
	if (dir)
		closedir(dir);
	if (err) {
		listing_free(l);
		errno = err;
		return NULL;
	}
	return l;
}

/* Fill buf with l's entries from the offset'th ("." and ".." first), each
 * with the offset of the next, until it is full, as a server hands a long
 * listing out a reply at a time: so each readdir request the kernel sends
 * costs a round trip.  Returns the offset after the last entry handed out. */
static off_t listing_fill(const struct listing *l, void *buf, fuse_fill_dir_t fill, off_t offset)
{
	const enum fuse_fill_dir_flags plain = (enum fuse_fill_dir_flags)0;
	off_t i;

	for (i = offset < 0 ? 0 : offset; (size_t)i < l->n + 2; i++)
		if (fill(buf, i == 0 ? "." : i == 1 ? ".." : l->names[i - 2], NULL, i + 1, plain) != 0)
			break;
	return i;
}

/* ------------------------------------------------------ the operations */

/* A lookup by name (or a stat): answered from what a listing or a lookup
 * brought, if kept, else with a round trip; either in its directory, one
 * at a time there in serial mode. */
static int lookup(const char *path, struct stat *st)
{
	struct dir *d = strcmp(path, "/") != 0 ? parent_of(path) : NULL;
	int locked = enter(d), rc;

	if (d)
		raise_to(&net.max_dir_lookups, atomic_fetch_add(&d->lookups, 1) + 1);
	if (recall(path, st)) {
		rc = 0;
	} else {
		struct request r = begin(path, K_GETATTR);

		rc = answer(&r, source_stat(path, st, NULL));
		if (rc == 0)
			keep_lookup(path);
	}
	if (d)
		atomic_fetch_sub(&d->lookups, 1);
	leave(d, locked);
	return rc;
}

static int nm_getattr(const char *path, struct stat *st, struct fuse_file_info *fi)
{
	struct request r;

	if (strcmp(path, CONTROL) == 0)
		return control_stat(st);
	if (!fi)
		return lookup(path, st);
	r = begin(path, K_FGETATTR);	/* fstat */
	return answer(&r, source_stat(path, st, fi));
}

static int nm_access(const char *path, int mode)
{
	struct request r = begin(path, K_ACCESS);

	if (r.kind == K_FREE)
		return 0;
	if (mode & W_OK)
		return answer(&r, -EROFS);
	return answer(&r, faccessat(root_fd, rel(path), mode, 0) == 0 ? 0 : -EACCES);
}

static int nm_readlink(const char *path, char *buf, size_t size)
{
	struct request r = begin(path, K_READLINK);

	return answer(&r, source_readlink(path, buf, size));
}

/* The entries are read here, the attributes as readdir hands entries out. */
static int nm_opendir(const char *path, struct fuse_file_info *fi)
{
	struct request r = begin(path, K_OPENDIR);
	struct listing *l;
	struct stat st;

	fi->fh = 0;
	if (fstatat(root_fd, rel(path), &st, 0) != 0 || !S_ISDIR(st.st_mode))
		return answer(&r, -ENOTDIR);
	l = listing_read(path);
	if (!l)
		return answer(&r, -errno);
	fi->fh = (uint64_t)(uintptr_t)l;
	return answer(&r, 0);
}

/* A reply of entries, in the directory (one at a time with its lookups in
 * serial mode, as under the kernel's lock): the names it hands out listed
 * when it arrives. */
static int nm_readdir(const char *path, void *buf, fuse_fill_dir_t fill, off_t offset,
		      struct fuse_file_info *fi, enum fuse_readdir_flags flags)
{
	const struct listing *l = (const struct listing *)(uintptr_t)fi->fh;
	struct dir *d = dir_named(path, strlen(path));
	int locked = enter(d), rc;
	struct request r = begin(path, K_READDIR);
	off_t end = listing_fill(l, buf, fill, offset);

	(void)flags;
	rc = answer(&r, 0);
	if (end > 2)
		remember(path, l->names, offset < 2 ? 0 : offset - 2, end - 2, now_ns());
	leave(d, locked);
	return rc;
}

static int nm_statfs(const char *path, struct statvfs *st)
{
	struct request r = begin(path, K_STATFS);

	return answer(&r, source_statfs(path, st));
}

static int nm_open(const char *path, struct fuse_file_info *fi)
{
	struct request r = begin(path, K_OPEN);

	if (r.kind == K_FREE) {
		fi->fh = CONTROL_FH;
		return 0;
	}
	return answer(&r, source_open(path, fi));
}

static int nm_read(const char *path, char *buf, size_t size, off_t offset,
		   struct fuse_file_info *fi)
{
	struct request r = begin(path, K_READ);

	if (fi->fh == CONTROL_FH)
		return answer(&r, control_read(buf, size, offset));
	return answer(&r, source_read(buf, size, offset, fi));
}

static int nm_write(const char *path, const char *data, size_t size, off_t offset,
		    struct fuse_file_info *fi)
{
	struct request r = begin(path, K_WRITE);

	(void)offset;
	return answer(&r, fi->fh == CONTROL_FH ? control_write(data, size) : -EROFS);
}

static int nm_truncate(const char *path, off_t size, struct fuse_file_info *fi)
{
	struct request r = begin(path, K_TRUNCATE);

	(void)size, (void)fi;
	return answer(&r, r.kind == K_FREE ? 0 : -EROFS);	/* "echo ... > .netmodel" */
}

/* Closing is free. */
static int nm_flush(const char *path, struct fuse_file_info *fi)
{
	(void)path, (void)fi;
	return 0;
}

static int nm_release(const char *path, struct fuse_file_info *fi)
{
	(void)path;
	if (fi->fh != CONTROL_FH)
		close((int)fi->fh);
	return 0;
}

static int nm_releasedir(const char *path, struct fuse_file_info *fi)
{
	(void)path;
	listing_free((struct listing *)(uintptr_t)fi->fh);
	return 0;
}

/* The rest: what fusepy's Operations answer, each a round trip. */

static int nm_utimens(const char *path, const struct timespec tv[2], struct fuse_file_info *fi)
{
	struct request r;

	/* libfuse 2 (fusepy sets no utime_omit_ok) calls utimens only when
	 * both times are set: touch -m succeeds there, without a request. */
	(void)fi;
	if (tv && (tv[0].tv_nsec == UTIME_OMIT || tv[1].tv_nsec == UTIME_OMIT))
		return 0;
	r = begin(path, K_UTIMENS);
	return answer(&r, -EROFS);
}

static int refuse(const char *path, enum kind kind, int err)
{
	struct request r = begin(path, kind);

	return answer(&r, err);
}

static int nm_mknod(const char *path, mode_t mode, dev_t dev)
{
	(void)mode, (void)dev;
	return refuse(path, K_MKNOD, -EROFS);
}

static int nm_mkdir(const char *path, mode_t mode)
{
	(void)mode;
	return refuse(path, K_MKDIR, -EROFS);
}

static int nm_unlink(const char *path)
{
	return refuse(path, K_UNLINK, -EROFS);
}

static int nm_rmdir(const char *path)
{
	return refuse(path, K_RMDIR, -EROFS);
}

/* fusepy names the new link first: a link named .netmodel is free. */
static int nm_symlink(const char *target, const char *path)
{
	(void)target;
	return refuse(path, K_SYMLINK, -EROFS);
}

static int nm_link(const char *from, const char *path)
{
	(void)from;
	return refuse(path, K_LINK, -EROFS);
}

static int nm_rename(const char *path, const char *to, unsigned int flags)
{
	/* libfuse 2's protocol has no rename with flags: the kernel fails
	 * renameat2 (EINVAL) without asking, and mv falls back to rename.
	 * ENOSYS tells the kernel so, once. */
	(void)to;
	if (flags)
		return -ENOSYS;
	return refuse(path, K_RENAME, -EROFS);
}

static int nm_chmod(const char *path, mode_t mode, struct fuse_file_info *fi)
{
	(void)mode, (void)fi;
	return refuse(path, K_CHMOD, -EROFS);
}

static int nm_chown(const char *path, uid_t uid, gid_t gid, struct fuse_file_info *fi)
{
	(void)uid, (void)gid, (void)fi;
	return refuse(path, K_CHOWN, -EROFS);
}

static int nm_create(const char *path, mode_t mode, struct fuse_file_info *fi)
{
	(void)mode, (void)fi;
	return refuse(path, K_CREATE, -EROFS);
}

static int nm_fsync(const char *path, int datasync, struct fuse_file_info *fi)
{
	(void)datasync, (void)fi;
	return refuse(path, K_FSYNC, 0);
}

static int nm_fsyncdir(const char *path, int datasync, struct fuse_file_info *fi)
{
	(void)datasync, (void)fi;
	return refuse(path, K_FSYNCDIR, 0);
}

static int nm_getxattr(const char *path, const char *name, char *value, size_t size)
{
	(void)name, (void)value, (void)size;
	return refuse(path, K_GETXATTR, -ENODATA);
}

static int nm_listxattr(const char *path, char *list, size_t size)
{
	(void)list, (void)size;
	return refuse(path, K_LISTXATTR, 0);	/* none */
}

static int nm_setxattr(const char *path, const char *name, const char *value, size_t size,
		       int flags)
{
	(void)name, (void)value, (void)size, (void)flags;
	return refuse(path, K_SETXATTR, -ENOTSUP);
}

static int nm_removexattr(const char *path, const char *name)
{
	(void)name;
	return refuse(path, K_REMOVEXATTR, -ENOTSUP);
}

static int nm_ioctl(const char *path, unsigned int cmd, void *arg, struct fuse_file_info *fi,
		    unsigned int flags, void *data)
{
	(void)cmd, (void)arg, (void)fi, (void)flags, (void)data;
	return refuse(path, K_IOCTL, -ENOTTY);
}

static void *nm_init(struct fuse_conn_info *conn, struct fuse_config *cfg)
{
	cfg->direct_io = 1;
	cfg->attr_timeout = 0;
	cfg->entry_timeout = 0;
	cfg->negative_timeout = 0;
	conn->want &= ~(unsigned)LIBFUSE3_ONLY;
	/* The kernel's largest request follows max_write (its max_pages). */
	if (conn->max_write > LIBFUSE2_MAX_IO)
		conn->max_write = LIBFUSE2_MAX_IO;
	return NULL;
}

static const struct fuse_operations ops = {
	.init = nm_init,
	.getattr = nm_getattr,
	.access = nm_access,
	.readlink = nm_readlink,
	.opendir = nm_opendir,
	.readdir = nm_readdir,
	.releasedir = nm_releasedir,
	.statfs = nm_statfs,
	.open = nm_open,
	.read = nm_read,
	.write = nm_write,
	.truncate = nm_truncate,
	.flush = nm_flush,
	.release = nm_release,
	.utimens = nm_utimens,
	.mknod = nm_mknod,
	.mkdir = nm_mkdir,
	.unlink = nm_unlink,
	.rmdir = nm_rmdir,
	.symlink = nm_symlink,
	.link = nm_link,
	.rename = nm_rename,
	.chmod = nm_chmod,
	.chown = nm_chown,
	.create = nm_create,
	.fsync = nm_fsync,
	.fsyncdir = nm_fsyncdir,
	.getxattr = nm_getxattr,
	.listxattr = nm_listxattr,
	.setxattr = nm_setxattr,
	.removexattr = nm_removexattr,
	.ioctl = nm_ioctl,
};

/* ------------------------------------------------------------- main */

struct options {
	double rtt_ms, mbps, cache_s;
	int allow_other, serial;
	const char *source, *mountpoint;
};

static int usage(const char *why)
{
	if (why)
		fprintf(stderr, "netmodel: %s\n", why);
	fputs("usage: netmodel [--rtt-ms X] [--mbps Y] [--lookups MODE] [--cache-s S]\n"
	      "                [--allow-other] SOURCE MOUNTPOINT\n"
	      "  X: the round trip of every request in ms (0.5); Y: the transfer rate\n"
	      "  of each read, 10^6 bytes/s (1000); MODE: parallel (the default), or\n"
	      "  serial: lookups in one directory one at a time; S: how long what a\n"
	      "  listing or lookup brought answers lookups, in s (0 parallel, 20 serial)\n",
	      why ? stderr : stdout);
	return 2;
}

/* Whether argv[*i] is the option name, "--name VALUE" or "--name=VALUE";
 * if so, *value is its value as a number (-1 if it is not one). */
static int option(int argc, char **argv, int *i, const char *name, double *value)
{
	size_t n = strlen(name);
	const char *arg = argv[*i];

	if (strncmp(arg, name, n) != 0 || (arg[n] != '=' && arg[n] != '\0'))
		return 0;
	if (arg[n] == '=')
		*value = number(arg + n + 1);
	else
		*value = ++*i < argc ? number(argv[*i]) : -1;
	return 1;
}

static int parse(int argc, char **argv, struct options *o)
{
	const char *pos[2];
	int npos = 0, dashes = 0;

	*o = (struct options){ .rtt_ms = 0.5, .mbps = 1000, .cache_s = -1 };
	for (int i = 1; i < argc; i++) {
		if (dashes || argv[i][0] != '-' || argv[i][1] == '\0') {
			if (npos == 2)
				return usage("too many arguments");
			pos[npos++] = argv[i];
		} else if (strcmp(argv[i], "--") == 0) {
			dashes = 1;
		} else if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
			usage(NULL);
			exit(0);
		} else if (strcmp(argv[i], "--allow-other") == 0) {
			o->allow_other = 1;
		} else if (option(argc, argv, &i, "--rtt-ms", &o->rtt_ms)) {
			if (!(o->rtt_ms >= 0))
				return usage("--rtt-ms must be a number, 0 or more");
		} else if (option(argc, argv, &i, "--mbps", &o->mbps)) {
			if (!(o->mbps > 0))
				return usage("--mbps must be a number more than 0");
		} else if (strncmp(argv[i], "--lookups", 9) == 0 &&
			   (argv[i][9] == '=' || argv[i][9] == '\0')) {
			const char *mode = argv[i][9] ? argv[i] + 10 : i + 1 < argc ? argv[++i] : "";

			if ((o->serial = lookups_mode(mode)) < 0)
				return usage("--lookups must be serial or parallel");
		} else if (option(argc, argv, &i, "--cache-s", &o->cache_s)) {
			if (!(o->cache_s >= 0))
				return usage("--cache-s must be a number, 0 or more");
		} else {
			return usage("unknown option");
		}
	}
	if (npos != 2)
		return usage("SOURCE and MOUNTPOINT are needed");
	/* sshfs keeps what it learnt 20 s (cache_timeout) */
	if (o->cache_s < 0)
		o->cache_s = o->serial ? 20 : 0;
	o->source = pos[0];
	o->mountpoint = pos[1];
	return 0;
}

/* Mount, serve until unmounted or signalled, unmount: 0, or 1 if it could
 * not mount. */
static int serve(const struct options *o)
{
	struct fuse_args args = FUSE_ARGS_INIT(0, NULL);
	struct fuse_loop_config *loop;
	struct fuse_session *se;
	struct fuse *f;
	int status = 1;

	if (fuse_opt_add_arg(&args, "netmodel") != 0 || fuse_opt_add_arg(&args, "-o") != 0 ||
	    fuse_opt_add_arg(&args, o->allow_other ? "fsname=netmodel,subtype=netmodel,allow_other"
			     : "fsname=netmodel,subtype=netmodel") != 0)
		return 1;
	f = fuse_new(&args, &ops, sizeof ops, NULL);
	if (f && fuse_mount(f, o->mountpoint) == 0) {
		se = fuse_get_session(f);
		loop = fuse_loop_cfg_create();
		if (loop && fuse_set_signal_handlers(se) == 0) {
			/* Idle threads are kept (the default): making them
			 * anew for every burst of requests would cost CPU. */
			fuse_loop_cfg_set_max_threads(loop, MAX_THREADS);
			/* A signal ends the loop with its number: a clean end. */
			status = fuse_loop_mt(f, loop) < 0;
			fuse_remove_signal_handlers(se);
		}
		if (loop)
			fuse_loop_cfg_destroy(loop);
		fuse_unmount(f);
	}
	if (f)
		fuse_destroy(f);
	fuse_opt_free_args(&args);
	return status;
}

/* The counters on stderr, one line in one write, as the Python model
 * prints them: its lines joined with "; ". */
static void print_counters(void)
{
	char buf[REPORT_MAX], line[2 * REPORT_MAX] = "netmodel: ";
	size_t len = report(buf, sizeof buf), n = strlen(line);

	for (size_t i = 0; i < len; i++)
		if (buf[i] != '\n') {
			line[n++] = buf[i];
		} else if (i + 1 < len) {
			line[n++] = ';';
			line[n++] = ' ';
		}
	line[n++] = '\n';
	fwrite(line, 1, n, stderr);
}

int main(int argc, char **argv)
{
	struct options o;
	int status;

	if (parse(argc, argv, &o) != 0)
		return 2;
	root_fd = open(o.source, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	root = realpath(o.source, NULL);
	if (root_fd < 0 || !root) {
		fprintf(stderr, "netmodel: %s is not a directory\n", o.source);
		return 2;
	}
	atomic_store(&net.rtt, o.rtt_ms / 1000.0);
	atomic_store(&net.rate, o.mbps * 1e6);
	atomic_store(&net.serial, o.serial);
	atomic_store(&net.cache, o.cache_s);
	know_source(root);
#ifdef PR_SET_TIMERSLACK
	/* The sleeps' slack, 50 us by default, would scatter the answers
	 * around the deadline that the bias only centres; the threads that
	 * libfuse starts inherit it. */
	prctl(PR_SET_TIMERSLACK, 1UL);
#endif
	status = serve(&o);
	print_counters();
	return status;
}
