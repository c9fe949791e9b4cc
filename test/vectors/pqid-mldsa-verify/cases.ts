/**
 * The negative/boundary classes of generate.ts as functions of the message, for the tests
 * that need signatures over protocol bytes (a JWS signing input, a composite M′, an XML
 * SignedInfo, a client assertion): same constructions, made at test time.
 *
 * All zero-t1 cases of one parameter set share one public key (ρ ‖ 0…0), so a protocol key
 * (JWK, certificate, client registration) is set up once per parameter set.
 */
import { ml_dsa44, ml_dsa65, ml_dsa87 } from '@noble/post-quantum/ml-dsa.js';
import { type Alg, type Params, params, Q, useHint } from './fips204.ts';
import { forgeZeroT1, hintAt, seed32, shortZ, signInternal, steer, zeroT1PublicKey } from './forge.ts';

const noble = { 'ML-DSA-44': ml_dsa44, 'ML-DSA-65': ml_dsa65, 'ML-DSA-87': ml_dsa87 };

export interface PathCase {
  id: string;
  valid: boolean;
  /** Unpatched-AVX2 bug the case exposes. */
  catches?: 'avx2-z-norm' | 'avx2-use-hint';
  /** Which public key verifies it: the shared zero-t1 key, or the ordinary one. */
  key: 'zero-t1' | 'ordinary';
  sign(msg: Uint8Array, ctx?: Uint8Array): Uint8Array;
}

export interface CaseSet {
  alg: Alg;
  /** ρ ‖ 0…0: the public key of every zero-t1 case. */
  zeroT1PublicKey: Uint8Array;
  /** An ordinary key pair: the JOSE private key is the seed. */
  ordinary: { seed: Uint8Array; publicKey: Uint8Array };
  cases: PathCase[];
}

const cache = new Map<Alg, CaseSet>();

export function pathCases(alg: Alg): CaseSet {
  const hit = cache.get(alg);
  if (hit) return hit;
  const p: Params = params(alg);
  const rho = seed32(`${alg} paths rho`);
  const bound = p.gamma1 - p.beta;
  const m = (Q - 1) / (2 * p.gamma2);
  const z0 = shortZ(p, 'paths');
  const h0 = hintAt(p, [
    [0, 1],
    [p.k - 1, 128],
  ]);
  const withCoef = (s: number, j: number, v: number) => {
    const z = z0.map((zi) => zi.slice());
    (z[s] as number[])[j] = v;
    return z;
  };
  // A·z does not depend on the message: steer once, sign many.
  const row = 1 % p.k;
  const r1 = Math.floor(m / 2);
  const steered = steer(p, rho, shortZ(p, 'paths r0=0'), row, [2 * p.gamma2 * r1]);
  const hR0 = hintAt(p, [[row, steered.coef]]);
  const zt1 = (id: string, valid: boolean, input: Partial<Parameters<typeof forgeZeroT1>[1]>, catches?: PathCase['catches']): PathCase => ({
    id,
    valid,
    key: 'zero-t1',
    ...(catches ? { catches } : {}),
    sign: (msg, ctx) => forgeZeroT1(p, { rho, z: z0, h: h0, ...input, msg, ...(ctx ? { ctx } : {}) }).sig,
  });
  const seed = seed32(`${alg} paths key`);
  const { secretKey, publicKey } = noble[alg].keygen(seed);
  const y = (indices: number[], counts: number[]) => {
    const b = new Uint8Array(p.omega + p.k);
    b.set(indices);
    b.set([...counts, ...new Array<number>(p.k - counts.length).fill(counts.at(-1) ?? 0)], p.omega);
    return b;
  };
  const set: CaseSet = {
    alg,
    zeroT1PublicKey: zeroT1PublicKey(p, rho),
    ordinary: { seed, publicKey },
    cases: [
      zt1('zt1-valid', true, {}),
      zt1('zt1-valid-z-max', true, { z: withCoef(0, 3, bound - 1) }),
      zt1('zt1-valid-use-hint-r0-zero', true, { z: steered.z, h: hR0 }, 'avx2-use-hint'),
      zt1('zt1-z-norm-at-bound', false, { z: withCoef(0, 3, bound) }, 'avx2-z-norm'),
      zt1('zt1-z-norm-at-bound-negative', false, { z: withCoef(p.l - 1, 200, -bound) }, 'avx2-z-norm'),
      zt1('zt1-z-norm-max', false, { z: withCoef(1, 9, p.gamma1) }, 'avx2-z-norm'),
      zt1(
        'zt1-use-hint-r0-zero-plus-one',
        false,
        {
          z: steered.z,
          h: hR0,
          useHint: (h, r, i, j) => (i === row && j === steered.coef ? (useHint(p, 0, r) + 1) % m : useHint(p, h, r)),
        },
        'avx2-use-hint',
      ),
      zt1('zt1-hint-unsorted', false, { h: hintAt(p, [[0, 4], [0, 9]]), hintBytes: y([9, 4], [2]) }),
      zt1('zt1-hint-nonzero-padding', false, { h: hintAt(p, [[0, 5]]), hintBytes: y([5, 9], [1]) }),
      zt1('zt1-hint-over-omega', false, {
        h: hintAt(p, [...Array.from({ length: p.omega }, (_, i) => i), p.omega + 1].map((j) => [0, j] as [number, number])),
        hintBytes: y(
          Array.from({ length: p.omega }, (_, i) => i),
          [p.omega + 1],
        ),
      }),
      {
        id: 'zt1-ctilde-last-byte',
        valid: false,
        key: 'zero-t1',
        sign: (msg, ctx) => {
          const s = forgeZeroT1(p, { rho, z: z0, h: h0, msg, ...(ctx ? { ctx } : {}) }).sig.slice();
          s[p.ctildeBytes - 1] = (s[p.ctildeBytes - 1] as number) ^ 0x80;
          return s;
        },
      },
      {
        id: 'valid-honest',
        valid: true,
        key: 'ordinary',
        sign: (msg, ctx) => signInternal(p, secretKey, msg, { ...(ctx ? { ctx } : {}) }).sig,
      },
      {
        id: 'z-norm-beyond',
        valid: false,
        key: 'ordinary',
        catches: 'avx2-z-norm',
        // Every FIPS 204 step but the z rejection: the first candidate that fails only that one.
        sign: (msg, ctx) =>
          signInternal(p, secretKey, msg, { ...(ctx ? { ctx } : {}), accept: (c) => c.zNorm >= bound }).sig,
      },
    ],
  };
  cache.set(alg, set);
  return set;
}
