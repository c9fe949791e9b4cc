/**
 * The OAuth extensions end to end over real HTTP, with openid-client v6 (an independent
 * implementation) as the client wherever it supports the feature: DPoP with ES256, EdDSA and
 * ML-DSA keys (WebCrypto), its nonce retry, resource indicators. What openid-client cannot do
 * (composite keys) goes through @pqid/jose and fetch, also over real sockets — which is where
 * Node's header limit bites a post-quantum DPoP proof.
 */
import type { webcrypto } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  calculateThumbprint,
  exportJWK,
  generateKeyPair,
  importJWK,
  type PrivateKey,
  signDpopProof,
  signJwt,
} from '@pqid/jose';
import * as jose from 'jose';
import * as oidc from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createIdp, type Idp, registerClient } from '../idp/src/app.ts';
import { type LoadConfigOptions, loadConfig } from '../idp/src/config/index.ts';
import { FetchBrowser, signIn } from './helpers/fetch-browser.ts';
import { freePort } from './helpers/net.ts';

const REDIRECT = 'http://localhost:3001/callback';
const ORDERS = 'https://orders.example/api';
const PQ_API = 'https://pq.example/api';
const KEK = Buffer.alloc(32, 3).toString('base64');
const INITIAL_ACCESS_TOKEN = 'e2e-initial-access-token-0123456789';

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
      registration: { mode: 'token', initialAccessToken: INITIAL_ACCESS_TOKEN },
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
        // Introspection says the token is DPoP-bound, and to which key (RFC 9449 §6.2).
        const info = await oidc.tokenIntrospection(config, tokens.access_token);
        expect(info).toMatchObject({
          active: true,
          token_type: 'DPoP',
          cnf: { jkt: await DPoP.calculateThumbprint() },
        });
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

  describe('PAR and JAR', () => {
    const JAR_ALGS: Array<[string, webcrypto.EcKeyGenParams | webcrypto.Algorithm]> = [
      ['ES256', { name: 'ECDSA', namedCurve: 'P-256' }],
      ['ML-DSA-44', { name: 'ML-DSA-44' }],
      ['ML-DSA-65', { name: 'ML-DSA-65' }],
      ['ML-DSA-87', { name: 'ML-DSA-87' }],
    ];

    it.each(JAR_ALGS)('openid-client: a %s request object, by value and pushed', async (alg, params) => {
      const pair = (await crypto.subtle.generateKey(params, true, ['sign', 'verify'])) as oidc.CryptoKeyPair;
      const { key_ops: _ops, ext: _ext, ...jwk } = await crypto.subtle.exportKey('jwk', pair.publicKey);
      const clientId = `jar-${alg}`;
      const { clientSecret } = await registerClient(idp.ctx, {
        client_id: clientId,
        redirect_uris: [REDIRECT],
        jwks: { keys: [{ ...jwk, alg } as never] },
        request_object_signing_alg: alg,
        require_pushed_authorization_requests: true,
        id_token_signed_response_alg: 'ML-DSA-44',
      });
      const config = await oidc.discovery(
        new URL(issuer),
        clientId,
        { id_token_signed_response_alg: 'ML-DSA-44' },
        oidc.ClientSecretBasic(clientSecret as string),
        insecure,
      );
      expect(config.serverMetadata().request_object_signing_alg_values_supported).toContain(alg);
      const verifier = oidc.randomPKCECodeVerifier();
      const authParams = {
        redirect_uri: REDIRECT,
        scope: 'openid',
        code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
        code_challenge_method: 'S256',
        state: oidc.randomState(),
      };
      // By value only, this client is refused: it must push (require_pushed_authorization_requests).
      const byValue = await oidc.buildAuthorizationUrlWithJAR(config, authParams, pair.privateKey);
      const refused = new URL(
        (await fetch(byValue, { redirect: 'manual' })).headers.get('location') as string,
      );
      expect(refused.searchParams.get('error')).toBe('invalid_request');
      // Signed, then pushed: the browser carries only client_id and a request_uri.
      const signed = await oidc.buildAuthorizationUrlWithJAR(config, authParams, pair.privateKey);
      const url = await oidc.buildAuthorizationUrlWithPAR(config, signed.searchParams);
      expect([...url.searchParams.keys()].sort()).toEqual(['client_id', 'request_uri']);
      expect(url.href.length).toBeLessThan(200);
      const callback = await signIn(new FetchBrowser(), issuer, url.href);
      const tokens = await oidc.authorizationCodeGrant(config, callback, {
        pkceCodeVerifier: verifier,
        expectedState: authParams.state,
      });
      expect(tokens.claims()?.aud).toBe(clientId);
    });

    it('an ML-DSA-87 composite request object: a 7 KB URL by value, under 200 bytes through PAR', async () => {
      const key = (await importJWK((await generateKeyPair('ML-DSA-87-Ed448')).privateJwk)) as PrivateKey;
      const { clientSecret } = await registerClient(idp.ctx, {
        client_id: 'jar-composite',
        redirect_uris: [REDIRECT],
        jwks: { keys: [exportJWK(key.publicKey)] },
      });
      const verifier = oidc.randomPKCECodeVerifier();
      const requestObject = async () =>
        signJwt(
          {
            client_id: 'jar-composite',
            response_type: 'code',
            redirect_uri: REDIRECT,
            scope: 'openid',
            code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
            code_challenge_method: 'S256',
          },
          key,
          { typ: 'oauth-authz-req+jwt', issuer: 'jar-composite', audience: issuer, expiresIn: 60 },
        );
      const byValue = `${issuer}/authorize?${new URLSearchParams({ client_id: 'jar-composite', request: await requestObject() })}`;
      expect(byValue.length).toBeGreaterThan(6500);
      const callback = await signIn(new FetchBrowser(), issuer, byValue);
      expect(callback.searchParams.get('code')).toBeTruthy();

      const pushed = await fetch(`${issuer}/par`, {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          authorization: `Basic ${Buffer.from(`jar-composite:${clientSecret}`).toString('base64')}`,
        },
        body: new URLSearchParams({ client_id: 'jar-composite', request: await requestObject() }),
      });
      expect(pushed.status).toBe(201);
      const { request_uri } = (await pushed.json()) as { request_uri: string };
      const viaPar = `${issuer}/authorize?${new URLSearchParams({ client_id: 'jar-composite', request_uri })}`;
      expect(viaPar.length).toBeLessThan(200);
      expect((await signIn(new FetchBrowser(), issuer, viaPar)).searchParams.get('code')).toBeTruthy();
    });
  });

  describe('dynamic client registration', () => {
    it('openid-client registers an ML-DSA client with the initial access token, then signs in with it', async () => {
      // A registrant nobody vetted gets http only on a loopback IP literal, with any port at
      // the request (RFC 8252 §7.3): registered without one, used with one.
      const config = await oidc.dynamicClientRegistration(
        new URL(issuer),
        {
          redirect_uris: ['http://127.0.0.1/callback'],
          client_name: 'Registered over HTTP',
          id_token_signed_response_alg: 'ML-DSA-65',
          token_endpoint_auth_method: 'client_secret_post',
        },
        undefined,
        { initialAccessToken: INITIAL_ACCESS_TOKEN, ...insecure },
      );
      oidc.enableNonRepudiationChecks(config);
      const meta = config.clientMetadata();
      expect(meta.client_secret).toBeTruthy();
      expect(meta.registration_access_token).toBeTruthy();
      const verifier = oidc.randomPKCECodeVerifier();
      const nonce = oidc.randomNonce();
      const url = oidc.buildAuthorizationUrl(config, {
        redirect_uri: 'http://127.0.0.1:49152/callback',
        scope: 'openid',
        code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
        code_challenge_method: 'S256',
        nonce,
      });
      const callback = await signIn(new FetchBrowser(), issuer, url.href);
      expect(callback.host).toBe('127.0.0.1:49152');
      const tokens = await oidc.authorizationCodeGrant(config, callback, {
        pkceCodeVerifier: verifier,
        expectedNonce: nonce,
      });
      expect(tokens.claims()?.aud).toBe(config.clientMetadata().client_id);
      expect(
        JSON.parse(Buffer.from((tokens.id_token as string).split('.')[0] as string, 'base64url').toString())
          .alg,
      ).toBe('ML-DSA-65');
      // RFC 7592: read it back with the registration access token, then delete it.
      const uri = meta.registration_client_uri as string;
      const auth = { authorization: `Bearer ${meta.registration_access_token}` };
      const read = await fetch(uri, { headers: auth });
      expect(read.status).toBe(200);
      expect(((await read.json()) as { client_name: string }).client_name).toBe('Registered over HTTP');
      expect((await fetch(uri, { method: 'DELETE', headers: auth })).status).toBe(204);
      expect((await fetch(uri, { headers: auth })).status).toBe(401);
    });

    it('refuses registration without the initial access token', async () => {
      await expect(
        oidc.dynamicClientRegistration(new URL(issuer), { redirect_uris: [REDIRECT] }, undefined, insecure),
      ).rejects.toThrow();
    });
  });

  describe('back-channel logout', () => {
    it('openid-client signs in (sid in the ML-DSA ID token), RP-initiated logout reaches the RP back channel', async () => {
      const received: string[] = [];
      let arrived: () => void = () => {};
      const delivery = new Promise<void>((resolve) => {
        arrived = resolve;
      });
      const rp = createServer((req, res) => {
        let body = '';
        req.on('data', (c) => {
          body += c;
        });
        req.on('end', () => {
          received.push(new URLSearchParams(body).get('logout_token') ?? '');
          res.writeHead(200).end();
          arrived();
        });
      });
      await new Promise<void>((r) => rp.listen(0, '127.0.0.1', r));
      try {
        const backchannel = `http://127.0.0.1:${(rp.address() as { port: number }).port}/backchannel`;
        const { clientSecret } = await registerClient(idp.ctx, {
          client_id: 'rp-bcl',
          redirect_uris: [REDIRECT],
          post_logout_redirect_uris: ['http://localhost:3001/bye'],
          id_token_signed_response_alg: 'ML-DSA-44',
          backchannel_logout_uri: backchannel,
          backchannel_logout_session_required: true,
        });
        const config = await oidc.discovery(
          new URL(issuer),
          'rp-bcl',
          { id_token_signed_response_alg: 'ML-DSA-44' },
          oidc.ClientSecretBasic(clientSecret as string),
          insecure,
        );
        expect(config.serverMetadata()).toMatchObject({
          backchannel_logout_supported: true,
          backchannel_logout_session_supported: true,
        });
        const verifier = oidc.randomPKCECodeVerifier();
        const browser = new FetchBrowser();
        const callback = await signIn(
          browser,
          issuer,
          oidc.buildAuthorizationUrl(config, {
            redirect_uri: REDIRECT,
            scope: 'openid',
            code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
            code_challenge_method: 'S256',
          }).href,
        );
        const tokens = await oidc.authorizationCodeGrant(config, callback, { pkceCodeVerifier: verifier });
        const sid = tokens.claims()?.sid as string;
        expect(sid).toMatch(/^[A-Za-z0-9_-]{22}$/);
        const out = await browser.get(
          oidc.buildEndSessionUrl(config, {
            id_token_hint: tokens.id_token as string,
            post_logout_redirect_uri: 'http://localhost:3001/bye',
          }).href,
        );
        expect(out.status).toBe(303);
        await delivery;
        // The jose package (WebCrypto ML-DSA-44) verifies the logout token against the JWKS.
        const { payload, protectedHeader } = await jose.jwtVerify(
          received[0] as string,
          jose.createRemoteJWKSet(new URL(`${issuer}/jwks`)),
          { issuer, audience: 'rp-bcl', typ: 'logout+jwt', algorithms: ['ML-DSA-44'] },
        );
        expect(protectedHeader.alg).toBe('ML-DSA-44');
        expect(payload).toMatchObject({
          sid,
          sub: tokens.claims()?.sub,
          events: { 'http://schemas.openid.net/event/backchannel-logout': {} },
        });
        expect(payload.nonce).toBeUndefined();
      } finally {
        await new Promise((r) => rp.close(r));
      }
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
