/*
 * Which mldsa-native build this CPU runs, decided once with liboqs' CPU detection (the same
 * CPUID/XGETBV and getauxval/sysctl probes liboqs 0.16 dispatches ML-DSA with).
 *
 * x86-64: the native build is compiled with -mavx2 -mbmi2 -mpopcnt, upstream's flags for its
 * x86_64 back end (liboqs 0.16 src/sig/ml_dsa/CMakeLists.txt; the assembly itself uses AVX2 and
 * POPCNT), so it runs only where the CPU and the OS support all three; liboqs 0.16 makes the
 * same check. AArch64: Advanced SIMD (NEON), part of the base architecture on Linux and macOS.
 */
#include <oqs/common.h>

#include "pqid_cpu.h"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <cpuid.h>
#endif

int pqid_mldsa_native_state = -1;

int pqid_mldsa_native_detect(void)
{
  int ok = 0;
#if defined(__x86_64__)
  ok = OQS_CPU_has_extension(OQS_CPU_EXT_AVX2) && OQS_CPU_has_extension(OQS_CPU_EXT_BMI2) &&
       OQS_CPU_has_extension(OQS_CPU_EXT_POPCNT);
#elif defined(__aarch64__)
  ok = OQS_CPU_has_extension(OQS_CPU_EXT_ARM_NEON);
#endif
  __atomic_store_n(&pqid_mldsa_native_state, ok, __ATOMIC_RELAXED);
  return ok;
}

/*
 * Whether this CPU and OS run AVX-512VL code on 256-bit vectors (keccak.c). CPUID must report
 * AVX2, AVX-512F and AVX-512VL, and the OS must have enabled, in XCR0, the state that such
 * code uses: SSE and AVX (bits 1, 2) and the AVX-512 opmask and upper ZMM registers (bits 5,
 * 6, 7). EVEX-encoded instructions raise #UD without the latter even on 256-bit vectors; the
 * CPUID bits alone do not say the OS saves that state (Intel SDM vol. 1, 15.2). Not cached:
 * keccak.c asks once.
 */
int pqid_cpu_avx512vl(void)
{
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
  unsigned int eax, ebx, ecx, edx, xcr0;
  if (__get_cpuid_max(0, 0) < 7)
  {
    return 0;
  }
  __cpuid(1, eax, ebx, ecx, edx);
  if (!(ecx & (1u << 27))) /* OSXSAVE: XGETBV is usable */
  {
    return 0;
  }
  __asm__ volatile("xgetbv" : "=a"(xcr0), "=d"(edx) : "c"(0));
  if ((xcr0 & 0xe6) != 0xe6)
  {
    return 0;
  }
  __cpuid_count(7, 0, eax, ebx, ecx, edx);
  /* AVX2 (bit 5), AVX512F (16), AVX512VL (31) */
  return (ebx & (1u << 5)) && (ebx & (1u << 16)) && (ebx & (1u << 31));
#else
  return 0;
#endif
}
