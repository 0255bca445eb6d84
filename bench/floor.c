/* bench/floor.c - the system calls that no md5sum can avoid, alone: for
 * each FILE, open it, fstat it, read it to its size and close it, hashing
 * nothing and printing nothing, on N threads that take runs of names in
 * turn.  What md5sum takes beyond this is what it adds to the kernel's
 * work (bench/run prints ours / floor).
 *
 * usage: bench/floor [-j N] FILE...	(N threads, default 1; with no FILE,
 *					 NUL-separated names on standard input)
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

enum { RUN = 64, BUF = 128 * 1024, THREADS_MAX = 256 };

static char **names;
static size_t count;
static atomic_size_t next;	/* the first name not taken */
static atomic_int failed;

/* Open, fstat, read to the size (in BUF pieces), close. */
static void read_one(const char *name, char *buf)
{
	struct stat st;
	int fd = open(name, O_RDONLY);
	off_t left;

	if (fd < 0 || fstat(fd, &st) != 0) {
		atomic_store(&failed, 1);
		if (fd >= 0)
			close(fd);
		return;
	}
	for (left = st.st_size; left > 0;) {
		ssize_t n = read(fd, buf, left < BUF ? (size_t)left : BUF);

		if (n <= 0) {
			atomic_store(&failed, 1);
			break;
		}
		left -= n;
	}
	close(fd);
}

/* Take runs of RUN names until none are left. */
static void *read_runs(void *arg)
{
	char *buf = malloc(BUF);
	size_t i, end;

	(void)arg;
	if (!buf) {
		atomic_store(&failed, 1);
		return NULL;
	}
	while ((i = atomic_fetch_add(&next, RUN)) < count)
		for (end = i + RUN < count ? i + RUN : count; i < end; i++)
			read_one(names[i], buf);
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

	while ((c = getopt(argc, argv, "j:")) != -1) {
		if (c != 'j' || (threads = atoi(optarg)) < 1 || threads > THREADS_MAX) {
			fprintf(stderr, "usage: bench/floor [-j N] FILE...\n");
			return 2;
		}
	}
	names = argv + optind;
	count = (size_t)(argc - optind);
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
