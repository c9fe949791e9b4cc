/** Key generation, thumbprints, import/export, secret hygiene of PrivateKey handles, registry sizes. */
import crypto from 'node:crypto';
import { format, inspect } from 'node:util';
import {
  algorithms,
  backends,
  calculateThumbprint,
  exportJWK,
  generateKeyPair,
  getAlgorithm,
  importJWK,
  type Jwk,
  MLDSA_PARAMS,
  type MlDsaAlg,
  mldsa,
  PqidError,
  PrivateKey,
  PublicKey,
  registry,
  SLHDSA_PARAMS,
  type SlhDsaAlg,
  signCompact,
  signJwt,
  verifyCompact,
} from '@pqid/jose';
import * as jose from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import { suiteAlgorithms } from './helpers/algs.ts';
import { rejects } from './helpers/assert.ts';

const b64u = (x: Uint8Array | string) => Buffer.from(x).toString('base64url');
const unb64u = (s: unknown) => new Uint8Array(Buffer.from(s as string, 'base64url'));

const ALGS = suiteAlgorithms();
const entry = (alg: string) => registry().find((e) => e.alg === alg) as ReturnType<typeof registry>[number];
const PRIVATE_MEMBERS = ['priv', 'd', 'p', 'q', 'dp', 'dq', 'qi'];

/** The composite's traditional secret length, from its name (independent of the source tables). */
const TRAD_SECRET: Record<string, number> = { Ed25519: 32, ES256: 32, ES384: 48, Ed448: 57 };
const tradSecretLength = (alg: string) => {
  const n = TRAD_SECRET[alg.split('-').at(-1) as string];
  if (n === undefined)
    throw new Error(`unknown traditional component in ${alg}: add its secret length to TRAD_SECRET`);
  return n;
};
/** The composite's ML-DSA parameter set, from its name. */
const mldsaOf = (alg: string) => alg.split('-').slice(0, 3).join('-') as MlDsaAlg;

/** RFC 7638 thumbprint computed here, not by the library: AKP's required members are alg, kty, pub (RFC 9964). */
const akpThumbprint = (jwk: Jwk) =>
  crypto
    .createHash('sha256')
    .update(JSON.stringify({ alg: jwk.alg, kty: jwk.kty, pub: jwk.pub }))
    .digest('base64url');

interface Fixture {
  publicJwk: Jwk;
  privateJwk: Jwk;
  priv: PrivateKey;
}
const fixtures = new Map<string, Fixture>();
const fx = (alg: string) => fixtures.get(alg) as Fixture;

beforeAll(async () => {
  await Promise.all(
    ALGS.map(async (alg) => {
      const { publicJwk, privateJwk } = await generateKeyPair(alg);
      fixtures.set(alg, { publicJwk, privateJwk, priv: (await importJWK(privateJwk)) as PrivateKey });
    }),
  );
});

