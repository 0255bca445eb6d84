/* budget.c - the threads, lanes, queues and descriptors of a run; see
 * budget.h. */
#include <fcntl.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <stdlib.h>
#include <sys/resource.h>
#include <unistd.h>

#include "run/budget.h"
#include "os/cores.h"
#include "os/fds.h"
#include "run/lanecount.h"
#include "os/features.h"
#include "out/lang.h"

/* Files a thread keeps opened ahead of its lanes, in lanes' worth, at
 * most; and all threads together, at most. */
enum { QUEUE_LANES = 5, QUEUED_MAX = 256 };

/* The lanes and queue of each thread past the CPUs' worth: one read in
 * flight a thread, so few files each. */
enum { WAITING_LANES = 4, WAITING_QUEUE = 4 };

/* Files waiting for a disk reader, at most: the wider the window it
 * sorts, the fewer the seeks.  A quarter of the descriptors free go to
 * them (share_descriptors). */
enum { DISK_WAITING_MAX = FDS_WANTED / 4 };

static unsigned at_most(unsigned n, uint64_t cap)
{
	return n < cap ? n : (unsigned)cap;
}

/* Share out the descriptors free: half for the files the threads hold in
 * lanes and queues (a file a thread at least: fewer threads when there
 * are very few), the CPUs' threads' first, then as many again planned as
 * they are where there is room, what they leave to the threads that
 * wait; a quarter for the files waiting for the disk readers, the rest
 * for lists, the look-ups of sysfs.c and the directory the lister reads
 * (lister.h). */
static void share_descriptors(struct budget *b)
{
	struct hasher_plan *p = &b->plan, *w = &b->waiting_plan;
	unsigned free = fds_free(FDS_WANTED), hashing = free / 2, each, taken, waiting;

	if (hashing == 0)
		hashing = 1;
	if (b->threads > hashing)
		b->threads = hashing;
	each = hashing / b->threads;
	if (p->lanes > each)
		p->lanes = each;	/* fewer lanes than the engine has */
	p->queue = QUEUE_LANES * p->lanes;
	if (p->queue > QUEUED_MAX / b->threads)
		p->queue = QUEUED_MAX / b->threads;
	if (p->queue > each - p->lanes)
		p->queue = each - p->lanes;
	taken = b->threads * (p->lanes + p->queue);
	if (WAITING_THREADS_MAX == 0) {
		b->threads_max = b->threads;
	} else {
		b->full_past = at_most(b->full_past, (hashing - taken) / (p->lanes + p->queue));
		taken += b->full_past * (p->lanes + p->queue);
		waiting = (hashing - taken) / (w->lanes + w->queue);
		if (b->threads_max > b->threads + b->full_past + waiting)
			b->threads_max = b->threads + b->full_past + waiting;
		taken += (b->threads_max - b->threads - b->full_past) * (w->lanes + w->queue);
	}
	b->disk_files = free / 4 < DISK_WAITING_MAX ? free / 4 : DISK_WAITING_MAX;
	if (b->threads_max > 1)
		fds_make_room(taken + b->disk_files);
}

/* Threads past the CPUs' planned as the CPUs' threads are, at most: as
 * many again (decide.h: threads past the CPUs on flash hash as the CPUs'
 * threads do, their reads asked for ahead). */
static unsigned full_past_max(const struct budget *b)
{
	return at_most(b->threads, b->threads_max - b->threads);
}

/* The address space the process has mapped, from /proc; 0 when it cannot
 * be read. */
static rlim_t address_space_used(void)
{
	char text[64];
	int fd = open("/proc/self/statm", O_RDONLY | O_CLOEXEC);
	ssize_t n = fd < 0 ? -1 : read(fd, text, sizeof text - 1);
	long page = sysconf(_SC_PAGESIZE);

	if (fd >= 0)
		close(fd);
	if (n <= 0 || page <= 0)
		return 0;
	text[n] = '\0';
	return (rlim_t)strtoull(text, NULL, 10) * (rlim_t)page;
}

