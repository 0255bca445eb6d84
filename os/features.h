/* features.h - what the normal build has that the small static build
 * (make static, which defines MD5SUM_SMALL) leaves out to stay within its
 * size, one constant each.  The code tests them with a plain if, so that
 * both builds compile every line and the small one's compiler drops what
 * it never runs.  Five modules the small build leaves out whole, the disk
 * readers, the drawing of the status line, the lister, the messages'
 * translations and growing by realloc: the Makefile links stand-ins for
 * them (read/disk_none.c, out/progress_draw_none.c, run/lister_none.c,
 * out/lang_none.c, os/grow_copy.c), and their constants here tell the
 * rest of the code.  README.md's "Static binary"
 * says what each costs a user.  Nothing else reads MD5SUM_SMALL. */
#ifndef FEATURES_H
#define FEATURES_H

#ifdef MD5SUM_SMALL
#define FEATURES_FULL 0
#else
#define FEATURES_FULL 1
#endif

enum {
	/* A reader thread for each spinning disk, reading its files in disk
	 * order (read/disk.c); without, such files are read one at a time
	 * where they come, as GNU reads them. */
	HAS_DISK_READERS = FEATURES_FULL,
	/* The status line of --progress drawn (out/progress_draw.c). */
	HAS_STATUS_LINE = FEATURES_FULL,
	/* The directories of the names opened on network storage read ahead
	 * of their lookups (run/lister.c); without, each name is looked up
	 * as it comes. */
	HAS_LISTER = FEATURES_FULL,
	/* GNU's messages in the user's language, through the C library's
	 * gettext (out/lang.c); without, in English, as in the "C" locale. */
	HAS_TRANSLATIONS = FEATURES_FULL,
	/* An error outside glibc's words that out/errtext.c holds told in
	 * the C library's (strerror, which brings musl's table of texts);
	 * without, as "Unknown error N". */
	HAS_LIBC_ERROR_TEXTS = FEATURES_FULL,
	/* Threads added past the CPUs while a run waits on its storage
	 * (run/budget.h, run/decide_threads.c). */
	HAS_THREADS_PAST_CPUS = FEATURES_FULL,
	/* Files handed over, with their hash so far, to workers out of work
	 * at the end of a run (run/hasher_shelf.c). */
	HAS_HANDOVERS = FEATURES_FULL,
	/* A worker with none left to claim takes the tasks of others'
	 * batches that they have not reached (window/window.c). */
	HAS_SHARED_BATCHES = FEATURES_FULL,
	/* Flash asked for a file at once on a thread whose reads miss the
	 * page cache, rather than the page cache asked first
	 * (run/decide_way.c, run/recent.c). */
	HAS_FLASH_ASKED_AT_ONCE = FEATURES_FULL,
	/* The lanes' buffers fitted to a limit on address space
	 * (run/budget.c); the small build's few lanes always fit. */
	HAS_ADDRESS_SPACE_FIT = FEATURES_FULL,
	/* Reads that would wait are not made while lines are done: a list
	 * is asked whether a read would wait (jobs/listread.c,
	 * window/window.c), a FIFO is opened without waiting for its writer
	 * and waited for in its turn (read/open.c, read/stream.c). */
	HAS_NO_WAIT_READS = FEATURES_FULL,
	/* A long input read plainly is read on a second thread while the
	 * first hashes it (read/stream.c). */
	HAS_READ_AHEAD = FEATURES_FULL,
	/* The page cache asked with cachestat(2) (read/storage.c). */
	HAS_CACHESTAT = FEATURES_FULL,
	/* The CPUs counted by the cgroup's quota too (os/cores.c). */
	HAS_CPU_QUOTA = FEATURES_FULL,
	/* The soft limit on open files raised toward the hard one
	 * (os/fds.c). */
	HAS_FD_LIMIT_RAISE = FEATURES_FULL,
	/* Fewer lanes filled where the engines' speed tables say twice as
	 * many do not pay (run/lanecount.c); the small build's one engine
	 * has few lanes. */
	HAS_LANES_HALVED = FEATURES_FULL,
	/* Lanes compressed where their chaining words lie, when they fill
	 * an engine side by side, rather than through a copy
	 * (run/laneset.c). */
	HAS_LANES_IN_PLACE = FEATURES_FULL,
	/* The command on a thread of its own under a small ulimit -s
	 * (md5sum.c). */
	HAS_OWN_STACK = FEATURES_FULL,
	/* A heap buffer grown by realloc, which moves a large one's pages
	 * rather than copying them, as GNU's getline does (os/grow.c); the
	 * small build links os/grow_copy.c instead: malloc, copy and free,
	 * the old buffer and the new held at once. */
	HAS_GROW_IN_PLACE = FEATURES_FULL,
};

#undef FEATURES_FULL

#endif
