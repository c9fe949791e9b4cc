// Composite ML-DSA in one native call: the -05 examples, independent implementations for the
// traditional halves (node:crypto both ways, @noble/curves for RFC 6979 byte equality,
// @noble/post-quantum for the ML-DSA half), each half broken alone, strict DER, edge cases of
// EdDSA verification against OpenSSL, bad input, and the batching queue.
import crypto from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ed448 } from '@noble/curves/ed448.js';
import { ed25519 } from '@noble/curves/ed25519.js';
import { p256, p384 } from '@noble/curves/nist.js';
import { ml_dsa44, ml_dsa65, ml_dsa87 } from '@noble/post-quantum/ml-dsa.js';
import { describe, expect, it } from 'vitest';
import {
  type CompositeScheme,
  composite,
  configureAsyncSigning,
  LiboqsError,
  mlDsa65,
  type TraditionalAlgorithm,
} from '../index.js';
import { VECTORS } from './helpers.ts';

const utf8 = (s: string) => new TextEncoder().encode(s);
const hex = (h: string) => new Uint8Array(Buffer.from(h, 'hex'));
const toHex = (b: Uint8Array) => Buffer.from(b).toString('hex');
const cat = (...p: Uint8Array[]) => new Uint8Array(Buffer.concat(p));

/** The draft's table, written out here (not read from the implementation). */
const SPECS = {
  'ML-DSA-44-ES256': ['ML-DSA-44', 'ECDSA-P256', 'COMPSIG-MLDSA44-ECDSA-P256-SHA256', 'SHA256'],
  'ML-DSA-44-Ed25519': ['ML-DSA-44', 'Ed25519', 'COMPSIG-MLDSA44-Ed25519-SHA512', 'SHA512'],
  'ML-DSA-65-ES256': ['ML-DSA-65', 'ECDSA-P256', 'COMPSIG-MLDSA65-ECDSA-P256-SHA512', 'SHA512'],
  'ML-DSA-65-Ed25519': ['ML-DSA-65', 'Ed25519', 'COMPSIG-MLDSA65-Ed25519-SHA512', 'SHA512'],
  'ML-DSA-87-ES384': ['ML-DSA-87', 'ECDSA-P384', 'COMPSIG-MLDSA87-ECDSA-P384-SHA512', 'SHA512'],
  'ML-DSA-87-Ed448': ['ML-DSA-87', 'Ed448', 'COMPSIG-MLDSA87-Ed448-SHAKE256', 'SHAKE256'],
} as const;
type Name = keyof typeof SPECS;
const NAMES = Object.keys(SPECS) as Name[];
const SIG_BYTES = { 'ML-DSA-44': 2420, 'ML-DSA-65': 3309, 'ML-DSA-87': 4627 } as const;
const PK_BYTES = { 'ML-DSA-44': 1312, 'ML-DSA-65': 1952, 'ML-DSA-87': 2592 } as const;
const NOBLE_MLDSA = { 'ML-DSA-44': ml_dsa44, 'ML-DSA-65': ml_dsa65, 'ML-DSA-87': ml_dsa87 } as const;
const TRAD_SECRET = { Ed25519: 32, 'ECDSA-P256': 32, 'ECDSA-P384': 48, Ed448: 57 } as const;

const schemeOf = (name: Name, implementation: 'auto' | 'ref' = 'auto'): CompositeScheme => {
  const [mldsa, traditional, label, preHash] = SPECS[name];
  return composite({ mldsa, traditional, label: utf8(label), preHash, implementation });
};

/** M′, computed here with node:crypto. */
function mPrime(name: Name, m: Uint8Array, ctx = new Uint8Array(0)): Uint8Array {
  const [, , label, ph] = SPECS[name];
  const alg = ph.toLowerCase();
  const digest = crypto
    .createHash(alg, alg === 'shake256' ? { outputLength: 64 } : {})
    .update(m)
    .digest();
  return cat(utf8('CompositeAlgorithmSignatures2025'), utf8(label), Uint8Array.of(ctx.length), ctx, digest);
}

