/**
 * The cold path: a new store's root is SLH-DSA-SHA2-128s; it certifies the
 * ML-DSA SAML keys, signs the metadata and the signed JWKS (OpenID Federation's Signed JWK Set at
 * /jwks.jwt), each signed once per change and cached. Checked with independent verifiers: OpenSSL
 * (node:crypto X509Certificate) for the certificates, @noble/post-quantum for the JWS. SLH-DSA on
 * the hot path is refused unless the operator allows it, and discovery says exactly what signs.
 */
import { X509Certificate } from 'node:crypto';
import { slh_dsa_sha2_128f, slh_dsa_sha2_128s } from '@noble/post-quantum/slh-dsa.js';
import { createLocalJWKSet, type Jwk, verifyJwt } from '@pqid/jose';
import { parseCertificate, verifyXml } from '@pqid/xmldsig';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerClient } from '../src/app.ts';
import { ClientError } from '../src/clients/clients.ts';
import { ConfigError } from '../src/config/index.ts';
import { SamlCertificates } from '../src/saml/certificates.ts';
import { registerSamlSp, SamlSpError } from '../src/saml/sps.ts';
import { basicAuth, form, startTestIdp, tempDir, testConfig } from './helpers.ts';

type TestIdp = Awaited<ReturnType<typeof startTestIdp>>;
const AUTO = { placement: { cold: 'auto' } };
const b64u = (s: string) => Buffer.from(s, 'base64url');

function jws(jwt: string) {
  const [h, p, s] = jwt.split('.') as [string, string, string];
  return {
    header: JSON.parse(b64u(h).toString()) as Record<string, unknown>,
    claims: JSON.parse(b64u(p).toString()) as Record<string, unknown>,
    input: Buffer.from(`${h}.${p}`),
    sig: b64u(s),
  };
}

describe('the cold path of a new store: an SLH-DSA root', () => {
  let t: TestIdp;
  beforeAll(async () => {
    t = await startTestIdp({ keys: { ...AUTO, signedJwks: true, coldLifetime: 86400 } as never });
  }, 60_000);
  afterAll(() => t?.close());

  it('the root is SLH-DSA-SHA2-128s; it certifies the ML-DSA SAML keys (OpenSSL verifies) and signs the metadata', async () => {
    const certs = new SamlCertificates(t.idp.ctx);
    const root = await certs.root();
    expect(root.alg).toBe('SLH-DSA-SHA2-128s');
    const rootCert = new X509Certificate(root.certificate);
    expect(rootCert.publicKey.asymmetricKeyType).toBe('slh-dsa-sha2-128s');
    expect(rootCert.verify(rootCert.publicKey)).toBe(true);
    const leaf = new X509Certificate((await certs.signer('ML-DSA-65')).certificate);
    expect(leaf.publicKey.asymmetricKeyType).toBe('ml-dsa-65');
    expect(leaf.verify(rootCert.publicKey)).toBe(true);
    expect(leaf.checkIssued(rootCert)).toBe(true);
    // A certificate from another root does not verify under this one.
    const other = await startTestIdp({ keys: AUTO as never });
    try {
      const foreign = new X509Certificate(
        (await new SamlCertificates(other.idp.ctx).signer('ML-DSA-65')).certificate,
      );
      expect(foreign.verify(rootCert.publicKey)).toBe(false);
    } finally {
      await other.close();
    }
    const xml = (await t.idp.app.inject('/saml/metadata')).body;
    const signing = /<ds:Signature[\s\S]*?<ds:X509Certificate>([^<]+)</.exec(xml)?.[1] as string;
    expect(parseCertificate(signing).publicKey.alg).toBe('SLH-DSA-SHA2-128s');
    expect(() =>
      verifyXml(xml, { trustedCertificates: [root.certificate], allowedAlgorithms: ['SLH-DSA-SHA2-128s'] }),
    ).not.toThrow();
    expect(xml).toContain('slh-dsa-sha2-128s');
  });

  it('serves the JWKS as a Signed JWK Set, signed by the root, advertised as signed_jwks_uri', async () => {
    const disco = (await t.idp.app.inject('/.well-known/openid-configuration')).json();
    expect(disco.signed_jwks_uri).toBe('http://localhost:3000/jwks.jwt');
    const r = await t.idp.app.inject('/jwks.jwt');
    expect(r.statusCode).toBe(200);
    expect(r.headers['content-type']).toBe('application/jwk-set+jwt');
    const { header, claims, input, sig } = jws(r.body);
    const root = await t.idp.ctx.keys.signerFor('cold');
    expect(header).toEqual({ alg: 'SLH-DSA-SHA2-128s', kid: root.kid, typ: 'jwk-set+jwt' });
    expect(claims.keys).toEqual((await t.idp.app.inject('/jwks')).json().keys);
    expect(claims).toMatchObject({ iss: 'http://localhost:3000', sub: 'http://localhost:3000' });
    expect((claims.exp as number) - (claims.iat as number)).toBe(86400);
    // Independently verified under the root's public key, which /jwks does not publish.
    const pub = b64u(root.publicKey.jwk.pub as string);
    expect(slh_dsa_sha2_128s.verify(sig, input, pub)).toBe(true);
    const tampered = Buffer.from(input);
    tampered.writeUInt8((tampered.at(-3) as number) ^ 1, tampered.length - 3);
    expect(slh_dsa_sha2_128s.verify(sig, tampered, pub)).toBe(false);
    expect((claims.keys as Jwk[]).map((k) => k.kid)).not.toContain(root.kid);
    await expect(
      verifyJwt(r.body, await createLocalJWKSet({ keys: [{ ...root.publicKey.jwk } as Jwk] }), {
        algorithms: ['SLH-DSA-SHA2-128s'],
        typ: 'jwk-set+jwt',
        issuer: 'http://localhost:3000',
      }),
    ).resolves.toBeTruthy();
  });

  it('is signed once per change of the published keys, not per request', async () => {
    const first = (await t.idp.app.inject('/jwks.jwt')).body;
    const again = await Promise.all([1, 2, 3].map(() => t.idp.app.inject('/jwks.jwt')));
    for (const a of again) expect(a.body).toBe(first);
    // A rotation stages a key: the statement is re-signed and lists it.
    const [next] = await t.idp.ctx.keys.rotate(t.idp.ctx.config.defaultSigningAlg);
    const after = (await t.idp.app.inject('/jwks.jwt')).body;
    expect(after).not.toBe(first);
    expect((jws(after).claims.keys as Jwk[]).map((k) => k.kid)).toContain(next?.kid);
    expect((await t.idp.app.inject('/jwks.jwt')).body).toBe(after);
  });
});

