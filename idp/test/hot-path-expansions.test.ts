/**
 * No hot path expands an ML-DSA seed per signature. Expanding a seed (FIPS 204
 * KeyGen) costs about as much as a signature, so the IdP must sign with keys prepared once. This
 * signs many tokens (client_credentials and refresh_token, JWT access tokens and ID tokens, every
 * ML-DSA and composite algorithm) and SAML responses and metadata (every ML-DSA algorithm), and
 * checks the expansion counters do not move: @pqid/jose's (every backend) and, where the native
 * addon is in use, the addon's own.
 */
import { createLocalJWKSet, mldsa, verifyJwt } from '@pqid/jose';
import { verifySamlResponse } from '@pqid/xmldsig';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerClient } from '../src/app.ts';
import { registerSamlSp } from '../src/saml/sps.ts';
import { basicAuth, browserLogin, form, pkce, startTestIdp } from './helpers.ts';
import { authnRequestXml, formFields, redirectParam, reqId, samlLogin } from './saml-helpers.ts';

const ISSUER = 'http://localhost:3000';
const TOKEN_ALGS = [
  'ML-DSA-44',
  'ML-DSA-65',
  'ML-DSA-87',
  'ML-DSA-44-Ed25519',
  'ML-DSA-65-Ed25519',
  'ML-DSA-44-ES256',
  'ML-DSA-65-ES256',
  'ML-DSA-87-ES384',
  'ML-DSA-87-Ed448',
];
const SAML_ALGS = ['ML-DSA-44', 'ML-DSA-65', 'ML-DSA-87'];
const ROUNDS = 8;

/** The native addon's own counter, when @pqid/jose signs through it. */
let nativeExpansions: () => number | undefined = () => undefined;

let t: Awaited<ReturnType<typeof startTestIdp>>;
let app: FastifyInstance;
const spFor = (alg: string) => `https://hot-${alg.toLowerCase()}.example.test/metadata`;
const acsFor = (alg: string) => `https://hot-${alg.toLowerCase()}.example.test/acs`;

beforeAll(async () => {
  try {
    const native = await import('@pqid/liboqs-node');
    if (mldsa.preferredBackend() === 'native') nativeExpansions = () => native.stats().seedExpansions;
  } catch {
    /* no addon: @pqid/jose's counter still covers every backend */
  }
  t = await startTestIdp();
  app = t.idp.app;
  for (const alg of TOKEN_ALGS) {
    await registerClient(t.idp.ctx, {
      client_id: `cc-${alg}`,
      client_secret: 'secret',
      grant_types: ['client_credentials'],
      redirect_uris: [],
      access_token_format: 'jwt',
      access_token_signed_response_alg: alg,
    });
    await registerClient(t.idp.ctx, {
      client_id: `rp-${alg}`,
      token_endpoint_auth_method: 'none',
      redirect_uris: ['https://rp.example/cb'],
      grant_types: ['authorization_code', 'refresh_token'],
      id_token_signed_response_alg: alg,
      access_token_format: 'jwt',
      access_token_signed_response_alg: alg,
    });
  }
  for (const alg of SAML_ALGS)
    await registerSamlSp(t.idp.ctx, {
      entityId: spFor(alg),
      acsUrls: [acsFor(alg)],
      signatureAlgorithm: alg,
      sign: 'both',
    } as Parameters<typeof registerSamlSp>[1]);
}, 120_000);
afterAll(() => t?.close());

const token = (alg: string, body: Record<string, string>, auth = true) =>
  app.inject({
    method: 'POST',
    url: '/token',
    ...form(body, auth ? { authorization: basicAuth(`cc-${alg}`, 'secret') } : {}),
  });

async function refreshTokenFor(alg: string): Promise<string> {
  const p = pkce();
  const { location } = await browserLogin(app, {
    client_id: `rp-${alg}`,
    redirect_uri: 'https://rp.example/cb',
    response_type: 'code',
    scope: 'openid profile offline_access',
    state: 's',
    nonce: 'n',
    code_challenge: p.challenge,
    code_challenge_method: 'S256',
  });
  const r = await app.inject({
    method: 'POST',
    url: '/token',
    ...form({
      grant_type: 'authorization_code',
      code: location.searchParams.get('code') as string,
      redirect_uri: 'https://rp.example/cb',
      client_id: `rp-${alg}`,
      code_verifier: p.verifier,
    }),
  });
  expect(r.statusCode, r.body).toBe(200);
  return r.json().refresh_token;
}

