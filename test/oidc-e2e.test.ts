/**
 * End to end over real HTTP: openid-client v6 is the relying party (discovery → authorize →
 * login form → consent → code → tokens → ID token validated → userinfo → refresh →
 * introspection → revocation → logout), with ID tokens signed by each algorithm openid-client
 * verifies on Node 24. The login "browser" is fetch with a cookie jar, posting the same form
 * fields a person would.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLocalJWKSet, verifyJwt } from '@pqid/jose';
import * as oidc from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createIdp, type Idp, registerClient } from '../idp/src/app.ts';
import { loadConfig } from '../idp/src/config/index.ts';
import { FetchBrowser, signIn } from './helpers/fetch-browser.ts';
import { freePort } from './helpers/net.ts';

const ALGS = ['ML-DSA-44', 'ML-DSA-65', 'ML-DSA-87', 'ES256', 'RS256'] as const;
const REDIRECT = 'http://localhost:3001/callback';
const AFTER_LOGOUT = 'http://localhost:3001/signed-out';

describe('OIDC end to end with openid-client', () => {
  let idp: Idp;
  let issuer: string;
  let dir: string;
  const secrets = new Map<string, string>();

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'pqid-e2e-'));
    const port = await freePort();
    issuer = `http://localhost:${port}`;
    const config = loadConfig({
      env: {},
      cwd: dir,
      overrides: { dataDir: dir, port, host: '127.0.0.1', issuer, logLevel: 'silent' },
    });
    idp = await createIdp(config, { env: { PQID_KEK: randomBytes(32).toString('base64') }, warn: () => {} });
    for (const alg of ALGS) {
      const { clientSecret } = await registerClient(idp.ctx, {
        client_id: `rp-${alg}`,
        redirect_uris: [REDIRECT],
        id_token_signed_response_alg: alg,
        token_endpoint_auth_method: 'client_secret_basic',
        post_logout_redirect_uris: [AFTER_LOGOUT],
        // Small PQ JWT access tokens fit a header line; ML-DSA-87 ones may not and fall back.
        access_token_format: 'auto',
      });
      secrets.set(alg, clientSecret as string);
    }
    await idp.app.listen({ port, host: '127.0.0.1' });
  });

  afterAll(async () => {
    await idp?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it.each(ALGS)('logs in and validates a %s ID token', async (alg) => {
    const config = await oidc.discovery(
      new URL(issuer),
      `rp-${alg}`,
      { id_token_signed_response_alg: alg },
      oidc.ClientSecretBasic(secrets.get(alg) as string),
      { execute: [oidc.allowInsecureRequests] },
    );
    // Verify ID token signatures against the JWKS too, not only the TLS-less token response.
    oidc.enableNonRepudiationChecks(config);
    expect(config.serverMetadata().id_token_signing_alg_values_supported).toContain(alg);

    const verifier = oidc.randomPKCECodeVerifier();
    const state = oidc.randomState();
    const nonce = oidc.randomNonce();
    const authUrl = oidc.buildAuthorizationUrl(config, {
      redirect_uri: REDIRECT,
      scope: 'openid profile email offline_access',
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state,
      nonce,
    });

    const browser = new FetchBrowser();
    const callback = await signIn(browser, issuer, authUrl.href);
    expect(callback.origin + callback.pathname).toBe(REDIRECT);

    const tokens = await oidc.authorizationCodeGrant(config, callback, {
      pkceCodeVerifier: verifier,
      expectedState: state,
      expectedNonce: nonce,
      idTokenExpected: true,
    });
    const claims = tokens.claims();
    expect(claims?.iss).toBe(issuer);
    expect(claims?.aud).toBe(`rp-${alg}`);
    expect(claims?.nonce).toBe(nonce);
    const header = JSON.parse(
      Buffer.from((tokens.id_token as string).split('.')[0] as string, 'base64url').toString(),
    );
    expect(header.alg).toBe(alg);

    // Independently, @pqid/jose accepts the same token against the published JWKS.
    const jwks = await createLocalJWKSet(await (await fetch(`${issuer}/jwks`)).json());
    await verifyJwt(tokens.id_token, jwks, { algorithms: [alg], issuer, audience: `rp-${alg}` });

    const userinfo = await oidc.fetchUserInfo(config, tokens.access_token, claims?.sub as string);
    expect(userinfo).toMatchObject({
      sub: claims?.sub,
      preferred_username: 'demo',
      email: 'demo@example.com',
    });

    const refreshed = await oidc.refreshTokenGrant(config, tokens.refresh_token as string);
    expect(refreshed.refresh_token).toBeTruthy();
    expect(refreshed.refresh_token).not.toBe(tokens.refresh_token);
    expect(refreshed.claims()?.sub).toBe(claims?.sub);

    // Introspection (RFC 7662) of the rotated refresh token and the fresh access token.
    const at = await oidc.tokenIntrospection(config, refreshed.access_token);
    expect(at).toMatchObject({ active: true, client_id: `rp-${alg}`, sub: claims?.sub });
    expect(await oidc.tokenIntrospection(config, tokens.refresh_token as string)).toMatchObject({
      active: false,
    });
    // Revoking the refresh token ends the grant: its access token dies with it (RFC 7009).
    await oidc.tokenRevocation(config, refreshed.refresh_token as string);
    expect((await oidc.tokenIntrospection(config, refreshed.access_token)).active).toBe(false);
    expect(
      (
        await oidc.tokenIntrospection(config, refreshed.refresh_token as string, {
          token_type_hint: 'refresh_token',
        })
      ).active,
    ).toBe(false);

    // RP-initiated logout with the ID token as hint: straight back to the RP, session gone.
    const logoutUrl = oidc.buildEndSessionUrl(config, {
      id_token_hint: refreshed.id_token as string,
      post_logout_redirect_uri: AFTER_LOGOUT,
      state: 'bye',
    });
    const out = await browser.get(logoutUrl.href);
    expect(out.status).toBe(303);
    const back = new URL(out.headers.get('location') as string);
    expect(back.origin + back.pathname).toBe(AFTER_LOGOUT);
    expect(back.searchParams.get('state')).toBe('bye');
    expect(browser.jar.has('pqid_session')).toBe(false);
    // Signed out: prompt=none now answers login_required.
    const again = await browser.get(
      oidc.buildAuthorizationUrl(config, {
        redirect_uri: REDIRECT,
        scope: 'openid',
        prompt: 'none',
        code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
        code_challenge_method: 'S256',
      }).href,
    );
    expect(new URL(again.headers.get('location') as string).searchParams.get('error')).toBe('login_required');
  });

  it('signs composite ID tokens that @pqid/jose verifies', async () => {
    const alg = 'ML-DSA-65-Ed25519';
    const { clientSecret } = await registerClient(idp.ctx, {
      client_id: 'rp-composite',
      redirect_uris: [REDIRECT],
      id_token_signed_response_alg: alg,
    });
    const verifier = oidc.randomPKCECodeVerifier();
    const browser = new FetchBrowser();
    const q = new URLSearchParams({
      client_id: 'rp-composite',
      redirect_uri: REDIRECT,
      response_type: 'code',
      scope: 'openid',
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
    });
    const callback = await signIn(browser, issuer, `${issuer}/authorize?${q}`);
    const code = callback.searchParams.get('code') as string;
    const res = await fetch(`${issuer}/token`, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`rp-composite:${clientSecret}`).toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code,
        redirect_uri: REDIRECT,
        code_verifier: verifier,
      }),
    });
    expect(res.status).toBe(200);
    const { id_token } = (await res.json()) as { id_token: string };
    const jwks = await createLocalJWKSet(await (await fetch(`${issuer}/jwks`)).json());
    const { protectedHeader } = await verifyJwt(id_token, jwks, {
      algorithms: [alg],
      issuer,
      audience: 'rp-composite',
    });
    expect(protectedHeader.alg).toBe(alg);
  });
});
