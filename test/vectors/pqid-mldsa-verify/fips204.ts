/**
 * The pieces of FIPS 204 (ML-DSA) that the negative-vector generator needs, written straight
 * from the standard's pseudocode (algorithm numbers in the comments) so that it can be read
 * next to it. Test-only: plain, slow, not constant time. Hashing is node:crypto's SHAKE, so
 * nothing here shares code with the implementations under test (liboqs, OpenSSL's ML-DSA
 * uses its own SHAKE too, @noble/post-quantum).
 */
import { createHash } from 'node:crypto';

export const Q = 8_380_417;
export const N = 256;
export const D = 13;

export type Alg = 'ML-DSA-44' | 'ML-DSA-65' | 'ML-DSA-87';
export const ALGS: Alg[] = ['ML-DSA-44', 'ML-DSA-65', 'ML-DSA-87'];

export interface Params {
  alg: Alg;
  k: number;
  l: number;
  eta: number;
  tau: number;
  beta: number;
  gamma1: number;
  gamma2: number;
  omega: number;
  /** Bytes of c̃ (λ/4). */
  ctildeBytes: number;
  pkBytes: number;
  sigBytes: number;
}

// FIPS 204 Table 1.
const table = {
  'ML-DSA-44': { k: 4, l: 4, eta: 2, tau: 39, gamma1: 2 ** 17, gamma2: (Q - 1) / 88, omega: 80, lambda: 128 },
  'ML-DSA-65': { k: 6, l: 5, eta: 4, tau: 49, gamma1: 2 ** 19, gamma2: (Q - 1) / 32, omega: 55, lambda: 192 },
  'ML-DSA-87': { k: 8, l: 7, eta: 2, tau: 60, gamma1: 2 ** 19, gamma2: (Q - 1) / 32, omega: 75, lambda: 256 },
} as const;

export function params(alg: Alg): Params {
  const t = table[alg];
  const ctildeBytes = t.lambda / 4;
  const zBits = bitlen(t.gamma1 - 1) + 1;
  return {
    alg,
    k: t.k,
    l: t.l,
    eta: t.eta,
    tau: t.tau,
    beta: t.tau * t.eta,
    gamma1: t.gamma1,
    gamma2: t.gamma2,
    omega: t.omega,
    ctildeBytes,
    pkBytes: 32 + 32 * t.k * (bitlen(Q - 1) - D),
    sigBytes: ctildeBytes + 32 * t.l * zBits + t.omega + t.k,
  };
}

export type Poly = number[];
export type PolyVec = Poly[];

export const bitlen = (x: number): number => (x === 0 ? 0 : Math.floor(Math.log2(x)) + 1);
/** x mod q in [0, q). */
export const mod = (x: number, m = Q): number => ((x % m) + m) % m;
/** x mod± m: the representative in (−m/2, m/2] (FIPS 204 §2.3). */
export function modPm(x: number, m: number): number {
  const r = mod(x, m);
  return r > m / 2 ? r - m : r;
}
/** The centred representative mod q, for infinity norms. */
export const centred = (x: number): number => modPm(x, Q);
export const zeroPoly = (): Poly => new Array<number>(N).fill(0);
export const zeroVec = (len: number): PolyVec => Array.from({ length: len }, zeroPoly);
export const infNorm = (v: PolyVec): number => Math.max(...v.flat().map((c) => Math.abs(centred(c))));

// --- hashing (FIPS 204 §3.7: H = SHAKE256, G = SHAKE128) -----------------------------------

export const H = (data: Uint8Array, outLen: number): Uint8Array =>
  new Uint8Array(createHash('shake256', { outputLength: outLen }).update(data).digest());
const G = (data: Uint8Array, outLen: number): Uint8Array =>
  new Uint8Array(createHash('shake128', { outputLength: outLen }).update(data).digest());

export function concat(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}

// --- bit packing (Algorithms 9–21) ----------------------------------------------------------