/** node:crypto key objects for a raw traditional key. */
function nodeKeys(trad: TraditionalAlgorithm, secret: Uint8Array, pub: Uint8Array) {
  if (trad === 'Ed25519' || trad === 'Ed448') {
    const crv = trad;
    const x = Buffer.from(pub).toString('base64url');
    const d = Buffer.from(secret).toString('base64url');
    return {
      priv: crypto.createPrivateKey({ key: { kty: 'OKP', crv, x, d }, format: 'jwk' }),
      pub: crypto.createPublicKey({ key: { kty: 'OKP', crv, x }, format: 'jwk' }),
      hash: null,
    };
  }
  const n = trad === 'ECDSA-P256' ? 32 : 48;
  const jwk = {
    kty: 'EC',
    crv: trad === 'ECDSA-P256' ? 'P-256' : 'P-384',
    x: Buffer.from(pub.subarray(1, 1 + n)).toString('base64url'),
    y: Buffer.from(pub.subarray(1 + n)).toString('base64url'),
  };
  return {
    priv: crypto.createPrivateKey({
      key: { ...jwk, d: Buffer.from(secret).toString('base64url') },
      format: 'jwk',
    }),
    pub: crypto.createPublicKey({ key: jwk, format: 'jwk' }),
    hash: n === 32 ? 'sha256' : 'sha384',
  };
}

function tradSecret(trad: TraditionalAlgorithm): Uint8Array {
  const s = crypto.randomBytes(TRAD_SECRET[trad]);
  if (trad.startsWith('ECDSA')) s[0] = 0x7f; // below n
  return new Uint8Array(s);
}

function code(f: () => unknown): string {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(LiboqsError);
    return (e as LiboqsError).code;
  }
  return 'no error';
}

// ---- DER helpers (independent of the implementation) ------------------------------------------

function derParts(der: Uint8Array): { r: Uint8Array; s: Uint8Array } {
  const lr = der[3] as number;
  return { r: der.subarray(4, 4 + lr), s: der.subarray(6 + lr, 6 + lr + (der[5 + lr] as number)) };
}
const int = (v: Uint8Array, longForm = false) =>
  cat(Uint8Array.of(0x02), longForm ? Uint8Array.of(0x81, v.length) : Uint8Array.of(v.length), v);
const seq = (body: Uint8Array, longForm = false) =>
  cat(Uint8Array.of(0x30), longForm ? Uint8Array.of(0x81, body.length) : Uint8Array.of(body.length), body);
const bigOf = (b: Uint8Array) => BigInt(`0x${toHex(b) || '0'}`);
function minimal(n: bigint): Uint8Array {
  let h = n.toString(16);
  if (h.length % 2) h = `0${h}`;
  const b = hex(h);
  return (b[0] as number) & 0x80 ? cat(Uint8Array.of(0), b) : b;
}

// ---- the -05 examples ---------------------------------------------------------------------------

describe.each(NAMES)('%s: draft -05 example', (name) => {
  const ex = JSON.parse(readFileSync(join(VECTORS, 'jose-composite-05', `${name}.jose.json`), 'utf8'));
  const [mldsa, trad] = SPECS[name];
  const tbs = hex(ex.raw_to_be_signed);
  const want = hex(ex.raw_composite_signature);
  const tradSeed = hex(ex.ecdsa_d ?? ex.eddsa_seed);

  it.each(['auto', 'ref'] as const)('keygen gives the public key; signing reproduces it (%s)', (impl) => {
    const c = schemeOf(name, impl);
    const { publicKey, secretKey } = c.keygen(hex(ex.mldsa_seed), tradSeed);
    expect(toHex(publicKey)).toBe(ex.raw_composite_public_key);
    const sig = c.sign(secretKey, tbs, { deterministic: true });
    // The ML-DSA half byte for byte; EdDSA is deterministic, so the whole signature too. The
    // example's ECDSA half was randomised: ours must verify (here and with node:crypto) instead.
    expect(toHex(sig.subarray(0, SIG_BYTES[mldsa]))).toBe(toHex(want.subarray(0, SIG_BYTES[mldsa])));
    if (!trad.startsWith('ECDSA')) expect(toHex(sig)).toBe(toHex(want));
    const nk = nodeKeys(trad, tradSeed, publicKey.subarray(PK_BYTES[mldsa]));
    expect(
      crypto.verify(
        nk.hash,
        mPrime(name, tbs),
        { key: nk.pub, dsaEncoding: 'der' },
        sig.subarray(SIG_BYTES[mldsa]),
      ),
    ).toBe(true);
    expect(c.verify(publicKey, tbs, want)).toBe(true);
    expect(c.verify(publicKey, tbs, sig)).toBe(true);
  });

  it('the example verifies asynchronously through a prepared public key; tampering does not', async () => {
    const c = schemeOf(name);
    const pk = c.publicKey(hex(ex.raw_composite_public_key));
    expect(await c.verifyAsync(pk, tbs, want)).toBe(true);
    const bad = new Uint8Array(want);
    bad[want.length - 3] = (bad[want.length - 3] as number) ^ 1;
    expect(await c.verifyAsync(pk, tbs, bad)).toBe(false);
    expect(await c.verifyAsync(pk, cat(tbs, Uint8Array.of(0)), want)).toBe(false);
  });
});

