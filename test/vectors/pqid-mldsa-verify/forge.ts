/**
 * Test-only ML-DSA signers that make signatures with exactly one controlled defect, so a
 * verifier that skips one FIPS 204 check (and only that one) is caught.
 *
 * 1. `forgeZeroT1`: for a public key whose t1 is all zero, Verify computes
 *    w′ = A·z − c·t1·2^d = A·z, which does not depend on c. So anyone can pick any z and any
 *    hint h, compute w1′ = UseHint(h, A·z) and c̃ = H(μ ‖ w1Encode(w1′)): a signature whose z
 *    and h are exactly what we chose and whose challenge matches. (Such a key has no secret
 *    key; FIPS 204 still requires the verifier to accept these signatures.)
 * 2. `signInternal`: FIPS 204 ML-DSA.Sign_internal (Algorithm 7), every step kept, with a hook
 *    that may accept a candidate the standard would reject *only* for ‖z‖∞ ≥ γ1 − β. Its
 *    signatures are the honest ones except for the length of z.
 */
import {
  concat,
  decompose,
  expandA,
  expandMask,
  H,
  infNorm,
  invNtt,
  lowBits,
  makeHint,
  matVec,
  mod,
  modPm,
  mu,
  N,
  type Params,
  type Poly,
  type PolyVec,
  pkEncode,
  polyTimesVec,
  powMod,
  Q,
  sampleInBall,
  sigEncode,
  skDecode,
  useHint,
  w1Encode,
  zeroVec,
} from './fips204.ts';

export interface ZeroT1Input {
  rho: Uint8Array;
  msg: Uint8Array;
  ctx?: Uint8Array;
  z: PolyVec;
  /** The hint vector the challenge is computed with. */
  h: PolyVec;
  /** Raw hint bytes to put in the signature instead of HintBitPack(h) (malformed encodings). */
  hintBytes?: Uint8Array;
  /** Replaces UseHint for the challenge (e.g. the AVX2 bug's r1 + 1 at r0 = 0). */
  useHint?: (h: number, r: number, i: number, j: number) => number;
  /** A different t1 in the public key than the zero one the signature was computed for. */
  publicT1?: PolyVec;
}

export interface Forged {
  pk: Uint8Array;
  sig: Uint8Array;
  /** A·z, to see where the hints fall (row i, coefficient j). */
  w: PolyVec;
}

export const zeroT1PublicKey = (p: Params, rho: Uint8Array, t1: PolyVec = zeroVec(p.k)): Uint8Array =>
  pkEncode(p, rho, t1);

/** A signature for the all-zero-t1 key with exactly the given z and h (see the file comment). */
export function forgeZeroT1(p: Params, input: ZeroT1Input): Forged {
  const ctx = input.ctx ?? new Uint8Array();
  const pkForHash = zeroT1PublicKey(p, input.rho);
  const pk = input.publicT1 ? zeroT1PublicKey(p, input.rho, input.publicT1) : pkForHash;
  const w = matVec(expandA(p, input.rho), input.z);
  const hint = input.useHint ?? ((h: number, r: number) => useHint(p, h, r));
  const w1 = w.map((wi, i) => wi.map((r, j) => hint((input.h[i] as Poly)[j] as number, r, i, j)));
  // μ binds the public key; with publicT1 the signature stays the one made for the zero key.
  const ctilde = H(concat(mu(pkForHash, input.msg, ctx), w1Encode(p, w1)), p.ctildeBytes);
  return { pk, sig: sigEncode(p, ctilde, input.z, input.hintBytes ?? input.h), w };
}

/**
 * Changes z[s][0] by a scalar t so that coefficient (row, coef) of A·z becomes one of
 * `targets` (values mod q), keeping ‖z‖∞ < γ1 − β. Adding t to z[s][0] adds t·A[row][s] to
 * row `row` of A·z, so t = (target − w) · a⁻¹ mod q for a = A[row][s][coef]; we keep the first
 * (coefficient, column, target) whose t is short enough. Returns the new z and the coefficient.
 */
export function steer(
  p: Params,
  rho: Uint8Array,
  z: PolyVec,
  row: number,
  targets: number[],
  coefs: number[] = Array.from({ length: N }, (_, j) => j),
): { z: PolyVec; coef: number } {
  const A = expandA(p, rho);
  const w = matVec(A, z);
  const bound = p.gamma1 - p.beta - 1;
  for (const j of coefs) {
    for (let s = 0; s < p.l; s++) {
      const a = invNtt(A[row]?.[s] as Poly)[j] as number;
      if (a === 0) continue;
      const aInv = powMod(a, Q - 2);
      for (const target of targets) {
        const t = modPm(((mod(target - ((w[row] as Poly)[j] as number)) * aInv) % Q) as number, Q);
        const z0 = ((z[s] as Poly)[0] as number) + t;
        if (Math.abs(z0) <= bound) {
          const out = z.map((zi) => zi.slice());
          (out[s] as Poly)[0] = z0;
          return { z: out, coef: j };
        }
      }
    }
  }
  throw new Error('steer: no short adjustment found');
}

