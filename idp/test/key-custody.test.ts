/**
 * The key manager signs through the signer interface: sealed keys through the
 * local signer, KMS-style keys through a configured external provider — here test-kms, a module
 * signer with @pqid/jose's local signer behind it (no KMS is reachable from CI). Tokens are
 * checked with independent verifiers (@noble/post-quantum for ML-DSA, panva's jose for ES256);
 * with deterministic signing, a μ-only signer produces the very bytes the local signer does.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ml_dsa65 } from '@noble/post-quantum/ml-dsa.js';
import { createLocalJWKSet, exportJWK, type Jwk, mldsa, verifyJwt } from '@pqid/jose';
import * as jose from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerClient } from '../src/app.ts';
import type { KeyRecord } from '../src/keys/key-manager.ts';
import { basicAuth, form, startTestIdp, tempDir } from './helpers.ts';

const KMS_MODULE = join(import.meta.dirname, 'fixtures', 'test-kms.ts');

type TestIdp = Awaited<ReturnType<typeof startTestIdp>>;

/** An IdP whose OIDC keys are made in test-kms (keys.custody.oidc). */
async function kmsIdp(options: Record<string, unknown>, extra: Record<string, unknown> = {}) {
  const d = tempDir();
  const idp = await startTestIdp({
    keys: {
      signers: {
        kms: { type: 'module', module: KMS_MODULE, options: { file: join(d.dir, 'kms.json'), ...options } },
      },
      custody: { oidc: 'kms' },
      ...extra,
    } as never,
  });
  return {
    ...idp,
    kmsFile: join(d.dir, 'kms.json'),
    async close() {
      await idp.close();
      d.cleanup();
    },
  };
}

async function clientCredentials(t: TestIdp, alg: string): Promise<string> {
  const id = `cc-${alg}`;
  const { clientSecret } = await registerClient(t.idp.ctx, {
    client_id: id,
    redirect_uris: [],
    grant_types: ['client_credentials'],
    token_endpoint_auth_method: 'client_secret_basic',
    access_token_format: 'jwt',
    id_token_signed_response_alg: alg,
    access_token_signed_response_alg: alg,
    scope: 'api',
  });
  const r = await t.idp.app.inject({
    method: 'POST',
    url: '/token',
    ...form(
      { grant_type: 'client_credentials', scope: 'api' },
      { authorization: basicAuth(id, clientSecret as string) },
    ),
  });
  if (r.statusCode !== 200)
    throw Object.assign(new Error(`token: ${r.statusCode} ${r.body}`), { response: r });
  return r.json().access_token as string;
}

const parts = (jwt: string) => {
  const [h, p, s] = jwt.split('.') as [string, string, string];
  return {
    input: Buffer.from(`${h}.${p}`),
    sig: Buffer.from(s, 'base64url'),
    header: JSON.parse(Buffer.from(h, 'base64url').toString()),
  };
};

const jwkOf = (t: TestIdp, kid: string) => t.idp.ctx.keys.jwks().keys.find((k) => k.kid === kid) as Jwk;

describe('sealed keys sign through the local signer', () => {
  let t: TestIdp;
  beforeAll(async () => {
    t = await startTestIdp();
  }, 60_000);
  afterAll(() => t?.close());

  it('hands out delegated handles: no key material leaves the key manager', async () => {
    const key = await t.idp.ctx.keys.signingKey('ML-DSA-65');
    expect(key.delegated).toBe(true);
    expect(() => exportJWK(key)).toThrow(/delegated/);
    expect(t.idp.ctx.keys.list().find((k) => k.kid === key.kid)?.custody).toBe(
      `sealed:${t.idp.ctx.keys.kekId}`,
    );
  });

  it.each(['ML-DSA-65', 'ES256', 'ML-DSA-65-ES256'])('%s tokens verify independently', async (alg) => {
    const at = await clientCredentials(t, alg);
    const { input, sig, header } = parts(at);
    const jwk = jwkOf(t, header.kid);
    if (alg === 'ML-DSA-65')
      expect(ml_dsa65.verify(sig, input, Buffer.from(jwk.pub as string, 'base64url'))).toBe(true);
    if (alg === 'ES256')
      await expect(jose.jwtVerify(at, await jose.importJWK(jwk, 'ES256'))).resolves.toBeTruthy();
    await expect(
      verifyJwt(at, await createLocalJWKSet(t.idp.ctx.keys.jwks()), { algorithms: [alg] }),
    ).resolves.toBeTruthy();
  });
});

