/*
 * SHAKE128/SHAKE256, one and four at a time, on XKCP's Keccak-p[1600] permutations
 * (pqid_keccak.h says which run where). The sponge is FIPS 202's, written for what
 * mldsa-native asks of it (its fips202.h and fips202x4.h interfaces): contexts live on the
 * caller's stack and are wiped on release, and each is served by the implementation it was
 * opened with (the table `impls` below), with no allocation.
 *
 * State layouts: XKCP's four-way code keeps lane i of instance j at s[4 i + j]; pqid reads
 * and writes those lanes itself (x86-64 only, so little-endian). The one-way AVX2 assembly
 * keeps its own lane order and XKCP's portable code complements some lanes, so for those
 * pqid goes through their AddBytes/ExtractBytes. The portable four-way hash is four portable
 * one-way states, s[25 j ...].
 */
#include <string.h>

#include <oqs/common.h>
#if defined(PQID_KECCAK_AVX)
#include <immintrin.h>
#endif

#include "pqid_cpu.h"
#include "pqid_keccak.h"

/* XKCP's portable Keccak: `_plain64` names where units.txt also compiles the AVX2 ones. */
#if defined(PQID_KECCAK_SUFFIX)
#define P64(f) f##_plain64
#else
#define P64(f) f
#endif
void P64(KeccakP1600_Initialize)(void *state);
void P64(KeccakP1600_AddBytes)(void *state, const unsigned char *data, unsigned int offset,
                               unsigned int length);
void P64(KeccakP1600_Permute_24rounds)(void *state);
void P64(KeccakP1600_ExtractBytes)(const void *state, unsigned char *data, unsigned int offset,
                                   unsigned int length);

#if defined(PQID_KECCAK_AVX)
void KeccakP1600_Initialize_avx2(void *state);
void KeccakP1600_AddBytes_avx2(void *state, const unsigned char *data, unsigned int offset,
                               unsigned int length);
void KeccakP1600_Permute_24rounds_avx2(void *state);
void KeccakP1600_ExtractBytes_avx2(const void *state, unsigned char *data, unsigned int offset,
                                   unsigned int length);
void KeccakP1600times4_PermuteAll_24rounds_avx2(void *states);
/* The same C as the _avx2 one, compiled for AVX-512VL (units.txt renames it). */
void KeccakP1600times4_PermuteAll_24rounds_avx512vl(void *states);
#endif

/* ---- which implementation --------------------------------------------------------------- */

static int detected = -1; /* -1 until detected */
static int forced = -1;   /* -1: none */
static int avx512vl = -1; /* pqid_cpu_avx512vl(), cached: CPUID is slow under a hypervisor */
static int counting;
static uint64_t counts[PQID_KECCAK_IMPLS * 2];

int pqid_keccak_available(int impl)
{
  switch (impl)
  {
    case PQID_KECCAK_PORTABLE:
      return 1;
#if defined(PQID_KECCAK_AVX)
    case PQID_KECCAK_AVX2:
      return OQS_CPU_has_extension(OQS_CPU_EXT_AVX2);
    case PQID_KECCAK_AVX512VL:
    {
      int a = __atomic_load_n(&avx512vl, __ATOMIC_RELAXED);
      if (a < 0)
      {
        a = pqid_cpu_avx512vl();
        __atomic_store_n(&avx512vl, a, __ATOMIC_RELAXED);
      }
      return a;
    }
#endif
    default:
      return 0;
  }
}

int pqid_keccak_active(void)
{
  int f = __atomic_load_n(&forced, __ATOMIC_RELAXED);
  if (f >= 0)
  {
    return f;
  }
  int d = __atomic_load_n(&detected, __ATOMIC_RELAXED);
  if (d < 0)
  {
    d = PQID_KECCAK_AVX512VL;
    while (!pqid_keccak_available(d))
    {
      d--;
    }
    __atomic_store_n(&detected, d, __ATOMIC_RELAXED);
  }
  return d;
}

int pqid_keccak_force(int impl)
{
  if (impl >= 0 && !pqid_keccak_available(impl))
  {
    return 0;
  }
  __atomic_store_n(&forced, impl < 0 ? -1 : impl, __ATOMIC_RELAXED);
  return 1;
}

const char *pqid_keccak_name(int impl)
{
  static const char *const names[PQID_KECCAK_IMPLS] = {"portable", "avx2", "avx512vl"};
  return impl >= 0 && impl < PQID_KECCAK_IMPLS ? names[impl] : "none";
}

void pqid_keccak_count(int on)
{
  __atomic_store_n(&counting, on != 0, __ATOMIC_RELAXED);
}

void pqid_keccak_counts(uint64_t out[PQID_KECCAK_IMPLS * 2])
{
  for (int i = 0; i < PQID_KECCAK_IMPLS * 2; i++)
  {
    out[i] = __atomic_load_n(&counts[i], __ATOMIC_RELAXED);
  }
}

