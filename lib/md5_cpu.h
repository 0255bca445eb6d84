/* md5_cpu.h - what this CPU offers the one-stream transforms (md5.c) and the
 * lane engines (lanes.c), probed on the first call and kept, once in each
 * file that includes this.  On x86-64 by hand rather than with
 * __builtin_cpu_supports, whose run-time part costs 5 KiB statically. */
#ifndef MD5_CPU_H
#define MD5_CPU_H

#include <stdatomic.h>

/* What a transform or an engine may need of the CPU, as a mask.  CPU_INTEL
 * and CPU_AMD are no instruction sets: they say whose timings the CPU has,
 * which decides between code that all runs. */
enum {
	CPU_AVX2 = 1,
	CPU_AVX512F = 2,
	CPU_AVX512VL = 4,
	CPU_INTEL = 8,
	CPU_AMD = 16,
	CPU_NEON = 32,
	CPU_PROBED = 1 << 30,	/* no feature: the probe has run */
};

#if defined(__x86_64__) && defined(__GNUC__)
#include <cpuid.h>

/* AVX2 and AVX-512, when both the CPU and the OS have them: the OS must
 * save the wider registers on a context switch, which XCR0 tells (bits
 * 1-2 for AVX, 5-7 for AVX-512, which EVEX code of any width needs). */
static inline unsigned cpu_probe(void)
{
	unsigned a, b, c, d, xcr0, have = 0;

	if (!__get_cpuid(0, &a, &b, &c, &d))
		return 0;
	if (b == signature_INTEL_ebx && c == signature_INTEL_ecx &&
	    d == signature_INTEL_edx)
		have |= CPU_INTEL;
	if (b == signature_AMD_ebx && c == signature_AMD_ecx && d == signature_AMD_edx)
		have |= CPU_AMD;
	if (!__get_cpuid(1, &a, &b, &c, &d) || !(c & bit_OSXSAVE))
		return have;
	__asm__("xgetbv" : "=a"(xcr0), "=d"(d) : "c"(0));
	if (!__get_cpuid_count(7, 0, &a, &b, &c, &d))
		return have;
	if ((xcr0 & 0x06) == 0x06 && (b & bit_AVX2))
		have |= CPU_AVX2;
	if ((xcr0 & 0xe6) == 0xe6 && (b & bit_AVX512F)) {
		have |= CPU_AVX512F;
		if (b & bit_AVX512VL)
			have |= CPU_AVX512VL;
	}
	return have;
}

#elif defined(__aarch64__)
#if defined(__linux__)
#include <sys/auxv.h>
#endif

/* Every AArch64 CPU has Advanced SIMD, but the kernel has the last word. */
#if defined(__linux__) && defined(HWCAP_ASIMD)
#define cpu_probe() (getauxval(AT_HWCAP) & HWCAP_ASIMD ? CPU_NEON : 0u)
#else
#define cpu_probe() ((unsigned)CPU_NEON)
#endif

#else
#define cpu_probe() 0u
#endif

/* The CPU's features, probed by the first call only. */
static inline unsigned cpu_features(void)
{
	static atomic_uint known;	/* the features, with CPU_PROBED */
	unsigned have = atomic_load_explicit(&known, memory_order_relaxed);

	if (have == 0) {
		have = cpu_probe() | CPU_PROBED;
		atomic_store_explicit(&known, have, memory_order_relaxed);
	}
	return have;
}

#endif
