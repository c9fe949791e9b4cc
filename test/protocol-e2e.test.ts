/**
 * The OAuth extensions end to end over real HTTP, with openid-client v6 (an independent
 * implementation) as the client wherever it supports the feature: DPoP with ES256, EdDSA and
 * ML-DSA keys (WebCrypto), its nonce retry, resource indicators. What openid-client cannot do
 * (composite keys) goes through @pqid/jose and fetch, also over real sockets — which is where
 * Node's header limit bites a post-quantum DPoP proof.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  calculateThumbprint,
  exportJWK,
  generateKeyPair,
  importJWK,
  type PrivateKey,
  signDpopProof,
} from '@pqid/jose';
import * as jose from 'jose';
import * as oidc from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createIdp, type Idp, registerClient } from '../idp/src/app.ts';
import { type LoadConfigOptions, loadConfig } from '../idp/src/config.ts';
import { FetchBrowser, signIn } from './helpers/fetch-browser.ts';
import { freePort } from './helpers/net.ts';

const REDIRECT = 'http://localhost:3001/callback';
const ORDERS = 'https://orders.example/api';
const PQ_API = 'https://pq.example/api';
const KEK = Buffer.alloc(32, 3).toString('base64');

async function startIdp(overrides: LoadConfigOptions['overrides'] = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'pqid-protocol-'));
  const port = await freePort();
  const issuer = `http://localhost:${port}`;
  const config = loadConfig({
    env: {},
    cwd: dir,
    overrides: { dataDir: dir, port, host: '127.0.0.1', issuer, logLevel: 'silent', ...overrides },
  });
  const idp = await createIdp(config, { env: { PQID_KEK: KEK }, warn: () => {} });
  await idp.app.listen({ port, host: '127.0.0.1' });
  return {
    idp,
    issuer,
    port,
    async close() {
      await idp.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

const insecure = { execute: [oidc.allowInsecureRequests] };
const claimsOf = (jwt: string) =>
  JSON.parse(Buffer.from(jwt.split('.')[1] as string, 'base64url').toString());

describe('protocol extensions over HTTP', () => {
  let server: Awaited<ReturnType<typeof startIdp>>;
  let idp: Idp;
  let issuer: string;

  beforeAll(async () => {
    server = await startIdp({
      resourceServers: {
        [ORDERS]: { scope: 'orders:read', accessTokenSigningAlg: 'ES256' },
        [PQ_API]: { scope: 'pq:read', accessTokenSigningAlg: 'ML-DSA-65' },
      },
    });
    ({ idp, issuer } = server);
  });
  afterAll(() => server?.close());

  describe('DPoP', () => {
    const ALGS = ['ES256', 'EdDSA', 'ML-DSA-44', 'ML-DSA-65', 'ML-DSA-87'] as const;

    it.each(ALGS)(
      'openid-client with a %s key: dpop_jkt, bound tokens, userinfo, bound refresh',
      async (alg) => {
        const clientId = `spa-dpop-${alg}`;
        await registerClient(idp.ctx, {
          client_id: clientId,
          redirect_uris: [REDIRECT],
          token_endpoint_auth_method: 'none',
          id_token_signed_response_alg: 'ML-DSA-44',
          access_token_format: 'jwt',
        });
        const config = await oidc.discovery(new URL(issuer), clientId, {}, oidc.None(), insecure);
        expect(config.serverMetadata().dpop_signing_alg_values_supported).toContain(alg);
        const DPoP = oidc.getDPoPHandle(config, await oidc.randomDPoPKeyPair(alg));
        const jkt = await DPoP.calculateThumbprint();
        const verifier = oidc.randomPKCECodeVerifier();
        const url = oidc.buildAuthorizationUrl(config, {
          redirect_uri: REDIRECT,
          scope: 'openid offline_access',
          code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
          code_challenge_method: 'S256',
          dpop_jkt: jkt,
        });
        const callback = await signIn(new FetchBrowser(), issuer, url.href);
        const tokens = await oidc.authorizationCodeGrant(
          config,
          callback,
          { pkceCodeVerifier: verifier },
          undefined,
          {
            DPoP,
          },
        );
        expect(tokens.token_type).toBe('dpop');
        expect(claimsOf(tokens.access_token).cnf).toEqual({ jkt });
        const sub = tokens.claims()?.sub as string;
        expect(await oidc.fetchUserInfo(config, tokens.access_token, sub, { DPoP })).toMatchObject({ sub });
        const refreshed = await oidc.refreshTokenGrant(config, tokens.refresh_token as string, undefined, {
          DPoP,
        });
        expect(refreshed.token_type).toBe('dpop');
        // The public client's refresh token is bound: without the key it is refused.
        await expect(oidc.refreshTokenGrant(config, refreshed.refresh_token as string)).rejects.toMatchObject(
          {
            error: 'invalid_grant',
          },
        );
        // …and a bound access token is not a bearer token.
        await expect(oidc.fetchUserInfo(config, refreshed.access_token, sub)).rejects.toThrow();
      },
    );

    it('openid-client retries with the server nonce (requireNonce)', async () => {
      const nonced = await startIdp({ dpop: { requireNonce: true } });
      try {
        const { clientSecret } = await registerClient(nonced.idp.ctx, {
          client_id: 'svc',
          redirect_uris: [],
          grant_types: ['client_credentials'],
          access_token_format: 'jwt',
        });
        const config = await oidc.discovery(
          new URL(nonced.issuer),
          'svc',
          {},
          oidc.ClientSecretBasic(clientSecret as string),
          insecure,
        );
        const DPoP = oidc.getDPoPHandle(config, await oidc.randomDPoPKeyPair('ML-DSA-65'));
        const tokens = await oidc.clientCredentialsGrant(config, undefined, { DPoP });
        expect(tokens.token_type).toBe('dpop');
        expect(claimsOf(tokens.access_token).cnf.jkt).toBe(await DPoP.calculateThumbprint());
      } finally {
        await nonced.close();
      }
    });

    describe('post-quantum proof sizes against real header limits', () => {
      let key: PrivateKey;
      let accessToken: string;
      beforeAll(async () => {
        // The largest case: an ML-DSA-87 composite DPoP key and an ML-DSA-87 composite JWT
        // access token, together well past Node's default 16 KiB of headers.
        key = (await importJWK((await generateKeyPair('ML-DSA-87-Ed448')).privateJwk)) as PrivateKey;
        await registerClient(idp.ctx, {
          client_id: 'spa-big',
          redirect_uris: [REDIRECT],
          token_endpoint_auth_method: 'none',
          id_token_signed_response_alg: 'ML-DSA-87-ES384',
          access_token_format: 'jwt',
        });
        const verifier = oidc.randomPKCECodeVerifier();
        const q = new URLSearchParams({
          client_id: 'spa-big',
          redirect_uri: REDIRECT,
          response_type: 'code',
          scope: 'openid',
          code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
          code_challenge_method: 'S256',
        });
        const callback = await signIn(new FetchBrowser(), issuer, `${issuer}/authorize?${q}`);
        const r = await fetch(`${issuer}/token`, {
          method: 'POST',
          headers: {
            'content-type': 'application/x-www-form-urlencoded',
            dpop: await signDpopProof(key, { htm: 'POST', htu: `${issuer}/token` }),
          },
          body: new URLSearchParams({
            grant_type: 'authorization_code',
            code: callback.searchParams.get('code') as string,
            redirect_uri: REDIRECT,
            code_verifier: verifier,
            client_id: 'spa-big',
          }),
        });
        expect(r.status).toBe(200);
        accessToken = ((await r.json()) as { access_token: string }).access_token;
      });

      /** GET /userinfo over a raw socket (fetch would hide a 431's body on some versions). */
      const rawUserinfo = (headers: Record<string, string>) =>
        new Promise<{ status: number; body: string }>((resolve, reject) => {
          const req = request(`${issuer}/userinfo`, { headers }, (res) => {
            let body = '';
            res.on('data', (c) => {
              body += c;
            });
            res.on('end', () => resolve({ status: res.statusCode as number, body }));
          });
          req.on('error', reject);
          req.end();
        });

      it('accepts an ML-DSA-87 composite proof beside an ML-DSA-87 composite access token', async () => {
        const proof = await signDpopProof(key, { htm: 'GET', htu: `${issuer}/userinfo`, accessToken });
        expect(proof.length).toBeGreaterThan(11_000);
        expect(proof.length + accessToken.length).toBeGreaterThan(16_384);
        const r = await rawUserinfo({ authorization: `DPoP ${accessToken}`, dpop: proof });
        expect(r.status, r.body).toBe(200);
        expect(JSON.parse(r.body).sub).toBeTruthy();
        expect(calculateThumbprint(exportJWK(key.publicKey))).toBe(claimsOf(accessToken).cnf.jkt);
      });

      it('refuses a proof over dpop.maxProofBytes with invalid_dpop_proof naming the setting', async () => {
        const proof = await signDpopProof(key, {
          htm: 'GET',
          htu: `${issuer}/userinfo`,
          accessToken,
          claims: { pad: 'x'.repeat(6000) },
        });
        expect(proof.length).toBeGreaterThan(16_384);
        const r = await rawUserinfo({ authorization: `DPoP ${accessToken}`, dpop: proof });
        expect(r.status).toBe(401);
        expect(JSON.parse(r.body)).toMatchObject({ error: 'invalid_dpop_proof' });
        expect(JSON.parse(r.body).error_description).toMatch(/dpop\.maxProofBytes/);
      });

      it('answers headers beyond maxHeaderBytes with a 431 OAuth error naming the setting', async () => {
        const r = await rawUserinfo({ authorization: `DPoP ${accessToken}`, dpop: 'x'.repeat(40_000) });
        expect(r.status).toBe(431);
        expect(JSON.parse(r.body)).toMatchObject({ error: 'invalid_request' });
        expect(JSON.parse(r.body).error_description).toMatch(/32768 bytes \(maxHeaderBytes\)/);
      });
    });
  });

  describe('resource indicators', () => {
    it('openid-client: one grant for two resources, an ES256 token for one and an ML-DSA-65 token for the other', async () => {
      const { clientSecret } = await registerClient(idp.ctx, {
        client_id: 'web-resources',
        redirect_uris: [REDIRECT],
        scope: 'openid offline_access orders:read pq:read',
        id_token_signed_response_alg: 'ML-DSA-65',
      });
      const config = await oidc.discovery(
        new URL(issuer),
        'web-resources',
        { id_token_signed_response_alg: 'ML-DSA-65' },
        oidc.ClientSecretBasic(clientSecret as string),
        insecure,
      );
      const verifier = oidc.randomPKCECodeVerifier();
      const params = new URLSearchParams({
        redirect_uri: REDIRECT,
        scope: 'openid offline_access orders:read pq:read',
        code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
        code_challenge_method: 'S256',
      });
      params.append('resource', ORDERS);
      params.append('resource', PQ_API);
      const callback = await signIn(
        new FetchBrowser(),
        issuer,
        oidc.buildAuthorizationUrl(config, params).href,
      );
      const tokens = await oidc.authorizationCodeGrant(
        config,
        callback,
        { pkceCodeVerifier: verifier },
        { resource: ORDERS },
      );
      // The jose package (WebCrypto) verifies both, each against the IdP's JWKS and its audience.
      const jwks = jose.createRemoteJWKSet(new URL(`${issuer}/jwks`));
      const orders = await jose.jwtVerify(tokens.access_token, jwks, {
        issuer,
        audience: ORDERS,
        typ: 'at+jwt',
        algorithms: ['ES256'],
      });
      expect(orders.payload.scope).toBe('orders:read');
      const pq = await oidc.refreshTokenGrant(config, tokens.refresh_token as string, { resource: PQ_API });
      const verified = await jose.jwtVerify(pq.access_token, jwks, {
        issuer,
        audience: PQ_API,
        typ: 'at+jwt',
        algorithms: ['ML-DSA-65'],
      });
      expect(verified.payload.scope).toBe('pq:read');
      await expect(
        oidc.refreshTokenGrant(config, pq.refresh_token as string, { resource: 'https://unknown.example/' }),
      ).rejects.toMatchObject({ error: 'invalid_target' });
    });
  });
});
