/*
 * pqid's configuration of mldsa-native (its MLD_CONFIG_FILE), for the two builds of it in the
 * addon, each one translation unit with all three parameter sets (mldsa_build.h):
 *
 *   native  (mldsa_native.c, PQID_MLDSA_NATIVE): with the arithmetic back end of this
 *           architecture, the x86_64 AVX2 or the AArch64 NEON assembly;
 *   ref     (mldsa_ref.c): portable C only, the fallback and the `ref` implementation.
 *
 * The settings are mldsa-native's documented MLD_CONFIG_* options; see the comments on each in
 * mldsa-native's mldsa_native_config.h (upstream) for what they mean.
 */
#ifndef PQID_MLDSA_CONFIG_H
#define PQID_MLDSA_CONFIG_H

/*
 * Symbol prefix. mldsa_native_44_signature_internal etc. would read better, but the vendored
 * assembly defines its functions as mldsa_<name> (AWS-LC's import fixes that prefix in the
 * .S files), so the native build must use `mldsa`; the ref build gets its own prefix so both
 * link into one binary. Functions that depend on the parameter set get it appended
 * (mldsa44_*, mldsa_ref65_*).
 */
#if defined(PQID_MLDSA_NATIVE)
#define MLD_CONFIG_NAMESPACE_PREFIX mldsa
#else
#define MLD_CONFIG_NAMESPACE_PREFIX mldsa_ref
#endif

/*
 * Only FIPS 204's internal functions: KeyGen_internal from a caller's seed, Sign_internal with
 * the caller's rnd (and an external μ), Verify_internal. pqid builds M' (0 ‖ |ctx| ‖ ctx) and
 * draws rnd itself, so mldsa-native never needs a random number generator.
 */
#define MLD_CONFIG_CORE_API_ONLY
#define MLD_CONFIG_NO_RANDOMIZED_API

/* One translation unit per build: only the API above keeps external linkage. */
#if defined(__GNUC__) || defined(__clang__)
#define MLD_CONFIG_INTERNAL_API_QUALIFIER static __attribute__((unused))
#else
#define MLD_CONFIG_INTERNAL_API_QUALIFIER static
#endif

/* SHAKE128/256 and their 4-way versions from pqid's sponge (keccak.c) on liboqs' Keccak. */
#define MLD_CONFIG_FIPS202_CUSTOM_HEADER "pqid_fips202.h"
#define MLD_CONFIG_FIPS202X4_CUSTOM_HEADER "pqid_fips202x4.h"

#if defined(PQID_MLDSA_NATIVE)
#define MLD_CONFIG_USE_NATIVE_BACKEND_ARITH
#define MLD_CONFIG_ARITH_BACKEND_FILE "pqid_mldsa_backend.h"

/*
 * Run-time dispatch. The Rust side calls the native build only when
 * pqid_mldsa_native_available() (csrc/cpu.c) says this CPU has everything the build is compiled
 * for; each assembly routine asks again here (a cached flag), so a call on any other CPU would
 * still take the portable C path instead of executing instructions the CPU lacks.
 */
#define MLD_CONFIG_CUSTOM_CAPABILITY_FUNC
#if !defined(__ASSEMBLER__)
#include "pqid_cpu.h"
#include "sys.h"
static MLD_INLINE int mld_sys_check_capability(mld_sys_cap cap)
{
#if defined(MLD_SYS_X86_64)
  return cap == MLD_SYS_CAP_X86_64_AVX2 && pqid_mldsa_native_available();
#elif defined(MLD_SYS_AARCH64)
  return cap == MLD_SYS_CAP_AARCH64_NEON && pqid_mldsa_native_available();
#else
  (void)cap;
  return 0;
#endif
}
#endif /* !__ASSEMBLER__ */
#endif /* PQID_MLDSA_NATIVE */

#endif /* PQID_MLDSA_CONFIG_H */