static inline void count(int impl, int x4)
{
  if (__builtin_expect(__atomic_load_n(&counting, __ATOMIC_RELAXED), 0))
  {
    __atomic_fetch_add(&counts[impl * 2 + x4], 1, __ATOMIC_RELAXED);
  }
}

/* ---- the four-way lane layout (x86-64 only) ------------------------------------------- */

#if defined(PQID_KECCAK_AVX)
/* Byte `off` of instance `j`'s state. */
#define LANE_BYTE(s, j, off) (((uint8_t *)(s))[32 * ((off) >> 3) + 8 * (j) + ((off) & 7)])

static void lanes_add(void *state, unsigned int j, const uint8_t *in, unsigned int off,
                      unsigned int len)
{
  uint64_t *s = state;
  for (; len > 0 && (off & 7); len--, off++)
  {
    LANE_BYTE(s, j, off) ^= *in++;
  }
  for (; len >= 8; len -= 8, off += 8, in += 8)
  {
    uint64_t v;
    memcpy(&v, in, 8);
    s[4 * (off >> 3) + j] ^= v;
  }
  for (; len > 0; len--, off++)
  {
    LANE_BYTE(s, j, off) ^= *in++;
  }
}

/*
 * The first rate / 8 lanes of all four instances, each to its own output: a 4 x 4 transpose of
 * 64-bit words per four lanes. Used only by the AVX2 and AVX-512VL implementations, so it may
 * use AVX2; the function attribute enables it for this function alone.
 */
__attribute__((target("avx2"))) static void lanes_extract4(const void *state,
                                                           uint8_t *const out[4],
                                                           unsigned int rate)
{
  const uint64_t *s = state;
  unsigned int i = 0, lanes = rate / 8;
  for (; i + 4 <= lanes; i += 4)
  {
    /* a..d: lanes i..i+3, each holding instances 0..3 */
    __m256i a = _mm256_load_si256((const __m256i *)&s[4 * i]);
    __m256i b = _mm256_load_si256((const __m256i *)&s[4 * i + 4]);
    __m256i c = _mm256_load_si256((const __m256i *)&s[4 * i + 8]);
    __m256i d = _mm256_load_si256((const __m256i *)&s[4 * i + 12]);
    __m256i ab0 = _mm256_unpacklo_epi64(a, b); /* a0 b0 a2 b2 */
    __m256i ab1 = _mm256_unpackhi_epi64(a, b); /* a1 b1 a3 b3 */
    __m256i cd0 = _mm256_unpacklo_epi64(c, d); /* c0 d0 c2 d2 */
    __m256i cd1 = _mm256_unpackhi_epi64(c, d); /* c1 d1 c3 d3 */
    _mm256_storeu_si256((__m256i *)(out[0] + 8 * i), _mm256_permute2x128_si256(ab0, cd0, 0x20));
    _mm256_storeu_si256((__m256i *)(out[1] + 8 * i), _mm256_permute2x128_si256(ab1, cd1, 0x20));
    _mm256_storeu_si256((__m256i *)(out[2] + 8 * i), _mm256_permute2x128_si256(ab0, cd0, 0x31));
    _mm256_storeu_si256((__m256i *)(out[3] + 8 * i), _mm256_permute2x128_si256(ab1, cd1, 0x31));
  }
  for (; i < lanes; i++)
  {
    for (unsigned int j = 0; j < 4; j++)
    {
      memcpy(out[j] + 8 * i, &s[4 * i + j], 8);
    }
  }
}

static void x4_zero(void *s) { memset(s, 0, 800); }

/* One hash in lane 0 of the four-way state (the avx512vl implementation). */
static void lane0_add(void *s, const unsigned char *in, unsigned int off, unsigned int len)
{
  lanes_add(s, 0, in, off, len);
}

static void lane0_extract(const void *state, unsigned char *out, unsigned int off,
                          unsigned int len)
{
  const uint64_t *s = state;
  for (; len > 0 && (off & 7); len--, off++)
  {
    *out++ = LANE_BYTE(s, 0, off);
  }
  for (; len >= 8; len -= 8, off += 8, out += 8)
  {
    memcpy(out, &s[4 * (off >> 3)], 8);
  }
  for (; len > 0; len--, off++)
  {
    *out++ = LANE_BYTE(s, 0, off);
  }
}
#endif /* PQID_KECCAK_AVX */

/* ---- four portable states, s[25 j ...] -------------------------------------------------- */

static void p64x4_init(void *s)
{
  for (int j = 0; j < 4; j++)
  {
    P64(KeccakP1600_Initialize)((uint64_t *)s + 25 * j);
  }
}