describe('an existing root keeps its algorithm (auto)', () => {
  it('a store with an ML-DSA-87 root restarted with the defaults still signs with it', async () => {
    const d = tempDir();
    try {
      const { createIdp } = await import('../src/app.ts');
      const { KEK } = await import('./helpers.ts');
      const first = await createIdp(testConfig(d.dir), { env: { PQID_KEK: KEK }, warn: () => {} });
      const rootKid = (await first.ctx.keys.signerFor('cold')).kid;
      await first.close();
      const again = await createIdp(testConfig(d.dir, { keys: AUTO as never }), {
        env: { PQID_KEK: KEK },
        warn: () => {},
      });
      try {
        expect(again.ctx.keys.coldAlg()).toBe('ML-DSA-87');
        expect((await again.ctx.keys.signerFor('cold')).kid).toBe(rootKid);
        expect(again.ctx.keys.list('root')).toHaveLength(1);
      } finally {
        await again.close();
      }
    } finally {
      d.cleanup();
    }
  }, 60_000);
});

describe('configuration of the cold path', () => {
  const cfg = (overrides: Record<string, unknown>) => () => testConfig('/tmp', overrides as never);
  it('saml.rootAlg is the older name of keys.placement.cold; two different roots are refused', () => {
    expect(cfg({ saml: { rootAlg: 'ML-DSA-65' } })().keys.placement.cold).toBe('ML-DSA-65');
    expect(
      cfg({ saml: { rootAlg: 'ML-DSA-65' }, keys: { placement: { cold: 'ML-DSA-65' } } })().keys.placement
        .cold,
    ).toBe('ML-DSA-65');
    expect(cfg({ saml: { rootAlg: 'ML-DSA-65' }, keys: { placement: { cold: 'ML-DSA-87' } } })).toThrow(
      /name different cold-path roots/,
    );
  });
  it('the root must sign certificates, XML and JWS: no composite', () => {
    expect(cfg({ keys: { placement: { cold: 'ML-DSA-65-Ed25519' } } })).toThrow(ConfigError);
    expect(cfg({ keys: { placement: { cold: 'SLH-DSA-SHA2-128f' } } })().keys.placement.cold).toBe(
      'SLH-DSA-SHA2-128f',
    );
  });
});