/** What the signer saw for one candidate of its rejection loop. */
export interface Candidate {
  z: PolyVec;
  zNorm: number;
  /** True when the standard's other checks (r0, ct0, hint weight) all pass. */
  othersPass: boolean;
}

export interface SignOptions {
  ctx?: Uint8Array;
  rnd?: Uint8Array;
  /**
   * Called for each candidate whose only possible defect is z. Return true to emit it (even
   * if ‖z‖∞ ≥ γ1 − β); false to go on. Default: the standard rule ‖z‖∞ < γ1 − β.
   */
  accept?: (c: Candidate) => boolean;
  /** Derive c from the first 32 bytes of c̃ only, as the FIPS 204 draft (ipd) did. */
  draftChallenge?: boolean;
  maxIterations?: number;
}

/** ML-DSA.Sign_internal (Algorithm 7) with the z-rejection made pluggable; returns σ and z. */
export function signInternal(
  p: Params,
  sk: Uint8Array,
  msg: Uint8Array,
  opts: SignOptions = {},
): { sig: Uint8Array; z: PolyVec; iterations: number } {
  const ctx = opts.ctx ?? new Uint8Array();
  const { rho, K, tr, s1, s2, t0 } = skDecode(p, sk);
  const A = expandA(p, rho);
  const muBytes = H(concat(tr, Uint8Array.of(0, ctx.length), ctx, msg), 64);
  const rho2 = H(concat(K, opts.rnd ?? new Uint8Array(32), muBytes), 64);
  const accept = opts.accept ?? ((c: Candidate) => c.zNorm < p.gamma1 - p.beta);
  const max = opts.maxIterations ?? 20_000;
  for (let kappa = 0, it = 1; it <= max; kappa += p.l, it++) {
    const y = expandMask(p, rho2, kappa);
    const w = matVec(A, y);
    const w1 = w.map((wi) => wi.map((r) => decompose(p, r)[0]));
    const ctilde = H(concat(muBytes, w1Encode(p, w1)), p.ctildeBytes);
    const c = sampleInBall(p, opts.draftChallenge ? ctilde.subarray(0, 32) : ctilde);
    const cs1 = polyTimesVec(c, s1);
    const cs2 = polyTimesVec(c, s2);
    const z = y.map((yi, i) => yi.map((v, j) => modPm(v + ((cs1[i] as Poly)[j] as number), Q)));
    const wMinusCs2 = w.map((wi, i) => wi.map((v, j) => mod(v - ((cs2[i] as Poly)[j] as number))));
    const r0Norm = Math.max(...wMinusCs2.flat().map((v) => Math.abs(lowBits(p, v))));
    if (r0Norm >= p.gamma2 - p.beta) continue;
    const ct0 = polyTimesVec(c, t0);
    const h = wMinusCs2.map((wi, i) =>
      wi.map((v, j) => {
        const ct = (ct0[i] as Poly)[j] as number;
        return makeHint(p, mod(-ct), mod(v + ct));
      }),
    );
    const weight = h.flat().reduce((a, b) => a + b, 0);
    if (infNorm(ct0) >= p.gamma2 || weight > p.omega) continue;
    // Only z is left to decide. Unencodable z (|z| ≥ γ1, possible when z is not rejected) is skipped.
    const zNorm = infNorm(z);
    if (z.flat().some((v) => v <= -p.gamma1 || v > p.gamma1)) continue;
    if (!accept({ z, zNorm, othersPass: true })) continue;
    return { sig: sigEncode(p, ctilde, z, h), z, iterations: it };
  }
  throw new Error(`signInternal: no acceptable candidate in ${max} iterations`);
}

/** A deterministic pseudo-random short z (‖z‖∞ < bound) from a label, for reproducible vectors. */
export function shortZ(p: Params, label: string, bound = p.gamma1 - p.beta): PolyVec {
  const bytes = H(new TextEncoder().encode(`pqid z ${p.alg} ${label}`), p.l * N * 4);
  const view = new DataView(bytes.buffer);
  return Array.from({ length: p.l }, (_, i) =>
    Array.from({ length: N }, (_, j) => (view.getUint32((i * N + j) * 4, true) % (2 * bound - 1)) - (bound - 1)),
  );
}

/** A deterministic 32-byte seed from a label. */
export const seed32 = (label: string): Uint8Array => H(new TextEncoder().encode(`pqid seed ${label}`), 32);

/** A hint vector with bits at the given (row, coefficient) positions. */
export function hintAt(p: Params, positions: Array<[number, number]>): PolyVec {
  const h = zeroVec(p.k);
  for (const [i, j] of positions) (h[i] as Poly)[j] = 1;
  return h;
}
