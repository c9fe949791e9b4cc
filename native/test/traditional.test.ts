// The composites' traditional halves on their own. Wycheproof through the binding's verifiers
// (AWS-LC for ECDSA, ed25519-dalek, ed448-goldilocks) and through RustCrypto's ECDSA, which AWS-LC
// replaced: both must get every case right. Then the two ECDSA verifiers side by side on
// signatures and keys constructed here (each signing path, every one-bit change, r and s at the
// edges, malformed points), and AWS-LC's Ed25519 signatures byte-equal to @noble/curves'.
import crypto from 'node:crypto';
import { ed25519 } from '@noble/curves/ed25519.js';
import { p256, p384 } from '@noble/curves/nist.js';
import { describe, expect, it } from 'vitest';
import { type TraditionalCase, wycheproofTraditional } from '../../test/vectors/load.ts';
import { composite, LiboqsError, type TraditionalAlgorithm } from '../index.js';
import { traditionalVerify } from '../internal.js';

type Verifier = 'binding' | 'rustcrypto';
const utf8 = (s: string) => new TextEncoder().encode(s);
const cat = (...p: Uint8Array[]) => new Uint8Array(Buffer.concat(p));
const toHex = (b: Uint8Array) => Buffer.from(b).toString('hex');

/** The verdict, or the error code for a refused public key. */
function verdict(
  trad: TraditionalAlgorithm,
  verifier: Verifier,
  pk: Uint8Array,
  msg: Uint8Array,
  sig: Uint8Array,
): boolean | string {
  try {
    return traditionalVerify(trad, verifier, pk, msg, sig);
  } catch (e) {
    if (!(e instanceof LiboqsError)) throw e;
    return e.code;
  }
}

// ---- Wycheproof ----------------------------------------------------------------------------------

const WYCHEPROOF: [TraditionalAlgorithm, Verifier[]][] = [
  ['ECDSA-P256', ['binding', 'rustcrypto']],
  ['ECDSA-P384', ['binding', 'rustcrypto']],
  ['Ed25519', ['binding']],
  ['Ed448', ['binding']],
];

describe.each(WYCHEPROOF)('Wycheproof %s', (trad, verifiers) => {
  const cases: TraditionalCase[] = wycheproofTraditional(trad);

  it.each(verifiers)('every case gets its one right answer (%s)', (verifier) => {
    const wrong: string[] = [];
    for (const c of cases) {
      const got = verdict(trad, verifier, c.pk, c.msg, c.sig);
      // A refused key is a wrong answer only for a valid case (no Wycheproof key here is refused).
      if ((got === true) !== c.valid || typeof got === 'string') wrong.push(`${c.id}: ${String(got)}`);
    }
    expect(wrong).toEqual([]);
    expect(cases.filter((c) => c.valid).length).toBeGreaterThan(10);
    expect(cases.filter((c) => !c.valid).length).toBeGreaterThan(50);
  });
});

// ---- the two ECDSA verifiers side by side ---------------------------------------------------------

const CURVES = {
  'ECDSA-P256': {
    curve: p256,
    n: 32,
    hash: 'sha256',
    mldsa: 'ML-DSA-44',
    sigBytes: 2420,
    label: 'COMPSIG-MLDSA44-ECDSA-P256-SHA256',
    preHash: 'SHA256',
  },
  'ECDSA-P384': {
    curve: p384,
    n: 48,
    hash: 'sha384',
    mldsa: 'ML-DSA-87',
    sigBytes: 4627,
    label: 'COMPSIG-MLDSA87-ECDSA-P384-SHA512',
    preHash: 'SHA512',
  },
} as const;

/** Minimal DER INTEGER / SEQUENCE, written here (independent of the implementation). */
function int(v: bigint): Uint8Array {
  let h = v.toString(16);
  if (h.length % 2) h = `0${h}`;
  let b = new Uint8Array(Buffer.from(h, 'hex'));
  if ((b[0] as number) & 0x80) b = cat(Uint8Array.of(0), b);
  return cat(Uint8Array.of(0x02, b.length), b);
}
const der = (r: bigint, s: bigint) => {
  const body = cat(int(r), int(s));
  return cat(Uint8Array.of(0x30, body.length), body);
};
const big = (b: Uint8Array) => BigInt(`0x${toHex(b) || '0'}`);
const fixed = (v: bigint, n: number) =>
  new Uint8Array(Buffer.from(v.toString(16).padStart(2 * n, '0'), 'hex'));