describe.each(ALGS)('%s keys', (alg) => {
  it('kid is the RFC 7638 thumbprint of the public JWK, computed independently', async () => {
    const { publicJwk, privateJwk } = fx(alg);
    const e = entry(alg);
    const expected =
      e.kty === 'AKP'
        ? akpThumbprint(publicJwk)
        : await jose.calculateJwkThumbprint(publicJwk as jose.JWK, 'sha256');
    expect(publicJwk.kid).toBe(expected);
    expect(privateJwk.kid).toBe(expected);
    expect(calculateThumbprint(publicJwk)).toBe(expected);
    expect(calculateThumbprint(privateJwk)).toBe(expected);
    expect(publicJwk.kid).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // Extra members and member order do not change it.
    const shuffled = Object.fromEntries(
      Object.entries({ ...publicJwk, use: 'sig', kid: 'x' }).reverse(),
    ) as Jwk;
    expect(calculateThumbprint(shuffled)).toBe(expected);
    if (e.kty !== 'AKP') {
      expect(calculateThumbprint(publicJwk, 'sha384')).toBe(
        await jose.calculateJwkThumbprint(publicJwk as jose.JWK, 'sha384'),
      );
    }
  });

  it('the public JWK carries alg and no private members; the private one carries them', () => {
    const { publicJwk, privateJwk } = fx(alg);
    expect(publicJwk.alg).toBe(alg);
    expect(publicJwk.kty).toBe(entry(alg).kty);
    for (const m of PRIVATE_MEMBERS) expect(publicJwk, m).not.toHaveProperty(m);
    expect(PRIVATE_MEMBERS.some((m) => typeof privateJwk[m] === 'string')).toBe(true);
    for (const [k, v] of Object.entries(publicJwk)) expect(privateJwk[k], k).toEqual(v);
  });

  it('import gives the same kid, and a public JWK without kid gets its thumbprint', async () => {
    const { publicJwk, privateJwk } = fx(alg);
    const priv = await importJWK(privateJwk);
    const pub = await importJWK(publicJwk);
    expect(priv).toBeInstanceOf(PrivateKey);
    expect(priv.type).toBe('private');
    expect(pub).toBeInstanceOf(PublicKey);
    expect(pub.type).toBe('public');
    expect(priv.kid).toBe(publicJwk.kid);
    expect(pub.kid).toBe(publicJwk.kid);
    expect((priv as PrivateKey).publicKey.kid).toBe(publicJwk.kid);
    const { kid: _k, ...noKid } = publicJwk;
    expect((await importJWK(noKid)).kid).toBe(publicJwk.kid);
    expect(pub.pq).toBe(entry(alg).family !== 'classical');
  });

  it('exportJWK(private) round-trips and the re-imported key signs for the original public key', async () => {
    const { privateJwk, publicJwk, priv } = fx(alg);
    const exported = exportJWK(priv);
    expect(exported).toEqual(privateJwk);
    expect(exportJWK(priv.publicKey)).toEqual(publicJwk);
    const again = (await importJWK(exported)) as PrivateKey;
    expect(exportJWK(again)).toEqual(privateJwk);
    const token = await signCompact('{"x":1}', again);
    const pub = await importJWK(publicJwk);
    const r = await verifyCompact(token, pub, { algorithms: [alg] });
    expect(new TextDecoder().decode(r.payload)).toBe('{"x":1}');
    // The exported object is a copy: mutating it does not touch the handle.
    exported.kid = 'changed';
    expect(exportJWK(priv).kid).toBe(privateJwk.kid);
  });

  it('importJWK with a different expected alg is ERR_KEY_MISMATCH', async () => {
    const { publicJwk, privateJwk } = fx(alg);
    for (const other of registry()
      .map((e) => e.alg)
      .filter((a) => a !== alg)) {
      await rejects(() => importJWK(publicJwk, { alg: other }), 'ERR_KEY_MISMATCH');
      await rejects(() => importJWK(privateJwk, { alg: other }), 'ERR_KEY_MISMATCH');
    }
    expect((await importJWK(publicJwk, { alg })).alg).toBe(alg);
  });

  it('a JWK whose kty does not fit its alg is ERR_KEY_MISMATCH', async () => {
    const { publicJwk } = fx(alg);
    const otherKty = ['AKP', 'EC', 'OKP', 'RSA'].find((k) => k !== publicJwk.kty) as string;
    await rejects(() => importJWK({ ...publicJwk, kty: otherKty }), 'ERR_KEY_MISMATCH');
  });

  it('a public JWK (as found in a JWKS) imports as a PublicKey that cannot sign', async () => {
    const { publicJwk } = fx(alg);
    const jwksEntry = { ...publicJwk, use: 'sig', key_ops: ['verify'] };
    const pub = await importJWK(jwksEntry);
    expect(pub).toBeInstanceOf(PublicKey);
    expect(pub.type).toBe('public');
    await rejects(() => signCompact('{}', pub as unknown as PrivateKey), 'ERR_INVALID_ARGUMENT');
    await rejects(() => signJwt({}, pub as unknown as PrivateKey), 'ERR_INVALID_ARGUMENT');
    await rejects(() => signJwt({}, publicJwk), 'ERR_INVALID_ARGUMENT');
    await rejects(() => signCompact('{}', publicJwk as unknown as PrivateKey), 'ERR_INVALID_ARGUMENT');
    await rejects(
      () => signCompact('{}', { ...pub, type: 'private' } as unknown as PrivateKey),
      'ERR_INVALID_ARGUMENT',
    );
  });

  it('registry sizes match the actual key and signature lengths', async () => {
    const { publicJwk, privateJwk, priv } = fx(alg);
    const e = entry(alg);
    const sizes = e.sizes;
    if (e.kty === 'AKP') {
      expect(unb64u(publicJwk.pub).length).toBe(sizes.publicKey);
      expect(unb64u(privateJwk.priv).length).toBe(sizes.privateKey);
    } else if (e.kty === 'EC') {
      expect(1 + unb64u(publicJwk.x).length + unb64u(publicJwk.y).length).toBe(sizes.publicKey); // X9.62 uncompressed
      expect(unb64u(privateJwk.d).length).toBe(sizes.privateKey);
    } else if (e.kty === 'OKP') {
      expect(unb64u(publicJwk.x).length).toBe(sizes.publicKey);
      expect(unb64u(privateJwk.d).length).toBe(sizes.privateKey);
    } else {
      expect(unb64u(publicJwk.n).length).toBe(sizes.publicKey); // modulus bytes
      // PKCS#1 RSAPrivateKey DER: its length varies by a few bytes with the leading bits of its integers.
      const der = crypto
        .createPrivateKey({ key: privateJwk as crypto.JsonWebKey, format: 'jwk' })
        .export({ type: 'pkcs1', format: 'der' });
      expect(Math.abs(der.length - sizes.privateKey)).toBeLessThanOrEqual(8);
    }
    const ecdsaDer = e.family === 'composite' && /-ES\d+$/.test(alg);
    for (let i = 0; i < (ecdsaDer ? 12 : 2); i++) {
      const sig = unb64u((await signCompact(`{"i":${i}}`, priv)).split('.')[2]);
      if (ecdsaDer) {
        // ML-DSA part + DER Ecdsa-Sig-Value: at most the registry size, at least ML-DSA + 8 bytes of DER.
        const mldsaSig = MLDSA_PARAMS[mldsaOf(alg)].signature;
        expect(sig.length).toBeLessThanOrEqual(sizes.signature);
        expect(sig.length).toBeGreaterThanOrEqual(mldsaSig + 8);
        expect(sizes.signature - mldsaSig).toBe(alg.endsWith('ES256') ? 72 : 104);
      } else {
        expect(sig.length).toBe(sizes.signature);
      }
    }
  });
});

