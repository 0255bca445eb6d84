/* devkind.c - the kind of a device; see devkind.h. */
#include "read/devkind.h"

/* The median is the upper one of an even count, so that half seeks is a
 * spinning disk with a cache in front of it. */
enum storage_kind devkind_of(const struct device_facts *d)
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
