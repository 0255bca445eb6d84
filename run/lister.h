/* lister.h - the directories of the names opened, read ahead of their
 * lookups where the storage is served over a network: a stage of its own,
 * one thread, that overlaps with the hashing.
 *
 * Why: on a network file system each lookup of a name is a round trip,
 * and where the client looks the names of a directory up one at a time
 * (sshfs; a FUSE file system without parallel directory operations) the
 * names of a list (-c) cost a round trip each, in a row, whatever the
 * threads; a listing of the directory brings its entries with their
 * attributes, and the client then answers the lookups from it (sshfs's
 * cache, NFS's and SMB's READDIRPLUS), as it does for a glob's names.
 *
 * How the storage is known to be networked: by its file system's type,
 * asked once a device of major number 0 (a file system on a block device
 * is local): its name in /proc/self/mountinfo, read locally, else statfs's
 * f_type of the first file opened on it (a round trip on most network
 * file systems); cached for the device, and a worker remembers its last
 * device's answer, so that on local storage and in the page cache a file
 * costs one comparison (a new worker's names, until its first file is
 * opened, a look at the lister's directories), and the thread is never
 * started.  decide.h's decide_listing says, from a
 * table-tested rule, which directories are read and how far: one whose
 * names opened are too few for its entries waits for more; one that
 * cannot be read (search permission only) is passed over.  The thread
 * asks a directory's size (stat) before it opens it, reads one directory
 * at a time (one descriptor), in the order met; a directory met while
 * another waits for names ends that one.
 *
 * A worker whose next name is in a directory to be read, or being read,
 * waits for the listing to end or pause: where the client serves a
 * directory's lookups one at a time, its lookup would queue among the
 * listing's requests and hold them up, a round trip each.
 *
 * Nothing here changes what is hashed or printed: the listing only fills
 * the client's caches.  The thread is an optimisation: if it cannot be
 * started, or memory runs short, the run goes on without it.  Who owns
 * what: the lister's state is under its lock; the directory being read
 * (its DIR) is the thread's alone. */
#ifndef LISTER_H
#define LISTER_H

#include <stdbool.h>
#include <sys/types.h>

struct lister;

/* A worker's memory of its last device: whether it is networked. */
struct lister_memo {
	dev_t dev;
	bool known, networked;
};

/* A lister with no thread yet; NULL when there is no memory for one (or
 * in the small build, which has none). */
struct lister *lister_new(void);

/* The worker is about to open name: where its directory is known to be on
 * networked storage (its last device, in memo, networked or not yet
 * known), count the name in it, and if the thread is to read it or is
 * reading it, wait until that listing ends or pauses (the lookup is then
 * answered from it).  again: the name was tried before (no descriptor
 * was free), and is not counted again.  Whether its directory is known,
 * so that lister_opened leaves the name be. */
bool lister_before_open(struct lister *l, const struct lister_memo *memo, const char *name,
			bool again);

/* The worker opened name as fd, on device dev: on a networked device,
 * count the name in its directory unless lister_before_open did (counted),
 * and read the directory ahead once decide_listing says.  memo is the
 * worker's own. */
void lister_opened(struct lister *l, struct lister_memo *memo, const char *name, int fd,
		   dev_t dev, bool counted);

/* Stop the thread and free l; a request the thread waits on is not waited
 * for: the thread frees l once it returns. */
void lister_free(struct lister *l);

#endif
