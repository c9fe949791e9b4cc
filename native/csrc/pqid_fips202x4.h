/*
 * mldsa-native's 4-way SHAKE128/SHAKE256 (MLD_CONFIG_FIPS202X4_CUSTOM_HEADER) on pqid's sponge
 * (keccak.c): XKCP's four-way Keccak for AVX-512VL or AVX2 where the CPU has it, else four
 * portable ones. mldsa-native absorbs once into a fresh context and then squeezes whole
 * blocks, which is all this offers.
 */
#ifndef PQID_FIPS202X4_H
#define PQID_FIPS202X4_H

#include "pqid_fips202.h"

typedef pqid_keccak_ctx mld_shake128x4ctx;
typedef pqid_keccak_ctx mld_shake256x4ctx;

#define mld_shake128x4_init(ctx) pqid_shake_x4_init((ctx), PQID_SHAKE128_RATE)
#define mld_shake128x4_absorb_once pqid_shake_x4_absorb_once
#define mld_shake128x4_squeezeblocks(out0, out1, out2, out3, nblocks, ctx) \
  pqid_shake_x4_squeezeblocks((out0), (out1), (out2), (out3), (nblocks), (ctx))
#define mld_shake128x4_release pqid_keccak_release

#define mld_shake256x4_init(ctx) pqid_shake_x4_init((ctx), PQID_SHAKE256_RATE)
#define mld_shake256x4_absorb_once pqid_shake_x4_absorb_once
#define mld_shake256x4_squeezeblocks(out0, out1, out2, out3, nblocks, ctx) \
  pqid_shake_x4_squeezeblocks((out0), (out1), (out2), (out3), (nblocks), (ctx))
#define mld_shake256x4_release pqid_keccak_release

#endif /* PQID_FIPS202X4_H */
