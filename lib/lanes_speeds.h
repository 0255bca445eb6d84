/* lanes_speeds.h - the speed tables of lanes.c, one for each kind of CPU
 * with figures: the MB/s of each engine with every lane busy on one core,
 * fastest first, and where, when and how they were measured.  Generated:
 * each table is what bench/lanes_bench --table printed on a CPU of its
 * kind, pinned to one core (taskset -c 0).  Refresh a table by running
 * that there again and putting what it prints in place of the table, not
 * by editing its figures.  Included by lanes.c alone, which defines ROW
 * and chooses the table of a CPU. */

/* intel_avx512: from lanes.c's comment, before lanes_bench printed tables
 * cpu      GenuineIntel, family 6, model 207
 *          2 CPUs of a KVM guest shared with other builds
 * clock    2.4-2.9 GHz by a chain of dependent adds
 * date     2026-12-01
 * compiler gcc 12, -O2
 * method   bench/lanes_bench on one core (taskset): the median of 30 runs'
 *          medians (each of 5 rounds) over ten minutes
 * scalar   md5_blocks, which runs md5.c's avx512vl transform there */
static const struct md5_engine *const intel_avx512[] = {
	ROW(avx512x2, 10866),
	ROW(avx512, 10150),
	ROW(avx2x2, 5298),
	ROW(avx2, 3512),
	ROW(sse2x2, 2742),
	ROW(sse2, 1778),
	ROW(scalar, 666),
	NULL,
};

/* amd_avx2: reported in issue 25, not printed by bench/lanes_bench --table
 * cpu      an AMD EPYC (Zen 3)
 *          2 vCPUs; a KVM guest
 * clock    not reported
 * date     2026-12-01
 * compiler not reported
 * method   measured by bench/lanes_bench with today's engines (the lane
 *          template's) on that machine, as issue 25 reports it; how many
 *          runs it does not say.  Not measured again here, for want of an
 *          AMD machine: what lanes_bench --table prints on one replaces
 *          this table whole */
static const struct md5_engine *const amd_avx2[] = {
	ROW(avx2x2, 5188),
	ROW(avx2, 3620),
	ROW(sse2x2, 2205),
	ROW(sse2, 1765),
	ROW(scalar, 645),
	NULL,
};
