/*
 * XKCP's four-way Keccak-p[1600] (vendor/liboqs/.../KeccakP-1600times4/avx2), unchanged,
 * compiled a second time with -mavx512f -mavx512vl (csrc/units.txt): the compiler turns the
 * source's 64-bit rotations (two shifts and an OR) into vprolq and its three-input XOR/AND-NOT
 * chains into vpternlogq, which roughly halves the instructions per permutation. Vectors stay
 * 256 bits wide. keccak.c calls it only where csrc/cpu.c finds AVX-512F, AVX-512VL and their OS
 * state.
 *
 * The source names its functions through a suffix macro (ADD_SYMBOL_SUFFIX: ..._avx2); the
 * preprocessor expands those names again, so the definitions below give this copy _avx512vl
 * names and the two copies link side by side.
 */
#define KeccakF1600times4_FastLoop_Absorb_avx2 KeccakF1600times4_FastLoop_Absorb_avx512vl
#define KeccakP1600times4_12rounds_FastLoop_Absorb_avx2 \
  KeccakP1600times4_12rounds_FastLoop_Absorb_avx512vl
#define KeccakP1600times4_AddByte_avx2 KeccakP1600times4_AddByte_avx512vl
#define KeccakP1600times4_AddBytes_avx2 KeccakP1600times4_AddBytes_avx512vl
#define KeccakP1600times4_AddLanesAll_avx2 KeccakP1600times4_AddLanesAll_avx512vl
#define KeccakP1600times4_ExtractAndAddBytes_avx2 KeccakP1600times4_ExtractAndAddBytes_avx512vl
#define KeccakP1600times4_ExtractAndAddLanesAll_avx2 \
  KeccakP1600times4_ExtractAndAddLanesAll_avx512vl
#define KeccakP1600times4_ExtractBytes_avx2 KeccakP1600times4_ExtractBytes_avx512vl
#define KeccakP1600times4_ExtractLanesAll_avx2 KeccakP1600times4_ExtractLanesAll_avx512vl
#define KeccakP1600times4_InitializeAll_avx2 KeccakP1600times4_InitializeAll_avx512vl
#define KeccakP1600times4_OverwriteBytes_avx2 KeccakP1600times4_OverwriteBytes_avx512vl
#define KeccakP1600times4_OverwriteLanesAll_avx2 KeccakP1600times4_OverwriteLanesAll_avx512vl
#define KeccakP1600times4_OverwriteWithZeroes_avx2 KeccakP1600times4_OverwriteWithZeroes_avx512vl
#define KeccakP1600times4_PermuteAll_12rounds_avx2 KeccakP1600times4_PermuteAll_12rounds_avx512vl
#define KeccakP1600times4_PermuteAll_24rounds_avx2 KeccakP1600times4_PermuteAll_24rounds_avx512vl
#define KeccakP1600times4_PermuteAll_4rounds_avx2 KeccakP1600times4_PermuteAll_4rounds_avx512vl
#define KeccakP1600times4_PermuteAll_6rounds_avx2 KeccakP1600times4_PermuteAll_6rounds_avx512vl

#include "KeccakP-1600-times4-SIMD256.c"
