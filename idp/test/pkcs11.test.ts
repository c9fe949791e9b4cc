/**
 * The PKCS#11 signer against a real soft token: kryoptic, built by
 * scripts/pkcs11-token.sh (CI builds it; locally the test is skipped, saying so, until it is).
 * Keys are generated on the token as sensitive and non-extractable; ID and access tokens, the
 * SLH-DSA root's certificates and the metadata are signed there, and checked with independent
 * verifiers (@noble/post-quantum, OpenSSL). The key material never reaches the IdP's store.
 */
import { execFileSync } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { existsSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { ml_dsa65 } from '@noble/post-quantum/ml-dsa.js';
import { createLocalJWKSet, type Jwk, verifyJwt } from '@pqid/jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerClient } from '../src/app.ts';
import type { KeyRecord } from '../src/keys/key-manager.ts';
import { CK, type Pkcs11Api } from '../src/keys/pkcs11.ts';
import { SamlCertificates } from '../src/saml/certificates.ts';
import { basicAuth, form, startTestIdp, tempDir } from './helpers.ts';

const repo = join(import.meta.dirname, '..', '..');
const LIBRARY =
  process.env.PQID_TEST_PKCS11_MODULE ??
  (() => {
    try {
      return execFileSync(join(repo, 'scripts', 'pkcs11-token.sh'), ['path'], { encoding: 'utf8' }).trim();
    } catch {
      return undefined;
    }
  })();
const pkcs11js = (() => {
  try {
    return createRequire(import.meta.url)('pkcs11js') as { PKCS11: new () => Pkcs11Api };
  } catch {
    return undefined;
  }
})();
const SKIP =
  !LIBRARY || !existsSync(LIBRARY)
    ? 'PKCS#11 test skipped: no soft token; build it with `scripts/pkcs11-token.sh build` (about 7 minutes; CI does)'
    : !pkcs11js
      ? 'PKCS#11 test skipped: the optional pkcs11js package is not installed (npm install pkcs11js)'
      : undefined;
if (SKIP && process.env.CI) throw new Error(`${SKIP} — but CI must run it (.ci/run builds the token)`);

const TOKEN = 'pqid-test';
const PIN = '12345678';
const SO_PIN = '87654321';

/** A fresh kryoptic token in `dir`: initialised, with a user PIN. */
function initToken(dir: string): Record<string, string> {
  const conf = join(dir, 'token.conf');
  writeFileSync(
    conf,
    `[[slots]]\nslot = 1\ndescription = "pqid test token"\nmanufacturer = "kryoptic"\ndbtype = "sqlite"\ndbargs = "${join(dir, 'token.sql')}"\n`,
  );
  process.env.KRYOPTIC_CONF = conf;
  const p11 = new (pkcs11js as { PKCS11: new () => Pkcs11Api }).PKCS11();
  const p = CK;
  p11.load(LIBRARY as string);
  p11.C_Initialize({ flags: p.CKF_OS_LOCKING_OK });
  try {
    const [slot] = p11.C_GetSlotList(false);
    if (!slot) throw new Error('the token module lists no slot');
    // C_InitToken reads exactly 32 bytes of label: pkcs11js does not pad it.
    p11.C_InitToken(slot, SO_PIN, TOKEN.padEnd(32, ' '));
    const so = p11.C_OpenSession(slot, p.CKF_SERIAL_SESSION | p.CKF_RW_SESSION);
    p11.C_Login(so, p.CKU_SO, SO_PIN);
    p11.C_InitPIN(so, PIN);
    p11.C_Logout(so);
    p11.C_CloseSession(so);
  } finally {
    p11.C_Finalize();
  }
  return { KRYOPTIC_CONF: conf };
}

describe.skipIf(!!SKIP)('PKCS#11 signer (kryoptic soft token)', () => {
  const d = tempDir();
  let t: Awaited<ReturnType<typeof startTestIdp>>;
  beforeAll(async () => {
    const env = initToken(d.dir);
    process.env.PQID_TEST_HSM_PIN = PIN;
    t = await startTestIdp(
      {
        keys: {
          signers: {
            hsm: { type: 'pkcs11', library: LIBRARY, token: TOKEN, pinEnv: 'PQID_TEST_HSM_PIN', env },
          },
          custody: { oidc: 'hsm', root: 'hsm' },
          placement: { cold: 'SLH-DSA-SHA2-128s' },
        } as never,
      },
      { PQID_KEK: (await import('./helpers.ts')).KEK, PQID_TEST_HSM_PIN: PIN },
    );
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    delete process.env.PQID_TEST_HSM_PIN;
    d.cleanup();
  });

  it('signs ML-DSA-65 and ES256 tokens on the token; independent verifiers accept them', async () => {
    for (const alg of ['ML-DSA-65', 'ES256']) {
      const { clientSecret } = await registerClient(t.idp.ctx, {
        client_id: `hsm-${alg}`,
        redirect_uris: [],
        grant_types: ['client_credentials'],
        access_token_format: 'jwt',
        id_token_signed_response_alg: alg,
      });
      const r = await t.idp.app.inject({
        method: 'POST',
        url: '/token',
        ...form(
          { grant_type: 'client_credentials' },
          { authorization: basicAuth(`hsm-${alg}`, clientSecret as string) },
        ),
      });
      expect(r.statusCode).toBe(200);
      const at = r.json().access_token as string;
      const [h, p, s] = at.split('.') as [string, string, string];
      const kid = JSON.parse(Buffer.from(h, 'base64url').toString()).kid as string;
      expect(t.idp.ctx.keys.list().find((k) => k.kid === kid)?.custody).toBe('external:hsm');
      if (alg === 'ML-DSA-65') {
        const jwk = t.idp.ctx.keys.jwks().keys.find((k) => k.kid === kid) as Jwk;
        expect(
          ml_dsa65.verify(
            Buffer.from(s, 'base64url'),
            Buffer.from(`${h}.${p}`),
            Buffer.from(jwk.pub as string, 'base64url'),
          ),
        ).toBe(true);
      }
      await expect(
        verifyJwt(at, await createLocalJWKSet(t.idp.ctx.keys.jwks()), { algorithms: [alg] }),
      ).resolves.toBeTruthy();
    }
  }, 60_000);

  it('the SLH-DSA root lives on the token: it certifies the SAML keys and signs the metadata', async () => {
    const root = await new SamlCertificates(t.idp.ctx).root();
    expect(root.alg).toBe('SLH-DSA-SHA2-128s');
    expect(t.idp.ctx.keys.list('root').find((k) => k.kid === root.kid)?.custody).toBe('external:hsm');
    const rootCert = new X509Certificate(root.certificate);
    expect(rootCert.verify(rootCert.publicKey)).toBe(true);
    const leaf = new X509Certificate((await new SamlCertificates(t.idp.ctx).signer('ML-DSA-65')).certificate);
    expect(leaf.verify(rootCert.publicKey)).toBe(true);
    expect((await t.idp.app.inject('/saml/metadata')).body).toContain('slh-dsa-sha2-128s');
  }, 120_000);

  it('keys on the token are sensitive and not extractable; the store holds a label only', async () => {
    const rows = (await t.idp.ctx.storage.adapter('SigningKey').list()).map((r) => r.payload as KeyRecord);
    const external = rows.filter((r) => r.external);
    expect(external.length).toBeGreaterThan(0);
    for (const r of external) {
      expect(r.privateJwk).toBeUndefined();
      expect(r.external).toMatchObject({ signer: 'hsm', ref: expect.stringMatching(/^pqid-/) });
    }
    // Ask the token for a private key's value the way an attacker in the process could.
    const p11 = new (pkcs11js as { PKCS11: new () => Pkcs11Api }).PKCS11();
    const p = CK;
    p11.load(LIBRARY as string);
    // The IdP's provider initialised the module in this process already.
    try {
      p11.C_Initialize({ flags: p.CKF_OS_LOCKING_OK });
    } catch (e) {
      expect(String((e as Error).message)).toMatch(/ALREADY_INITIALIZED/);
    }
    const [slot] = p11.C_GetSlotList(true);
    const s = p11.C_OpenSession(slot as Buffer, p.CKF_SERIAL_SESSION);
    const label = (external[0] as KeyRecord & { external: { ref: string } }).external.ref;
    p11.C_FindObjectsInit(s, [
      { type: p.CKA_CLASS, value: p.CKO_PRIVATE_KEY },
      { type: p.CKA_LABEL, value: label },
    ]);
    const [priv] = p11.C_FindObjects(s, 1);
    p11.C_FindObjectsFinal(s);
    expect(priv).toBeDefined();
    const attr = (type: number) => p11.C_GetAttributeValue(s, priv as Buffer, [{ type }])[0]?.value as Buffer;
    expect(attr(p.CKA_SENSITIVE)[0]).toBe(1);
    expect(attr(p.CKA_EXTRACTABLE)[0]).toBe(0);
    expect(() => p11.C_GetAttributeValue(s, priv as Buffer, [{ type: p.CKA_VALUE }])).toThrow(/SENSITIVE/);
    p11.C_CloseSession(s);
  });
});