// ---- independent implementations, both directions -----------------------------------------------

describe.each(NAMES)('%s: independent implementations', (name) => {
  const [mldsa, trad] = SPECS[name];
  const c = schemeOf(name);
  const seed = new Uint8Array(crypto.randomBytes(32));
  const secret = tradSecret(trad);
  const { publicKey, secretKey } = c.keygen(seed, secret);
  const mlPub = publicKey.subarray(0, PK_BYTES[mldsa]);
  const tradPub = publicKey.subarray(PK_BYTES[mldsa]);
  const nk = nodeKeys(trad, secret, tradPub);
  const label = c.label;

  it("the public key halves are @noble/post-quantum's and node:crypto's", () => {
    expect(toHex(mlPub)).toBe(toHex(NOBLE_MLDSA[mldsa].keygen(seed).publicKey));
    const jwk = nk.pub.export({ format: 'jwk' });
    const nodePub = jwk.kty === 'OKP' ? Buffer.from(jwk.x as string, 'base64url') : undefined;
    if (nodePub) expect(toHex(tradPub)).toBe(toHex(nodePub));
    else
      expect(toHex(tradPub)).toBe(
        toHex(
          cat(
            Uint8Array.of(4),
            Buffer.from(jwk.x as string, 'base64url'),
            Buffer.from(jwk.y as string, 'base64url'),
          ),
        ),
      );
  });

  it('node:crypto and @noble/post-quantum verify our halves; we verify theirs', async () => {
    for (let i = 0; i < 8; i++) {
      const msg = new Uint8Array(crypto.randomBytes(i * 97));
      const ctx = i % 2 ? new Uint8Array(crypto.randomBytes(i * 30)) : new Uint8Array(0);
      const mp = mPrime(name, msg, ctx);
      const sig =
        i % 3
          ? await c.signAsync(secretKey, msg, { context: ctx })
          : c.sign(secretKey, msg, { context: ctx });
      const [ms, ts] = [sig.subarray(0, SIG_BYTES[mldsa]), sig.subarray(SIG_BYTES[mldsa])];
      expect(NOBLE_MLDSA[mldsa].verify(ms, mp, mlPub, { context: label })).toBe(true);
      expect(crypto.verify(nk.hash, mp, { key: nk.pub, dsaEncoding: 'der' }, ts)).toBe(true);
      // Theirs: node:crypto's traditional half (randomised ECDSA, DER) and noble's hedged ML-DSA half.
      const theirs = cat(
        NOBLE_MLDSA[mldsa].sign(mp, NOBLE_MLDSA[mldsa].keygen(seed).secretKey, { context: label }),
        new Uint8Array(crypto.sign(nk.hash, mp, { key: nk.priv, dsaEncoding: 'der' })),
      );
      expect(c.verify(publicKey, msg, theirs, ctx)).toBe(true);
      expect(await c.verifyAsync(publicKey, msg, theirs, ctx)).toBe(true);
      // The context is part of M′.
      expect(c.verify(publicKey, msg, theirs, cat(ctx, Uint8Array.of(1)))).toBe(false);
    }
  });

  it('each half broken alone fails, as does each half spliced from another message', () => {
    const msg = utf8('payload');
    const sig = c.sign(secretKey, msg);
    const other = c.sign(secretKey, utf8('other payload'));
    const cut = SIG_BYTES[mldsa];
    const flip = (b: Uint8Array, i: number) => {
      const x = new Uint8Array(b);
      x[i] = (x[i] as number) ^ 1;
      return x;
    };
    expect(c.verify(publicKey, msg, sig)).toBe(true);
    expect(c.verify(publicKey, msg, flip(sig, 10))).toBe(false);
    expect(c.verify(publicKey, msg, flip(sig, cut - 1))).toBe(false);
    expect(c.verify(publicKey, msg, flip(sig, sig.length - 1))).toBe(false);
    expect(c.verify(publicKey, msg, cat(sig.subarray(0, cut), other.subarray(cut)))).toBe(false);
    expect(c.verify(publicKey, msg, cat(other.subarray(0, cut), sig.subarray(cut)))).toBe(false);
    // The halves of `other` are valid on their own (so the failures above are not accidents).
    expect(c.verify(publicKey, utf8('other payload'), other)).toBe(true);
  });

  it('signing is hedged by default, reproducible with a caller rnd or deterministic', () => {
    const msg = utf8('m');
    const rnd = new Uint8Array(32).fill(5);
    const a = c.sign(secretKey, msg);
    const b = c.sign(secretKey, msg);
    expect(toHex(a)).not.toBe(toHex(b));
    expect(toHex(c.sign(secretKey, msg, { rnd }))).toBe(toHex(c.sign(secretKey, msg, { rnd })));
    expect(toHex(c.sign(secretKey, msg, { deterministic: true }))).toBe(
      toHex(c.sign(secretKey, msg, { rnd: new Uint8Array(32) })),
    );
    for (const s of [a, b]) expect(c.verify(publicKey, msg, s)).toBe(true);
  });
});

