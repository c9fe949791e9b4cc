/*
 * mldsa-native with the assembly back end of this architecture (x86_64 AVX2 or AArch64 NEON),
 * all three parameter sets; symbols mldsa{44,65,87}_*. See mldsa_config.h.
 */
#define PQID_MLDSA_NATIVE
#include "mldsa_all_levels.h"
