/* decide.h - the run's decisions, each one pure function of facts handed
 * to it: how many threads run and how deep the reads go (decide_threads),
 * which way each file is read (decide_way), and how much of a directory
 * on a network file system is read ahead of its lookups (decide_listing).  No clock, no globals, no
 * locks: the facts come in, a decision goes out, and no fact handed in is
 * written (decide_threads moves on only its own record, struct pace,
 * which the caller keeps for it).  Every tunable of the decisions is named and explained here,
 * once.  crew.c carries out the first, hasher.c the second; the facts
 * come from the run's measures (crew.c), its devices (storage.h) and a
 * worker's recent reads (recent.h).
 *
 * Threads.  A run whose names say they hold enough jobs for every CPU
 * starts its helpers at once, as many as it may have.  Otherwise the
 * calling thread starts alone, and helpers are added while they pay, as
 * measured: after a warm-up, the work done is measured over a while with
 * the threads the run has, then over as long with twice as many.  A step
 * that makes the run clearly slower, measured twice, is cut back (its
 * helpers finish what they hold and stop), as where other programs keep
 * the CPUs busy; one that brings little more is the last; a helper must
 * find, at the run's pace so far, a measure's worth of work left: in the
 * jobs left, or in the files the calling thread could hand over, when
 * they would last a few measures (a few large files all claimed at once).
 *
 * Helpers are as many as the CPUs while the threads keep the CPUs busy.
 * Where they wait on the storage instead (over the calling thread's
 * measure alone, or one after the first with helpers, which holds their
 * start, their CPU time is less than PACE_WAITING_PERCENT of theirs to
 * have, and each gave up its CPU to wait at least once, and often: a
 * network file system, flash; not a machine whose CPUs are busy with
 * other work), the steps go on past the CPUs, up to helpers_max_waiting:
 * first at once to as many threads as would keep the CPUs busy at the
 * share they used, proven unless they cost as a step within the CPUs
 * does; then twice as many a step, measured over longer, enough to see
 * files done, each proven only if it brings PACE_FASTER_PERCENT more, in
 * the measure after it or, where that held the new threads' start, in the
 * next; else it is cut back.  Within the CPUs, threads that mostly wait
 * are not judged by the few files a measure sees them finish.
 *
 * The depth past the CPUs follows the device under the run (devkind.h):
 * never past the CPUs where it spins or may (a read more in flight there
 * is a seek more, and flash pays only its first few reads read as if it
 * spins), nor settled while it is not measured; on flash, DECIDE_FLASH_
 * threads at most (its reads are asked for ahead, so that its reads in
 * flight follow the files held, not the threads).
 *
 * Way.  Only data that must come from a device is worth ordering by its
 * place on the disk: data already in memory is hashed in the lanes of
 * every thread, whatever the device.  Whether it is in memory is asked of
 * the page cache when the first read is made (no system call of its own),
 * or, on a thread whose reads have lately missed the cache, before the
 * file is queued, so that what is missing can be asked for ahead; on such
 * a thread, flash is asked for the file at once instead, and the page
 * cache only now and then, to learn when files come from memory again.  A
 * decision that waits on a fact (READ_PROBE, READ_ASK_CACHE) is taken
 * again once the fact is known.  Data that must come from a device not
 * measured yet (STORAGE_UNSURE: it says it rotates) is read as if it
 * spins until its first reads are timed: a spinning disk pays a seek for
 * each file that lanes would ask for at once, flash only the few reads of
 * its measure.
 *
 * Listing.  On a network file system a lookup of a name is a round trip,
 * and some clients look the names of one directory up one at a time
 * (sshfs, every FUSE file system without parallel directory operations),
 * so that opening the names of a list costs a round trip each in a row;
 * a listing of the directory brings its entries, with their attributes
 * (sshfs's cache, NFS's and SMB's READDIRPLUS), some hundreds a reply,
 * and the client answers the later lookups from it.  So the directories
 * of the names opened are read ahead (lister.h), where the storage is
 * known to be networked: by the file system's type (its name in
 * /proc/self/mountinfo, else statfs's f_type), not by the lookups'
 * measured cost, which is known only once paid, and which a busy local
 * disk can show too.  Local storage and the page cache are never
 * listed: a lookup there costs less than the listing.  A directory is
 * read once LIST_NAMES_LEAST of its names were opened, or were about to be
 * where their directory is known to be networked (one or two named
 * in a directory gain little), and only while LIST_ENTRIES_A_NAME entries
 * for each name opened in it so far cover its entries: those it holds,
 * as its size says (LIST_DIR_BYTES_AN_ENTRY bytes an entry, asked before
 * it is opened), and those read of it so far.  A reply of a listing
 * brings some hundreds of entries at the cost of a lookup, and pays for
 * itself only where the names it answers are as many, so that a
 * directory of many entries of which the list names few is not read, or
 * read no further than its names pay for, where its size says nothing
 * (the reading waits for more names). */
#ifndef DECIDE_H
#define DECIDE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "os/monotime.h"
#include "read/devkind.h"

