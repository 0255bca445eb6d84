/* lanes_speeds.h - the speed tables of lanes.c, one for each kind of CPU
 * with figures: the MB/s of each engine with every lane busy on one core,
 * fastest first.  Each is what bench/lanes_bench --table printed on a CPU
 * of its kind, pinned (taskset -c 0) on an idle machine: refresh it so,
 * never by editing figures.  Its block says when, the compiler and flags,
 * the CPU (vendor family/model/stepping, name, CPUs online, hypervisor),
 * the clock by chains of adds, the load before and after, and the series
 * of rounds, in each of which every engine ran once over 1 MiB a lane (64
 * passes over 16 KiB); a row is the median of its series' medians of all
 * lanes' MB/s by the thread's CPU time, then their range. */

/* intel_avx512: bench/lanes_bench --table, 2026-12-02 01:26 UTC; gcc 12.2.0, -O2 -g
 * cpu   GenuineIntel 6/207/2 "Intel(R) Xeon(R) Processor"; 2 online; guest of KVMKVMKVM
 * run   pinned to CPU 0; clock 2.60 GHz (2.45-2.73); load 0.29, then 0.20;
 *       9 series of 21 rounds, 5 s apart; scalar: md5.c's avx512vl */
static const struct md5_engine *const intel_avx512[] = {
	ROW(avx512x2, 10796),	/* 8904-11476 */
	ROW(avx512, 9919),	/* 8903-10631 */
	ROW(avx2x2, 5247),	/* 3799-5538 */
	ROW(avx2, 3327),	/* 3206-3554 */
	ROW(sse2x2, 2702),	/* 1746-2845 */
	ROW(sse2, 1687),	/* 1625-1808 */
	ROW(scalar, 642),	/* 614-686 */
	NULL,
};

/* amd_avx512: bench/lanes_bench --table, 2026-12-04 17:49 UTC; gcc 12.2.0, -O2 -g
 * cpu   AuthenticAMD 26/2/1 "Oxide Virtual Turin-like Processor"; 2 online; guest of bhyve bhyve
 * run   pinned to CPU 0; clock 3.33 GHz (3.22-3.35); load 0.62, then 0.37;
 *       9 series of 21 rounds, 5 s apart; scalar: md5.c's scalar */
static const struct md5_engine *const amd_avx512[] = {
	ROW(avx512x2, 13140),	/* 13027-13549 */
	ROW(avx512, 6593),	/* 6552-6760 */
	ROW(avx2x2, 4586),	/* 4545-4691 */
	ROW(avx2, 2327),	/* 2309-2376 */
	ROW(sse2x2, 2277),	/* 2257-2330 */
	ROW(sse2, 1167),	/* 1156-1185 */
	ROW(scalar, 739),	/* 733-752 */
	NULL,
};

/* amd_avx2: bench/lanes_bench --table, 2026-12-02 19:39 UTC; gcc 12.2.0, -O2 -g
 * cpu   AuthenticAMD 25/17/1 "AMD EPYC"; 2 online; guest of KVMKVMKVM
 * run   pinned to CPU 0; clock 2.79 GHz (2.44-2.81); load 0.19, then 0.10;
 *       9 series of 21 rounds, 5 s apart; scalar: md5.c's scalar */
static const struct md5_engine *const amd_avx2[] = {
	ROW(avx2x2, 5686),	/* 5283-5795 */
	ROW(avx2, 3915),	/* 3877-4051 */
	ROW(sse2x2, 3066),	/* 2255-3191 */
	ROW(sse2, 1959),	/* 1923-2003 */
	ROW(scalar, 616),	/* 594-624 */
	NULL,
};
