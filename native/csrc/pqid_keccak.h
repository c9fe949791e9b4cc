/*
 * SHAKE128 and SHAKE256, one at a time and four at a time, for mldsa-native
 * (pqid_fips202.h, pqid_fips202x4.h) and the Rust side (src/ffi.rs), on the Keccak-p[1600]
 * permutations of XKCP as liboqs 0.13 ships them (vendor/liboqs/src/common/sha3/xkcp_low).
 * keccak.c holds the sponge and picks, once per process, the fastest permutation this CPU
 * runs:
 *
 *   avx512vl  x86-64 with AVX-512F and AVX-512VL enabled by the OS: XKCP's four-way AVX2 code
 *             compiled a second time for AVX-512VL (the compiler turns its rotations into
 *             vprolq and its three-input logic into vpternlogq; 256-bit vectors only). It
 *             computes single hashes too, in one of its four lanes: on the CPUs measured that
 *             is faster than the one-way AVX2 assembly.
 *   avx2      x86-64 with AVX2: the one-way AVX2 assembly (CRYPTOGAMS) and XKCP's four-way
 *             AVX2 code, as liboqs 0.13 runs them.
 *   portable  any CPU: XKCP's 64-bit C, four-way hashes as four one-way ones.
 */
#ifndef PQID_KECCAK_H
#define PQID_KECCAK_H

#include <stddef.h>
#include <stdint.h>

#define PQID_KECCAK_PORTABLE 0
#define PQID_KECCAK_AVX2 1
#define PQID_KECCAK_AVX512VL 2
#define PQID_KECCAK_IMPLS 3

#define PQID_SHAKE128_RATE 168
#define PQID_SHAKE256_RATE 136

#if defined(_MSC_VER)
#define PQID_ALIGN32 __declspec(align(32))
#else
#define PQID_ALIGN32 __attribute__((aligned(32)))
#endif

/*
 * One sponge: one Keccak state, or four (the x4 functions). `s` is in the layout of the
 * implementation `impl` the context was initialised with, which the context keeps to the end,
 * so a process-wide switch (pqid_keccak_force) never meets a half-used context.
 */
typedef struct
{
  PQID_ALIGN32 uint64_t s[100];
  unsigned int pos; /* bytes absorbed into, or squeezed from, the current block */
  unsigned int rate;
  unsigned int words; /* how much of s is in use: 25 or 100 words */
  int impl;
} pqid_keccak_ctx;

/* Incremental SHAKE: init, absorb (any number of times), finalize, squeeze (any number of
 * times), release (wipes the state). */
void pqid_shake_init(pqid_keccak_ctx *ctx, unsigned int rate);
void pqid_shake_absorb(pqid_keccak_ctx *ctx, const uint8_t *in, size_t inlen);
void pqid_shake_finalize(pqid_keccak_ctx *ctx);
void pqid_shake_squeeze(uint8_t *out, size_t outlen, pqid_keccak_ctx *ctx);
void pqid_keccak_release(pqid_keccak_ctx *ctx);

/* Four SHAKE instances over inputs of the same length, squeezed a whole block at a time. */
void pqid_shake_x4_init(pqid_keccak_ctx *ctx, unsigned int rate);
void pqid_shake_x4_absorb_once(pqid_keccak_ctx *ctx, const uint8_t *in0, const uint8_t *in1,
                               const uint8_t *in2, const uint8_t *in3, size_t inlen);
void pqid_shake_x4_squeezeblocks(uint8_t *out0, uint8_t *out1, uint8_t *out2, uint8_t *out3,
                                 size_t nblocks, pqid_keccak_ctx *ctx);

/* One-shot SHAKE256. */
void pqid_shake256(uint8_t *out, size_t outlen, const uint8_t *in, size_t inlen);

/* The implementation new contexts use: the one detected, or the one forced. */
int pqid_keccak_active(void);
/* Whether this binary has `impl` and this CPU and OS can run it. */
int pqid_keccak_available(int impl);
/* Use `impl` from now on (tests and benchmarks), or, with -1, the detected one again.
 * Returns 0, changing nothing, when `impl` is not available. */
int pqid_keccak_force(int impl);
/* "portable", "avx2", "avx512vl". */
const char *pqid_keccak_name(int impl);

/*
 * Counters for tests: while counting is on, every permutation call is counted per
 * implementation and width (counts[impl * 2 + (x4 ? 1 : 0)]). Off by default, and then costs
 * one load of a flag per permutation.
 */
void pqid_keccak_count(int on);
void pqid_keccak_counts(uint64_t counts[PQID_KECCAK_IMPLS * 2]);

/*
 * The sponge on a given implementation, for the power-on self-test and the tests (src/ffi.rs):
 * SHAKE with `rate` over `in`, absorbed `chunk` bytes per call (0: all at once) and squeezed
 * in the same steps; and four SHAKE instances over in[0..inlen), in[inlen..2 inlen), ... into
 * out[0..nblocks*rate), ... Return -1 when `impl` is not available, else 0.
 */
int pqid_keccak_shake_on(int impl, unsigned int rate, uint8_t *out, size_t outlen,
                         const uint8_t *in, size_t inlen, size_t chunk);
int pqid_keccak_shake_x4_on(int impl, unsigned int rate, uint8_t *out, size_t nblocks,
                            const uint8_t *in, size_t inlen);

#endif /* PQID_KECCAK_H */