describe('registry', () => {
  it('algorithms() lists exactly the available registry entries, and getAlgorithm finds each', () => {
    const avail = registry()
      .filter((e) => !e.unavailable())
      .map((e) => e.alg);
    expect([...algorithms()].sort()).toEqual([...avail].sort());
    for (const alg of algorithms()) expect(getAlgorithm(alg).alg).toBe(alg);
    expect(new Set(registry().map((e) => e.alg)).size).toBe(registry().length);
  });

  it('families, pq flags and kty are consistent', () => {
    for (const e of registry()) {
      expect(e.pq, e.alg).toBe(e.family !== 'classical');
      if (e.family === 'slh-dsa')
        expect(e.sizes, e.alg).toEqual({
          publicKey: SLHDSA_PARAMS[e.alg as SlhDsaAlg].publicKey,
          privateKey: SLHDSA_PARAMS[e.alg as SlhDsaAlg].secretKey,
          signature: SLHDSA_PARAMS[e.alg as SlhDsaAlg].signature,
        });
      if (e.family !== 'classical') expect(e.kty, e.alg).toBe('AKP');
      if (e.family === 'ml-dsa')
        expect(e.sizes, e.alg).toEqual({
          publicKey: MLDSA_PARAMS[e.alg as MlDsaAlg].publicKey,
          privateKey: 32,
          signature: MLDSA_PARAMS[e.alg as MlDsaAlg].signature,
        });
    }
  });

  it('the FIPS 204 sizes are the standard ones', () => {
    expect(MLDSA_PARAMS['ML-DSA-44']).toMatchObject({ publicKey: 1312, secretKey: 2560, signature: 2420 });
    expect(MLDSA_PARAMS['ML-DSA-65']).toMatchObject({ publicKey: 1952, secretKey: 4032, signature: 3309 });
    expect(MLDSA_PARAMS['ML-DSA-87']).toMatchObject({ publicKey: 2592, secretKey: 4896, signature: 4627 });
  });

  it('getAlgorithm of an unknown alg is ERR_ALG_UNSUPPORTED', async () => {
    for (const a of ['none', 'HS256', 'ML-DSA-99', '', undefined])
      await rejects(() => getAlgorithm(a as string), 'ERR_ALG_UNSUPPORTED');
  });
});

// ---- deterministic key generation --------------------------------------------------------

// ML-DSA seeds; SLH-DSA keys from seeds are covered in slh-dsa.test.ts.
const seeded = registry().filter(
  (e) => (e.family === 'ml-dsa' || e.family === 'composite') && !e.unavailable(),
);

