/*
 * Whether this CPU runs pqid's native mldsa-native build (csrc/cpu.c). Called by the Rust side
 * to choose the implementation, and by mldsa-native before every assembly routine
 * (mldsa_config.h), so the check is a cached flag.
 */
#ifndef PQID_CPU_H
#define PQID_CPU_H

/* -1 until detected, then 0 or 1. */
extern int pqid_mldsa_native_state;
int pqid_mldsa_native_detect(void);

static inline int pqid_mldsa_native_available(void)
{
  int s = __atomic_load_n(&pqid_mldsa_native_state, __ATOMIC_RELAXED);
  return s >= 0 ? s : pqid_mldsa_native_detect();
}

/* 1 when this CPU and OS run AVX-512VL code (cpu.c); not cached. */
int pqid_cpu_avx512vl(void);

#endif /* PQID_CPU_H */
