/*
 * mldsa-native's 4-way SHAKE128/SHAKE256 (MLD_CONFIG_FIPS202X4_CUSTOM_HEADER) on liboqs'
 * SHA-3 x4 API (vendor/liboqs): the AVX2 KeccakP-1600-times4 where the CPU has AVX2, else four
 * serial permutations. mldsa-native absorbs once into a freshly initialised context and then
 * squeezes whole blocks.
 */
#ifndef PQID_FIPS202X4_H
#define PQID_FIPS202X4_H

#include <oqs/sha3x4.h>

#include "pqid_fips202.h"

#define mld_shake128x4ctx OQS_SHA3_shake128_x4_inc_ctx
#define mld_shake128x4_init OQS_SHA3_shake128_x4_inc_init
#define mld_shake128x4_release OQS_SHA3_shake128_x4_inc_ctx_release
#define mld_shake256x4ctx OQS_SHA3_shake256_x4_inc_ctx
#define mld_shake256x4_init OQS_SHA3_shake256_x4_inc_init
#define mld_shake256x4_release OQS_SHA3_shake256_x4_inc_ctx_release

static inline void mld_shake128x4_absorb_once(OQS_SHA3_shake128_x4_inc_ctx *ctx,
                                              const uint8_t *in0, const uint8_t *in1,
                                              const uint8_t *in2, const uint8_t *in3,
                                              size_t inlen)
{
  OQS_SHA3_shake128_x4_inc_absorb(ctx, in0, in1, in2, in3, inlen);
  OQS_SHA3_shake128_x4_inc_finalize(ctx);
}

static inline void mld_shake256x4_absorb_once(OQS_SHA3_shake256_x4_inc_ctx *ctx,
                                              const uint8_t *in0, const uint8_t *in1,
                                              const uint8_t *in2, const uint8_t *in3,
                                              size_t inlen)
{
  OQS_SHA3_shake256_x4_inc_absorb(ctx, in0, in1, in2, in3, inlen);
  OQS_SHA3_shake256_x4_inc_finalize(ctx);
}

#define mld_shake128x4_squeezeblocks(out0, out1, out2, out3, nblocks, ctx) \
  OQS_SHA3_shake128_x4_inc_squeeze(out0, out1, out2, out3,                 \
                                   (size_t)(nblocks) * SHAKE128_RATE, ctx)
#define mld_shake256x4_squeezeblocks(out0, out1, out2, out3, nblocks, ctx) \
  OQS_SHA3_shake256_x4_inc_squeeze(out0, out1, out2, out3,                 \
                                   (size_t)(nblocks) * SHAKE256_RATE, ctx)

#endif /* PQID_FIPS202X4_H */
