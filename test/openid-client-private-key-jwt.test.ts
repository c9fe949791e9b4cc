/**
 * openid-client v6 as a confidential client over real HTTP that authenticates with
 * private_key_jwt (RFC 7523 §2.2, OIDC Core §9): its assertions are signed by an ML-DSA-65
 * WebCrypto key whose public JWK (`kty: "AKP"`, as WebCrypto exports it) the operator
 * registered with `pqid clients add --jwks`, and by an ES256 key for another client. The same
 * client then binds its tokens to a DPoP key (RFC 9449) and uses them at userinfo, where a
 * replayed proof and a proof by another key are refused.
 */
import { spawnSync } from 'node:child_process';
import { randomBytes, type webcrypto } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as jose from 'jose';
import * as oidc from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Idp, registerClient } from '../idp/src/app.ts';
import { FetchBrowser, signIn } from './helpers/fetch-browser.ts';
import { createLocalIdp } from './helpers/idp.ts';
import { freePort } from './helpers/net.ts';
import { cleanEnv, repo, why } from './helpers/npm.ts';

const REDIRECT = 'http://localhost:3001/callback';
const CLIENT_ID = 'rp-pkjwt';
const KID = 'rp-mldsa65';
const insecure = { execute: [oidc.allowInsecureRequests] };

type Pair = oidc.CryptoKeyPair;
/** A WebCrypto signing key pair; TypeScript's DOM types know no ML-DSA overload yet. */
const keyPair = async (params: webcrypto.Algorithm | webcrypto.EcKeyGenParams) =>
  (await crypto.subtle.generateKey(params, true, ['sign', 'verify'])) as Pair;
const mldsa65 = () => keyPair({ name: 'ML-DSA-65' });
const es256 = () => keyPair({ name: 'ECDSA', namedCurve: 'P-256' });
const publicJwk = async (pair: Pair, kid: string) => ({
  ...(await crypto.subtle.exportKey('jwk', pair.publicKey)),
  kid,
});
const decode = (jwt: string, part: 0 | 1) =>
  JSON.parse(Buffer.from(jwt.split('.')[part] as string, 'base64url').toString());

/** What openid-client put on the wire, per request: the URL, the form body and the headers. */
interface Sent {
  url: string;
  body: URLSearchParams;
  headers: Record<string, string>;
}

/** openid-client against the running IdP, recording every request it sends. */
async function client(issuer: string, clientId: string, auth: oidc.ClientAuth) {
  const sent: Sent[] = [];
  const config = await oidc.discovery(new URL(issuer), clientId, {}, auth, insecure);
  config[oidc.customFetch] = (url, options) => {
    sent.push({ url, body: new URLSearchParams(options.body as string), headers: options.headers });
    return fetch(url, options);
  };
  const assertions = () =>
    sent.map((s) => s.body.get('client_assertion')).filter((a): a is string => typeof a === 'string');
  return { config, sent, assertions };
}

/** The code flow up to the callback as the demo user, with PKCE and a nonce; the checks to redeem it. */
async function authorize(config: oidc.Configuration, issuer: string, scope: string) {
  const verifier = oidc.randomPKCECodeVerifier();
  const nonce = oidc.randomNonce();
  const url = oidc.buildAuthorizationUrl(config, {
    redirect_uri: REDIRECT,
    scope,
    code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    nonce,
  });
  const callback = await signIn(new FetchBrowser(), issuer, url.href);
  return { callback, checks: { pkceCodeVerifier: verifier, expectedNonce: nonce, idTokenExpected: true } };
}

