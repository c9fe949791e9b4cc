/*
 * Test driver for the AArch64 build of the C core, run under user-mode emulation
 * (test/aarch64.test.ts). It links the objects cross-build.mjs compiles from csrc/units.txt, the
 * same files with the same defines and flags as the addon, and answers one command per line on
 * stdin (hex arguments, `-` for empty):
 *
 *   keygen   IMPL ALG SEED                 -> ok PK SK CALLS
 *   sign     IMPL ALG KEY RND PRE MSG      -> ok SIG CALLS      Sign_internal over PRE ‖ MSG
 *   signmu   IMPL ALG KEY RND MU           -> ok SIG CALLS      from an external μ
 *   verify   IMPL ALG PK PRE MSG SIG       -> ok 1|0 CALLS      Verify_internal over PRE ‖ MSG
 *   verifymu IMPL ALG PK MU SIG            -> ok 1|0 CALLS
 *   stats                                  -> stats NAME=N ... (calls per NEON routine so far)
 *
 * IMPL is `native` (mldsa-native with the NEON back end, the addon's `aarch64-neon`) or `ref`;
 * ALG is 44, 65 or 87; KEY is an expanded secret key or a 32-byte seed (then KeyGen_internal on
 * the same IMPL first). CALLS is how many NEON assembly routines the command ran: the link wraps
 * every one of them (ld --wrap) with a counter, so a silent fallback to C shows as 0.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the 17 NEON routines of vendor/mldsa-native/native/aarch64/src, counted ---------------- */

enum {
  NTT, INTT, REJ_UNIFORM, REJ_ETA2, REJ_ETA4, DECOMPOSE_32, DECOMPOSE_88, CADDQ, USE_HINT_32,
  USE_HINT_88, CHKNORM, Z_UNPACK_17, Z_UNPACK_19, POINTWISE, ACC_L4, ACC_L5, ACC_L7, ROUTINES
};
static const char *routine_names[ROUTINES] = {
  "ntt", "intt", "rej_uniform", "rej_uniform_eta2", "rej_uniform_eta4", "poly_decompose_32",
  "poly_decompose_88", "poly_caddq", "poly_use_hint_32", "poly_use_hint_88", "poly_chknorm",
  "polyz_unpack_17", "polyz_unpack_19", "poly_pointwise_montgomery",
  "polyvecl_pointwise_acc_montgomery_l4", "polyvecl_pointwise_acc_montgomery_l5",
  "polyvecl_pointwise_acc_montgomery_l7"};
static unsigned long calls[ROUTINES];

/* Prototypes as in vendor/mldsa-native/native/aarch64/src/arith_native_aarch64.h. */
#define WRAP(ret, id, name, params, args)        \
  ret __real_mldsa_##name params;                \
  ret __wrap_mldsa_##name params                 \
  {                                              \
    calls[id]++;                                 \
    return __real_mldsa_##name args;             \
  }
#define WRAP_VOID(id, name, params, args)        \
  void __real_mldsa_##name params;               \
  void __wrap_mldsa_##name params                \
  {                                              \
    calls[id]++;                                 \
    __real_mldsa_##name args;                    \
  }

typedef int32_t poly[256];
WRAP_VOID(NTT, ntt_aarch64_asm, (int32_t *r, const int32_t *z1, const int32_t *z2), (r, z1, z2))
WRAP_VOID(INTT, intt_aarch64_asm, (int32_t *r, const int32_t *z1, const int32_t *z2), (r, z1, z2))
WRAP(uint64_t, REJ_UNIFORM, rej_uniform_aarch64_asm,
     (int32_t *r, const uint8_t *b, unsigned n, const uint8_t *t), (r, b, n, t))
WRAP(uint64_t, REJ_ETA2, rej_uniform_eta2_aarch64_asm,
     (int32_t *r, const uint8_t *b, unsigned n, const uint8_t *t), (r, b, n, t))
WRAP(uint64_t, REJ_ETA4, rej_uniform_eta4_aarch64_asm,
     (int32_t *r, const uint8_t *b, unsigned n, const uint8_t *t), (r, b, n, t))
