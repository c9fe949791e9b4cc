import { randomBytes } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, describe, expect, it } from 'vitest';
import { createIdp } from '../src/app.ts';
import { ConfigError } from '../src/config/index.ts';
import { KEK, tempDir, testConfig } from './helpers.ts';

// SAML (on by default) publishes keys of its own; these tests count the OIDC ones only.
const NO_SAML = { saml: { enabled: false } };

describe('key manager', () => {
  const cleanups: Array<() => void> = [];
  afterEach(() => {
    for (const c of cleanups.splice(0)) c();
  });
  const dir = () => {
    const t = tempDir();
    cleanups.push(t.cleanup);
    return t.dir;
  };

  it('generates ML-DSA-65 on first start, encrypts it at rest, reuses it on the next start', async () => {
    const d = dir();
    const first = await createIdp(testConfig(d, NO_SAML), { env: { PQID_KEK: KEK }, warn: () => {} });
    // The signing keys (the enc set's are encryption-keys.test.ts's).
    const jwks = first.ctx.keys.publicKeys('oidc');
    expect(first.createdKeys).toHaveLength(3);
    expect(jwks.keys).toHaveLength(1);
    expect(jwks.keys[0]).toMatchObject({ kty: 'AKP', alg: 'ML-DSA-65', use: 'sig' });
    expect(jwks.keys[0]).not.toHaveProperty('priv');
    await first.close();

    // Nothing in the database file is a usable private key.
    const db = new DatabaseSync(join(d, 'pqid.sqlite'));
    const raw = (
      db.prepare("SELECT payload FROM records WHERE model = 'SigningKey'").all() as Array<{ payload: string }>
    ).map((r) => r.payload);
    db.close();
    expect(raw).toHaveLength(3);
    for (const row of raw) {
      expect(JSON.parse(row).privateJwk).toMatchObject({ v: 1, alg: 'A256GCM' });
      expect(row).not.toContain('"priv"');
      expect(row).not.toContain('"d"');
    }

    const second = await createIdp(testConfig(d, NO_SAML), { env: { PQID_KEK: KEK }, warn: () => {} });
    expect(second.createdKeys).toEqual([]);
    expect(second.ctx.keys.publicKeys('oidc')).toEqual(jwks);
    const signer = await second.ctx.keys.signingKey('ML-DSA-65');
    expect(signer.kid).toBe(jwks.keys[0]?.kid);
    await second.close();
  });

  it('refuses to start with the wrong KEK', async () => {
    const d = dir();
    await (await createIdp(testConfig(d, NO_SAML), { env: { PQID_KEK: KEK }, warn: () => {} })).close();
    const other = randomBytes(32).toString('base64');
    await expect(
      createIdp(testConfig(d, NO_SAML), { env: { PQID_KEK: other }, warn: () => {} }),
    ).rejects.toThrow(/cannot decrypt signing key/);
  });

  it('validates PQID_KEK', async () => {
    await expect(
      createIdp(testConfig(dir(), NO_SAML), { env: { PQID_KEK: 'c2hvcnQ=' }, warn: () => {} }),
    ).rejects.toThrow(/PQID_KEK must be 32 bytes/);
  });

  it('without PQID_KEK generates a 0600 KEK file on first start only, with a warning', async () => {
    const d = dir();
    const warnings: string[] = [];
    const first = await createIdp(testConfig(d, NO_SAML), { env: {}, warn: (m) => warnings.push(m) });
    expect(first.kek.source).toBe('generated');
    expect(warnings.join()).toMatch(/generated a key-encryption key/);
    const file = join(d, 'kek.key');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(Buffer.from(readFileSync(file, 'utf8').trim(), 'base64')).toHaveLength(32);
    const kid = first.ctx.keys.jwks().keys[0]?.kid;
    await first.close();

    const second = await createIdp(testConfig(d, NO_SAML), { env: {}, warn: () => {} });
    expect(second.kek.source).toBe('file');
    expect(second.ctx.keys.jwks().keys[0]?.kid).toBe(kid);
    await second.close();
  });

  it('will not mint a new KEK when keys already exist', async () => {
    const d = dir();
    await (await createIdp(testConfig(d, NO_SAML), { env: { PQID_KEK: KEK }, warn: () => {} })).close();
    const err = await createIdp(testConfig(d, NO_SAML), { env: {}, warn: () => {} }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConfigError);
    expect(String(err)).toMatch(/no key-encryption key was found/);
  });

  it('publishes one key per algorithm clients use, before they use it', async () => {
    const d = dir();
    const idp = await createIdp(testConfig(d, NO_SAML), { env: { PQID_KEK: KEK }, warn: () => {} });
    await idp.ctx.keys.ensure(['ES256', 'ML-DSA-44', 'ES256']);
    const algs = idp.ctx.keys.publicKeys('oidc').keys.map((k) => k.alg);
    expect(algs.sort()).toEqual(['ES256', 'ML-DSA-44', 'ML-DSA-65']);
    await expect(idp.ctx.keys.signingKey('HS256')).rejects.toThrow(/not available/);
    await idp.close();
  });
});