describe.each(seeded.map((e) => [e.alg, e.family] as const))('%s from a seed', (alg, family) => {
  const seed = () => crypto.getRandomValues(new Uint8Array(32));
  const opts = (s: Uint8Array, t?: Uint8Array) =>
    family === 'composite'
      ? { seed: s, traditionalSecret: t ?? new Uint8Array(tradSecretLength(alg)).fill(3) }
      : { seed: s };

  it('the same seed gives the same keys, a different seed different ones', async () => {
    const s = seed();
    const a = await generateKeyPair(alg, opts(s));
    const b = await generateKeyPair(alg, opts(new Uint8Array(s)));
    expect(a).toEqual(b);
    const c = await generateKeyPair(alg, opts(seed()));
    expect(c.publicJwk.pub).not.toBe(a.publicJwk.pub);
    expect(c.privateJwk.priv).not.toBe(a.privateJwk.priv);
    expect(c.publicJwk.kid).not.toBe(a.publicJwk.kid);
    // The private JWK holds the seed itself.
    expect(unb64u(a.privateJwk.priv).subarray(0, 32)).toEqual(s);
  });

  it('the ML-DSA public key is FIPS 204 KeyGen of the seed, the same on every backend', async () => {
    const s = seed();
    const { publicJwk } = await generateKeyPair(alg, opts(s));
    const pub = unb64u(publicJwk.pub);
    const set = mldsaOf(alg);
    for (const b of backends().filter((x) => x.available)) {
      const { publicKey } = await mldsa.keygen(set, s, { backend: b.name });
      expect(b64u(pub.subarray(0, MLDSA_PARAMS[set].publicKey)), b.name).toBe(b64u(publicKey));
    }
  });

  it('seeds of the wrong length are refused', async () => {
    for (const n of [16, 31, 33]) {
      let err: unknown;
      await generateKeyPair(alg, opts(new Uint8Array(n))).catch((e) => {
        err = e;
      });
      expect(err).toBeInstanceOf(PqidError);
      expect(['ERR_INVALID_ARGUMENT', 'ERR_JWK_INVALID']).toContain((err as PqidError).code);
    }
  });
});

const composites = seeded.filter((e) => e.family === 'composite').map((e) => e.alg);

describe.each(composites)('%s traditional half', (alg) => {
  const seed = () => crypto.getRandomValues(new Uint8Array(32));
  const opts = (s: Uint8Array, t: Uint8Array) => ({ seed: s, traditionalSecret: t });

  it('the traditional secret determines the traditional half only', async () => {
    const s = seed();
    const n = tradSecretLength(alg);
    const t1 = crypto.getRandomValues(new Uint8Array(n));
    const t2 = crypto.getRandomValues(new Uint8Array(n));
    const a = await generateKeyPair(alg, opts(s, t1));
    const b = await generateKeyPair(alg, opts(s, t2));
    const a2 = await generateKeyPair(alg, opts(s, t1));
    expect(a2).toEqual(a);
    const m = MLDSA_PARAMS[mldsaOf(alg)].publicKey;
    const pa = unb64u(a.publicJwk.pub);
    const pb = unb64u(b.publicJwk.pub);
    expect(b64u(pa.subarray(0, m))).toBe(b64u(pb.subarray(0, m)));
    expect(b64u(pa.subarray(m))).not.toBe(b64u(pb.subarray(m)));
    // The traditional half is the public key node:crypto derives from that secret.
    const suffix = alg.split('-').at(-1) as string;
    let expected: Uint8Array;
    if (suffix === 'Ed25519' || suffix === 'Ed448') {
      const prefix =
        suffix === 'Ed25519' ? '302e020100300506032b657004220420' : '3047020100300506032b6571043b0439';
      const key = crypto.createPrivateKey({
        key: Buffer.concat([Buffer.from(prefix, 'hex'), t1]),
        format: 'der',
        type: 'pkcs8',
      });
      const spki = crypto.createPublicKey(key).export({ format: 'der', type: 'spki' });
      expected = new Uint8Array(spki.subarray(spki.length - n));
    } else {
      const ecdh = crypto.createECDH(suffix === 'ES256' ? 'prime256v1' : 'secp384r1');
      ecdh.setPrivateKey(t1);
      expected = new Uint8Array(ecdh.getPublicKey()); // 0x04 ‖ x ‖ y
    }
    expect(b64u(pa.subarray(m))).toBe(b64u(expected));
  });
});

