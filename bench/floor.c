/* bench/floor.c - the system calls that no md5sum can avoid, alone: for
 * each FILE, open it, fstat it, read it to its size and close it, hashing
 * nothing and printing nothing, on N threads that take runs of names in
 * turn.  What md5sum takes beyond this is what it adds to the kernel's
 * work (bench/run prints ours / floor).  With -l and -b it reads as
 * md5sum's lanes do: L files open a thread, read a piece of each in turn,
 * B bytes a read; what md5sum takes beyond that is its own work.
 *
 * usage: bench/floor [-j N] [-l L] [-b B] FILE...
 *	N threads (1), L files open a thread (1), B bytes a read (131072);
 *	with no FILE, NUL-separated names on standard input.
 * Exits 1 if a file could not be read, 2 on a usage error. */
#define _POSIX_C_SOURCE 200809L
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

enum { RUN = 64, THREADS_MAX = 256, LANES_MAX = 64, PIECE_MAX = 64 << 20 };

static char **names;
static size_t count;
static atomic_size_t next;	/* the first name not taken */
static atomic_int failed;

static int lanes = 1;		/* files open a thread */
static size_t piece = 128 * 1024;	/* bytes a read */

/* One file open in a thread, or none (fd < 0). */
struct slot {
	int fd;
	off_t left;
	char *buf;
};

/* The next name of the thread's run, a new run when it has none: NULL
 * when none are left. */
static const char *next_name(size_t *i, size_t *end)
{
	if (*i == *end) {
		if ((*i = atomic_fetch_add(&next, RUN)) >= count)
			return NULL;
		*end = *i + RUN < count ? *i + RUN : count;
	}
	return names[(*i)++];
}

/* Open name in s, and fstat it for its size; s->fd is -1 if it failed. */
static void open_slot(struct slot *s, const char *name)
{
	struct stat st;

	s->fd = open(name, O_RDONLY);
	if (s->fd < 0 || fstat(s->fd, &st) != 0) {
		atomic_store(&failed, 1);
		if (s->fd >= 0)
			close(s->fd);
		s->fd = -1;
		return;
	}
	s->left = st.st_size;
}

/* Read a piece of s's file; close it at its size. */
static void read_slot(struct slot *s)
{
	if (s->left > 0) {
		ssize_t n = read(s->fd, s->buf, s->left < (off_t)piece ? (size_t)s->left : piece);

		if (n <= 0) {
			atomic_store(&failed, 1);
			s->left = 0;
		} else {
			s->left -= n;
		}
	}
	if (s->left == 0) {
		close(s->fd);
		s->fd = -1;
	}
}

/* Take runs of RUN names until none are left, lanes files at a time. */
static void *read_runs(void *arg)
{
	struct slot slot[LANES_MAX];
	char *buf = malloc((size_t)lanes * piece);
	size_t i = 0, end = 0;
	int open_files, more = 1;

	(void)arg;
	if (!buf) {
		atomic_store(&failed, 1);
		return NULL;
	}
	for (int l = 0; l < lanes; l++)
		slot[l] = (struct slot){ .fd = -1, .buf = buf + (size_t)l * piece };
	do {
		open_files = 0;
		for (int l = 0; l < lanes; l++) {
			const char *name;

			while (slot[l].fd < 0 && more) {
				if (!(name = next_name(&i, &end)))
					more = 0;
				else
					open_slot(&slot[l], name);
			}
			if (slot[l].fd >= 0)
				read_slot(&slot[l]);
			open_files += slot[l].fd >= 0;
		}
	} while (more || open_files > 0);
	free(buf);
	return NULL;
}

/* The NUL-separated names on standard input, into names and count. */
static int names_from_stdin(void)
{
	size_t size = 0, cap = 0;
	char *line = NULL;
	ssize_t n;

	while ((n = getdelim(&line, &size, '\0', stdin)) > 0) {
		if (count == cap) {
			char **more = realloc(names, (cap = cap ? 2 * cap : 1024) * sizeof *names);

			if (!more)
				return -1;
			names = more;
		}
		if (!(names[count++] = strdup(line)))
			return -1;
	}
	free(line);
	return ferror(stdin) ? -1 : 0;
}

int main(int argc, char **argv)
{
	pthread_t id[THREADS_MAX];
	int threads = 1, c, started;

	while ((c = getopt(argc, argv, "j:l:b:")) != -1) {
		long v = c == 'j' || c == 'l' || c == 'b' ? atol(optarg) : 0;

		if (v < 1 || (c == 'j' && v > THREADS_MAX) || (c == 'l' && v > LANES_MAX) ||
		    (c == 'b' && v > PIECE_MAX)) {
			fprintf(stderr, "usage: bench/floor [-j N] [-l L] [-b B] FILE...\n");
			return 2;
		}
		if (c == 'j')
			threads = (int)v;
		else if (c == 'l')
			lanes = (int)v;
		else
			piece = (size_t)v;
	}
	count = (size_t)(argc - optind);
	names = count > 0 ? argv + optind : NULL;	/* else grown from standard input */
	if (count == 0 && names_from_stdin() != 0) {
		perror("bench/floor: standard input");
		return 2;
	}
	for (started = 1; started < threads; started++)
		if (pthread_create(&id[started], NULL, read_runs, NULL) != 0)
			break;
	read_runs(NULL);
	while (--started > 0)
		pthread_join(id[started], NULL);
	return atomic_load(&failed) ? 1 : 0;
}