/* ------------------------------------------------------------ tunables */

/* A measure lasts PACE_MEASURE_US, after PACE_WARMUP_US of the run.  The
 * files of a tree differ from one part of it to the next, and a large
 * file read in one measure and not in the next weighs much, so that two
 * measures differ with the threads unchanged: a step is cut back only
 * when it makes the run PACE_SLOWER_PERCENT slower in two measures
 * running, and one that brings less than PACE_FASTER_PERCENT more is the
 * last. */
enum { PACE_WARMUP_US = 1000, PACE_MEASURE_US = 3000 };
enum { PACE_SLOWER_PERCENT = 10, PACE_FASTER_PERCENT = 10 };

/* Threads that used less than PACE_WAITING_PERCENT of their CPU time to
 * have over a measure, and gave up their CPU to wait at least once each
 * and once every PACE_WAIT_CPU_US of CPU time they used, waited on the
 * storage enough that threads more may pay: a run that waits on locks,
 * its CPUs busy with other work, waits far less often. */
enum { PACE_WAITING_PERCENT = 75, PACE_WAIT_CPU_US = 2000 };

/* A measure with threads past the CPUs lasts PACE_MEASURE_PAST_US: each
 * of those finishes a file a few round trips at most, and a measure must
 * see enough files to tell a step that pays from one that does not. */
enum { PACE_MEASURE_PAST_US = 20000 };

/* The least a file can take, in us: its open, fstat, read and close.
 * Jobs enough that every thread would find a measure's worth of them,
 * at that, start every helper at once. */
enum { PACE_FILE_US_LEAST = 4 };

/* Work the calling thread could hand over is worth a helper only when it
 * would last PACE_HANDOVER_MEASURES_LEAST measures: the helper takes files
 * from the thread that holds them, and each then hashes fewer side by
 * side, at a higher cost a byte, so that a short run would gain less than
 * the helper costs. */
enum { PACE_HANDOVER_MEASURES_LEAST = 4 };

/* Helpers at most on flash, for cpu_helpers helpers within the CPUs:
 * threads past the CPUs hash while others wait on an open or a read, as
 * many again as the CPUs at most. */
#define DECIDE_FLASH_HELPERS(cpu_helpers) (2 * (cpu_helpers) + 1)

/* Of the files whose data had to come from a solid device, one in
 * WAY_SAMPLE_EVERY is read unasked and timed, so that the device's measure
 * goes on (read_facts.sample_due). */
enum { WAY_SAMPLE_EVERY = 512 };

/* Of the latest 8 files asked of the page cache, WAY_COLD_MISSES missed
 * make a thread cold (read_facts.cold). */
enum { WAY_COLD_MISSES = 2 };

/* A cold thread asks flash for its files without asking the page cache,
 * but for one in WAY_ASK_EVERY (read_facts.ask_due): enough to turn warm
 * again within some hundreds of files once they come from memory. */
enum { WAY_ASK_EVERY = 32 };

/* A directory on a network file system is read ahead of its lookups once
 * LIST_NAMES_LEAST of its names were opened (or are about to be), and
 * LIST_ENTRIES_A_NAME of its entries at most for each such name: a reply of a
 * listing brings some hundreds of entries (NFS, SMB) to a thousand
 * (sshfs) at the cost of one lookup.  A directory's size guesses its
 * entries at LIST_DIR_BYTES_AN_ENTRY bytes each: more than most file
 * systems take (ext4 some 16 for short names, tmpfs 20), so that the
 * guess is low where it is wrong, and the entries read bound the rest. */
enum { LIST_NAMES_LEAST = 4, LIST_ENTRIES_A_NAME = 128, LIST_DIR_BYTES_AN_ENTRY = 64 };

/* How a device's kind is told from its far reads: STORAGE_SEEK_US,
 * STORAGE_SAMPLES_MIN and STORAGE_SAMPLES, in devkind.h. */

/* ------------------------------------------------------------- threads */

/* Where the adding of threads is: the decision's memory, handed in and
 * given back moved on. */
struct pace {
	enum pace_state { PACE_WARMING, PACE_MEASURING, PACE_SETTLED } state;
	int64_t since;		/* when the measure began, in us */
	uint64_t work;		/* the work done by then */
	struct cpu_use cpu;	/* and the CPU used (monotime.h) */
	unsigned judged;	/* measures judged */
	bool past;		/* this one with threads past the CPUs */
	uint64_t rate;		/* work a ms with the helpers proven */
	unsigned proven;	/* helpers that the steps judged so far left */
	unsigned asked;		/* helpers asked for by the last step */
	unsigned fill;		/* helpers that keep the CPUs busy where the
				 * threads wait, as measured at the CPUs */
	int doubted;		/* the last measure found them slower */
};