it('classical algorithms refuse seeds; pure ML-DSA refuses a traditional secret', async () => {
  for (const alg of ALGS.filter((a) => entry(a).family === 'classical')) {
    await rejects(() => generateKeyPair(alg, { seed: new Uint8Array(32) }), 'ERR_INVALID_ARGUMENT');
  }
  for (const alg of ALGS.filter((a) => entry(a).family === 'ml-dsa')) {
    await rejects(
      () => generateKeyPair(alg, { seed: new Uint8Array(32), traditionalSecret: new Uint8Array(32) }),
      'ERR_INVALID_ARGUMENT',
    );
  }
  await rejects(() => generateKeyPair('HS256'), 'ERR_ALG_UNSUPPORTED');
});

// ---- secret hygiene ----------------------------------------------------------------------

describe.each(ALGS)('%s PrivateKey handles keep their secret', (alg) => {
  /** Every private member value, plus the raw secret bytes in hex and base64 forms. */
  const secrets = () => {
    const { privateJwk } = fx(alg);
    const out: string[] = [];
    for (const m of PRIVATE_MEMBERS) {
      const v = privateJwk[m];
      if (typeof v !== 'string') continue;
      out.push(
        v,
        Buffer.from(v, 'base64url').toString('hex'),
        Buffer.from(v, 'base64url').toString('base64'),
      );
    }
    expect(out.length).toBeGreaterThan(0);
    return out;
  };
  const leaks = (text: string) => secrets().filter((s) => text.includes(s));

  it('JSON.stringify throws ERR_SECRET_SERIALIZATION, also when nested', async () => {
    const { priv } = fx(alg);
    for (const v of [priv, { key: priv }, [priv], { deep: { er: [priv] } }]) {
      let err: unknown;
      try {
        JSON.stringify(v);
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(PqidError);
      expect((err as PqidError).code).toBe('ERR_SECRET_SERIALIZATION');
    }
    // The public half serializes to its public JWK.
    expect(JSON.parse(JSON.stringify(priv.publicKey))).toEqual(fx(alg).publicJwk);
  });

  it('String(), template literals, util.inspect and console formats do not contain the secret', () => {
    const { priv } = fx(alg);
    const texts = [
      String(priv),
      `${priv}`,
      inspect(priv),
      inspect(priv, { showHidden: true, depth: Number.POSITIVE_INFINITY, getters: true }),
      inspect({ wrapped: { priv } }, { depth: 10 }),
      inspect(priv, { customInspect: false, showHidden: true, depth: 6, getters: true }),
      format('%o %O %s %j', priv, priv, priv, priv.publicKey),
    ];
    for (const t of texts) expect(leaks(t), t.slice(0, 200)).toEqual([]);
    expect(String(priv)).toContain(priv.kid);
  });

  it('own properties (Object.keys, spread, structuredClone, reflection) do not expose the secret', () => {
    const { priv } = fx(alg);
    expect(Object.keys(priv).some((k) => PRIVATE_MEMBERS.includes(k))).toBe(false);
    const spread = { ...priv };
    expect(leaks(JSON.stringify(spread, (_k, v) => (typeof v === 'function' ? undefined : v)))).toEqual([]);
    expect(
      leaks(inspect(structuredClone({ ...spread, entry: undefined, publicKey: undefined }), { depth: 10 })),
    ).toEqual([]);
    // Walk everything reachable through own (enumerable or not) string/symbol keys.
    const seen = new Set<unknown>();
    const found: string[] = [];
    const secretHex = new Set(secrets().filter((s) => /^[0-9a-f]+$/.test(s)));
    const walk = (v: unknown, path: string, depth: number) => {
      if (v === null || (typeof v !== 'object' && typeof v !== 'function') || seen.has(v) || depth > 6) {
        if (typeof v === 'string' && leaks(v).length) found.push(path);
        return;
      }
      seen.add(v);
      if (
        v instanceof Uint8Array &&
        (secretHex.has(Buffer.from(v).toString('hex')) || leaks(Buffer.from(v).toString('hex')).length)
      )
        found.push(path);
      for (const k of Reflect.ownKeys(v as object)) {
        const d = Object.getOwnPropertyDescriptor(v, k);
        if (d && 'value' in d) walk(d.value, `${path}.${String(k)}`, depth + 1);
      }
    };
    walk(priv, 'priv', 0);
    expect(found).toEqual([]);
  });
});