/** Deterministic test inputs (seeded, so a failure reproduces). */
const seeded = (label: string, i: number, len: number) =>
  new Uint8Array(crypto.createHash('shake256', { outputLength: len }).update(`${label}/${i}`).digest());

describe.each(Object.keys(CURVES) as (keyof typeof CURVES)[])('%s: AWS-LC and RustCrypto agree', (trad) => {
  const { curve, n, hash, mldsa, sigBytes, label, preHash } = CURVES[trad];
  const order = curve.Point.Fn.ORDER;
  const c = composite({ mldsa, traditional: trad, label: utf8(label), preHash });
  const keys = [0, 1, 2].map((i) => {
    const d = seeded(`${trad} d`, i, n);
    d[0] = 0x7f; // below n
    const { publicKey, secretKey } = c.keygen(seeded('mldsa seed', i, 32), d);
    return { d, pk: publicKey.subarray(publicKey.length - (1 + 2 * n)), sk: secretKey };
  });
  const both = (pk: Uint8Array, msg: Uint8Array, sig: Uint8Array) => {
    const a = verdict(trad, 'binding', pk, msg, sig);
    const b = verdict(trad, 'rustcrypto', pk, msg, sig);
    expect(a, `AWS-LC vs RustCrypto on ${toHex(sig)}`).toEqual(b);
    return a;
  };
  /** M′ of a composite signature over `msg` (computed here, with node:crypto). */
  const mPrime = (msg: Uint8Array) =>
    cat(
      utf8('CompositeAlgorithmSignatures2025'),
      utf8(label),
      Uint8Array.of(0),
      new Uint8Array(crypto.createHash(preHash.toLowerCase()).update(msg).digest()),
    );

  /** The traditional half of each signing path: AWS-LC (hedged default), RFC 6979, node:crypto. */
  function signatures(k: (typeof keys)[number], msg: Uint8Array) {
    const half = (sig: Uint8Array) => sig.subarray(sigBytes);
    const priv = crypto.createPrivateKey({
      key: {
        kty: 'EC',
        crv: trad === 'ECDSA-P256' ? 'P-256' : 'P-384',
        d: Buffer.from(k.d).toString('base64url'),
        x: Buffer.from(k.pk.subarray(1, 1 + n)).toString('base64url'),
        y: Buffer.from(k.pk.subarray(1 + n)).toString('base64url'),
      },
      format: 'jwk',
    });
    return {
      'AWS-LC (hedged default)': half(c.sign(k.sk, msg)),
      'RFC 6979 (deterministic)': half(c.sign(k.sk, msg, { deterministic: true })),
      'RFC 6979 (caller rnd)': half(c.sign(k.sk, msg, { rnd: seeded('rnd', msg.length, 32) })),
      'node:crypto': new Uint8Array(crypto.sign(hash, mPrime(msg), { key: priv, dsaEncoding: 'der' })),
    };
  }

  it('every signing path verifies with both, and with node:crypto; none verifies another message', () => {
    for (const [i, k] of keys.entries()) {
      const msg = seeded('msg', i, 40 * i);
      const mp = mPrime(msg);
      const pub = crypto.createPublicKey({
        key: {
          kty: 'EC',
          crv: trad === 'ECDSA-P256' ? 'P-256' : 'P-384',
          x: Buffer.from(k.pk.subarray(1, 1 + n)).toString('base64url'),
          y: Buffer.from(k.pk.subarray(1 + n)).toString('base64url'),
        },
        format: 'jwk',
      });
      for (const [path, sig] of Object.entries(signatures(k, msg))) {
        expect(both(k.pk, mp, sig), path).toBe(true);
        expect(crypto.verify(hash, mp, { key: pub, dsaEncoding: 'der' }, sig), path).toBe(true);
        expect(both(k.pk, cat(mp, Uint8Array.of(0)), sig), path).toBe(false);
        expect(both(keys[(i + 1) % keys.length]?.pk as Uint8Array, mp, sig), path).toBe(false);
      }
    }
  });

  it('the same verdict on every one-bit change of each signature', () => {
    const k = keys[0] as (typeof keys)[number];
    const mp = mPrime(utf8('flips'));
    let accepted = 0;
    for (const sig of Object.values(signatures(k, utf8('flips')))) {
      for (let i = 0; i < sig.length; i++) {
        const bad = new Uint8Array(sig);
        bad[i] = (bad[i] as number) ^ (1 << (i % 8));
        if (both(k.pk, mp, bad) === true) accepted++;
      }
    }
    expect(accepted).toBe(0);
  });

  it('the same verdict on r and s at the edges, high-S, and swapped or equal r and s', () => {
    const k = keys[1] as (typeof keys)[number];
    const mp = mPrime(utf8('edges'));
    const sig = signatures(k, utf8('edges'))['RFC 6979 (deterministic)'];
    const parsed = curve.Signature.fromBytes(sig, 'der');
    const { r, s } = parsed;
    const edges = [0n, 1n, 2n, order - 1n, order, order + 1n, 2n ** BigInt(8 * n) - 1n];
    const cases: [string, Uint8Array, boolean][] = [
      ['as signed', der(r, s), true],
      ['high-S', der(r, order - s), true],
      ['swapped', der(s, r), false],
      ['r = s', der(r, r), false],
      ['r + n', der(r + order, s), false],
      ['s + n', der(r, s + order), false],
      ...edges.flatMap((e): [string, Uint8Array, boolean][] => [
        [`r = ${e}`, der(e, s), false],
        [`s = ${e}`, der(r, e), false],
      ]),
      // A valid (r, s) in other framings: P1363 r‖s, BER long-form lengths, a trailing byte.
      ['raw r‖s', cat(fixed(r, n), fixed(s, n)), false],
      ['trailing zero byte', cat(der(r, s), Uint8Array.of(0)), false],
      [
        'long-form SEQUENCE length',
        cat(Uint8Array.of(0x30, 0x81, der(r, s).length - 2), der(r, s).subarray(2)),
        false,
      ],
    ];
    for (const [what, candidate, valid] of cases) expect(both(k.pk, mp, candidate), what).toBe(valid);
  });

  it('the same refusals of public keys that are not uncompressed points on the curve', () => {
    const k = keys[2] as (typeof keys)[number];
    const mp = mPrime(utf8('keys'));
    const sig = signatures(k, utf8('keys'))['AWS-LC (hedged default)'];
    const p = curve.Point.Fp.ORDER;
    const x = k.pk.subarray(1, 1 + n);
    const y = k.pk.subarray(1 + n);
    const point = (prefix: number, px: Uint8Array, py: Uint8Array) => cat(Uint8Array.of(prefix), px, py);
    const bad: Record<string, Uint8Array> = {
      'y + 1 (off the curve)': point(4, x, fixed(big(y) + 1n, n)),
      'x = p (not reduced)': point(4, fixed(p, n), y),
      'y = p (not reduced)': point(4, x, fixed(p, n)),
      'all zeros (the point at infinity is not encodable here)': point(
        4,
        new Uint8Array(n),
        new Uint8Array(n),
      ),
      'compressed prefix 0x02 at full length': point(2, x, y),
      'hybrid prefix 0x06': point(6, x, y),
      'hybrid prefix 0x07': point(7, x, y),
      'one byte short': k.pk.subarray(1),
    };
    for (const [what, pk] of Object.entries(bad)) {
      const got = both(pk, mp, sig);
      expect(['ERR_INVALID_KEY', 'ERR_INVALID_KEY_LENGTH'], what).toContain(got);
    }
  });
});

