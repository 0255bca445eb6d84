/* judge.c - how a run reads its storage; see judge.h. */
#include "judge.h"

/* The way: from the device's flag while too few far reads are timed,
 * else from the median of the latest (the upper one of an even count, so
 * that half seeks is a spinning disk with a cache in front of it). */
static enum storage_kind kind_of(const struct device_facts *d)
{
	uint32_t sorted[STORAGE_SAMPLES];
	unsigned n = d->timed;

	if (!d->block)
		return STORAGE_NONE;
	if (n < STORAGE_SAMPLES_MIN)
		return d->rotates ? STORAGE_UNSURE : STORAGE_SOLID;
	if (n > STORAGE_SAMPLES)
		n = STORAGE_SAMPLES;
	for (unsigned i = 0; i < n; i++) {
		unsigned j = i;

		for (; j > 0 && sorted[j - 1] > d->us[i]; j--)
			sorted[j] = sorted[j - 1];
		sorted[j] = d->us[i];
	}
	return sorted[n / 2] > STORAGE_SEEK_US ? STORAGE_SPINNING : STORAGE_SOLID;
}

struct judgment judge(const struct device_facts *d, struct pace *p, struct pace_facts *run)
{
	struct judgment j = { kind_of(d), { PACE_WAIT, 0 } };

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
