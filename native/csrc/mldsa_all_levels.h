/*
 * ML-DSA-44, -65 and -87 in one translation unit: mldsa-native's single compilation unit
 * (vendor/mldsa-native/mldsa_native_bcm.c) included once per parameter set, its documented
 * multi-level build. The code that does not depend on the parameter set comes with the first;
 * the headers it shares stay defined until the last. Included by mldsa_native.c and mldsa_ref.c.
 */
#define MLD_CONFIG_FILE "mldsa_config.h"
#define MLD_CONFIG_MONOBUILD_KEEP_SHARED_HEADERS

#define MLD_CONFIG_MULTILEVEL_WITH_SHARED
#define MLD_CONFIG_PARAMETER_SET 44
#include "mldsa_native_bcm.c"
#undef MLD_CONFIG_MULTILEVEL_WITH_SHARED
#undef MLD_CONFIG_PARAMETER_SET

#define MLD_CONFIG_MULTILEVEL_NO_SHARED
#define MLD_CONFIG_PARAMETER_SET 65
#include "mldsa_native_bcm.c"
#undef MLD_CONFIG_PARAMETER_SET

#undef MLD_CONFIG_MONOBUILD_KEEP_SHARED_HEADERS
#define MLD_CONFIG_PARAMETER_SET 87
#include "mldsa_native_bcm.c"
