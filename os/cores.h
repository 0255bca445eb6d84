/* cores.h - how many CPUs this process may use: those it may run on (its
 * affinity), fewer when a CPU quota of its control group allows fewer
 * (cgroup v2's cpu.max, v1's cpu.cfs_quota_us, at their usual place under
 * /sys/fs/cgroup, its group's and those above it; not in the small build:
 * os/features.h).  Elsewhere than Linux, the CPUs online.  At least 1. */
#ifndef CORES_H
#define CORES_H

unsigned cores_usable(void);

#endif
