/*
 * mldsa-native's portable C, all three parameter sets; symbols mldsa_ref{44,65,87}_*. The
 * implementation on CPUs without the native back end, and the forced `ref` one.
 */
#include "mldsa_all_levels.h"
