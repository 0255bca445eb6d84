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

/* amd_avx2: from lanes.c's comment, before lanes_bench printed tables
 * cpu      an AMD EPYC, 2 cores of a KVM guest
 * clock    2.7 GHz
 * date     2026-12-01
 * method   bench/lanes_bench on one core, medians of 5 runs: README's
 *          figures of the engines before the lane template kept only
 *          their state in registers, and of 1 MiB a lane streamed from
 *          memory */
static const struct md5_engine *const amd_avx2[] = {
	ROW(avx2x2, 3073),
	ROW(avx2, 2493),
	ROW(sse2x2, 2143),
	ROW(sse2, 1782),
	ROW(scalar, 620),
	NULL,
};
