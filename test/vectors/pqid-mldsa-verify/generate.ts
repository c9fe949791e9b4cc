/**
 * Generates pqid's own ML-DSA verification vectors (README.md says what each class is for):
 *
 *   node_modules/.bin/node test/vectors/pqid-mldsa-verify/generate.ts
 *
 * writes ML-DSA-{44,65,87}.json here and the power-on self-test data native/selftest/*.bin.
 * Deterministic: the same run gives the same bytes. Every vector is checked against the
 * reference verifier in fips204.ts before it is written, and every honest signature against
 * @noble/post-quantum, so a mistake in the generator cannot silently become an expectation.
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { ml_dsa44, ml_dsa65, ml_dsa87 } from '@noble/post-quantum/ml-dsa.js';
import { ALGS, type Alg, concat, H, N, params, Q, useHint, verify } from './fips204.ts';
import { forgeZeroT1, hintAt, seed32, shortZ, signInternal, steer, zeroT1PublicKey } from './forge.ts';

const noble = { 'ML-DSA-44': ml_dsa44, 'ML-DSA-65': ml_dsa65, 'ML-DSA-87': ml_dsa87 };
const here = (f: string) => fileURLToPath(new URL(f, import.meta.url));
const te = new TextEncoder();
const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');

/** Which bug of the liboqs 0.13 AVX2 verifier (native/vendor/PATCHES.md) a vector exposes. */
type Catches = 'avx2-z-norm' | 'avx2-use-hint';

export interface Vector {
  id: string;
  valid: boolean;
  comment: string;
  catches?: Catches[];
  pk: string;
  msg: string;
  ctx: string;
  sig: string;
}