describe('openid-client with private_key_jwt and DPoP over HTTP', () => {
  let idp: Idp;
  let issuer: string;
  let dir: string;
  let mldsa: Pair;
  let ec: Pair;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'pqid-pkjwt-'));
    const port = await freePort();
    const kek = randomBytes(32).toString('base64');
    // The demo user signs in at the authorization endpoint.
    ({ idp, issuer } = await createLocalIdp(dir, port, { demo: { enabled: true } }, kek));
    [mldsa, ec] = await Promise.all([mldsa65(), es256()]);

    // The operator's path: the public keys as WebCrypto exports them, in a file, through the CLI.
    // The ES256 key is registered too, but the client's assertions must be ML-DSA-65.
    const jwks = join(dir, 'rp-jwks.json');
    writeFileSync(
      jwks,
      JSON.stringify({ keys: [await publicJwk(mldsa, KID), await publicJwk(ec, 'rp-ec')] }),
    );
    const metadata = join(dir, 'rp-metadata.json');
    writeFileSync(metadata, JSON.stringify({ token_endpoint_auth_signing_alg: 'ML-DSA-65' }));
    const add = spawnSync(
      process.execPath,
      [
        'idp/dist/cli.js',
        'clients',
        'add',
        '--id',
        CLIENT_ID,
        '--redirect-uri',
        REDIRECT,
        '--grant',
        'authorization_code',
        '--grant',
        'refresh_token',
        '--grant',
        'client_credentials',
        '--auth-method',
        'private_key_jwt',
        '--jwks',
        jwks,
        '--metadata',
        metadata,
        '--alg',
        'ML-DSA-65',
        '--access-token-format',
        'jwt',
      ],
      {
        cwd: repo,
        encoding: 'utf8',
        env: { ...cleanEnv(process.env.PATH ?? ''), PQID_DATA_DIR: dir, PQID_KEK: kek, PQID_ISSUER: issuer },
      },
    );
    expect(add.status, why(add)).toBe(0);
    expect(JSON.parse(add.stdout)).toMatchObject({
      client_id: CLIENT_ID,
      token_endpoint_auth_method: 'private_key_jwt',
      token_endpoint_auth_signing_alg: 'ML-DSA-65',
    });
    expect(JSON.parse(add.stdout)).not.toHaveProperty('client_secret');
    await idp.app.listen({ port, host: '127.0.0.1' });
  });

  afterAll(async () => {
    await idp?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  describe('private_key_jwt', () => {
    it('client_credentials: openid-client signs an ML-DSA-65 assertion the IdP accepts once', async () => {
      const rp = await client(issuer, CLIENT_ID, oidc.PrivateKeyJwt({ key: mldsa.privateKey, kid: KID }));
      const meta = rp.config.serverMetadata();
      expect(meta.token_endpoint_auth_methods_supported).toContain('private_key_jwt');
      expect(meta.token_endpoint_auth_signing_alg_values_supported).toContain('ML-DSA-65');

      const tokens = await oidc.clientCredentialsGrant(rp.config);
      const [assertion] = rp.assertions();
      expect(rp.sent.at(-1)?.body.get('client_assertion_type')).toBe(
        'urn:ietf:params:oauth:client-assertion-type:jwt-bearer',
      );
      expect(decode(assertion as string, 0)).toEqual({ alg: 'ML-DSA-65', kid: KID });
      expect(decode(assertion as string, 1)).toMatchObject({ iss: CLIENT_ID, sub: CLIENT_ID, aud: issuer });
      // The jose package (WebCrypto) verifies the assertion with the registered public key.
      await jose.compactVerify(assertion as string, mldsa.publicKey, { algorithms: ['ML-DSA-65'] });

      // The JWT access token names the client the assertion authenticated.
      const jwks = jose.createRemoteJWKSet(new URL(`${issuer}/jwks`));
      const { payload } = await jose.jwtVerify(tokens.access_token, jwks, { issuer, typ: 'at+jwt' });
      expect(payload.client_id).toBe(CLIENT_ID);
      // Introspection authenticates the same way, with a fresh assertion.
      expect(await oidc.tokenIntrospection(rp.config, tokens.access_token)).toMatchObject({
        active: true,
        client_id: CLIENT_ID,
      });
      expect(new Set(rp.assertions()).size).toBe(2);

      // The same assertion a second time is refused: its jti is single use (RFC 7523 §3).
      const first = rp.sent.find((r) => r.url === meta.token_endpoint) as Sent;
      expect(first.body.get('client_assertion')).toBe(assertion);
      const replay = await fetch(`${issuer}/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: first.body,
      });
      expect(replay.status).toBe(401);
      expect(await replay.json()).toMatchObject({ error: 'invalid_client' });
    });

    it('authorization code and refresh: each token request carries its own ML-DSA-65 assertion', async () => {
      const rp = await client(issuer, CLIENT_ID, oidc.PrivateKeyJwt({ key: mldsa.privateKey, kid: KID }));
      const { callback, checks } = await authorize(rp.config, issuer, 'openid offline_access');
      const tokens = await oidc.authorizationCodeGrant(rp.config, callback, checks);
      expect(tokens.claims()?.aud).toBe(CLIENT_ID);
      expect(decode(tokens.id_token as string, 0).alg).toBe('ML-DSA-65');
      const refreshed = await oidc.refreshTokenGrant(rp.config, tokens.refresh_token as string);
      expect(refreshed.claims()?.sub).toBe(tokens.claims()?.sub);
      const assertions = rp.assertions();
      expect(assertions).toHaveLength(2);
      expect(new Set(assertions.map((a) => decode(a, 1).jti)).size).toBe(2);
      for (const a of assertions) expect(decode(a, 0).alg).toBe('ML-DSA-65');
    });

    it('refuses an unregistered ML-DSA-65 key, and a registered key of another alg, with invalid_client', async () => {
      const stranger = await mldsa65();
      const wrongKey = await client(
        issuer,
        CLIENT_ID,
        oidc.PrivateKeyJwt({ key: stranger.privateKey, kid: KID }),
      );
      await expect(oidc.clientCredentialsGrant(wrongKey.config)).rejects.toMatchObject({
        error: 'invalid_client',
        status: 401,
      });
      // The ES256 key is in the client's jwks, but the client is pinned to ML-DSA-65.
      const wrongAlg = await client(
        issuer,
        CLIENT_ID,
        oidc.PrivateKeyJwt({ key: ec.privateKey, kid: 'rp-ec' }),
      );
      await expect(oidc.clientCredentialsGrant(wrongAlg.config)).rejects.toMatchObject({
        error: 'invalid_client',
      });
      expect(decode(wrongAlg.assertions()[0] as string, 0).alg).toBe('ES256');
    });

    it('ES256 assertions for a client registered with an ES256 key', async () => {
      const pair = await es256();
      await registerClient(idp.ctx, {
        client_id: 'rp-pkjwt-es256',
        redirect_uris: [],
        grant_types: ['client_credentials'],
        token_endpoint_auth_method: 'private_key_jwt',
        token_endpoint_auth_signing_alg: 'ES256',
        // Its jwks holds the ML-DSA-65 key too: only the pinned alg decides what is refused.
        jwks: { keys: [(await publicJwk(pair, 'ec-1')) as never, (await publicJwk(mldsa, 'pq-1')) as never] },
      });
      const rp = await client(issuer, 'rp-pkjwt-es256', oidc.PrivateKeyJwt(pair.privateKey));
      const tokens = await oidc.clientCredentialsGrant(rp.config);
      expect(tokens.access_token).toBeTruthy();
      expect(decode(rp.assertions()[0] as string, 0).alg).toBe('ES256');
      // An ML-DSA-65 assertion by its registered ML-DSA-65 key is refused: the pin works both ways.
      const other = await client(
        issuer,
        'rp-pkjwt-es256',
        oidc.PrivateKeyJwt({ key: mldsa.privateKey, kid: 'pq-1' }),
      );
      await expect(oidc.clientCredentialsGrant(other.config)).rejects.toMatchObject({
        error: 'invalid_client',
      });
    });
  });

  describe('DPoP', () => {
    const KEYS = { ES256: es256, 'ML-DSA-65': mldsa65 } as const;

    it.each(Object.keys(KEYS) as Array<keyof typeof KEYS>)(
      'a %s-bound access token at userinfo; a replayed proof and another key refused',
      async (alg) => {
        const rp = await client(issuer, CLIENT_ID, oidc.PrivateKeyJwt({ key: mldsa.privateKey, kid: KID }));
        expect(rp.config.serverMetadata().dpop_signing_alg_values_supported).toContain(alg);
        const pair = await KEYS[alg]();
        const DPoP = oidc.getDPoPHandle(rp.config, pair);
        const { callback, checks } = await authorize(rp.config, issuer, 'openid');
        const tokens = await oidc.authorizationCodeGrant(rp.config, callback, checks, undefined, { DPoP });
        expect(tokens.token_type).toBe('dpop');
        // cnf.jkt is the RFC 7638 thumbprint of the proof key, as the jose package computes it.
        const { key_ops: _ops, ext: _ext, ...jwk } = await crypto.subtle.exportKey('jwk', pair.publicKey);
        const jkt = await jose.calculateJwkThumbprint(jwk as jose.JWK);
        expect(decode(tokens.access_token, 1).cnf).toEqual({ jkt });
        expect(await DPoP.calculateThumbprint()).toBe(jkt);
        expect(decode(rp.sent.at(-1)?.headers.dpop as string, 0)).toMatchObject({ typ: 'dpop+jwt', alg });

        const sub = tokens.claims()?.sub as string;
        expect(await oidc.fetchUserInfo(rp.config, tokens.access_token, sub, { DPoP })).toMatchObject({
          sub,
        });
        const used = rp.sent.at(-1) as Sent;
        expect(used.url).toBe(`${issuer}/userinfo`);
        expect(used.headers.authorization).toBe(`DPoP ${tokens.access_token}`);

        // The same proof again: refused, its jti was seen (RFC 9449 §11.1).
        const replay = await fetch(used.url, { headers: used.headers });
        expect(replay.status).toBe(401);
        const challenge = replay.headers.get('www-authenticate') as string;
        expect(challenge).toMatch(/^DPoP /);
        expect(challenge).toContain('error="invalid_dpop_proof"');

        // A fresh, valid proof by another key: the token is not bound to it.
        const thief = oidc.getDPoPHandle(rp.config, await KEYS[alg]());
        const stolen = oidc.fetchUserInfo(rp.config, tokens.access_token, sub, { DPoP: thief });
        await expect(stolen).rejects.toBeInstanceOf(oidc.WWWAuthenticateChallengeError);
        await expect(stolen).rejects.toMatchObject({
          status: 401,
          cause: [{ scheme: 'dpop', parameters: { error: 'invalid_token' } }],
        });
        // And without any proof, as a bearer token: refused as well.
        await expect(oidc.fetchUserInfo(rp.config, tokens.access_token, sub)).rejects.toMatchObject({
          status: 401,
        });
      },
    );
  });
});
