/*
 * The arithmetic back end of pqid's native mldsa-native build (MLD_CONFIG_ARITH_BACKEND_FILE,
 * included after mldsa-native's sys.h): the assembly of this architecture. csrc/units.txt
 * compiles the native build only on x86_64 and AArch64.
 */
#if defined(MLD_SYS_X86_64)
#include "native/x86_64/meta.h"
#elif defined(MLD_SYS_AARCH64)
#include "native/aarch64/meta.h"
#else
#error "pqid: the native mldsa-native build is for x86_64 and AArch64 only"
#endif