static void p64x4_add(void *s, unsigned int j, const uint8_t *in, unsigned int off,
                      unsigned int len)
{
  P64(KeccakP1600_AddBytes)((uint64_t *)s + 25 * j, in, off, len);
}

static void p64x4_permute(void *s)
{
  for (int j = 0; j < 4; j++)
  {
    P64(KeccakP1600_Permute_24rounds)((uint64_t *)s + 25 * j);
  }
}

static void p64x4_extract4(const void *s, uint8_t *const out[4], unsigned int rate)
{
  for (int j = 0; j < 4; j++)
  {
    P64(KeccakP1600_ExtractBytes)((const uint64_t *)s + 25 * j, out[j], 0, rate);
  }
}

/* ---- what each implementation provides -------------------------------------------------- */

struct impl
{
  unsigned int x1_words; /* of the context's state the one-way hash uses */
  void (*x1_init)(void *s);
  void (*x1_add)(void *s, const unsigned char *in, unsigned int off, unsigned int len);
  void (*x1_extract)(const void *s, unsigned char *out, unsigned int off, unsigned int len);
  void (*x1_permute)(void *s);
  void (*x4_init)(void *s);
  void (*x4_add)(void *s, unsigned int j, const uint8_t *in, unsigned int off, unsigned int len);
  void (*x4_extract4)(const void *s, uint8_t *const out[4], unsigned int rate);
  void (*x4_permute)(void *s);
};

static const struct impl impls[PQID_KECCAK_IMPLS] = {
    [PQID_KECCAK_PORTABLE] = {25, P64(KeccakP1600_Initialize), P64(KeccakP1600_AddBytes),
                              P64(KeccakP1600_ExtractBytes), P64(KeccakP1600_Permute_24rounds),
                              p64x4_init, p64x4_add, p64x4_extract4, p64x4_permute},
#if defined(PQID_KECCAK_AVX)
    [PQID_KECCAK_AVX2] = {25, KeccakP1600_Initialize_avx2, KeccakP1600_AddBytes_avx2,
                          KeccakP1600_ExtractBytes_avx2, KeccakP1600_Permute_24rounds_avx2,
                          x4_zero, lanes_add, lanes_extract4,
                          KeccakP1600times4_PermuteAll_24rounds_avx2},
    /* Single hashes in one lane of the four-way code: lanes 1-3 stay zero and are never read. */
    [PQID_KECCAK_AVX512VL] = {100, x4_zero, lane0_add, lane0_extract,
                              KeccakP1600times4_PermuteAll_24rounds_avx512vl, x4_zero, lanes_add,
                              lanes_extract4, KeccakP1600times4_PermuteAll_24rounds_avx512vl},
#endif
};

/* ---- one state -------------------------------------------------------------------------- */

static void x1_open(pqid_keccak_ctx *c, unsigned int rate, int impl)
{
  c->impl = impl;
  c->rate = rate;
  c->pos = 0;
  c->words = impls[impl].x1_words;
  impls[impl].x1_init(c->s);
}

static void x1_permute(pqid_keccak_ctx *c)
{
  count(c->impl, 0);
  impls[c->impl].x1_permute(c->s);
}

void pqid_shake_init(pqid_keccak_ctx *ctx, unsigned int rate)
{
  x1_open(ctx, rate, pqid_keccak_active());
}

void pqid_shake_absorb(pqid_keccak_ctx *ctx, const uint8_t *in, size_t inlen)
{
  while (inlen > 0)
  {
    size_t n = ctx->rate - ctx->pos;
    if (n > inlen)
    {
      n = inlen;
    }
    impls[ctx->impl].x1_add(ctx->s, in, ctx->pos, (unsigned int)n);
    ctx->pos += (unsigned int)n;
    in += n;
    inlen -= n;
    if (ctx->pos == ctx->rate)
    {
      x1_permute(ctx);
      ctx->pos = 0;
    }
  }
}

/* SHAKE's domain bits and pad10*1 (FIPS 202, 6.2 and 5.1); the next squeeze permutes. */
void pqid_shake_finalize(pqid_keccak_ctx *ctx)
{
  const uint8_t ds = 0x1f, last = 0x80;
  impls[ctx->impl].x1_add(ctx->s, &ds, ctx->pos, 1);
  impls[ctx->impl].x1_add(ctx->s, &last, ctx->rate - 1, 1);
  ctx->pos = ctx->rate;
}

void pqid_shake_squeeze(uint8_t *out, size_t outlen, pqid_keccak_ctx *ctx)
{
  while (outlen > 0)
  {
    if (ctx->pos == ctx->rate)
    {
      x1_permute(ctx);
      ctx->pos = 0;
    }
    size_t n = ctx->rate - ctx->pos;
    if (n > outlen)
    {
      n = outlen;
    }
    impls[ctx->impl].x1_extract(ctx->s, out, ctx->pos, (unsigned int)n);
    ctx->pos += (unsigned int)n;
    out += n;
    outlen -= n;
  }
}

