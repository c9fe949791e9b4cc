// SPDX-License-Identifier: MIT
//
// Hand-written replacement for the oqsconfig.h that liboqs' cmake generates from
// src/oqsconfig.h.cmake. Of liboqs, pqid compiles only XKCP's Keccak permutations and
// common.c, whose CPU detection (OQS_CPU_has_extension) needs this file; there is no configure
// step, so what cmake would detect is derived here from the compiler's predefined macros.
// Always a dist build, so common.c detects the CPU at run time (a PQID_NATIVE_TUNE=native build
// adds -march=native to every file but keeps the run-time choices).
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

#define OQS_DIST_BUILD 1
#define OQS_OPT_TARGET "generic"
#if defined(ARCH_X86_64)
#define OQS_DIST_X86_64_BUILD 1
#elif defined(ARCH_ARM64v8)
#define OQS_DIST_ARM64_V8_BUILD 1
#endif

#if !defined(_WIN32)
#define OQS_USE_PTHREADS 1
#endif

#endif // PQID_OQSCONFIG_H