/** Little-endian bit string of every value, `bits` bits each, as bytes (Algs. 10, 12, 16). */
function packBits(values: number[], bits: number): Uint8Array {
  const out = new Uint8Array((values.length * bits) / 8);
  let pos = 0;
  for (const v of values) {
    for (let b = 0; b < bits; b++, pos++) if ((v >> b) & 1) out[pos >> 3] = (out[pos >> 3] ?? 0) | (1 << (pos & 7));
  }
  return out;
}
function unpackBits(bytes: Uint8Array, bits: number, count: number): number[] {
  const out: number[] = [];
  let pos = 0;
  for (let i = 0; i < count; i++) {
    let v = 0;
    for (let b = 0; b < bits; b++, pos++) v |= (((bytes[pos >> 3] ?? 0) >> (pos & 7)) & 1) << b;
    out.push(v);
  }
  return out;
}
/** SimpleBitPack(w, b) (Alg. 16): coefficients in [0, b]. */
export const simpleBitPack = (w: Poly, b: number): Uint8Array => packBits(w, bitlen(b));
/** BitPack(w, a, b) (Alg. 17): coefficients in [−a, b], stored as b − w. */
export const bitPack = (w: Poly, a: number, b: number): Uint8Array =>
  packBits(
    w.map((c) => b - c),
    bitlen(a + b),
  );
/** BitUnpack(v, a, b) (Alg. 19). */
export const bitUnpack = (v: Uint8Array, a: number, b: number): Poly =>
  unpackBits(v, bitlen(a + b), N).map((x) => b - x);

/** HintBitPack (Alg. 20). */
export function hintBitPack(p: Params, h: PolyVec): Uint8Array {
  const y = new Uint8Array(p.omega + p.k);
  let index = 0;
  for (let i = 0; i < p.k; i++) {
    for (let j = 0; j < N; j++) if (h[i]?.[j]) y[index++] = j;
    y[p.omega + i] = index;
  }
  return y;
}

/** HintBitUnpack (Alg. 21): undefined (⊥) for any malformed encoding. */
export function hintBitUnpack(p: Params, y: Uint8Array): PolyVec | undefined {
  const h = zeroVec(p.k);
  let index = 0;
  for (let i = 0; i < p.k; i++) {
    const end = y[p.omega + i] as number;
    if (end < index || end > p.omega) return undefined;
    const first = index;
    while (index < end) {
      if (index > first && (y[index - 1] as number) >= (y[index] as number)) return undefined;
      (h[i] as Poly)[y[index] as number] = 1;
      index++;
    }
  }
  for (let i = index; i < p.omega; i++) if (y[i] !== 0) return undefined;
  return h;
}

/** pkEncode (Alg. 22). */
export const pkEncode = (p: Params, rho: Uint8Array, t1: PolyVec): Uint8Array =>
  concat(rho, ...t1.slice(0, p.k).map((t) => simpleBitPack(t, 2 ** (bitlen(Q - 1) - D) - 1)));

/** pkDecode (Alg. 23). */
export function pkDecode(p: Params, pk: Uint8Array): { rho: Uint8Array; t1: PolyVec } {
  const size = (32 * (bitlen(Q - 1) - D) * 8) / 8;
  const t1 = Array.from({ length: p.k }, (_, i) =>
    unpackBits(pk.subarray(32 + i * size, 32 + (i + 1) * size), bitlen(Q - 1) - D, N),
  );
  return { rho: pk.slice(0, 32), t1 };
}

export interface SecretKey {
  rho: Uint8Array;
  K: Uint8Array;
  tr: Uint8Array;
  s1: PolyVec;
  s2: PolyVec;
  t0: PolyVec;
}

/** skDecode (Alg. 25). */
export function skDecode(p: Params, sk: Uint8Array): SecretKey {
  const etaBytes = (N * bitlen(2 * p.eta)) / 8;
  const t0Bytes = (N * D) / 8;
  let o = 128;
  const take = (n: number) => sk.subarray(o, (o += n));
  const s1 = Array.from({ length: p.l }, () => bitUnpack(take(etaBytes), p.eta, p.eta));
  const s2 = Array.from({ length: p.k }, () => bitUnpack(take(etaBytes), p.eta, p.eta));
  const t0 = Array.from({ length: p.k }, () => bitUnpack(take(t0Bytes), 2 ** (D - 1) - 1, 2 ** (D - 1)));
  return { rho: sk.slice(0, 32), K: sk.slice(32, 64), tr: sk.slice(64, 128), s1, s2, t0 };
}

/** sigEncode (Alg. 26). z's coefficients must lie in [−γ1 + 1, γ1] to be encodable. */
export function sigEncode(p: Params, ctilde: Uint8Array, z: PolyVec, h: Uint8Array | PolyVec): Uint8Array {
  for (const c of z.flat()) {
    const v = centred(c);
    if (v <= -p.gamma1 || v > p.gamma1) throw new RangeError(`z coefficient ${v} cannot be encoded`);
  }
  const hint = h instanceof Uint8Array ? h : hintBitPack(p, h);
  return concat(ctilde, ...z.map((zi) => bitPack(zi.map(centred), p.gamma1 - 1, p.gamma1)), hint);
}