describe('SLH-DSA on the hot path', () => {
  const RP = 'https://rp.example/cb';
  it('is refused by default: clients, SPs, placement and the default algorithm, each saying why', async () => {
    const t = await startTestIdp();
    try {
      for (const field of [
        'id_token_signed_response_alg',
        'access_token_signed_response_alg',
        'userinfo_signed_response_alg',
      ]) {
        const e = await registerClient(t.idp.ctx, {
          redirect_uris: [RP],
          [field]: 'SLH-DSA-SHA2-128f',
        }).catch((x: unknown) => x);
        expect(e).toBeInstanceOf(ClientError);
        expect((e as Error).message).toMatch(
          new RegExp(`${field} SLH-DSA-SHA2-128f is refused.*keys.allowSlhDsaHotPath`),
        );
      }
      await expect(
        registerSamlSp(t.idp.ctx, {
          entityId: 'https://sp.example/md',
          acsUrls: ['https://sp.example/acs'],
          signatureAlgorithm: 'SLH-DSA-SHA2-128s',
        }),
      ).rejects.toThrow(SamlSpError);
      // Verification is not the hot path: a client may still sign its own assertions with it.
      await expect(
        registerClient(t.idp.ctx, {
          redirect_uris: [RP],
          token_endpoint_auth_signing_alg: 'SLH-DSA-SHA2-128f',
        }),
      ).resolves.toBeTruthy();
      const disco = (await t.idp.app.inject('/.well-known/openid-configuration')).json();
      for (const list of ['id_token_signing_alg_values_supported', 'userinfo_signing_alg_values_supported'])
        expect(disco[list].filter((a: string) => a.startsWith('SLH-DSA'))).toEqual([]);
      expect(disco.token_endpoint_auth_signing_alg_values_supported).toContain('SLH-DSA-SHA2-128f');
      expect(disco.signed_jwks_uri).toBeUndefined();
    } finally {
      await t.close();
    }
    const d = tempDir();
    try {
      for (const o of [
        { keys: { placement: { idToken: 'SLH-DSA-SHA2-128s' } } },
        { accessTokenSigningAlg: 'SLH-DSA-SHA2-128f' },
        { defaultSigningAlg: 'SLH-DSA-SHA2-128f' },
      ])
        expect(() => testConfig(d.dir, o as never)).toThrow(/SLH-DSA|allowSlhDsaHotPath/);
    } finally {
      d.cleanup();
    }
  }, 60_000);

  it('with keys.allowSlhDsaHotPath: accepted, advertised, and every start warns with its measured cost', async () => {
    const warnings: string[] = [];
    const d = tempDir();
    const { createIdp } = await import('../src/app.ts');
    const { KEK } = await import('./helpers.ts');
    const config = testConfig(d.dir, { keys: { allowSlhDsaHotPath: true } as never });
    let idp = await createIdp(config, { env: { PQID_KEK: KEK }, warn: (m) => warnings.push(m) });
    try {
      const { clientSecret } = await registerClient(idp.ctx, {
        client_id: 'slow',
        redirect_uris: [],
        grant_types: ['client_credentials'],
        access_token_format: 'jwt',
        id_token_signed_response_alg: 'SLH-DSA-SHA2-128f',
      });
      const disco = (await idp.app.inject('/.well-known/openid-configuration')).json();
      expect(disco.id_token_signing_alg_values_supported).toContain('SLH-DSA-SHA2-128f');
      // An SP may now ask for SLH-DSA-signed Responses too.
      await expect(
        registerSamlSp(idp.ctx, {
          entityId: 'https://slow-sp.example/md',
          acsUrls: ['https://slow-sp.example/acs'],
          signatureAlgorithm: 'SLH-DSA-SHA2-128f',
        }),
      ).resolves.toMatchObject({ signatureAlgorithm: 'SLH-DSA-SHA2-128f' });
      expect(idp.ctx.keys.list('saml').map((k) => k.alg)).toContain('SLH-DSA-SHA2-128f');
      const r = await idp.app.inject({
        method: 'POST',
        url: '/token',
        ...form(
          { grant_type: 'client_credentials' },
          { authorization: basicAuth('slow', clientSecret as string) },
        ),
      });
      expect(r.statusCode).toBe(200);
      const { header, input, sig } = jws(r.json().access_token);
      expect(header.alg).toBe('SLH-DSA-SHA2-128f');
      const jwk = idp.ctx.keys.jwks().keys.find((k) => k.kid === header.kid) as Jwk;
      expect(slh_dsa_sha2_128f.verify(sig, input, b64u(jwk.pub as string))).toBe(true);
      await idp.close();
      // The next start says what it costs, per signature, measured.
      idp = await createIdp(config, { env: { PQID_KEK: KEK }, warn: (m) => warnings.push(m) });
      const w = warnings.find((m) => m.includes('SLH-DSA-SHA2-128f signs on the hot path'));
      expect(w).toMatch(
        /\(slow; allowed by keys\.allowSlhDsaHotPath\): one signature took \d+\.\d ms of CPU/,
      );
      expect(w).toMatch(/per core-second/);
    } finally {
      await idp.close();
      d.cleanup();
    }
  }, 60_000);

  it('placement that fixes the ID-token algorithm is what discovery advertises', async () => {
    const t = await startTestIdp({ keys: { placement: { idToken: 'ML-DSA-44' } } as never });
    try {
      const disco = (await t.idp.app.inject('/.well-known/openid-configuration')).json();
      expect(disco.id_token_signing_alg_values_supported).toEqual(['ML-DSA-44']);
      expect(disco.userinfo_signing_alg_values_supported.length).toBeGreaterThan(1);
    } finally {
      await t.close();
    }
  }, 60_000);
});