/* glibc gives a thread that allocates while another holds the arena an
 * arena of its own, reserving 64 MiB of address space for it, or tries
 * to and lets it go again where that does not fit: under a limit, such a
 * reservation, made while threads start, takes the room that a thread's
 * stack or buffers were counted on, and the run gets fewer threads now
 * and then.  Under a limit, one arena, which the count covers. */
static void one_arena(void)
{
#if defined(__GLIBC__) && defined(M_ARENA_MAX)
	(void)mallopt(M_ARENA_MAX, 1);
#endif
}

/* Under a limit on address space (ulimit -v), the threads' buffers take
 * a quarter of what it leaves free at most, so that the rest of the run
 * (its batches, its lists, the C library's arenas) has room: half the
 * lanes a thread, then fewer threads, then none: GNU's way, one by one.
 * Not in the small build, whose few lanes always fit. */
static void fit_address_space(struct budget *b)
{
	struct hasher_plan *p = &b->plan;
	struct rlimit lim;
	rlim_t budget, used;
	size_t cpus_bytes;

	if (!HAS_ADDRESS_SPACE_FIT)
		return;
	b->full_past = full_past_max(b);
	if (getrlimit(RLIMIT_AS, &lim) != 0 || lim.rlim_cur == RLIM_INFINITY)
		return;
	one_arena();
	/* The locale that a message loads may map megabytes (glibc's archive,
	 * the catalogs): loaded now, by the one thread there is, it is
	 * counted. */
	lang_load();
	used = address_space_used();
	budget = (lim.rlim_cur > used ? lim.rlim_cur - used : 0) / 4;
	while (p->lanes > HASHER_LANES_MAX / 2 &&
	       b->threads * hasher_buffer_bytes(p->lanes) > budget)
		p->lanes /= 2;
	while (b->threads > 1 && b->threads * hasher_buffer_bytes(p->lanes) > budget)
		b->threads--;
	if (hasher_buffer_bytes(p->lanes) > budget) {
		b->threads = b->threads_max = 0;
		b->full_past = 0;
		return;
	}
	cpus_bytes = b->threads * hasher_buffer_bytes(p->lanes);
	budget = budget > cpus_bytes ? budget - cpus_bytes : 0;
	b->full_past = at_most(full_past_max(b), budget / hasher_buffer_bytes(p->lanes));
	budget -= b->full_past * hasher_buffer_bytes(p->lanes);
	if (b->threads_max > b->threads + b->full_past + budget / hasher_buffer_bytes(b->waiting_plan.lanes))
		b->threads_max = b->threads + b->full_past +
			  (unsigned)(budget / hasher_buffer_bytes(b->waiting_plan.lanes));
}

static unsigned at_least(unsigned n, unsigned least)
{
	return n > least ? n : least;
}

struct budget budget_for(const struct hasher_plan *base, unsigned threads)
{
	struct budget b = { .plan = *base };

	b.threads = threads ? threads : cores_usable();
	b.threads_max = threads ? b.threads : at_least(b.threads, WAITING_THREADS_MAX);
	b.plan.lanes = lanecount_for(base->engines);
	if (WAITING_THREADS_MAX > 0) {
		b.waiting_plan = b.plan;
		if (b.waiting_plan.lanes > WAITING_LANES)
			b.waiting_plan.lanes = WAITING_LANES;
		b.waiting_plan.queue = WAITING_QUEUE;
	}
	fit_address_space(&b);
	if (HAS_ADDRESS_SPACE_FIT && b.threads == 0)
		return b;
	share_descriptors(&b);
	/* The disks' readers come with the first of the CPUs' threads'
	 * helpers; without them, such files are read in lanes (decide_way.c). */
	if (HAS_DISK_READERS)
		b.plan.time_unsure = b.waiting_plan.time_unsure = b.threads == 1;
	return b;
}

const struct hasher_plan *budget_helper_plan(const struct budget *b, unsigned i)
{
	return WAITING_THREADS_MAX > 0 && i + 1 >= b->threads + b->full_past ? &b->waiting_plan :
									 &b->plan;
}