/** sigDecode (Alg. 27), keeping the raw hint bytes (the caller decides how to unpack them). */
export function sigDecode(p: Params, sig: Uint8Array): { ctilde: Uint8Array; z: PolyVec; hint: Uint8Array } {
  const zBytes = (N * (bitlen(p.gamma1 - 1) + 1)) / 8;
  const ctilde = sig.slice(0, p.ctildeBytes);
  const z = Array.from({ length: p.l }, (_, i) =>
    bitUnpack(sig.subarray(p.ctildeBytes + i * zBytes, p.ctildeBytes + (i + 1) * zBytes), p.gamma1 - 1, p.gamma1),
  );
  return { ctilde, z, hint: sig.slice(p.ctildeBytes + p.l * zBytes) };
}

/** w1Encode (Alg. 28). */
export const w1Encode = (p: Params, w1: PolyVec): Uint8Array =>
  concat(...w1.map((w) => simpleBitPack(w, (Q - 1) / (2 * p.gamma2) - 1)));

// --- sampling (Algorithms 29–34) -------------------------------------------------------------

/** SampleInBall (Alg. 29), on all of c̃ (FIPS 204 final; the draft used its first 256 bits). */
export function sampleInBall(p: Params, rho: Uint8Array): Poly {
  const stream = H(rho, 8 + 1024); // far more than the ≤ τ + rejections bytes ever needed
  const c = zeroPoly();
  const signs = unpackBits(stream.subarray(0, 8), 1, 64);
  let pos = 8;
  for (let i = N - p.tau; i < N; i++) {
    let j: number;
    do j = stream[pos++] as number;
    while (j > i);
    c[i] = c[j] as number;
    c[j] = signs[i + p.tau - N] ? -1 : 1;
  }
  return c;
}

/** RejNTTPoly (Alg. 30): a uniform polynomial already in the NTT domain. */
function rejNttPoly(seed: Uint8Array): Poly {
  for (let len = 168 * 6; ; len *= 2) {
    const s = G(seed, len);
    const a: Poly = [];
    for (let o = 0; o + 3 <= s.length && a.length < N; o += 3) {
      const v = (s[o] as number) | ((s[o + 1] as number) << 8) | (((s[o + 2] as number) & 0x7f) << 16);
      if (v < Q) a.push(v);
    }
    if (a.length === N) return a;
  }
}

/** ExpandA (Alg. 32): Â, k × l polynomials in the NTT domain. */
export function expandA(p: Params, rho: Uint8Array): PolyVec[] {
  return Array.from({ length: p.k }, (_, r) =>
    Array.from({ length: p.l }, (_, s) => rejNttPoly(concat(rho, Uint8Array.of(s, r)))),
  );
}

/** ExpandMask (Alg. 34). */
export function expandMask(p: Params, rho2: Uint8Array, kappa: number): PolyVec {
  const c = 1 + bitlen(p.gamma1 - 1);
  return Array.from({ length: p.l }, (_, r) =>
    bitUnpack(H(concat(rho2, Uint8Array.of((kappa + r) & 0xff, (kappa + r) >> 8)), 32 * c), p.gamma1 - 1, p.gamma1),
  );
}

// --- NTT (Algorithms 41–42) --------------------------------------------------------------------

const brv8 = (x: number) => Number.parseInt(x.toString(2).padStart(8, '0').split('').reverse().join(''), 2);
export function powMod(b: number, e: number): number {
  let r = 1;
  let x = mod(b);
  for (let k = e; k > 0; k = Math.floor(k / 2)) {
    if (k % 2) r = (r * x) % Q;
    x = (x * x) % Q;
  }
  return r;
}
const ZETAS = Array.from({ length: N }, (_, i) => powMod(1753, brv8(i)));
/** a·b mod q for a, b in [0, q): the product stays below 2^53, so a double is exact. */
const mulq = (a: number, b: number) => (a * b) % Q;

export function ntt(w: Poly): Poly {
  const a = w.map((c) => mod(c));
  let m = 0;
  for (let len = 128; len >= 1; len >>= 1) {
    for (let start = 0; start < N; start += 2 * len) {
      const z = ZETAS[++m] as number;
      for (let j = start; j < start + len; j++) {
        const t = mulq(z, a[j + len] as number);
        a[j + len] = mod((a[j] as number) - t);
        a[j] = mod((a[j] as number) + t);
      }
    }
  }
  return a;
}

