/* judge.h - how a run reads its storage, judged from what it measured:
 * the way (one reader in disk order, or side by side in lanes), by the
 * kind of its device (devkind.h), and the depth (how many threads read at
 * once).  One pure function of the facts, called by crew.c now and then.
 *
 * The depth follows the pace of the run as threads are added (pace.h):
 * up to a thread per CPU while the threads hash, and past the CPUs while
 * they wait on the storage and each step pays (a network file system,
 * flash: twice the CPUs at most there, its reads asked for ahead) - but
 * never past the CPUs where the device spins or may (a read more in
 * flight there is a seek more, and flash pays only its first few reads
 * read as if it spins), nor while it is not measured. */
#ifndef JUDGE_H
#define JUDGE_H

#include "read/devkind.h"
#include "run/pace.h"

struct judgment {
	enum storage_kind kind;	/* the way */
	struct pace_step step;	/* the depth: what to do now */
};

/* The judgment of device d, and with run, the next step of the run's
 * depth from *p (which moves on); without it (NULL), step is PACE_WAIT
 * and p is not looked at.  run->most_waiting is what the run may have
 * past the CPUs: made 0 where d spins or may, and run->unsure set while
 * d is not measured (pace.h). */
struct judgment judge(const struct device_facts *d, struct pace *p, struct pace_facts *run);

#endif
