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