describe('ECDSA halves equal @noble/curves (RFC 6979, and with rnd as its added entropy)', () => {
  for (const [name, curve, hash] of [
    ['ML-DSA-65-ES256', p256, 'sha256'],
    ['ML-DSA-87-ES384', p384, 'sha384'],
  ] as const) {
    it(name, () => {
      const [mldsa, trad] = SPECS[name];
      const c = schemeOf(name);
      for (let i = 0; i < 16; i++) {
        const d = tradSecret(trad);
        const { secretKey } = c.keygen(new Uint8Array(32), d);
        const msg = new Uint8Array(crypto.randomBytes(i * 50));
        const mp = mPrime(name, msg);
        const rnd = new Uint8Array(crypto.randomBytes(32));
        const det = c.sign(secretKey, msg, { deterministic: true }).subarray(SIG_BYTES[mldsa]);
        const hedged = c.sign(secretKey, msg, { rnd }).subarray(SIG_BYTES[mldsa]);
        const opts = { lowS: false, format: 'der' as const, prehash: true };
        expect(toHex(det), `det ${hash}`).toBe(toHex(curve.sign(mp, d, opts)));
        expect(toHex(hedged), `hedged ${hash}`).toBe(
          toHex(curve.sign(mp, d, { ...opts, extraEntropy: rnd })),
        );
      }
    });
  }
});

// ---- ECDSA encodings -------------------------------------------------------------------------------

