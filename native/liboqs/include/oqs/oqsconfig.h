// SPDX-License-Identifier: MIT
//
// Hand-written replacement for the oqsconfig.h that liboqs' cmake generates from
// src/oqsconfig.h.cmake. pqid compiles the vendored sources with the `cc` crate (build.rs), so
// there is no configure step: everything cmake would detect is derived here from the
// compiler's own predefined macros, plus one switch from build.rs:
//
//   PQID_OQS_TUNED  set by build.rs for PQID_NATIVE_TUNE=native (every file built with
//                   -march=native, the equivalent of OQS_DIST_BUILD=OFF, OQS_OPT_TARGET=auto).
//                   Absent: the dist build (OQS_DIST_BUILD=ON), portable code plus the AVX2
//                   code chosen at run time by OQS_CPU_has_extension().
//
// Only what pqid builds is enabled: ML-DSA-44/65/87 and Falcon-512/1024, with liboqs' own
// SHA-3 (no OpenSSL).
#ifndef PQID_OQSCONFIG_H
#define PQID_OQSCONFIG_H

#define OQS_VERSION_TEXT "0.13.0"
#define OQS_VERSION_MAJOR 0
#define OQS_VERSION_MINOR 13
#define OQS_VERSION_PATCH 0

#define OQS_BUILD_ONLY_LIB 1
#define CMAKE_BUILD_TYPE "Release"

#if defined(__x86_64__) || defined(_M_X64)
#define ARCH_X86_64 1
#elif defined(__aarch64__) || defined(_M_ARM64)
#define ARCH_ARM64v8 1
#endif

// liboqs builds its AVX2 code (ML-DSA, Falcon, Keccak) on Linux and macOS only.
#if defined(ARCH_X86_64) && (defined(__linux__) || defined(__APPLE__))
#define PQID_OQS_X86_64_UNIX 1
#endif

#if !defined(PQID_OQS_TUNED)
#define OQS_DIST_BUILD 1
#define OQS_OPT_TARGET "generic"
#if defined(ARCH_X86_64)
#define OQS_DIST_X86_64_BUILD 1
#elif defined(ARCH_ARM64v8)
#define OQS_DIST_ARM64_V8_BUILD 1
#endif
#else
// -march=native: the compiler tells us what the build host has (what liboqs'
// gcc_clang_intrinsics.cmake probes for).
#define OQS_OPT_TARGET "auto"
#if defined(__AVX2__)
#define OQS_USE_AVX2_INSTRUCTIONS 1
#endif
#if defined(__AVX__)
#define OQS_USE_AVX_INSTRUCTIONS 1
#endif
#if defined(__POPCNT__)
#define OQS_USE_POPCNT_INSTRUCTIONS 1
#endif
#if defined(__BMI1__)
#define OQS_USE_BMI1_INSTRUCTIONS 1
#endif
#if defined(__BMI2__)
#define OQS_USE_BMI2_INSTRUCTIONS 1
#endif
#if defined(__AES__)
#define OQS_USE_AES_INSTRUCTIONS 1
#endif
#if defined(__SSE2__)
#define OQS_USE_SSE2_INSTRUCTIONS 1
#endif
#if defined(__ARM_NEON)
#define OQS_USE_ARM_NEON_INSTRUCTIONS 1
#endif
#endif

#if !defined(_WIN32)
#define OQS_USE_PTHREADS 1
#endif

#define OQS_USE_CUPQC 0
#define OQS_LIBJADE_BUILD 0

// AVX2 Keccak: always in the dist build on x86-64, in a tuned build when the host has AVX2.
#if defined(PQID_OQS_X86_64_UNIX) && (defined(OQS_DIST_BUILD) || defined(OQS_USE_AVX2_INSTRUCTIONS))
#define OQS_ENABLE_SHA3_xkcp_low_avx2 1
#endif

#define OQS_ENABLE_SIG_ML_DSA 1
#define OQS_ENABLE_SIG_ml_dsa_44 1
#define OQS_ENABLE_SIG_ml_dsa_65 1
#define OQS_ENABLE_SIG_ml_dsa_87 1
// Same condition as liboqs' alg_support.cmake (AVX2 and POPCNT; dispatch checks both).
#if defined(PQID_OQS_X86_64_UNIX) &&                                                            \
    (defined(OQS_DIST_BUILD) ||                                                                \
     (defined(OQS_USE_AVX2_INSTRUCTIONS) && defined(OQS_USE_POPCNT_INSTRUCTIONS)))
#define OQS_ENABLE_SIG_ml_dsa_44_avx2 1
#define OQS_ENABLE_SIG_ml_dsa_65_avx2 1
#define OQS_ENABLE_SIG_ml_dsa_87_avx2 1
#endif

#define OQS_ENABLE_SIG_FALCON 1
#define OQS_ENABLE_SIG_falcon_512 1
#define OQS_ENABLE_SIG_falcon_1024 1
#if defined(PQID_OQS_X86_64_UNIX) && (defined(OQS_DIST_BUILD) || defined(OQS_USE_AVX2_INSTRUCTIONS))
#define OQS_ENABLE_SIG_falcon_512_avx2 1
#define OQS_ENABLE_SIG_falcon_1024_avx2 1
#endif

#endif // PQID_OQSCONFIG_H