describe('keys in a KMS (module signer)', () => {
  it('new OIDC keys are made in the KMS; the store keeps a reference, never key material', async () => {
    const t = await kmsIdp({});
    try {
      const at = await clientCredentials(t, 'ML-DSA-65');
      const { input, sig, header } = parts(at);
      expect(ml_dsa65.verify(sig, input, Buffer.from(jwkOf(t, header.kid).pub as string, 'base64url'))).toBe(
        true,
      );
      const rows = await t.idp.ctx.storage.adapter('SigningKey').list();
      const rec = rows.map((r) => r.payload as KeyRecord).find((r) => r.kid === header.kid) as KeyRecord;
      expect(rec.external).toMatchObject({ signer: 'kms' });
      expect(rec.privateJwk).toBeUndefined();
      expect(JSON.stringify(rows.filter((r) => (r.payload as KeyRecord).external))).not.toMatch(/"priv"|"d"/);
      // The kid is the RFC 7638 thumbprint, not the KMS's name for the key.
      expect(header.kid).not.toMatch(/^kms-key/);
      expect(t.idp.ctx.keys.list().find((k) => k.kid === header.kid)?.custody).toBe('external:kms');
      // SAML and root keys stay sealed (custody is per set).
      expect(t.idp.ctx.keys.list('root').every((k) => k.custody.startsWith('sealed'))).toBe(true);
    } finally {
      await t.close();
    }
  }, 60_000);

  it('a μ-only signer (KMS EXTERNAL_MU) signs ML-DSA tokens byte for byte like the local signer', async () => {
    const d = tempDir();
    const countFile = join(d.dir, 'kinds.txt');
    writeFileSync(countFile, '');
    const t = await kmsIdp({ mode: 'mu-only', deterministic: true, countFile });
    try {
      for (const alg of ['ML-DSA-65', 'ML-DSA-44-Ed25519']) {
        const at = await clientCredentials(t, alg);
        const { input, sig, header } = parts(at);
        // The same key signing locally and deterministically gives the same signature.
        const ref = await kmsRef(t, header.kid);
        const keys = JSON.parse(readFileSync(t.kmsFile, 'utf8')) as Record<string, Jwk>;
        if (typeof ref === 'string') {
          // The same key, signing the same input locally and deterministically: the same bytes.
          const seed = Buffer.from((keys[ref] as Jwk).priv as string, 'base64url');
          const again = await mldsa.sign('ML-DSA-65', seed, input, { deterministic: true });
          expect(Buffer.from(again).equals(sig)).toBe(true);
          expect(
            ml_dsa65.verify(sig, input, Buffer.from(jwkOf(t, header.kid).pub as string, 'base64url')),
          ).toBe(true);
        } else {
          await expect(
            verifyJwt(at, await createLocalJWKSet(t.idp.ctx.keys.jwks()), { algorithms: [alg] }),
          ).resolves.toBeTruthy();
        }
      }
      const kinds = readFileSync(countFile, 'utf8').trim().split('\n');
      // Every ML-DSA request was a μ; the composite's Ed25519 half signed its message.
      expect(kinds.filter((k) => k === 'mu').length).toBeGreaterThanOrEqual(2);
      expect(new Set(kinds)).toEqual(new Set(['mu', 'message']));
    } finally {
      await t.close();
      d.cleanup();
    }
  }, 60_000);

  it('a composite keeps each half in its own KMS key', async () => {
    const t = await kmsIdp({});
    try {
      const at = await clientCredentials(t, 'ML-DSA-65-ES256');
      const { header } = parts(at);
      const ref = await kmsRef(t, header.kid);
      expect(ref).toMatchObject({ mldsa: expect.any(String), traditional: expect.any(String) });
      const keys = JSON.parse(readFileSync(t.kmsFile, 'utf8')) as Record<string, Jwk>;
      const halves = ref as { mldsa: string; traditional: string };
      expect(keys[halves.mldsa]?.alg).toBe('ML-DSA-65');
      expect(keys[halves.traditional]?.alg).toBe('ES256');
      await expect(
        verifyJwt(at, await createLocalJWKSet(t.idp.ctx.keys.jwks()), { algorithms: ['ML-DSA-65-ES256'] }),
      ).resolves.toBeTruthy();
    } finally {
      await t.close();
    }
  }, 60_000);

  it('a KMS outage is a 503 with Retry-After, not a crash; signing resumes when it is back', async () => {
    const env = 'PQID_TEST_KMS_DOWN';
    const t = await kmsIdp({ outageEnv: env });
    try {
      await clientCredentials(t, 'ML-DSA-65'); // key made, client works
      process.env[env] = '1';
      const r = await clientCredentials(t, 'ML-DSA-65').then(
        () => undefined,
        (e: { response?: { statusCode: number; headers: Record<string, unknown>; json(): unknown } }) =>
          e.response,
      );
      expect(r?.statusCode).toBe(503);
      expect(r?.headers['retry-after']).toBe('5');
      expect(r?.json()).toMatchObject({ error: 'temporarily_unavailable' });
      delete process.env[env];
      await expect(clientCredentials(t, 'ML-DSA-65')).resolves.toMatch(/\./);
    } finally {
      delete process.env[env];
      await t.close();
    }
  }, 60_000);

  it('a signer whose key is not the recorded one is refused when the key is opened', async () => {
    const t = await kmsIdp({});
    try {
      const at = await clientCredentials(t, 'ES256');
      const { header } = parts(at);
      const ref = (await kmsRef(t, header.kid)) as string;
      // Someone re-points the KMS key (another key material under the same reference).
      const keys = JSON.parse(readFileSync(t.kmsFile, 'utf8')) as Record<string, Jwk>;
      const other = await jose.generateKeyPair('ES256', { extractable: true });
      keys[ref] = { ...(await jose.exportJWK(other.privateKey)), alg: 'ES256' } as Jwk;
      writeFileSync(t.kmsFile, JSON.stringify(keys));
      const fresh = await startTestIdp({
        databaseUrl: t.idp.ctx.config.databaseUrl,
        keys: t.idp.ctx.config.keys as never,
      }).then(
        (x) => x,
        (e: Error & { code?: string }) => e,
      );
      expect(fresh).toBeInstanceOf(Error);
      expect((fresh as Error & { code?: string }).code).toBe('ERR_KEY_CUSTODY');
      expect((fresh as Error).message).toMatch(/is not key/);
    } finally {
      await t.close();
    }
  }, 60_000);
});

/** The KMS reference stored for a key. */
async function kmsRef(t: TestIdp, kid: string): Promise<string | { mldsa: string; traditional: string }> {
  const rows = await t.idp.ctx.storage.adapter('SigningKey').list();
  const rec = rows.map((r) => r.payload as KeyRecord).find((r) => r.kid === kid);
  const ext = rec?.external;
  if (!ext) throw new Error(`no external key ${kid}`);
  return 'signer' in ext ? ext.ref : { mldsa: ext.mldsa.ref, traditional: ext.traditional.ref };
}
