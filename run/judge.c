/* judge.c - how a run reads its storage; see judge.h. */
#include "run/judge.h"

struct judgment judge(const struct device_facts *d, struct pace *p, struct pace_facts *run)
{
	struct judgment j = { devkind_of(d), { PACE_WAIT, 0 } };

	if (!run)
		return j;
#ifndef MD5SUM_SMALL	/* it has no threads past the CPUs (pace.h) */
	if (j.kind == STORAGE_SPINNING || j.kind == STORAGE_UNSURE) {
		/* Not past the CPUs: each read more in flight would be a
		 * seek more.  Not settled while unsure: flash pays only its
		 * first reads. */
		run->unsure = j.kind == STORAGE_UNSURE && run->most_waiting > run->most;
		run->most_waiting = 0;
	} else if (j.kind == STORAGE_SOLID && run->most_waiting > 2 * run->most + 1) {
		/* Flash is asked for each file ahead (readway.h): its reads in
		 * flight follow the files held, not the threads.  Threads
		 * past the CPUs hash while others wait on an open or a read:
		 * as many again as the CPUs at most. */
		run->most_waiting = 2 * run->most + 1;
	}
#endif
	j.step = pace_next(p, run);
	return j;
}
