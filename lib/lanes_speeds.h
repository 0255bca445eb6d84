/* lanes_speeds.h - the speed tables of lanes.c, one for each kind of CPU
 * with figures: the MB/s of each engine with every lane busy on one core,
 * fastest first, and where, when and how they were measured.  Generated:
 * each table is what bench/lanes_bench --table printed on a CPU of its
 * kind, pinned to one core (taskset -c 0), unless its block says
 * otherwise.  Refresh a table by running that there again, on a machine
 * otherwise idle, and putting what it prints in place of the table, not
 * by editing its figures.  Included by lanes.c alone, which defines ROW
 * and chooses the table of a CPU. */

/* intel_avx512: printed by bench/lanes_bench --table
 * cpu      GenuineIntel, family 6, model 207, stepping 2
 *          "Intel(R) Xeon(R) Processor"
 *          2 CPUs online; a guest of the hypervisor KVMKVMKVM
 * clock    2.60 GHz: the median of 10 chains of dependent adds (2.45-2.73)
 * date     2026-12-02 01:26 UTC
 * compiler gcc 12.2.0; CFLAGS -O2 -g
 * method   9 series 5 s apart, each of 21 rounds after one to warm up,
 *          each engine once a round, in turns, over 1 MiB a lane (64
 *          passes over 16 KiB); a row's MB/s, of all lanes by this
 *          thread's CPU time, is the median of its series' medians,
 *          and their range follows it
 * core     pinned to CPU 0
 * load     0.29 before, 0.20 after (the machine's, over a minute)
 * scalar   md5_blocks, which runs md5.c's avx512vl transform here */
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

/* amd_avx512: printed by bench/lanes_bench --table
 * cpu      AuthenticAMD, family 26, model 2, stepping 1
 *          "AMD EPYC"
 *          2 CPUs online; a guest of the hypervisor KVMKVMKVM
 * clock    3.64 GHz: the median of 10 chains of dependent adds (3.52-3.85)
 * date     2026-12-02 04:14 UTC
 * compiler gcc 12.2.0; CFLAGS -O2 -g
 * method   9 series 5 s apart, each of 21 rounds after one to warm up,
 *          each engine once a round, in turns, over 1 MiB a lane (64
 *          passes over 16 KiB); a row's MB/s, of all lanes by this
 *          thread's CPU time, is the median of its series' medians,
 *          and their range follows it
 * core     pinned to CPU 0
 * load     0.05 before, 0.09 after (the machine's, over a minute)
 * scalar   md5_blocks, which runs md5.c's scalar transform here */
static const struct md5_engine *const amd_avx512[] = {
	ROW(avx512x2, 12420),	/* 12285-12703 */
	ROW(avx512, 6534),	/* 6464-6695 */
	ROW(avx2x2, 5053),	/* 4992-5172 */
	ROW(avx2, 2618),	/* 2597-2677 */
	ROW(sse2x2, 2509),	/* 2467-2570 */
	ROW(sse2, 1307),	/* 1296-1335 */
	ROW(scalar, 819),	/* 804-847 */
	NULL,
};

/* amd_avx2: printed by bench/lanes_bench --table
 * cpu      AuthenticAMD, family 25, model 17, stepping 1
 *          "AMD EPYC"
 *          2 CPUs online; a guest of the hypervisor KVMKVMKVM
 * clock    2.79 GHz: the median of 10 chains of dependent adds (2.44-2.81)
 * date     2026-12-02 19:39 UTC
 * compiler gcc 12.2.0; CFLAGS -O2 -g
 * method   9 series 5 s apart, each of 21 rounds after one to warm up,
 *          each engine once a round, in turns, over 1 MiB a lane (64
 *          passes over 16 KiB); a row's MB/s, of all lanes by this
 *          thread's CPU time, is the median of its series' medians,
 *          and their range follows it
 * core     pinned to CPU 0
 * load     0.19 before, 0.10 after (the machine's, over a minute)
 * scalar   md5_blocks, which runs md5.c's scalar transform here */
static const struct md5_engine *const amd_avx2[] = {
	ROW(avx2x2, 5686),	/* 5283-5795 */
	ROW(avx2, 3915),	/* 3877-4051 */
	ROW(sse2x2, 3066),	/* 2255-3191 */
	ROW(sse2, 1959),	/* 1923-2003 */
	ROW(scalar, 616),	/* 594-624 */
	NULL,
};