describe.each(['ML-DSA-65-ES256', 'ML-DSA-87-ES384'] as const)('%s: ECDSA half encodings', (name) => {
  const [mldsa, trad] = SPECS[name];
  const c = schemeOf(name);
  const secret = tradSecret(trad);
  const { publicKey, secretKey } = c.keygen(new Uint8Array(32).fill(3), secret);
  const nk = nodeKeys(trad, secret, publicKey.subarray(PK_BYTES[mldsa]));
  const order = trad === 'ECDSA-P256' ? p256.Point.Fn.ORDER : p384.Point.Fn.ORDER;
  const msg = utf8('encodings');
  const sig = c.sign(secretKey, msg);
  const ml = sig.subarray(0, SIG_BYTES[mldsa]);
  const der = sig.subarray(SIG_BYTES[mldsa]);
  const { r, s } = derParts(der);
  const withTrad = (t: Uint8Array) => cat(ml, t);

  it('our DER is minimal (the -05 encoding): re-encoding r and s gives the same bytes', () => {
    expect(toHex(der)).toBe(toHex(seq(cat(int(minimal(bigOf(r))), int(minimal(bigOf(s)))))));
  });

  it('high-S is valid ECDSA (no low-S rule in -05): accepted here and by node:crypto', () => {
    const high = seq(cat(int(minimal(bigOf(r))), int(minimal(order - bigOf(s)))));
    expect(crypto.verify(nk.hash, mPrime(name, msg), { key: nk.pub, dsaEncoding: 'der' }, high)).toBe(true);
    expect(c.verify(publicKey, msg, withTrad(high))).toBe(true);
  });

  it('every non-canonical encoding of the same (r, s) is rejected', () => {
    const variants: Record<string, Uint8Array> = {
      'extra 0x00 on r': seq(cat(int(cat(Uint8Array.of(0), r)), int(s))),
      'extra 0x00 on s': seq(cat(int(r), int(cat(Uint8Array.of(0), s)))),
      'long-form SEQUENCE length': seq(cat(int(r), int(s)), true),
      'long-form INTEGER length': seq(cat(int(r, true), int(s))),
      'trailing byte': cat(der, Uint8Array.of(0)),
      'SEQUENCE length one short': cat(Uint8Array.of(0x30, (der[1] as number) - 1), der.subarray(2)),
      'wrong outer tag': cat(Uint8Array.of(0x31), der.subarray(1)),
      'wrong INTEGER tag': cat(der.subarray(0, 2), Uint8Array.of(0x03), der.subarray(3)),
      'negative r': seq(cat(int(cat(Uint8Array.of(0x80), r.subarray(r[0] === 0 ? 1 : 0))), int(s))),
      'raw r‖s': cat(minimal(bigOf(r)), minimal(bigOf(s))),
      'r = 0': seq(cat(int(Uint8Array.of(0)), int(s))),
      's = 0': seq(cat(int(r), int(Uint8Array.of(0)))),
      'r + n': seq(cat(int(minimal(bigOf(r) + order)), int(s))),
      's + n': seq(cat(int(r), int(minimal(bigOf(s) + order)))),
    };
    for (const [what, v] of Object.entries(variants)) {
      let ok: boolean | string;
      try {
        ok = c.verify(publicKey, msg, withTrad(v));
      } catch (e) {
        ok = (e as LiboqsError).code; // a length no ECDSA half can have
      }
      expect([false, 'ERR_INVALID_SIGNATURE_LENGTH'], what).toContain(ok);
    }
  });

  it('a public key that is not an uncompressed point on the curve is refused', () => {
    const pub = publicKey.subarray(PK_BYTES[mldsa]);
    const compressed = cat(
      Uint8Array.of(2 + ((pub[pub.length - 1] as number) & 1)),
      pub.subarray(1, (pub.length + 1) / 2),
    );
    const off = new Uint8Array(pub);
    off[off.length - 1] = (off[off.length - 1] as number) ^ 1;
    for (const bad of [off, cat(Uint8Array.of(3), pub.subarray(1))]) {
      expect(code(() => c.publicKey(cat(publicKey.subarray(0, PK_BYTES[mldsa]), bad)))).toBe(
        'ERR_INVALID_KEY',
      );
    }
    expect(code(() => c.publicKey(cat(publicKey.subarray(0, PK_BYTES[mldsa]), compressed)))).toBe(
      'ERR_INVALID_KEY_LENGTH',
    );
  });
});

// ---- EdDSA edge cases against OpenSSL ----------------------------------------------------------------

