/*
 * mldsa-native's SHAKE128/SHAKE256 (MLD_CONFIG_FIPS202_CUSTOM_HEADER) mapped onto liboqs' SHA-3
 * API (vendor/liboqs), which picks the AVX2 Keccak or the portable one at run time. The
 * incremental contexts are the same object in both APIs; only the names differ.
 */
#ifndef PQID_FIPS202_H
#define PQID_FIPS202_H

#include <oqs/sha3.h>

#define SHAKE128_RATE OQS_SHA3_SHAKE128_RATE
#define SHAKE256_RATE OQS_SHA3_SHAKE256_RATE

#define mld_shake128ctx OQS_SHA3_shake128_inc_ctx
#define mld_shake128_init OQS_SHA3_shake128_inc_init
#define mld_shake128_absorb OQS_SHA3_shake128_inc_absorb
#define mld_shake128_finalize OQS_SHA3_shake128_inc_finalize
#define mld_shake128_squeeze OQS_SHA3_shake128_inc_squeeze
#define mld_shake128_release OQS_SHA3_shake128_inc_ctx_release

#define mld_shake256ctx OQS_SHA3_shake256_inc_ctx
#define mld_shake256_init OQS_SHA3_shake256_inc_init
#define mld_shake256_absorb OQS_SHA3_shake256_inc_absorb
#define mld_shake256_finalize OQS_SHA3_shake256_inc_finalize
#define mld_shake256_squeeze OQS_SHA3_shake256_inc_squeeze
#define mld_shake256_release OQS_SHA3_shake256_inc_ctx_release

#define mld_shake256 OQS_SHA3_shake256

#endif /* PQID_FIPS202_H */
