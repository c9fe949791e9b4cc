/*
 * mldsa-native's SHAKE128/SHAKE256 (MLD_CONFIG_FIPS202_CUSTOM_HEADER) on pqid's sponge
 * (keccak.c), which runs the fastest of XKCP's Keccak permutations this CPU has.
 */
#ifndef PQID_FIPS202_H
#define PQID_FIPS202_H

#include "pqid_keccak.h"

#define SHAKE128_RATE PQID_SHAKE128_RATE
#define SHAKE256_RATE PQID_SHAKE256_RATE

typedef pqid_keccak_ctx mld_shake128ctx;
typedef pqid_keccak_ctx mld_shake256ctx;

#define mld_shake128_init(ctx) pqid_shake_init((ctx), PQID_SHAKE128_RATE)
#define mld_shake128_absorb pqid_shake_absorb
#define mld_shake128_finalize pqid_shake_finalize
#define mld_shake128_squeeze pqid_shake_squeeze
#define mld_shake128_release pqid_keccak_release

#define mld_shake256_init(ctx) pqid_shake_init((ctx), PQID_SHAKE256_RATE)
#define mld_shake256_absorb pqid_shake_absorb
#define mld_shake256_finalize pqid_shake_finalize
#define mld_shake256_squeeze pqid_shake_squeeze
#define mld_shake256_release pqid_keccak_release

#define mld_shake256 pqid_shake256

#endif /* PQID_FIPS202_H */