describe('EdDSA verification agrees with OpenSSL (node:crypto) on degenerate keys and signatures', () => {
  const le = (n: bigint, len: number) => {
    const b = new Uint8Array(len);
    for (let i = 0; i < len; i++, n >>= 8n) b[i] = Number(n & 255n);
    return b;
  };
  const leBig = (b: Uint8Array) => b.reduceRight((n, x) => (n << 8n) | BigInt(x), 0n);
  const msg = utf8('edge');

  /** Our verdict (ML-DSA half valid, so the traditional half decides) and node:crypto's. */
  function verdicts(name: Name, trad: 'Ed25519' | 'Ed448', A: Uint8Array, t: Uint8Array) {
    const [mldsa, , label] = SPECS[name];
    const mp = mPrime(name, msg);
    const seed = new Uint8Array(32).fill(1);
    const ml = NOBLE_MLDSA[mldsa].sign(mp, NOBLE_MLDSA[mldsa].keygen(seed).secretKey, {
      context: utf8(label),
    });
    const pub = cat(NOBLE_MLDSA[mldsa].keygen(seed).publicKey, A);
    const ours = schemeOf(name).verify(pub, msg, cat(ml, t));
    const prefix = trad === 'Ed25519' ? '302a300506032b6570032100' : '3043300506032b6571033a00';
    let theirs: boolean;
    try {
      const key = crypto.createPublicKey({
        key: Buffer.concat([hex(prefix), A]),
        format: 'der',
        type: 'spki',
      });
      theirs = crypto.verify(null, mp, key, t);
    } catch {
      theirs = false;
    }
    return { ours, theirs };
  }

  it('Ed25519', () => {
    const name = 'ML-DSA-44-Ed25519';
    const L = ed25519.Point.Fn.ORDER;
    const p = ed25519.Point.Fp.ORDER;
    const seed = new Uint8Array(32).fill(7);
    const A = ed25519.getPublicKey(seed);
    const mp = mPrime(name, msg);
    const sig = ed25519.sign(mp, seed);
    const id = le(1n, 32);
    const zero = le(0n, 32);
    const T8 = ed25519.Point.fromHex('c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a');
    const h = crypto.createHash('sha512').update(seed).digest();
    h[0] = (h[0] as number) & 248;
    h[31] = ((h[31] as number) & 127) | 64;
    const a = leBig(h.subarray(0, 32)) % L;
    const k = (R: Uint8Array, Ak: Uint8Array) =>
      leBig(
        crypto
          .createHash('sha512')
          .update(cat(R, Ak, mp))
          .digest(),
      ) % L;
    const cases: Record<string, [Uint8Array, Uint8Array, boolean]> = {
      valid: [A, sig, true],
      'S + L': [A, cat(sig.subarray(0, 32), le(leBig(sig.subarray(32)) + L, 32)), false],
      'R + (point of order 8)': [
        A,
        cat(
          ed25519.Point.fromHex(toHex(sig.subarray(0, 32)))
            .add(T8)
            .toBytes(),
          sig.subarray(32),
        ),
        false,
      ],
      'identity A, R = identity, S = 0': [id, cat(id, zero), false],
      'identity A (y = p + 1), R = identity, S = 0': [le(p + 1n, 32), cat(id, zero), false],
      'order-2 A, R = identity, S = 0': [le(p - 1n, 32), cat(id, zero), false],
      'order-8 A, R = identity, S = 0': [T8.toBytes(), cat(id, zero), false],
      'A not on the curve': [le(2n, 32), sig, false],
      "key owner's R = identity (S = k·a)": [A, cat(id, le((k(id, A) * a) % L, 32)), false],
    };
    // A mixed-order key (A + T8) with a signature whose k ≡ 0 mod 8: valid under cofactorless
    // verification, and OpenSSL accepts it, so must we.
    const Am = ed25519.Point.fromHex(toHex(A)).add(T8).toBytes();
    for (let r = 5n; ; r++) {
      const R = ed25519.Point.BASE.multiply(r).toBytes();
      if (k(R, Am) % 8n === 0n) {
        cases['mixed-order A, k ≡ 0 mod 8'] = [Am, cat(R, le((r + k(R, Am) * a) % L, 32)), true];
        break;
      }
    }
    for (const [what, [key, t, valid]] of Object.entries(cases)) {
      expect(verdicts(name, 'Ed25519', key, t), what).toEqual({ ours: valid, theirs: valid });
    }
  });

  it('Ed448', () => {
    const name = 'ML-DSA-87-Ed448';
    const L = ed448.Point.Fn.ORDER;
    const p = ed448.Point.Fp.ORDER;
    const seed = new Uint8Array(57).fill(7);
    const A = ed448.getPublicKey(seed);
    const mp = mPrime(name, msg);
    const sig = ed448.sign(mp, seed);
    const id = le(1n, 57);
    const zero = le(0n, 57);
    const dom4 = cat(utf8('SigEd448'), Uint8Array.of(0, 0));
    const k = (R: Uint8Array, Ak: Uint8Array) =>
      leBig(
        crypto
          .createHash('shake256', { outputLength: 114 })
          .update(cat(dom4, R, Ak, mp))
          .digest(),
      ) % L;
    const h = crypto.createHash('shake256', { outputLength: 114 }).update(seed).digest();
    h[0] = (h[0] as number) & 252;
    h[55] = (h[55] as number) | 128;
    h[56] = 0;
    const a = leBig(h.subarray(0, 57)) % L;
    const badByte = new Uint8Array(sig);
    badByte[113] = 1;
    // RFC 8032 §5.2.2: bits 448–454 of an encoded point are unused and must be zero. The key
    // owner signs with such an encoding of R (or of A) in the hash: a decoder that ignores
    // those bits would accept it (Wycheproof ed448 tcId 63–65).
    const r = 12345n;
    const R = ed448.Point.BASE.multiply(r).toBytes();
    const unusedR = new Uint8Array(R);
    unusedR[56] = (unusedR[56] as number) | 1;
    const unusedA = new Uint8Array(A);
    unusedA[56] = (unusedA[56] as number) | 0x40;
    const cases: Record<string, [Uint8Array, Uint8Array, boolean]> = {
      valid: [A, sig, true],
      "key owner's R, valid encoding (the control)": [A, cat(R, le((r + k(R, A) * a) % L, 57)), true],
      "key owner's R with an unused bit set": [A, cat(unusedR, le((r + k(unusedR, A) * a) % L, 57)), false],
      'A with an unused bit set, signed for that encoding': [
        unusedA,
        cat(R, le((r + k(R, unusedA) * a) % L, 57)),
        false,
      ],
      'S + L': [A, cat(sig.subarray(0, 57), le(leBig(sig.subarray(57)) + L, 57)), false],
      'last byte of S not zero': [A, badByte, false],
      'identity A, R = identity, S = 0': [id, cat(id, zero), false],
      'order-2 A, R = identity, S = 0': [le(p - 1n, 57), cat(id, zero), false],
      'A not on the curve': [le(3n, 57), sig, false],
      "key owner's R = identity (S = k·a)": [A, cat(id, le((k(id, A) * a) % L, 57)), false],
    };
    const A2 = le(p - 1n, 57);
    for (let s = 1n; ; s++) {
      const R = ed448.Point.BASE.multiply(s).toBytes();
      if (k(R, A2) % 2n === 0n) {
        cases['order-2 A, R = [S]B, k even'] = [A2, cat(R, le(s, 57)), false];
        break;
      }
    }
    for (const [what, [key, t, valid]] of Object.entries(cases)) {
      expect(verdicts(name, 'Ed448', key, t), what).toEqual({ ours: valid, theirs: valid });
    }
  });
});