WRAP_VOID(DECOMPOSE_32, poly_decompose_32_aarch64_asm, (int32_t *a1, int32_t *a0), (a1, a0))
WRAP_VOID(DECOMPOSE_88, poly_decompose_88_aarch64_asm, (int32_t *a1, int32_t *a0), (a1, a0))
WRAP_VOID(CADDQ, poly_caddq_aarch64_asm, (int32_t *a), (a))
WRAP_VOID(USE_HINT_32, poly_use_hint_32_aarch64_asm, (int32_t *a, const int32_t *h), (a, h))
WRAP_VOID(USE_HINT_88, poly_use_hint_88_aarch64_asm, (int32_t *a, const int32_t *h), (a, h))
WRAP(int, CHKNORM, poly_chknorm_aarch64_asm, (const int32_t *a, int32_t b), (a, b))
WRAP_VOID(Z_UNPACK_17, polyz_unpack_17_aarch64_asm,
          (int32_t *r, const uint8_t *b, const uint8_t *i), (r, b, i))
WRAP_VOID(Z_UNPACK_19, polyz_unpack_19_aarch64_asm,
          (int32_t *r, const uint8_t *b, const uint8_t *i), (r, b, i))
WRAP_VOID(POINTWISE, poly_pointwise_montgomery_aarch64_asm, (int32_t *a, const int32_t *b),
          (a, b))
WRAP_VOID(ACC_L4, polyvecl_pointwise_acc_montgomery_l4_aarch64_asm,
          (int32_t *r, const poly *a, const poly *b), (r, a, b))
WRAP_VOID(ACC_L5, polyvecl_pointwise_acc_montgomery_l5_aarch64_asm,
          (int32_t *r, const poly *a, const poly *b), (r, a, b))
WRAP_VOID(ACC_L7, polyvecl_pointwise_acc_montgomery_l7_aarch64_asm,
          (int32_t *r, const poly *a, const poly *b), (r, a, b))

static unsigned long total_calls(void)
{
  unsigned long n = 0;
  for (int i = 0; i < ROUTINES; i++) n += calls[i];
  return n;
}

/* ---- the ML-DSA entry points the addon calls (src/ffi.rs) ------------------------------------ */

typedef int keypair_fn(uint8_t *pk, uint8_t *sk, const uint8_t *seed);
typedef int sign_fn(uint8_t *sig, const uint8_t *m, size_t mlen, const uint8_t *pre, size_t prelen,
                    const uint8_t *rnd, const uint8_t *sk, int externalmu);
typedef int verify_fn(const uint8_t *sig, const uint8_t *m, size_t mlen, const uint8_t *pre,
                      size_t prelen, const uint8_t *pk, int externalmu);
#define DECLARE(prefix)                                                                       \
  keypair_fn prefix##_keypair_internal;                                                     \
  sign_fn prefix##_signature_internal;                                                      \
  verify_fn prefix##_verify_internal;
DECLARE(mldsa44) DECLARE(mldsa65) DECLARE(mldsa87)
DECLARE(mldsa_ref44) DECLARE(mldsa_ref65) DECLARE(mldsa_ref87)
int pqid_mldsa_native_detect(void);

