// Every ML-DSA verification vector (pqid's own, test/vectors/pqid-mldsa-verify, and
// Wycheproof's) through the binding, on the native back end (auto: x86_64-avx2, aarch64-neon)
// with every Keccak implementation this CPU runs, and on the portable (ref) code. These are the
// vectors that caught the two bugs of the pq-crystals AVX2 verifier pqid patched in liboqs 0.13
// (the z-norm vectors accepted, the r0 = 0 UseHint vectors backwards); mldsa-native passes them
// unpatched.
import { describe, expect, it } from 'vitest';
import { ML_DSA_ALGS, pqidVectors, type VerifyCase, wycheproofVectors } from '../../test/vectors/load.ts';
import { type Algorithm, LiboqsError, scheme } from '../index.js';
import { onVariant, variants } from './helpers.ts';

/** The verdict, with a malformed input (wrong length, context > 255) counting as a refusal. */
function verdict(alg: Algorithm, implementation: 'auto' | 'ref', v: VerifyCase): boolean {
  try {
    return scheme(alg, { implementation }).verify(v.pk, v.msg, v.sig, v.ctx);
  } catch (e) {
    if (e instanceof LiboqsError) return false;
    throw e;
  }
}

for (const [set, load] of [
  ['pqid', pqidVectors],
  ['Wycheproof', wycheproofVectors],
] as const) {
  describe(`${set} ML-DSA verify vectors on the native binding`, () => {
    for (const alg of ML_DSA_ALGS) {
      for (const variant of variants()) {
        it(`${alg} (${variant.label})`, () =>
          onVariant(variant, () => {
            const cases = load(alg);
            expect(cases.length).toBeGreaterThan(30);
            const wrong = cases
              .filter((v) => verdict(alg, variant.implementation, v) !== v.valid)
              .map((v) => `${v.id} (valid=${v.valid})`);
            expect(wrong).toEqual([]);
            // Both verdicts occur, so a verifier that always says one thing cannot pass.
            expect(new Set(cases.map((v) => v.valid))).toEqual(new Set([true, false]));
          }));
      }
    }
  });
}

describe('async verification agrees', () => {
  it('verifyAsync gives the same verdicts on the pqid vectors', async () => {
    for (const alg of ML_DSA_ALGS) {
      for (const v of pqidVectors(alg).filter((x) => x.sig.length === scheme(alg).signatureBytes)) {
        expect(await scheme(alg).verifyAsync(v.pk, v.msg, v.sig, v.ctx), `${alg} ${v.id}`).toBe(v.valid);
      }
    }
  });
});