// ---- bad input, key hygiene, the queue ------------------------------------------------------------------

describe('bad input is a typed error', () => {
  const c = schemeOf('ML-DSA-65-ES256');
  const { publicKey, secretKey } = c.keygen(new Uint8Array(32), tradSecret('ECDSA-P256'));
  const msg = utf8('x');

  it('parameters', () => {
    const base = { mldsa: 'ML-DSA-65', traditional: 'Ed25519', label: utf8('L'), preHash: 'SHA512' } as const;
    expect(code(() => composite({ ...base, mldsa: 'ML-DSA-99' as 'ML-DSA-65' }))).toBe(
      'ERR_INVALID_ALGORITHM',
    );
    expect(code(() => composite({ ...base, traditional: 'RSA' as 'Ed25519' }))).toBe('ERR_INVALID_ALGORITHM');
    expect(code(() => composite({ ...base, preHash: 'MD5' as 'SHA512' }))).toBe('ERR_INVALID_ARGUMENT');
    expect(code(() => composite({ ...base, label: new Uint8Array(0) }))).toBe('ERR_INVALID_ARGUMENT');
    expect(code(() => composite({ ...base, label: new Uint8Array(256) }))).toBe('ERR_CONTEXT_TOO_LONG');
    expect(code(() => composite({ ...base, label: 'L' as unknown as Uint8Array }))).toBe(
      'ERR_INVALID_ARGUMENT',
    );
    expect(composite({ ...base })).toBe(composite({ ...base, label: utf8('L') }));
  });

  it('keys', () => {
    expect(code(() => c.keygen(new Uint8Array(31), tradSecret('ECDSA-P256')))).toBe('ERR_INVALID_SEED');
    expect(code(() => c.keygen(new Uint8Array(32), new Uint8Array(31)))).toBe('ERR_INVALID_KEY_LENGTH');
    expect(code(() => c.keygen(new Uint8Array(32), new Uint8Array(32)))).toBe('ERR_INVALID_KEY'); // d = 0
    const n = p256.Point.Fn.ORDER;
    expect(code(() => c.keygen(new Uint8Array(32), hex(n.toString(16))))).toBe('ERR_INVALID_KEY'); // d = n
    expect(code(() => c.keygen(new Uint8Array(32), new Uint8Array(32).fill(0xff)))).toBe('ERR_INVALID_KEY');
    expect(code(() => c.publicKey(publicKey.subarray(1)))).toBe('ERR_INVALID_KEY_LENGTH');
    const other = schemeOf('ML-DSA-65-Ed25519');
    expect(code(() => other.sign(secretKey, msg))).toBe('ERR_KEY_ALGORITHM_MISMATCH');
    expect(code(() => other.verify(c.publicKey(publicKey), msg, new Uint8Array(3373)))).toBe(
      'ERR_KEY_ALGORITHM_MISMATCH',
    );
    expect(code(() => mlDsa65.sign(secretKey, msg))).toBe('ERR_KEY_ALGORITHM_MISMATCH');
    const ml = mlDsa65.keygen(new Uint8Array(32));
    expect(code(() => c.sign(ml.secretKey, msg))).toBe('ERR_KEY_ALGORITHM_MISMATCH');
  });

  it('signatures and options', async () => {
    const sig = c.sign(secretKey, msg);
    expect(code(() => c.verify(publicKey, msg, sig.subarray(0, SIG_BYTES['ML-DSA-65'])))).toBe(
      'ERR_INVALID_SIGNATURE_LENGTH',
    );
    expect(code(() => c.verify(publicKey, msg, cat(sig, new Uint8Array(80))))).toBe(
      'ERR_INVALID_SIGNATURE_LENGTH',
    );
    await expect(c.verifyAsync(publicKey, msg, new Uint8Array(5))).rejects.toMatchObject({
      code: 'ERR_INVALID_SIGNATURE_LENGTH',
    });
    expect(code(() => c.sign(secretKey, msg, { context: new Uint8Array(256) }))).toBe('ERR_CONTEXT_TOO_LONG');
    expect(code(() => c.sign(secretKey, msg, { rnd: new Uint8Array(31) }))).toBe('ERR_INVALID_RND');
    await expect(c.signAsync(secretKey, 'x' as unknown as Uint8Array)).rejects.toMatchObject({
      code: 'ERR_INVALID_ARGUMENT',
    });
    expect(code(() => c.verify(publicKey, msg, sig, new Uint8Array(256)))).toBe('ERR_CONTEXT_TOO_LONG');
  });

  it('the secret key stays opaque; free() zeroises it, in-flight signs keep their copy', async () => {
    const k = c.keygen(new Uint8Array(32).fill(2), tradSecret('ECDSA-P256'));
    expect(code(() => JSON.stringify(k.secretKey))).toBe('ERR_SECRET_SERIALIZATION');
    expect(String(k.secretKey)).toBe('[SecretKey ML-DSA-65+ECDSA-P256]');
    const pending = Array.from({ length: 6 }, () => c.signAsync(k.secretKey, msg));
    k.secretKey.free();
    for (const s of await Promise.all(pending)) expect(c.verify(k.publicKey, msg, s)).toBe(true);
    expect(code(() => c.sign(k.secretKey, msg))).toBe('ERR_KEY_FREED');
  });
});