function vectorsFor(alg: Alg): Vector[] {
  const p = params(alg);
  const out: Vector[] = [];
  const bound = p.gamma1 - p.beta;
  const m = (Q - 1) / (2 * p.gamma2);
  const add = (
    id: string,
    valid: boolean,
    comment: string,
    v: { pk: Uint8Array; sig: Uint8Array; msg: Uint8Array; ctx?: Uint8Array },
    catches?: Catches[],
  ) => {
    const ctx = v.ctx ?? new Uint8Array();
    const ok = verify(p, v.pk, v.msg, v.sig, ctx);
    if (ok !== valid) throw new Error(`${alg} ${id}: reference verifier says ${ok}, the vector says ${valid}`);
    out.push({
      id,
      valid,
      comment,
      ...(catches ? { catches } : {}),
      pk: hex(v.pk),
      msg: hex(v.msg),
      ctx: hex(ctx),
      sig: hex(v.sig),
    });
  };
  const msgOf = (id: string) => te.encode(`pqid ML-DSA verify vector ${alg} ${id}`);

  // --- an ordinary key (FIPS 204 KeyGen from a seed, by @noble/post-quantum) ----------------
  const { publicKey: pk, secretKey: sk } = noble[alg].keygen(seed32(`${alg} key`));
  const honest = (id: string, ctx = new Uint8Array()) => {
    const msg = msgOf(id);
    const { sig } = signInternal(p, sk, msg, { ctx });
    const theirs = noble[alg].sign(msg, sk, { context: ctx, extraEntropy: false });
    if (!Buffer.from(sig).equals(Buffer.from(theirs))) throw new Error(`${alg}: honest signer differs from noble`);
    return { pk, sig, msg, ctx };
  };
  add('valid-honest', true, 'deterministic FIPS 204 signature, empty context', honest('valid-honest'));
  add(
    'valid-context-255',
    true,
    'deterministic signature with a 255-byte context (the maximum)',
    honest('valid-context-255', new Uint8Array(255).fill(0xc7)),
  );
  {
    const msg = msgOf('valid-honest-z-max');
    const { sig } = signInternal(p, sk, msg, { accept: (c) => c.zNorm === bound - 1 });
    add('valid-honest-z-max', true, `honest signature whose ‖z‖∞ is γ1 − β − 1 = ${bound - 1}`, { pk, sig, msg });
  }
  // The signer keeps every FIPS 204 step but the z rejection: the only defect is ‖z‖∞.
  const skipZ = (id: string, comment: string, accept: (z: number[]) => boolean) => {
    const msg = msgOf(id);
    const { sig } = signInternal(p, sk, msg, { accept: (c) => accept(c.z.flat()) });
    add(id, false, comment, { pk, sig, msg }, ['avx2-z-norm']);
  };
  const maxAbs = (z: number[]) => Math.max(...z.map(Math.abs));
  skipZ(
    'z-norm-at-bound',
    `ordinary key; ‖z‖∞ = γ1 − β = ${bound} exactly, at a positive coefficient; everything else honest`,
    (z) => maxAbs(z) === bound && z.includes(bound),
  );
  skipZ(
    'z-norm-at-bound-negative',
    `ordinary key; ‖z‖∞ = γ1 − β exactly, at a negative coefficient (−${bound})`,
    (z) => maxAbs(z) === bound && !z.includes(bound),
  );
  skipZ(
    'z-norm-beyond',
    'ordinary key; γ1 − β < ‖z‖∞ < γ1 (what a signer without the z check emits)',
    (z) => maxAbs(z) > bound && maxAbs(z) < p.gamma1,
  );
  skipZ('z-norm-far', `ordinary key; ‖z‖∞ = γ1 = ${p.gamma1}, the largest z the encoding can hold`, (z) =>
    z.includes(p.gamma1),
  );
  if (p.ctildeBytes > 32) {
    const msg = msgOf('ctilde-draft-challenge');
    const { sig } = signInternal(p, sk, msg, { draftChallenge: true });
    add(
      'ctilde-draft-challenge',
      false,
      'challenge c derived from the first 32 bytes of c̃ only (the FIPS 204 draft rule); the final standard uses all of c̃',
      { pk, sig, msg },
    );
  }
  {
    const h = honest('modified');
    const flipped = (i: number, mask = 1) => {
      const s = h.sig.slice();
      s[i] = (s[i] as number) ^ mask;
      return s;
    };
    add('modified-ctilde', false, 'honest signature with one bit of c̃ flipped', { ...h, sig: flipped(0) });
    add('modified-z', false, 'honest signature with one bit of z flipped', { ...h, sig: flipped(p.ctildeBytes + 5) });
    add('modified-hint-count', false, 'honest signature with the last hint count byte changed', {
      ...h,
      sig: flipped(p.sigBytes - 1, 0x80),
    });
    add('wrong-context', false, 'signed with the context "pqid", verified with an empty one', {
      ...honest('wrong-context', te.encode('pqid')),
      ctx: new Uint8Array(),
    });
    add('truncated', false, 'honest signature without its last byte', { ...h, sig: h.sig.subarray(0, -1) });
    add('extended', false, 'honest signature with a zero byte appended', { ...h, sig: concat(h.sig, new Uint8Array(1)) });
  }

  // --- all-zero-t1 keys: z and h exactly as chosen (forge.ts) -----------------------------------
  const rho = seed32(`${alg} rho`);
  const zt1 = (id: string, valid: boolean, comment: string, input: Omit<Parameters<typeof forgeZeroT1>[1], 'msg'>, catches?: Catches[]) => {
    const msg = msgOf(id);
    const f = forgeZeroT1(p, { ...input, msg });
    add(id, valid, comment, { pk: f.pk, sig: f.sig, msg, ...(input.ctx ? { ctx: input.ctx } : {}) }, catches);
    return f;
  };
  const z0 = shortZ(p, 'base');
  const someHints = hintAt(p, [
    [0, 3],
    [0, 200],
    [1, 17],
    [p.k - 1, 255],
  ]);
  zt1('zt1-valid', true, 'all-zero t1; random short z; four hint bits', { rho, z: z0, h: someHints });
  zt1('zt1-valid-rho-zero', true, 'all-zero t1 and ρ = 0³²; random short z; no hints', {
    rho: new Uint8Array(32),
    z: z0,
    h: hintAt(p, []),
  });
  zt1('zt1-valid-z-zero', true, 'all-zero t1; z = 0 (so A·z = 0); no hints', { rho, z: shortZ(p, 'zero', 1), h: hintAt(p, []) });
  const withCoef = (z: number[][], s: number, j: number, v: number) => {
    const o = z.map((zi) => zi.slice());
    (o[s] as number[])[j] = v;
    return o;
  };
  zt1(
    'zt1-valid-z-max',
    true,
    `all-zero t1; z has coefficients +${bound - 1} and −${bound - 1} (γ1 − β − 1, the largest valid)`,
    { rho, z: withCoef(withCoef(z0, 0, 0, bound - 1), p.l - 1, N - 1, -(bound - 1)), h: someHints },
  );
  zt1('zt1-z-norm-at-bound', false, `all-zero t1; one z coefficient is +${bound} = γ1 − β`, {
    rho,
    z: withCoef(z0, 0, 7, bound),
    h: someHints,
  }, ['avx2-z-norm']);
  zt1('zt1-z-norm-at-bound-negative', false, `all-zero t1; one z coefficient is −${bound}`, {
    rho,
    z: withCoef(z0, p.l - 1, 100, -bound),
    h: someHints,
  }, ['avx2-z-norm']);
  zt1('zt1-z-norm-max', false, `all-zero t1; one z coefficient is γ1 = ${p.gamma1} (largest encodable)`, {
    rho,
    z: withCoef(z0, 1, 1, p.gamma1),
    h: someHints,
  }, ['avx2-z-norm']);
  zt1('zt1-z-norm-min', false, `all-zero t1; one z coefficient is −γ1 + 1 = ${1 - p.gamma1} (smallest encodable)`, {
    rho,
    z: withCoef(z0, 0, 255, 1 - p.gamma1),
    h: someHints,
  }, ['avx2-z-norm']);
  {
    const full: Array<[number, number]> = Array.from({ length: p.omega }, (_, i) => [i % p.k, (i * 37) % N]);
    zt1('zt1-valid-hint-weight-omega', true, `all-zero t1; exactly ω = ${p.omega} hint bits`, {
      rho,
      z: z0,
      h: hintAt(p, full),
    });
  }

  // UseHint at the edges of Decompose: steer one coefficient of A·z to a chosen value r and
  // set the hint there. r0 = 0 is where the unpatched AVX2 use_hint went the wrong way.
  const hintCase = (id: string, comment: string, targets: number[], catches?: Catches[]) => {
    const row = 1 % p.k;
    const { z, coef } = steer(p, rho, shortZ(p, id), row, targets);
    const h = hintAt(p, [[row, coef]]);
    const f = zt1(id, true, comment, { rho, z, h }, catches);
    const r = (f.w[row] as number[])[coef] as number;
    if (!targets.includes(r)) throw new Error(`${alg} ${id}: steering missed (${r})`);
    return { z, h, row, coef };
  };
  const r1Mid = Math.floor(m / 2);
  const r0zero = hintCase(
    'zt1-valid-use-hint-r0-zero',
    `all-zero t1; a hint where r0 = 0 (r = 2γ2·${r1Mid}): UseHint must give r1 − 1 (FIPS 204 Alg. 40)`,
    [2 * p.gamma2 * r1Mid],
    ['avx2-use-hint'],
  );
  zt1(
    'zt1-use-hint-r0-zero-plus-one',
    false,
    'the same hint where r0 = 0, but c̃ computed with r1 + 1 (what the unpatched AVX2 use_hint did)',
    {
      rho,
      z: r0zero.z,
      h: r0zero.h,
      useHint: (h, r, i, j) => (i === r0zero.row && j === r0zero.coef ? (useHint(p, 0, r) + 1) % m : useHint(p, h, r)),
    },
    ['avx2-use-hint'],
  );
  hintCase(
    'zt1-valid-use-hint-r-zero',
    'all-zero t1; a hint where r = 0 (r1 = 0, r0 = 0): UseHint wraps to m − 1',
    [0],
    ['avx2-use-hint'],
  );
  hintCase(
    'zt1-valid-use-hint-r-q-minus-1',
    'all-zero t1; a hint where r = q − 1, Decompose’s special case (r1 = 0, r0 = −1)',
    [Q - 1],
  );
  hintCase('zt1-valid-use-hint-r0-gamma2', 'all-zero t1; a hint where r0 = γ2 (largest positive r0)', [
    2 * p.gamma2 * r1Mid + p.gamma2,
  ]);
  hintCase('zt1-valid-use-hint-r0-minus-gamma2-plus-1', 'all-zero t1; a hint where r0 = −γ2 + 1 (most negative r0)', [
    2 * p.gamma2 * r1Mid - p.gamma2 + 1,
  ]);

  // Hint encodings FIPS 204 Alg. 21 refuses. c̃ is computed for the hint vector a lenient
  // decoder would read, so the encoding is the only defect.
  const y = (indices: number[], counts: number[]) => {
    const b = new Uint8Array(p.omega + p.k);
    b.set(indices);
    b.set(counts, p.omega);
    return b;
  };
  const counts = (first: number[], rest: number) => [...first, ...new Array<number>(p.k - first.length).fill(rest)];
  zt1('zt1-hint-unsorted', false, 'hint indices 9, 4 in one row (must be strictly increasing)', {
    rho,
    z: z0,
    h: hintAt(p, [
      [0, 4],
      [0, 9],
    ]),
    hintBytes: y([9, 4], counts([2], 2)),
  });
  zt1('zt1-hint-duplicate', false, 'hint index 4 twice in one row', {
    rho,
    z: z0,
    h: hintAt(p, [[0, 4]]),
    hintBytes: y([4, 4], counts([2], 2)),
  });
  zt1('zt1-hint-nonzero-padding', false, 'one hint, and a non-zero byte in the unused index slots', {
    rho,
    z: z0,
    h: hintAt(p, [[0, 5]]),
    hintBytes: y([5, 9], counts([1], 1)),
  });
  zt1('zt1-hint-count-decreasing', false, 'cumulative hint counts 2 then 1 (must not decrease)', {
    rho,
    z: z0,
    h: hintAt(p, [
      [0, 3],
      [0, 7],
    ]),
    hintBytes: y([3, 7], counts([2, 1], 2)),
  });
  {
    // ω + 1 hints in row 0: indices 0..ω−1, then the count byte itself (ω + 1) read as index ω.
    const idx = Array.from({ length: p.omega }, (_, i) => i);
    zt1('zt1-hint-over-omega', false, `a hint count of ω + 1 = ${p.omega + 1} (more than ω hints)`, {
      rho,
      z: z0,
      h: hintAt(
        p,
        [...idx, p.omega + 1].map((j) => [0, j] as [number, number]),
      ),
      hintBytes: y(idx, counts([], p.omega + 1)),
    });
  }
  {
    const v = forgeZeroT1(p, { rho, z: z0, h: someHints, msg: msgOf('zt1-valid') });
    const flip = (i: number) => {
      const s = v.sig.slice();
      s[i] = (s[i] as number) ^ 0x80;
      return s;
    };
    add('zt1-ctilde-last-byte', false, 'zt1-valid with the last byte of c̃ changed (c does not matter for t1 = 0: only the comparison catches it)', {
      pk: v.pk,
      msg: msgOf('zt1-valid'),
      sig: flip(p.ctildeBytes - 1),
    });
    add('zt1-ctilde-first-byte', false, 'zt1-valid with the first byte of c̃ changed', {
      pk: v.pk,
      msg: msgOf('zt1-valid'),
      sig: flip(0),
    });
    const maxT1 = Array.from({ length: p.k }, () => new Array<number>(N).fill(1023));
    add('zt1-t1-max', false, 'the zt1-valid signature under a key whose t1 is all 1023 (same ρ)', {
      pk: zeroT1PublicKey(p, rho, maxT1),
      msg: msgOf('zt1-valid'),
      sig: v.sig,
    });
    const oneT1 = Array.from({ length: p.k }, (_, i) => Array.from({ length: N }, (_, j) => (i === 0 && j === 0 ? 1 : 0)));
    add('zt1-t1-one-coefficient', false, 'the zt1-valid signature under a key whose t1 has a single 1', {
      pk: zeroT1PublicKey(p, rho, oneT1),
      msg: msgOf('zt1-valid'),
      sig: v.sig,
    });
  }
  return out;
}

