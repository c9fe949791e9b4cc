/**
 * The IdP's own encryption keys: the `enc` key set, next to the signing sets. Made for each
 * configured JWE algorithm, sealed under the KEK like sealed signing keys, published in /jwks
 * with `use: "enc"` and their `alg`, rotated with `--set enc`, and usable for decryption until
 * a retired key leaves /jwks.
 */
import { randomBytes } from 'node:crypto';
import { encryptCompact, encryptionKeysFor, importJwks } from '@pqid/jose';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config/index.ts';
import type { Kek } from '../src/crypto/kek.ts';
import { KeyManager, UnknownKeySet } from '../src/keys/key-manager.ts';
import { SqliteStorage } from '../src/storage/sqlite.ts';
import { startTestIdp } from './helpers.ts';

const kek: Kek = { key: randomBytes(32), source: 'env' };

describe('the enc key set', () => {
  const stores: SqliteStorage[] = [];
  afterEach(async () => {
    for (const s of stores.splice(0)) await s.close();
  });
  let t = 1_000_000;
  function manager() {
    const storage = new SqliteStorage(':memory:');
    stores.push(storage);
    const km = new KeyManager(storage.adapter('SigningKey'), kek, {
      now: () => t,
      prepublish: 600,
      retention: { tokens: 3600, cold: 86400 },
    });
    return { km, storage };
  }

  it('publishes one key per configured algorithm at start, use "enc" with its alg, in /jwks', async () => {
    const idp = await startTestIdp();
    try {
      const res = await idp.idp.app.inject({ method: 'GET', url: '/jwks' });
      const keys = res.json().keys as Array<Record<string, unknown>>;
      const enc = keys.filter((k) => k.use === 'enc');
      expect(enc.map((k) => k.alg).sort()).toEqual(['ECDH-ES+A256KW', 'HPKE-9']);
      expect(enc.find((k) => k.alg === 'HPKE-9')).toMatchObject({ kty: 'AKP' });
      expect(enc.find((k) => k.alg === 'ECDH-ES+A256KW')).toMatchObject({ kty: 'EC', crv: 'P-256' });
      for (const k of enc) expect(Object.keys(k)).not.toContain('priv');
      for (const k of enc) expect(Object.keys(k)).not.toContain('d');
      // Signature verifiers skip them: they are not signing keys.
      const sigKids = (await importJwks({ keys })).map((k) => k.kid);
      for (const k of enc) expect(sigKids).not.toContain(k.kid);
      // A client picks the key for its alg out of the published set.
      expect(await encryptionKeysFor({ keys }, 'HPKE-9')).toHaveLength(1);
    } finally {
      await idp.close();
    }
  });

  it('seals the private key under the KEK: the stored record holds no plaintext key', async () => {
    const { km, storage } = manager();
    const [kid] = await km.ensure(['HPKE-9'], 'enc');
    const rows = await storage.adapter('SigningKey').list();
    const row = rows.find((r) => r.payload.kid === kid)?.payload as Record<string, unknown>;
    expect(row).toMatchObject({ set: 'enc', use: 'enc', alg: 'HPKE-9', kty: 'AKP' });
    expect((row.publicJwk as Record<string, unknown>).priv).toBeUndefined();
    const sealed = JSON.stringify(row.privateJwk);
    expect(sealed).not.toContain('"priv"');
    // A second manager with the same KEK opens it and decrypts what was encrypted to the first.
    const [key] = await km.decryptionKeys('HPKE-9');
    if (!key) throw new Error('no HPKE-9 key');
    const jwe = await encryptCompact('secret', key.publicKey);
    const other = new KeyManager(storage.adapter('SigningKey'), kek, { now: () => t });
    await other.load();
    const [reopened] = await other.decryptionKeys('HPKE-9');
    expect(reopened?.kid).toBe(kid);
    // A manager with another KEK cannot open it.
    const wrong = new KeyManager(storage.adapter('SigningKey'), { key: randomBytes(32), source: 'env' });
    await expect(wrong.load()).rejects.toThrow();
    expect(jwe.split('.')).toHaveLength(5);
  });

  it('never signs with an encryption key, and refuses a signing algorithm in the enc set', async () => {
    const { km } = manager();
    await km.ensure(['HPKE-9'], 'enc');
    await expect(km.signingKey('HPKE-9', 'enc')).rejects.toBeInstanceOf(UnknownKeySet);
    await expect(km.ensure(['ML-DSA-65'], 'enc')).rejects.toThrow(/not in the JWE registry/);
    await expect(km.ensure(['HPKE-9'], 'oidc')).rejects.toThrow(/not available/);
  });

  it('rotates with set enc only; a retired key decrypts until it leaves /jwks', async () => {
    t = 1_000_000;
    const { km } = manager();
    await km.ensure(['ML-DSA-44']);
    await km.ensure(['HPKE-9'], 'enc');
    const [first] = await km.decryptionKeys();
    // A rotation without a set leaves the enc set alone.
    await km.rotate();
    expect(km.list('enc')).toHaveLength(1);
    const rotated = await km.rotate(undefined, { set: 'enc' });
    expect(rotated.map((k) => [k.set, k.alg, k.status])).toEqual([['enc', 'HPKE-9', 'next']]);
    // Next: published, and decrypts (a client may pick it as soon as it is in /jwks).
    expect((await km.decryptionKeys()).map((k) => k.kid).sort()).toEqual(
      [first?.kid, rotated[0]?.kid].sort(),
    );
    t += 600; // the new key is active, the first retired
    expect(km.list('enc').find((k) => k.kid === first?.kid)?.status).toBe('retired');
    expect((await km.decryptionKeys()).map((k) => k.kid)).toContain(first?.kid);
    t += 3600; // past its retention: out of /jwks, and no longer a decryption key
    expect(km.jwks().keys.map((k) => k.kid)).not.toContain(first?.kid);
    expect((await km.decryptionKeys()).map((k) => k.kid)).toEqual([rotated[0]?.kid]);
  });

  it('refuses KMS/HSM custody for the enc set in the configuration', () => {
    expect(() => loadConfig({ env: {}, overrides: { keys: { custody: { enc: 'kms' } } } as never })).toThrow(
      /encryption keys are sealed/,
    );
    expect(() =>
      loadConfig({ env: {}, overrides: { keys: { encryptionAlgs: ['ML-DSA-65'] } } as never }),
    ).toThrow(/encryptionAlgs/);
  });
});
