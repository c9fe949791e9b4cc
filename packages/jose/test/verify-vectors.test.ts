// pqid's and Wycheproof's ML-DSA verify vectors through mldsa.verify / verifySync on every
// backend (native, native-ref, node, noble). A malformed input (wrong public-key length,
// context over 255 bytes) must be refused with a typed error, never accepted.
import { backends, mldsa, PqidError } from '@pqid/jose';
import { describe, expect, it } from 'vitest';
import { ML_DSA_ALGS, pqidVectors, type VerifyCase, wycheproofVectors } from '../../../test/vectors/load.ts';

async function verdicts(alg: (typeof ML_DSA_ALGS)[number], backend: string, v: VerifyCase) {
  const opts = { context: v.ctx, backend: backend as 'noble' };
  const run = async (f: () => boolean | Promise<boolean>) => {
    try {
      return await f();
    } catch (e) {
      if (e instanceof PqidError && e.code === 'ERR_INVALID_ARGUMENT') return false;
      throw e;
    }
  };
  return [
    await run(() => mldsa.verify(alg, v.pk, v.msg, v.sig, opts)),
    await run(() => mldsa.verifySync(alg, v.pk, v.msg, v.sig, opts)),
  ];
}

for (const b of backends().filter((x) => x.available)) {
  describe(`ML-DSA verify vectors on ${b.name} (${b.implementation})`, () => {
    for (const [set, load] of [
      ['pqid', pqidVectors],
      ['Wycheproof', wycheproofVectors],
    ] as const) {
      it.each(ML_DSA_ALGS)(`${set} %s`, async (alg) => {
        const wrong: string[] = [];
        for (const v of load(alg)) {
          const [a, s] = await verdicts(alg, b.name, v);
          if (a !== v.valid || s !== v.valid)
            wrong.push(`${v.id}: verify=${a} verifySync=${s}, expected ${v.valid}`);
        }
        expect(wrong).toEqual([]);
      });
    }
  });
}