struct params {
  int alg;
  size_t pk, sk, sig;
  keypair_fn *keypair[2];
  sign_fn *sign[2];
  verify_fn *verify[2];
};
#define PARAMS(alg, pk, sk, sig)                                                       \
  {alg, pk, sk, sig, {mldsa##alg##_keypair_internal, mldsa_ref##alg##_keypair_internal}, \
   {mldsa##alg##_signature_internal, mldsa_ref##alg##_signature_internal},               \
   {mldsa##alg##_verify_internal, mldsa_ref##alg##_verify_internal}}
static const struct params PARAMS_SETS[] = {
    PARAMS(44, 1312, 2560, 2420), PARAMS(65, 1952, 4032, 3309), PARAMS(87, 2592, 4896, 4627)};

/* ---- input --------------------------------------------------------------------------------- */

struct bytes {
  uint8_t *p;
  size_t n;
};

static int nibble(char c)
{
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

/* The next space-separated hex field (`-` is empty); 0 when missing or not hex. */
static int hex_field(char **cursor, struct bytes *out)
{
  char *f = strtok_r(NULL, " \n", cursor);
  if (f == NULL) return 0;
  size_t len = strcmp(f, "-") == 0 ? 0 : strlen(f);
  if (len % 2) return 0;
  out->n = len / 2;
  out->p = malloc(out->n + 1);
  for (size_t i = 0; i < out->n; i++) {
    int hi = nibble(f[2 * i]), lo = nibble(f[2 * i + 1]);
    if (hi < 0 || lo < 0) return 0;
    out->p[i] = (uint8_t)(hi << 4 | lo);
  }
  return 1;
}

static void print_hex(const uint8_t *p, size_t n)
{
  static const char digits[] = "0123456789abcdef";
  putchar(' ');
  for (size_t i = 0; i < n; i++) {
    putchar(digits[p[i] >> 4]);
    putchar(digits[p[i] & 15]);
  }
}

/* ---- commands ------------------------------------------------------------------------------ */

static int run(char *line)
{
  char *cursor;
  char *op = strtok_r(line, " \n", &cursor);
  if (op == NULL) return 0;
  if (strcmp(op, "stats") == 0) {
    printf("stats");
    for (int i = 0; i < ROUTINES; i++) printf(" %s=%lu", routine_names[i], calls[i]);
    printf("\n");
    return 0;
  }
  char *impl = strtok_r(NULL, " \n", &cursor);
  char *alg = strtok_r(NULL, " \n", &cursor);
  if (impl == NULL || alg == NULL) return -1;
  int which = strcmp(impl, "native") == 0 ? 0 : strcmp(impl, "ref") == 0 ? 1 : -1;
  const struct params *p = NULL;
  for (size_t i = 0; i < sizeof PARAMS_SETS / sizeof PARAMS_SETS[0]; i++)
    if (PARAMS_SETS[i].alg == atoi(alg)) p = &PARAMS_SETS[i];
  if (which < 0 || p == NULL) return -1;

  struct bytes a[5] = {{0}};
  int nargs = strcmp(op, "keygen") == 0     ? 1
              : strcmp(op, "sign") == 0     ? 4
              : strcmp(op, "signmu") == 0   ? 3
              : strcmp(op, "verify") == 0   ? 4
              : strcmp(op, "verifymu") == 0 ? 3
                                            : -1;
  if (nargs < 0) return -1;
  for (int i = 0; i < nargs; i++)
    if (!hex_field(&cursor, &a[i])) return -1;

  uint8_t *pk = malloc(p->pk), *sk = malloc(p->sk), *sig = malloc(p->sig);
  unsigned long before = total_calls();
  int rc = -1;
  if (strcmp(op, "keygen") == 0) {
    if (a[0].n == 32 && p->keypair[which](pk, sk, a[0].p) == 0) {
      printf("ok");
      print_hex(pk, p->pk);
      print_hex(sk, p->sk);
      rc = 0;
    }
  } else if (strcmp(op, "sign") == 0 || strcmp(op, "signmu") == 0) {
    int mu = strcmp(op, "signmu") == 0;
    const uint8_t *key = a[0].p;
    int ok = a[1].n == 32 && (a[0].n == p->sk || a[0].n == 32);
    if (ok && a[0].n == 32) {
      ok = p->keypair[which](pk, sk, a[0].p) == 0;
      key = sk;
    }
    if (ok && mu) ok = a[2].n == 64;
    const struct bytes *m = mu ? &a[2] : &a[3];
    const struct bytes *pre = mu ? &a[4] : &a[2]; /* a[4] is empty for signmu */
    if (ok && p->sign[which](sig, m->p, m->n, pre->p, pre->n, a[1].p, key, mu) == 0) {
      printf("ok");
      print_hex(sig, p->sig);
      rc = 0;
    }
  } else {
    int mu = strcmp(op, "verifymu") == 0;
    const struct bytes *m = mu ? &a[1] : &a[2];
    const struct bytes *pre = mu ? &a[4] : &a[1];
    const struct bytes *s = mu ? &a[2] : &a[3];
    /* The addon checks both lengths before calling in (src/mldsa.rs); so does this driver. */
    if (a[0].n == p->pk && s->n == p->sig && (!mu || m->n == 64)) {
      int valid = p->verify[which](s->p, m->p, m->n, pre->p, pre->n, a[0].p, mu) == 0;
      printf("ok %d", valid);
      rc = 0;
    }
  }
  if (rc == 0) printf(" %lu\n", total_calls() - before);
  for (int i = 0; i < 5; i++) free(a[i].p);
  free(pk);
  free(sk);
  free(sig);
  return rc;
}

int main(void)
{
  /* The capability probe the addon's dispatch uses: 1 means the native build runs here. */
  printf("native-available %d\n", pqid_mldsa_native_detect());
  char *line = NULL;
  size_t cap = 0;
  while (getline(&line, &cap, stdin) > 0) {
    if (run(line) != 0) printf("err\n");
    fflush(stdout);
  }
  free(line);
  return 0;
}
