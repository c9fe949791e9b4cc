/*
 * pqid: the s2n-bignum assembler headers vendored from aws-lc-sys (vendor/s2n-bignum) include
 * this AWS-LC header, which renames every assembly symbol with AWS-LC's prefix
 * (aws_lc_0_47_0_...). pqid compiles mldsa-native's assembly under its own names (mldsa_*,
 * see csrc/mldsa_config.h), so there is nothing to rename: this file is intentionally empty.
 * Taking AWS-LC's generated header instead would give our copy the same names as the copy
 * inside aws-lc-sys, which the addon links too.
 */