// ---- Ed25519: AWS-LC signs ----------------------------------------------------------------------

describe('Ed25519 half: AWS-LC signatures equal @noble/curves (EdDSA is deterministic)', () => {
  it('over M′ for several keys and messages; ed25519-dalek (the verifier) accepts them', () => {
    const label = 'COMPSIG-MLDSA44-Ed25519-SHA512';
    const c = composite({
      mldsa: 'ML-DSA-44',
      traditional: 'Ed25519',
      label: utf8(label),
      preHash: 'SHA512',
    });
    for (let i = 0; i < 12; i++) {
      const seed = seeded('ed25519 seed', i, 32);
      const { publicKey, secretKey } = c.keygen(seeded('mldsa seed', i, 32), seed);
      const pk = publicKey.subarray(1312);
      expect(toHex(pk)).toBe(toHex(ed25519.getPublicKey(seed)));
      const msg = seeded('msg', i, 37 * i);
      const mp = cat(
        utf8('CompositeAlgorithmSignatures2025'),
        utf8(label),
        Uint8Array.of(0),
        new Uint8Array(crypto.createHash('sha512').update(msg).digest()),
      );
      const half = c.sign(secretKey, msg).subarray(2420);
      expect(toHex(half)).toBe(toHex(ed25519.sign(mp, seed)));
      expect(traditionalVerify('Ed25519', 'binding', pk, mp, half)).toBe(true);
    }
  });
});
