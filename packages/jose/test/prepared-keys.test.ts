/**
 * Prepared keys: the raw API's `mldsa.prepareKey`, and the promise behind it: a key is expanded
 * (FIPS 204 KeyGen from its seed) once, never per signature. `mldsa.stats().seedExpansions`
 * counts every expansion on every backend.
 */
import crypto from 'node:crypto';
import { inspect } from 'node:util';
import {
  algorithms,
  generateKeyPair,
  importJWK,
  MLDSA_PARAMS,
  type MlDsaAlg,
  MlDsaSecretKey,
  mldsa,
  type PrivateKey,
  signJwt,
  verifyJwt,
} from '@pqid/jose';
import { describe, expect, it } from 'vitest';
import { rejects } from './helpers/assert.ts';
import { availableBackends, onBackend } from './helpers/backends.ts';

const ALGS = Object.keys(MLDSA_PARAMS) as MlDsaAlg[];
const expansions = () => mldsa.stats().seedExpansions;
const msg = new TextEncoder().encode('prepared');

describe('mldsa.prepareKey', () => {
  describe.each(availableBackends().map((b) => [b.name] as const))('on %s', (backend) => {
    it.each(ALGS)('%s: one expansion, then signatures that verify and match the bytes form', async (alg) => {
      const seed = new Uint8Array(crypto.randomBytes(32));
      const { publicKey } = await mldsa.keygen(alg, seed, { backend });
      const before = expansions();
      const key = mldsa.prepareKey(alg, seed, { backend });
      expect(expansions()).toBe(before + 1);
      expect(key).toBeInstanceOf(MlDsaSecretKey);
      expect(key.publicKey && Buffer.from(key.publicKey).equals(publicKey)).toBe(true);
      for (let i = 0; i < 20; i++) {
        const sig = await mldsa.sign(alg, key, msg, { backend });
        expect(await mldsa.verify(alg, publicKey, msg, sig)).toBe(true);
      }
      mldsa.signSync(alg, key, msg, { backend });
      expect(expansions()).toBe(before + 1);
      seed.fill(0); // the prepared key holds its own copy
      const caps = availableBackends().find((b) => b.name === backend)?.capabilities;
      if (caps?.rnd) {
        const a = await mldsa.sign(alg, key, msg, { backend, deterministic: true });
        const b = await mldsa.sign(alg, new Uint8Array(32), msg, { backend, deterministic: true });
        const c = await mldsa.sign(alg, mldsa.prepareKey(alg, new Uint8Array(32), { backend }), msg, {
          backend,
          deterministic: true,
        });
        expect(Buffer.from(a).equals(Buffer.from(b))).toBe(false); // the copy was not zeroed
        expect(Buffer.from(b).equals(Buffer.from(c))).toBe(true);
      }
    });
  });

  it('the bytes form expands the seed on every call (what prepareKey is for)', async () => {
    const before = expansions();
    for (let i = 0; i < 5; i++) await mldsa.sign('ML-DSA-44', new Uint8Array(32), msg);
    expect(expansions()).toBe(before + 5);
  });

  it('a prepared key is used on whichever backend signs; each prepares it once', async () => {
    const key = mldsa.prepareKey('ML-DSA-65', new Uint8Array(32).fill(1));
    const before = expansions();
    for (const b of availableBackends()) {
      for (let i = 0; i < 3; i++) await mldsa.sign('ML-DSA-65', key, msg, { backend: b.name });
    }
    const { result: det } = await onBackend('noble', () =>
      mldsa.sign('ML-DSA-65', key, msg, { deterministic: true }),
    );
    expect(det.length).toBe(MLDSA_PARAMS['ML-DSA-65'].signature);
    // The default backend prepared it already; every other one once.
    expect(expansions() - before).toBeLessThanOrEqual(availableBackends().length - 1);
  });

  it('takes an expanded key (no expansion), and a JOSE PrivateKey (its own prepared key)', async () => {
    const { privateJwk } = await generateKeyPair('ML-DSA-44');
    const handle = (await importJWK(privateJwk)) as PrivateKey;
    const fromHandle = mldsa.prepareKey('ML-DSA-44', handle);
    expect(mldsa.prepareKey('ML-DSA-44', handle)).toBe(fromHandle);
    const before = expansions();
    const sig = await mldsa.sign('ML-DSA-44', fromHandle, msg);
    await signJwt({ sub: 'x' }, handle);
    expect(expansions()).toBe(before);
    const pub = new Uint8Array(Buffer.from(privateJwk.pub as string, 'base64url'));
    expect(await mldsa.verify('ML-DSA-44', pub, msg, sig)).toBe(true);
    const noble = await import('@noble/post-quantum/ml-dsa.js');
    const expanded = noble.ml_dsa44.keygen(new Uint8Array(32)).secretKey;
    const k = mldsa.prepareKey('ML-DSA-44', expanded);
    expect(k.fromSeed).toBe(false);
    expect(expansions()).toBe(before);
    expect(
      await mldsa.verify(
        'ML-DSA-44',
        noble.ml_dsa44.keygen(new Uint8Array(32)).publicKey,
        msg,
        await mldsa.sign('ML-DSA-44', k, msg),
      ),
    ).toBe(true);
  });

  it('bad input is a typed error; the key never serialises', async () => {
    const key = mldsa.prepareKey('ML-DSA-44', new Uint8Array(32));
    await rejects(() => mldsa.sign('ML-DSA-65', key, msg), 'ERR_KEY_MISMATCH');
    expect(() => mldsa.signSync('ML-DSA-87', key, msg)).toThrow(
      expect.objectContaining({ code: 'ERR_KEY_MISMATCH' }),
    );
    expect(() => mldsa.prepareKey('ML-DSA-44', new Uint8Array(31))).toThrow(
      expect.objectContaining({ code: 'ERR_INVALID_ARGUMENT' }),
    );
    expect(() => mldsa.prepareKey('ML-DSA-99' as MlDsaAlg, new Uint8Array(32))).toThrow(
      expect.objectContaining({ code: 'ERR_ALG_UNSUPPORTED' }),
    );
    const composite = (await importJWK(
      (
        await generateKeyPair('ML-DSA-44-Ed25519')
      ).privateJwk,
    )) as PrivateKey;
    expect(() => mldsa.prepareKey('ML-DSA-44', composite)).toThrow(
      expect.objectContaining({ code: 'ERR_KEY_MISMATCH' }),
    );
    const es = (await importJWK((await generateKeyPair('ES256')).privateJwk)) as PrivateKey;
    expect(() => mldsa.prepareKey('ML-DSA-44', es)).toThrow(
      expect.objectContaining({ code: 'ERR_KEY_MISMATCH' }),
    );
    expect(() => JSON.stringify({ key })).toThrow(
      expect.objectContaining({ code: 'ERR_SECRET_SERIALIZATION' }),
    );
    expect(inspect(key)).toBe('[MlDsaSecretKey ML-DSA-44]');
    expect(`${key}`).toBe('[MlDsaSecretKey ML-DSA-44]');
    expect(Object.keys(key)).toEqual(['alg']);
    expect(
      () =>
        new (MlDsaSecretKey as unknown as new (...a: unknown[]) => unknown)(
          Symbol(),
          'ML-DSA-44',
          new Uint8Array(32),
        ),
    ).toThrow(TypeError);
  });
});

describe('JOSE keys expand once at import, never per signature', () => {
  describe.each(availableBackends().map((b) => [b.name] as const))('on %s', (backend) => {
    it.each(algorithms().filter((a) => a.startsWith('ML-DSA')))('%s', async (alg) => {
      await onBackend(backend, async () => {
        const { privateJwk, publicJwk } = await generateKeyPair(alg);
        const before = expansions();
        const key = (await importJWK(privateJwk)) as PrivateKey;
        expect(expansions() - before, 'import').toBe(1);
        const pub = await importJWK(publicJwk);
        for (let i = 0; i < 10; i++) {
          const token = await signJwt({ sub: `u${i}` }, key);
          await verifyJwt(token, pub, { algorithms: [alg] });
        }
        // Deterministic signing needs rnd support; node:crypto has none, so there it would move to
        // another backend (which prepares the key once more): not what this test is about.
        const rnd = availableBackends().find((b) => b.name === backend)?.capabilities.rnd;
        if (rnd) await signJwt({ sub: 'd' }, key, { deterministic: true });
        expect(expansions() - before, 'after the signatures').toBe(1);
      });
    });
  });
});