/* The state is secret in places (mldsa-native hashes its private seeds with it). */
void pqid_keccak_release(pqid_keccak_ctx *ctx)
{
  memset(ctx->s, 0, 8 * (ctx->words < 100 ? ctx->words : 100));
  ctx->pos = 0;
#if defined(__GNUC__) || defined(__clang__)
  __asm__ __volatile__("" : : "r"(ctx) : "memory");
#endif
}

void pqid_shake256(uint8_t *out, size_t outlen, const uint8_t *in, size_t inlen)
{
  pqid_keccak_ctx c;
  pqid_shake_init(&c, PQID_SHAKE256_RATE);
  pqid_shake_absorb(&c, in, inlen);
  pqid_shake_finalize(&c);
  pqid_shake_squeeze(out, outlen, &c);
  pqid_keccak_release(&c);
}

/* ---- four states ------------------------------------------------------------------------ */

static void x4_open(pqid_keccak_ctx *c, unsigned int rate, int impl)
{
  c->impl = impl;
  c->rate = rate;
  c->pos = 0;
  c->words = 100;
  impls[impl].x4_init(c->s);
}

void pqid_shake_x4_init(pqid_keccak_ctx *ctx, unsigned int rate)
{
  x4_open(ctx, rate, pqid_keccak_active());
}

void pqid_shake_x4_absorb_once(pqid_keccak_ctx *ctx, const uint8_t *in0, const uint8_t *in1,
                               const uint8_t *in2, const uint8_t *in3, size_t inlen)
{
  const struct impl *k = &impls[ctx->impl];
  const uint8_t *in[4] = {in0, in1, in2, in3};
  const uint8_t ds = 0x1f, last = 0x80;
  unsigned int j;
  for (; inlen >= ctx->rate; inlen -= ctx->rate)
  {
    for (j = 0; j < 4; j++)
    {
      k->x4_add(ctx->s, j, in[j], 0, ctx->rate);
      in[j] += ctx->rate;
    }
    count(ctx->impl, 1);
    k->x4_permute(ctx->s);
  }
  for (j = 0; j < 4; j++)
  {
    k->x4_add(ctx->s, j, in[j], 0, (unsigned int)inlen);
    k->x4_add(ctx->s, j, &ds, (unsigned int)inlen, 1);
    k->x4_add(ctx->s, j, &last, ctx->rate - 1, 1);
  }
}

void pqid_shake_x4_squeezeblocks(uint8_t *out0, uint8_t *out1, uint8_t *out2, uint8_t *out3,
                                 size_t nblocks, pqid_keccak_ctx *ctx)
{
  const struct impl *k = &impls[ctx->impl];
  uint8_t *out[4] = {out0, out1, out2, out3};
  for (; nblocks > 0; nblocks--)
  {
    count(ctx->impl, 1);
    k->x4_permute(ctx->s);
    k->x4_extract4(ctx->s, out, ctx->rate);
    for (unsigned int j = 0; j < 4; j++)
    {
      out[j] += ctx->rate;
    }
  }
}

/* ---- for the self-test and the tests ----------------------------------------------------- */

int pqid_keccak_shake_on(int impl, unsigned int rate, uint8_t *out, size_t outlen,
                         const uint8_t *in, size_t inlen, size_t chunk)
{
  pqid_keccak_ctx c;
  size_t n;
  if (!pqid_keccak_available(impl))
  {
    return -1;
  }
  x1_open(&c, rate, impl);
  do
  {
    n = chunk == 0 || chunk > inlen ? inlen : chunk;
    pqid_shake_absorb(&c, in, n);
    in += n;
    inlen -= n;
  } while (inlen > 0);
  pqid_shake_finalize(&c);
  do
  {
    n = chunk == 0 || chunk > outlen ? outlen : chunk;
    pqid_shake_squeeze(out, n, &c);
    out += n;
    outlen -= n;
  } while (outlen > 0);
  pqid_keccak_release(&c);
  return 0;
}

int pqid_keccak_shake_x4_on(int impl, unsigned int rate, uint8_t *out, size_t nblocks,
                            const uint8_t *in, size_t inlen)
{
  pqid_keccak_ctx c;
  size_t o = nblocks * rate;
  if (!pqid_keccak_available(impl))
  {
    return -1;
  }
  x4_open(&c, rate, impl);
  pqid_shake_x4_absorb_once(&c, in, in + inlen, in + 2 * inlen, in + 3 * inlen, inlen);
  pqid_shake_x4_squeezeblocks(out, out + o, out + 2 * o, out + 3 * o, nblocks, &c);
  pqid_keccak_release(&c);
  return 0;
}