/** Power-on self-test data for the native addon: KAT digest ‖ known-bad pk ‖ known-bad sig. */
export const SELF_TEST_MESSAGE = te.encode('pqid power-on self-test');
export const selfTestSeed = (alg: Alg) => seed32(`${alg} self-test`);

function selfTest(alg: Alg): Uint8Array {
  const p = params(alg);
  const { secretKey } = noble[alg].keygen(selfTestSeed(alg));
  const { sig } = signInternal(p, secretKey, SELF_TEST_MESSAGE);
  const kat = H(sig, 32);
  const z = shortZ(p, 'self-test');
  (z[0] as number[])[0] = p.gamma1 - p.beta;
  const bad = forgeZeroT1(p, { rho: seed32(`${alg} self-test rho`), msg: SELF_TEST_MESSAGE, z, h: hintAt(p, []) });
  if (verify(p, bad.pk, SELF_TEST_MESSAGE, bad.sig)) throw new Error('self-test known-bad verifies');
  return concat(kat, bad.pk, bad.sig);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  for (const alg of ALGS) {
    const started = performance.now();
    const vectors = vectorsFor(alg);
    const file = {
      algorithm: alg,
      generator: 'test/vectors/pqid-mldsa-verify/generate.ts',
      note: 'pure ML-DSA (FIPS 204 Algorithm 3) with the given context; see README.md',
      vectors,
    };
    writeFileSync(here(`${alg}.json`), `${JSON.stringify(file, null, 1)}\n`);
    writeFileSync(here(`../../../native/selftest/${alg}.bin`), selfTest(alg));
    const s = ((performance.now() - started) / 1000).toFixed(1);
    console.log(`${alg}: ${vectors.length} vectors (${vectors.filter((v) => v.valid).length} valid) in ${s} s`);
  }
}
