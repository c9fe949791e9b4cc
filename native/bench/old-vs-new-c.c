/*
 * ML-DSA signing in C alone, for bench/old-vs-new-c.mjs: compiled once against each C core's
 * static library (the old liboqs 0.13 pq-crystals core with -DPQID_OLD_CORE, the new mldsa-native one
 * without), so the two are compared without N-API, V8 or the thread pool.
 *
 *   old-vs-new-c LEVEL COUNT BLOCKS [KECCAK]
 *
 * Signs COUNT messages per block, BLOCKS blocks, with ML-DSA-LEVEL (44, 65, 87) on the AVX2 (old)
 * or native (new) implementation, from a key made from a fixed seed, deterministically from a
 * counter-derived rnd: both cores do the same work, rejected attempts included. KECCAK (new core
 * only: portable, avx2, avx512vl) forces that Keccak. Prints a hash of every signature (the two
 * cores must agree), from an untimed first pass over COUNT signatures, then the CPU µs per
 * signature of each block.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAX_PK 2592
#define MAX_SK 4896
#define MAX_SIG 4627

/* KEYPAIR(L): the core's KeyGen_internal(pk, sk, seed); sign##L: Sign_internal over
 * M' = pre || m with the given rnd, in the same shape for both cores. */
#if defined(PQID_OLD_CORE)
#define KEYPAIR(L) pqcrystals_ml_dsa_##L##_avx2_keypair_internal
#define DECLARE(L)                                                                            \
  int KEYPAIR(L)(uint8_t * pk, uint8_t * sk, const uint8_t *seed);                            \
  int pqcrystals_ml_dsa_##L##_avx2_signature_internal(                                        \
      uint8_t *sig, size_t *siglen, const uint8_t *m, size_t mlen, const uint8_t *pre,        \
      size_t prelen, const uint8_t *rnd, const uint8_t *sk);                                  \
  static int sign##L(uint8_t *sig, const uint8_t *m, size_t mlen, const uint8_t *pre,         \
                     size_t prelen, const uint8_t *rnd, const uint8_t *sk)                    \
  {                                                                                           \
    size_t siglen;                                                                            \
    return pqcrystals_ml_dsa_##L##_avx2_signature_internal(sig, &siglen, m, mlen, pre, prelen, \
                                                           rnd, sk);                          \
  }
void OQS_init(void);
#else
#define KEYPAIR(L) mldsa##L##_keypair_internal
#define DECLARE(L)                                                                            \
  int KEYPAIR(L)(uint8_t * pk, uint8_t * sk, const uint8_t *seed);                            \
  int mldsa##L##_signature_internal(uint8_t *sig, const uint8_t *m, size_t mlen,              \
                                    const uint8_t *pre, size_t prelen, const uint8_t *rnd,    \
                                    const uint8_t *sk, int externalmu);                       \
  static int sign##L(uint8_t *sig, const uint8_t *m, size_t mlen, const uint8_t *pre,         \
                     size_t prelen, const uint8_t *rnd, const uint8_t *sk)                    \
  {                                                                                           \
    return mldsa##L##_signature_internal(sig, m, mlen, pre, prelen, rnd, sk, 0);              \
  }
int pqid_mldsa_native_detect(void);
int pqid_keccak_force(int impl);
const char *pqid_keccak_name(int impl);
#endif

DECLARE(44)
DECLARE(65)
DECLARE(87)

typedef int (*keypair_fn)(uint8_t *, uint8_t *, const uint8_t *);
typedef int (*sign_fn)(uint8_t *, const uint8_t *, size_t, const uint8_t *, size_t,
                       const uint8_t *, const uint8_t *);

static double cpu_us(void)
{
  struct timespec t;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return (double)t.tv_sec * 1e6 + (double)t.tv_nsec / 1e3;
}

/* The k-th signature: the fixed message, rnd = k (little-endian) followed by zeros. */
static int sign_nth(sign_fn sign, uint8_t *sig, const uint8_t msg[256], const uint8_t *sk,
                    uint32_t k)
{
  const uint8_t pre[2] = {0, 0}; /* pure ML-DSA, empty context: M' = 0 || 0 || M */
  uint8_t rnd[32] = {0};
  memcpy(rnd, &k, sizeof k);
  return sign(sig, msg, 256, pre, sizeof pre, rnd, sk);
}

static int fail(const char *why)
{
  fprintf(stderr, "old-vs-new-c: %s\n", why);
  return 2;
}

int main(int argc, char **argv)
{
  static uint8_t pk[MAX_PK], sk[MAX_SK], sig[MAX_SIG], seed[32], msg[256];
  keypair_fn keypair;
  sign_fn sign;
  size_t siglen;
  uint64_t hash = 1469598103934665603u; /* FNV-1a over every signature */

  if (argc < 4)
  {
    return fail("usage: old-vs-new-c LEVEL COUNT BLOCKS [KECCAK]");
  }
  int level = atoi(argv[1]), count = atoi(argv[2]), blocks = atoi(argv[3]);
  if (count < 1 || blocks < 1)
  {
    return fail("COUNT and BLOCKS must be positive");
  }
  switch (level)
  {
    case 44:
      keypair = KEYPAIR(44), sign = sign44, siglen = 2420;
      break;
    case 65:
      keypair = KEYPAIR(65), sign = sign65, siglen = 3309;
      break;
    case 87:
      keypair = KEYPAIR(87), sign = sign87, siglen = 4627;
      break;
    default:
      return fail("LEVEL must be 44, 65 or 87");
  }
#if defined(PQID_OLD_CORE)
  if (argc > 4)
  {
    return fail("the old core always runs its AVX2 Keccak");
  }
  OQS_init();
#else
  if (!pqid_mldsa_native_detect())
  {
    return fail("this CPU does not run the native (AVX2) build");
  }
  if (argc > 4)
  {
    int impl = 0;
    while (impl < 3 && strcmp(pqid_keccak_name(impl), argv[4]) != 0)
    {
      impl++;
    }
    if (impl == 3 || !pqid_keccak_force(impl))
    {
      return fail("that Keccak is not available here");
    }
  }
#endif

  for (int i = 0; i < 256; i++)
  {
    msg[i] = (uint8_t)((i * 31 + 7) & 0xff);
  }
  memset(seed, 42, sizeof seed);
  if (keypair(pk, sk, seed) != 0)
  {
    return fail("keygen failed");
  }

  /* Untimed first pass (also the warm-up): the hash of the signatures, which the two cores must
   * agree on. Hashing stays out of the timed blocks. */
  for (int i = 0; i < count; i++)
  {
    if (sign_nth(sign, sig, msg, sk, (uint32_t)i) != 0)
    {
      return fail("sign failed");
    }
    for (size_t j = 0; j < siglen; j++)
    {
      hash = (hash ^ sig[j]) * 1099511628211u;
    }
  }
  printf("%d %016llx", level, (unsigned long long)hash);
  for (int b = 0; b < blocks; b++)
  {
    double t = cpu_us();
    for (int i = 0; i < count; i++)
    {
      if (sign_nth(sign, sig, msg, sk, (uint32_t)(b * count + i)) != 0)
      {
        return fail("sign failed");
      }
    }
    printf(" %.3f", (cpu_us() - t) / count);
  }
  printf("\n");
  return 0;
}