describe('signAsync batches composites with ML-DSA signatures', () => {
  it('a busy queue signs mixed jobs in batches; each caller gets its own signature or error', async () => {
    const prev = configureAsyncSigning();
    configureAsyncSigning({ slots: 1, maxBatch: 8 });
    try {
      const jobs: Promise<boolean>[] = [];
      const keys = NAMES.map((name) => {
        const c = schemeOf(name);
        const [, trad] = SPECS[name];
        return { c, ...c.keygen(new Uint8Array(32).fill(9), tradSecret(trad)) };
      });
      const ml = mlDsa65.keygen(new Uint8Array(32).fill(4));
      for (let i = 0; i < 40; i++) {
        const msg = utf8(`job ${i}`);
        if (i % 7 === 6) {
          jobs.push(mlDsa65.signAsync(ml.secretKey, msg).then((s) => mlDsa65.verify(ml.publicKey, msg, s)));
          continue;
        }
        const { c, publicKey, secretKey } = keys[i % keys.length] as (typeof keys)[number];
        jobs.push(c.signAsync(secretKey, msg).then((s) => c.verify(publicKey, msg, s)));
      }
      const first = keys[0] as (typeof keys)[number];
      const bad = first.c.signAsync(first.secretKey, utf8('x'), { context: new Uint8Array(300) }).then(
        () => 'no error',
        (e: LiboqsError) => e.code,
      );
      expect(configureAsyncSigning().waiting).toBeGreaterThan(0); // batching really happened
      expect(await Promise.all(jobs)).toEqual(jobs.map(() => true));
      expect(await bad).toBe('ERR_CONTEXT_TOO_LONG');
    } finally {
      configureAsyncSigning({ slots: prev.slots, maxBatch: prev.maxBatch });
    }
  });
});