export function invNtt(w: Poly): Poly {
  const a = w.map((c) => mod(c));
  let m = N;
  for (let len = 1; len < N; len <<= 1) {
    for (let start = 0; start < N; start += 2 * len) {
      const z = mod(-(ZETAS[--m] as number));
      for (let j = start; j < start + len; j++) {
        const t = a[j] as number;
        a[j] = mod(t + (a[j + len] as number));
        a[j + len] = mulq(z, mod(t - (a[j + len] as number)));
      }
    }
  }
  return a.map((c) => mulq(8_347_681, c)); // 256⁻¹ mod q
}

const pointwise = (a: Poly, b: Poly): Poly => a.map((x, i) => mulq(x, b[i] as number));
const addPoly = (a: Poly, b: Poly): Poly => a.map((x, i) => mod(x + (b[i] as number)));

/** Â ∘ v̂ for v given in the normal domain; the result in the normal domain. */
export function matVec(A: PolyVec[], v: PolyVec): PolyVec {
  const vh = v.map(ntt);
  return A.map((row) => invNtt(row.reduce((acc, a, s) => addPoly(acc, pointwise(a, vh[s] as Poly)), zeroPoly())));
}
/** c·v for a polynomial c and a vector v (both in the normal domain). */
export const polyTimesVec = (c: Poly, v: PolyVec): PolyVec => {
  const ch = ntt(c);
  return v.map((x) => invNtt(pointwise(ch, ntt(x))));
};

// --- rounding (Algorithms 35–40) ----------------------------------------------------------------

/** Decompose (Alg. 36). */
export function decompose(p: Params, r: number): [r1: number, r0: number] {
  const rp = mod(r);
  let r0 = modPm(rp, 2 * p.gamma2);
  if (rp - r0 === Q - 1) {
    r0 -= 1;
    return [0, r0];
  }
  return [(rp - r0) / (2 * p.gamma2), r0];
}
export const highBits = (p: Params, r: number): number => decompose(p, r)[0];
export const lowBits = (p: Params, r: number): number => decompose(p, r)[1];
/** MakeHint (Alg. 39). */
export const makeHint = (p: Params, z: number, r: number): number =>
  highBits(p, r) !== highBits(p, mod(r + z)) ? 1 : 0;
/** UseHint (Alg. 40). */
export function useHint(p: Params, h: number, r: number): number {
  const m = (Q - 1) / (2 * p.gamma2);
  const [r1, r0] = decompose(p, r);
  if (h === 1 && r0 > 0) return mod(r1 + 1, m);
  if (h === 1 && r0 <= 0) return mod(r1 - 1, m);
  return r1;
}

// --- the message representative μ (Algs. 2, 3, 7, 8) ----------------------------------------------

/** μ = H(tr ‖ M′, 64) with M′ = 0 ‖ |ctx| ‖ ctx ‖ M (pure ML-DSA) and tr = H(pk, 64). */
export const mu = (pk: Uint8Array, msg: Uint8Array, ctx: Uint8Array): Uint8Array =>
  H(concat(H(pk, 64), Uint8Array.of(0, ctx.length), ctx, msg), 64);

/**
 * ML-DSA.Verify (Algs. 3 and 8), the reference the generated vectors are checked against.
 * Returns false for every malformed input, as FIPS 204 does.
 */
export function verify(p: Params, pk: Uint8Array, msg: Uint8Array, sig: Uint8Array, ctx = new Uint8Array()): boolean {
  if (pk.length !== p.pkBytes || sig.length !== p.sigBytes || ctx.length > 255) return false;
  const { rho, t1 } = pkDecode(p, pk);
  const { ctilde, z, hint } = sigDecode(p, sig);
  const h = hintBitUnpack(p, hint);
  if (!h) return false;
  const A = expandA(p, rho);
  const c = sampleInBall(p, ctilde);
  const az = matVec(A, z);
  const ct1 = polyTimesVec(
    c,
    t1.map((t) => t.map((x) => x * 2 ** D)),
  );
  const w1 = az.map((w, i) => w.map((x, j) => useHint(p, (h[i] as Poly)[j] as number, mod(x - ((ct1[i] as Poly)[j] as number)))));
  const ctilde2 = H(concat(mu(pk, msg, ctx), w1Encode(p, w1)), p.ctildeBytes);
  return infNorm(z) < p.gamma1 - p.beta && Buffer.from(ctilde).equals(Buffer.from(ctilde2));
}