/* What the run knows now. */
struct pace_facts {
	int64_t now;		/* us since the run began */
	uint64_t work;		/* work done by all its threads (window.h) */
	unsigned running;	/* helpers started */
	unsigned helpers_max;	/* helpers it may have */
	unsigned helpers_max_waiting;	/* the same while its threads wait
				 * on the storage: more than helpers_max,
				 * else ignored */
	struct cpu_use cpu;	/* the CPU its threads used; read only
				 * where helpers_max_waiting counts */
	size_t left;		/* jobs not yet handed out; SIZE_MAX: unknown */
	size_t claimed;		/* jobs handed out */
	uint64_t to_hand_over;	/* work the calling thread holds that a
				 * helper could take from it (its files but
				 * the one with the most left); 0 where none
				 * can be */
	bool unsure;		/* whether the storage wants threads past the
				 * CPUs is not known yet: a step that would be
				 * the last is measured again.  Where device
				 * facts are handed in, they say it instead */
};

/* What to do now. */
struct pace_step {
	enum pace_act {
		PACE_WAIT,	/* nothing, for now */
		PACE_START,	/* start helpers up to .helpers in all */
		PACE_CUT,	/* let .helpers of them go on; the others stop
				 * once they have hashed what they hold */
		PACE_SETTLE,	/* nothing, ever again */
	} act;
	unsigned helpers;
};

/* The pace of a run before it starts: settled with -j (every thread
 * started at once by the caller), else warming. */
struct pace decide_begin(int settled);

/* The next step from p and f; *p, the decision's own record of where the
 * adding of threads is, moves on, and the facts are only read.  With the facts of the
 * run's device d (the one that spins or may, else one of its others:
 * storage.h), threads past the CPUs are capped by its kind as said above,
 * and f->unsure is d's to say; without (NULL), f is taken as it is.
 * Cheap when there is nothing to do: call it often. */
struct pace_step decide_threads(struct pace *p, const struct pace_facts *f,
				const struct device_facts *d);

/* Whether decide_threads, at now, could do anything but wait: the facts
 * are worth gathering. */
bool decide_due(const struct pace *p, int64_t now);

/* ----------------------------------------------------------------- way */

/* Which kind of storage to read files as (--disk): as measured
 * (storage.h), or as the user says for all. */
enum disk_choice { DISK_AUTO, DISK_HDD, DISK_SSD };

/* Whether the file's data is in memory. */
enum cache_answer {
	CACHE_UNASKED,		/* not asked yet */
	CACHE_HIT,
	CACHE_MISS,		/* it must come from the device */
	CACHE_UNKNOWABLE,	/* this system cannot tell */
};

struct read_facts {
	bool is_stdin;		/* "-" */
	bool regular;		/* a regular file (after fstat) */
	enum disk_choice disk;
	enum cache_answer cache;
	enum storage_kind storage;
	bool cold;		/* this thread's reads have lately missed */
	bool ask_due;		/* the page cache is due a question again */
	bool sample_due;	/* the device's kind is due a measure */
	bool readers;		/* a disk reader can take files */
};

enum read_way {
	READ_IN_TURN,		/* plain reads, once the inputs before it are
				 * done: standard input, pipes, devices */
	READ_NOW,		/* plain reads to its end, here and now */
	READ_BY_DISK,		/* by its disk's reader, in disk order */
	READ_LANES,		/* in lanes, nothing asked of the device */
	READ_LANES_ASKED,	/* in lanes, the device asked ahead */
	READ_LANES_TIMED,	/* in lanes, the first read timed for the
				 * device's measure (storage_sample) */
	READ_PROBE,		/* in lanes, the first read from memory only;
				 * then decided again */
	READ_ASK_CACHE,		/* ask the page cache now; then decide again */
};

/* The way to read a file of facts f. */
enum read_way decide_way(const struct read_facts *f);

/* Whether the way reads the file in lanes. */
bool read_way_in_lanes(enum read_way w);

/* ------------------------------------------------------------- listing */

/* Whether a file system of this type is served over a network: NFS,
 * SMB/CIFS, FUSE, 9p, Ceph, AFS, Coda, Lustre, GPFS, ...; by its name as
 * /proc/self/mountinfo gives it ("nfs4", "fuse.sshfs"), or by statfs's
 * f_type.  FUSE is counted so: sshfs and the other remote ones are its
 * use, and a local one pays a listing little (one on a block device,
 * fuseblk, never asks: lister.h). */
bool fs_name_networked(const char *name);
bool fs_type_networked(uint64_t f_type);

/* What is known of a directory named by the names opened, or about to be. */
struct list_facts {
	bool networked;		/* its file system's type says so */
	uint64_t names;		/* names opened in it so far, or about to be */
	uint64_t entries;	/* entries read of it so far */
	uint64_t size;		/* its size in bytes (stat), 0: not known */
};

enum list_act {
	LIST_NEVER,		/* local storage: never read ahead */
	LIST_WAIT,		/* not now: too few names in it so far, for
				 * its entries, by its size or as read */
	LIST_READ,		/* read on */
};

/* What to do with the directory of facts f now. */
enum list_act decide_listing(const struct list_facts *f);

#endif