describe('no seed expansion per signature on the IdP hot paths', () => {
  it('OIDC tokens: client_credentials and refresh_token, every ML-DSA and composite algorithm', async () => {
    // Warm-up: the first request per algorithm makes (and expands) its key; that is allowed.
    const refresh = new Map<string, string>();
    for (const alg of TOKEN_ALGS) {
      expect((await token(alg, { grant_type: 'client_credentials' })).statusCode).toBe(200);
      refresh.set(alg, await refreshTokenFor(alg));
    }
    const jose = mldsa.stats().seedExpansions;
    const native = nativeExpansions();
    const jwks = await createLocalJWKSet((await app.inject({ url: '/jwks' })).json());
    let signatures = 0;
    for (let i = 0; i < ROUNDS; i++) {
      for (const alg of TOKEN_ALGS) {
        const cc = await token(alg, { grant_type: 'client_credentials' });
        expect(cc.statusCode, cc.body).toBe(200);
        const r = await app.inject({
          method: 'POST',
          url: '/token',
          ...form({
            grant_type: 'refresh_token',
            refresh_token: refresh.get(alg) as string,
            client_id: `rp-${alg}`,
          }),
        });
        expect(r.statusCode, r.body).toBe(200);
        refresh.set(alg, r.json().refresh_token);
        signatures += 3; // one access token, then an ID token and an access token
        if (i === 0) {
          // They are real signatures under the published keys.
          await verifyJwt(cc.json().access_token, jwks, { algorithms: [alg], issuer: ISSUER });
          await verifyJwt(r.json().id_token, jwks, { algorithms: [alg], issuer: ISSUER });
        }
      }
    }
    expect(signatures).toBe(ROUNDS * TOKEN_ALGS.length * 3);
    expect(mldsa.stats().seedExpansions - jose, `@pqid/jose expansions over ${signatures} tokens`).toBe(0);
    if (native !== undefined) expect((nativeExpansions() ?? 0) - native, 'native addon expansions').toBe(0);
  }, 120_000);

  it('SAML: signed responses and assertions, and the metadata, every ML-DSA algorithm', async () => {
    const sessions = new Map<string, string>();
    const responseOf = (html: string) =>
      Buffer.from(formFields(html).fields.SAMLResponse as string, 'base64').toString();
    const sso = (alg: string) =>
      `/saml/sso?${new URLSearchParams({ SAMLRequest: redirectParam(authnRequestXml({ id: reqId(), issuer: spFor(alg), acs: acsFor(alg) })) })}`;
    // Warm-up: a login per SP (keys and certificates are made on first use).
    for (const alg of SAML_ALGS) {
      const r = await samlLogin(app, sso(alg));
      expect(r.status).toBe(200);
      sessions.set(alg, r.session);
    }
    await app.inject({ url: '/saml/metadata' });
    const jose = mldsa.stats().seedExpansions;
    const native = nativeExpansions();
    const metadata = (await app.inject({ url: '/saml/metadata' })).body;
    const leaf = [...metadata.matchAll(/<ds:X509Certificate>([^<]+)</g)].map((m) => m[1] as string);
    let signatures = 0;
    for (let i = 0; i < ROUNDS; i++) {
      for (const alg of SAML_ALGS) {
        const r = await app.inject({ url: sso(alg), headers: { cookie: sessions.get(alg) as string } });
        expect(r.statusCode).toBe(200);
        signatures += 2; // the Assertion and the Response
        if (i === 0)
          verifySamlResponse(responseOf(r.body), {
            trustedCertificates: leaf,
            allowedAlgorithms: [alg as 'ML-DSA-65'],
            wantResponseSigned: true,
            wantAssertionSigned: true,
          });
      }
    }
    expect(
      mldsa.stats().seedExpansions - jose,
      `@pqid/jose expansions over ${signatures} XML signatures`,
    ).toBe(0);
    if (native !== undefined) expect((nativeExpansions() ?? 0) - native, 'native addon expansions').toBe(0);
  }, 120_000);
});
