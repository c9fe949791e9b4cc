import { algorithms, createLocalJWKSet, verifyJwt } from '@pqid/jose';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerClient } from '../src/app.ts';
import { basicAuth, browserLogin, DEMO_REDIRECT, form, pkce, startTestIdp } from './helpers.ts';

const ISSUER = 'http://localhost:3000';

describe('OIDC endpoints (inject)', () => {
  let t: Awaited<ReturnType<typeof startTestIdp>>;
  let app: FastifyInstance;
  const demoAuth = basicAuth('demo-client', 'demo-secret');

  beforeAll(async () => {
    t = await startTestIdp();
    app = t.idp.app;
    await registerClient(t.idp.ctx, {
      client_id: 'public-spa',
      token_endpoint_auth_method: 'none',
      redirect_uris: ['http://localhost:5173/cb'],
      id_token_signed_response_alg: 'ES256',
    });
    await registerClient(t.idp.ctx, {
      client_id: 'post-client',
      client_secret: 'post-secret',
      token_endpoint_auth_method: 'client_secret_post',
      redirect_uris: ['https://rp.example/cb'],
      id_token_signed_response_alg: 'ML-DSA-44',
      require_pkce: false,
    });
  });
  afterAll(() => t.close());

  const authorizeQuery = (extra: Record<string, string> = {}) => {
    const p = pkce();
    return {
      verifier: p.verifier,
      query: {
        client_id: 'demo-client',
        redirect_uri: DEMO_REDIRECT,
        response_type: 'code',
        scope: 'openid profile email offline_access',
        state: 'st-1',
        nonce: 'n-1',
        code_challenge: p.challenge,
        code_challenge_method: 'S256',
        ...extra,
      },
    };
  };

  async function codeFor(extra: Record<string, string> = {}) {
    const { query, verifier } = authorizeQuery(extra);
    const { location, sessionCookie } = await browserLogin(app, query);
    return { code: location.searchParams.get('code') as string, verifier, location, sessionCookie };
  }

  const token = (data: Record<string, string>, authorization = demoAuth) =>
    app.inject({
      method: 'POST',
      url: '/token',
      headers: { authorization, 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams(data).toString(),
    });

  /** Sign in as the demo user and redeem the code: the token response's JSON. */
  async function signedInTokens() {
    const { code, verifier } = await codeFor();
    const r = await token({
      grant_type: 'authorization_code',
      code,
      redirect_uri: DEMO_REDIRECT,
      code_verifier: verifier,
    });
    expect(r.statusCode, r.body).toBe(200);
    return r.json();
  }

  describe('discovery, jwks, health', () => {
    it('lists the registry algorithms and the endpoints (SLH-DSA only for verification)', async () => {
      const r = await app.inject('/.well-known/openid-configuration');
      expect(r.statusCode).toBe(200);
      const doc = r.json();
      expect(doc.issuer).toBe(ISSUER);
      // What the IdP signs tokens with: not SLH-DSA (the cold path's) unless allowed; what it
      // verifies (client assertions): every algorithm.
      expect(doc.id_token_signing_alg_values_supported).toEqual(
        algorithms().filter((a) => !a.startsWith('SLH-DSA')),
      );
      expect(doc.token_endpoint_auth_signing_alg_values_supported).toEqual(algorithms());
      expect(doc.id_token_signing_alg_values_supported).toContain('ML-DSA-65');
      expect(doc.code_challenge_methods_supported).toEqual(['S256']);
      expect(doc.token_endpoint).toBe(`${ISSUER}/token`);
    });

    it('publishes public keys only, one per client algorithm', async () => {
      const r = await app.inject('/jwks');
      expect(r.headers['content-type']).toMatch(/jwk-set\+json/);
      const { keys } = r.json();
      // Client algs (key placement may add fixed ones, e.g. the cold-path alg).
      expect(keys.map((k: { alg: string }) => k.alg)).toEqual(
        expect.arrayContaining(['ES256', 'ML-DSA-44', 'ML-DSA-65']),
      );
      for (const k of keys) for (const m of ['priv', 'd', 'p', 'q']) expect(k).not.toHaveProperty(m);
    });

    it('answers /healthz with its status only (the detail needs the operator token: health.test.ts)', async () => {
      const r = await app.inject('/healthz');
      expect(r.statusCode).toBe(200);
      expect(r.json()).toEqual({ status: 'ok', storage: { ok: true } });
    });

    it('answers unknown endpoints with a JSON 404', async () => {
      const r = await app.inject('/nope');
      expect(r.statusCode).toBe(404);
      expect(r.json().error).toBe('not_found');
    });
  });

  describe('authorize', () => {
    it('shows an error page, never a redirect, for an unregistered redirect_uri', async () => {
      const { query } = authorizeQuery({ redirect_uri: 'http://localhost:3001/callback/evil' });
      const r = await app.inject(`/authorize?${new URLSearchParams(query)}`);
      expect(r.statusCode).toBe(400);
      expect(r.headers.location).toBeUndefined();
      expect(r.headers['content-type']).toMatch(/text\/html/);
      expect(r.body).toContain('redirect_uri is not registered');
    });

    it('shows an error page for an unknown client and for duplicated parameters', async () => {
      const r1 = await app.inject(
        '/authorize?client_id=ghost&redirect_uri=http://x/cb&response_type=code&scope=openid',
      );
      expect(r1.statusCode).toBe(400);
      expect(r1.headers.location).toBeUndefined();
      const r2 = await app.inject('/authorize?client_id=demo-client&client_id=other&response_type=code');
      expect(r2.statusCode).toBe(400);
      expect(r2.headers.location).toBeUndefined();
    });

    it.each([
      [{ code_challenge: '', code_challenge_method: '' }, 'invalid_request', /PKCE/],
      [{ code_challenge_method: 'plain' }, 'invalid_request', /S256/],
      [{ response_type: 'token' }, 'unsupported_response_type', /code/],
      [{ scope: 'profile' }, 'invalid_scope', /openid/],
      [{ prompt: 'none login' }, 'invalid_request', /prompt/],
      [{ max_age: '-1' }, 'invalid_request', /max_age/],
      [{ response_mode: 'fragment' }, 'invalid_request', /response_mode/],
    ])('redirects %j back with %s and the state', async (extra, error, description) => {
      const { query } = authorizeQuery();
      const q: Record<string, string> = { ...query, ...extra };
      for (const [k, v] of Object.entries(q)) if (v === '') delete q[k];
      const r = await app.inject(`/authorize?${new URLSearchParams(q)}`);
      expect(r.statusCode).toBe(303);
      const loc = new URL(r.headers.location as string);
      expect(loc.origin + loc.pathname).toBe(DEMO_REDIRECT);
      expect(loc.searchParams.get('error')).toBe(error);
      expect(loc.searchParams.get('error_description')).toMatch(description);
      expect(loc.searchParams.get('state')).toBe('st-1');
      expect(loc.searchParams.get('iss')).toBe(ISSUER);
    });

    it('ignores unknown parameters, and answers oversized ones with a 400 page', async () => {
      const { query } = authorizeQuery({ foo: 'bar', claims_locales: 'de' });
      const r = await app.inject(`/authorize?${new URLSearchParams(query)}`);
      expect(r.statusCode).toBe(303);
      expect(r.headers.location).toMatch(/^\/interaction\//);
      const big = await app.inject(
        `/authorize?${new URLSearchParams({ ...query, state: 'x'.repeat(5000) })}`,
      );
      expect(big.statusCode).toBe(400);
      expect(big.headers.location).toBeUndefined();
    });

    it('max_age=0 forces a new login even with a session', async () => {
      const { sessionCookie } = await codeFor();
      const { query } = authorizeQuery({ max_age: '0' });
      await new Promise((r) => setTimeout(r, 1100));
      const r = await app.inject({
        url: `/authorize?${new URLSearchParams(query)}`,
        headers: { cookie: sessionCookie as string },
      });
      expect(r.headers.location).toMatch(/^\/interaction\//);
    });

    it('prompt=none without a session → login_required', async () => {
      const { query } = authorizeQuery({ prompt: 'none' });
      const r = await app.inject(`/authorize?${new URLSearchParams(query)}`);
      expect(new URL(r.headers.location as string).searchParams.get('error')).toBe('login_required');
    });

    it('renders an accessible login page with CSRF token and safe headers', async () => {
      const { query } = authorizeQuery();
      const r1 = await app.inject(`/authorize?${new URLSearchParams(query)}`);
      expect(r1.statusCode).toBe(303);
      const cookie = r1.cookies.map((c) => `${c.name}=${c.value}`).join('; ');
      expect(r1.cookies[0]).toMatchObject({ name: 'pqid_interaction', httpOnly: true, sameSite: 'Lax' });
      const r2 = await app.inject({ url: r1.headers.location as string, headers: { cookie } });
      expect(r2.statusCode).toBe(200);
      expect(r2.body).toContain('<html lang="en">');
      expect(r2.body).toMatch(/<label for="username">/);
      expect(r2.body).toMatch(/name="username"/);
      expect(r2.body).toMatch(/name="password"/);
      expect(r2.body).toMatch(/name="csrf" value="[^"]{20,}"/);
      expect(r2.headers['x-frame-options']).toBe('DENY');
      expect(r2.headers['content-security-policy']).toContain("frame-ancestors 'none'");
      // Without the interaction cookie the page is not shown (binds the flow to this browser).
      const r3 = await app.inject(r1.headers.location as string);
      expect(r3.statusCode).toBe(400);
    });

    it('gives one generic message for a wrong password and an unknown user', async () => {
      const { query } = authorizeQuery();
      const bodies: string[] = [];
      for (const creds of [
        { username: 'demo', password: 'wrong' },
        { username: 'nobody', password: 'demo' },
      ]) {
        const err = await browserLogin(app, query, creds).catch((e: Error) => e.message);
        expect(err).toMatch(/^login post: 401/);
        bodies.push((err as string).replace(/value="[^"]*"/g, '').replace(/interaction\/[^/]+\//g, ''));
      }
      expect(bodies[0]).toContain('The username or password is incorrect.');
      expect(bodies[0]).toContain('role="alert"');
      expect(bodies[1]).toBe(bodies[0]);
    });

    it('refuses a login post with a wrong CSRF token', async () => {
      const { query } = authorizeQuery();
      const r1 = await app.inject(`/authorize?${new URLSearchParams(query)}`);
      const cookie = r1.cookies.map((c) => `${c.name}=${c.value}`).join('; ');
      const r = await app.inject({
        method: 'POST',
        url: `${r1.headers.location}/login`,
        ...form({ csrf: 'forged', username: 'demo', password: 'demo' }, { cookie }),
      });
      expect(r.statusCode).toBe(403);
      expect(r.headers.location).toBeUndefined();
    });

    it('reuses the session: a second authorize needs no login, prompt=login forces one', async () => {
      const { sessionCookie } = await codeFor();
      const { query } = authorizeQuery();
      const r = await app.inject({
        url: `/authorize?${new URLSearchParams(query)}`,
        headers: { cookie: sessionCookie as string },
      });
      expect(new URL(r.headers.location as string).searchParams.get('code')).toBeTruthy();
      const r2 = await app.inject({
        url: `/authorize?${new URLSearchParams({ ...query, prompt: 'login' })}`,
        headers: { cookie: sessionCookie as string },
      });
      expect(r2.headers.location).toMatch(/^\/interaction\//);
    });
  });

  describe('token', () => {
    it('exchanges a code for tokens; the ID token is ML-DSA-65 signed and carries the nonce', async () => {
      const { code, verifier, location } = await codeFor();
      expect(location.searchParams.get('state')).toBe('st-1');
      expect(location.searchParams.get('iss')).toBe(ISSUER);
      const r = await token({
        grant_type: 'authorization_code',
        code,
        redirect_uri: DEMO_REDIRECT,
        code_verifier: verifier,
      });
      expect(r.statusCode).toBe(200);
      expect(r.headers['cache-control']).toBe('no-store');
      const body = r.json();
      expect(body).toMatchObject({ token_type: 'Bearer', expires_in: 3600 });
      expect(body.refresh_token).toBeTypeOf('string');
      const jwks = await createLocalJWKSet((await app.inject('/jwks')).json());
      const { claims, protectedHeader } = await verifyJwt(body.id_token, jwks, {
        algorithms: ['ML-DSA-65'],
        issuer: ISSUER,
        audience: 'demo-client',
      });
      expect(protectedHeader.alg).toBe('ML-DSA-65');
      expect(claims.nonce).toBe('n-1');
      expect(claims.auth_time).toBeTypeOf('number');

      const ui = await app.inject({
        url: '/userinfo',
        headers: { authorization: `Bearer ${body.access_token}` },
      });
      expect(ui.statusCode).toBe(200);
      expect(ui.json()).toMatchObject({
        sub: claims.sub,
        preferred_username: 'demo',
        email: 'demo@example.com',
      });
    });

    it('codes are single use; reuse revokes the tokens issued from them', async () => {
      const { code, verifier } = await codeFor();
      const ok = await token({
        grant_type: 'authorization_code',
        code,
        redirect_uri: DEMO_REDIRECT,
        code_verifier: verifier,
      });
      expect(ok.statusCode).toBe(200);
      const again = await token({
        grant_type: 'authorization_code',
        code,
        redirect_uri: DEMO_REDIRECT,
        code_verifier: verifier,
      });
      expect(again.statusCode).toBe(400);
      expect(again.json().error).toBe('invalid_grant');
      const ui = await app.inject({
        url: '/userinfo',
        headers: { authorization: `Bearer ${ok.json().access_token}` },
      });
      expect(ui.statusCode).toBe(401);
      const refreshed = await token({ grant_type: 'refresh_token', refresh_token: ok.json().refresh_token });
      expect(refreshed.json().error).toBe('invalid_grant');
    });

    it('rejects a missing or wrong PKCE verifier and a mismatched redirect_uri', async () => {
      for (const data of [{}, { code_verifier: 'x'.repeat(43) }, { code_verifier: 'short' }] as Array<
        Record<string, string>
      >) {
        const { code } = await codeFor();
        const r = await token({
          grant_type: 'authorization_code',
          code,
          redirect_uri: DEMO_REDIRECT,
          ...data,
        });
        expect(r.statusCode).toBe(400);
        expect(r.json().error).toBe('invalid_grant');
      }
      const { code, verifier } = await codeFor();
      const r = await token({
        grant_type: 'authorization_code',
        code,
        redirect_uri: 'http://localhost:3001/other',
        code_verifier: verifier,
      });
      expect(r.json().error).toBe('invalid_grant');
    });

    it('authenticates clients: wrong secret, wrong method, unknown client → 401 invalid_client', async () => {
      const { code, verifier } = await codeFor();
      const base = {
        grant_type: 'authorization_code',
        code,
        redirect_uri: DEMO_REDIRECT,
        code_verifier: verifier,
      };
      const wrong = await token(base, basicAuth('demo-client', 'nope'));
      expect(wrong.statusCode).toBe(401);
      expect(wrong.json().error).toBe('invalid_client');
      expect(wrong.headers['www-authenticate']).toMatch(/^Basic/);
      const post = await app.inject({
        method: 'POST',
        url: '/token',
        ...form({ ...base, client_id: 'demo-client', client_secret: 'demo-secret' }),
      });
      expect(post.statusCode).toBe(401);
      const ghost = await token(base, basicAuth('ghost', 'x'));
      expect(ghost.statusCode).toBe(401);
    });

    it('supports client_secret_post (ML-DSA-44 ID tokens) and public clients with PKCE (ES256)', async () => {
      const p = pkce();
      const { location } = await browserLogin(app, {
        client_id: 'post-client',
        redirect_uri: 'https://rp.example/cb',
        response_type: 'code',
        scope: 'openid',
        nonce: 'n2',
      });
      const r = await app.inject({
        method: 'POST',
        url: '/token',
        ...form({
          grant_type: 'authorization_code',
          code: location.searchParams.get('code') as string,
          redirect_uri: 'https://rp.example/cb',
          client_id: 'post-client',
          client_secret: 'post-secret',
        }),
      });
      expect(r.statusCode).toBe(200);
      expect(
        JSON.parse(Buffer.from((r.json().id_token as string).split('.')[0] as string, 'base64url').toString())
          .alg,
      ).toBe('ML-DSA-44');

      const pub = await browserLogin(app, {
        client_id: 'public-spa',
        redirect_uri: 'http://localhost:5173/cb',
        response_type: 'code',
        scope: 'openid',
        code_challenge: p.challenge,
        code_challenge_method: 'S256',
      });
      const r2 = await app.inject({
        method: 'POST',
        url: '/token',
        ...form({
          grant_type: 'authorization_code',
          code: pub.location.searchParams.get('code') as string,
          redirect_uri: 'http://localhost:5173/cb',
          client_id: 'public-spa',
          code_verifier: p.verifier,
        }),
      });
      expect(r2.statusCode).toBe(200);
      expect(
        JSON.parse(
          Buffer.from((r2.json().id_token as string).split('.')[0] as string, 'base64url').toString(),
        ).alg,
      ).toBe('ES256');
      expect(r2.json().refresh_token).toBeUndefined();
    });

    it('public clients must use PKCE even if they ask not to', async () => {
      const r = await app.inject(
        `/authorize?${new URLSearchParams({ client_id: 'public-spa', redirect_uri: 'http://localhost:5173/cb', response_type: 'code', scope: 'openid' })}`,
      );
      expect(new URL(r.headers.location as string).searchParams.get('error')).toBe('invalid_request');
    });

    it('rotates refresh tokens; reusing a rotated one revokes the grant', async () => {
      const first = await signedInTokens();
      const second = await token({ grant_type: 'refresh_token', refresh_token: first.refresh_token });
      expect(second.statusCode).toBe(200);
      const s = second.json();
      expect(s.refresh_token).not.toBe(first.refresh_token);
      expect(s.id_token).toBeTypeOf('string');
      const reuse = await token({ grant_type: 'refresh_token', refresh_token: first.refresh_token });
      expect(reuse.json().error).toBe('invalid_grant');
      // The whole grant is gone: the rotated token and its access token too.
      expect(
        (await token({ grant_type: 'refresh_token', refresh_token: s.refresh_token })).json().error,
      ).toBe('invalid_grant');
      expect(
        (await app.inject({ url: '/userinfo', headers: { authorization: `Bearer ${s.access_token}` } }))
          .statusCode,
      ).toBe(401);
    });

    it('a refresh with a narrower scope narrows that access token only, never the grant (RFC 6749 §6)', async () => {
      const first = await signedInTokens();
      const narrow = await token({
        grant_type: 'refresh_token',
        refresh_token: first.refresh_token,
        scope: 'openid',
      });
      expect(narrow.statusCode).toBe(200);
      expect(narrow.json().scope).toBe('openid');
      // The new refresh token has the scope of the one presented: offline_access included.
      expect(narrow.json().refresh_token).toBeTypeOf('string');
      const full = await token({ grant_type: 'refresh_token', refresh_token: narrow.json().refresh_token });
      expect(full.statusCode).toBe(200);
      expect(full.json().scope).toBe(first.scope);
      expect(full.json().refresh_token).toBeTypeOf('string');
    });

    it('refuses a wider scope at refresh without spending the refresh token (RFC 6749 §6)', async () => {
      const first = await signedInTokens();
      expect(first.scope).not.toMatch(/\badmin\b/);
      const wider = await token({
        grant_type: 'refresh_token',
        refresh_token: first.refresh_token,
        scope: `${first.scope} admin`,
      });
      expect(wider.statusCode).toBe(400);
      expect(wider.json().error).toBe('invalid_scope');
      // Still usable: a refused request must not look like reuse on the next try.
      const again = await token({ grant_type: 'refresh_token', refresh_token: first.refresh_token });
      expect(again.statusCode).toBe(200);
      expect(again.json().scope).toBe(first.scope);
    });

    it('issues client_credentials tokens that do not open userinfo', async () => {
      const r = await token({ grant_type: 'client_credentials', scope: 'profile' });
      expect(r.statusCode).toBe(200);
      expect(r.json()).toMatchObject({ token_type: 'Bearer', scope: 'profile' });
      expect(r.json().id_token).toBeUndefined();
      const ui = await app.inject({
        url: '/userinfo',
        headers: { authorization: `Bearer ${r.json().access_token}` },
      });
      expect(ui.statusCode).toBe(403);
      expect(ui.json().error).toBe('insufficient_scope');
      const bad = await token({ grant_type: 'client_credentials', scope: 'admin' });
      expect(bad.json().error).toBe('invalid_scope');
    });

    it.each([
      [
        'no grant_type',
        { 'content-type': 'application/x-www-form-urlencoded' },
        'code=x',
        400,
        'invalid_request',
      ],
      [
        'unknown grant_type',
        { 'content-type': 'application/x-www-form-urlencoded' },
        'grant_type=password',
        400,
        'unsupported_grant_type',
      ],
      [
        'JSON body',
        { 'content-type': 'application/json' },
        '{"grant_type":"client_credentials"}',
        400,
        'invalid_request',
      ],
      [
        'text body',
        { 'content-type': 'text/plain' },
        'grant_type=client_credentials',
        400,
        'invalid_request',
      ],
      [
        'oversized body',
        { 'content-type': 'application/x-www-form-urlencoded' },
        `grant_type=x&pad=${'a'.repeat(70_000)}`,
        413,
        'invalid_request',
      ],
      [
        'duplicate params',
        { 'content-type': 'application/x-www-form-urlencoded' },
        'grant_type=client_credentials&grant_type=refresh_token',
        400,
        'invalid_request',
      ],
      [
        'malformed Basic',
        { 'content-type': 'application/x-www-form-urlencoded', authorization: 'Basic !!!' },
        'grant_type=client_credentials',
        401,
        'invalid_client',
      ],
    ])('answers %s with a 4xx OAuth error body', async (_name, headers, payload, status, error) => {
      const r = await app.inject({
        method: 'POST',
        url: '/token',
        headers: { authorization: demoAuth, ...headers },
        payload,
      });
      expect(r.statusCode).toBe(status);
      expect(r.json().error).toBe(error);
    });
  });

  describe('userinfo', () => {
    it('rejects missing, malformed and unknown tokens with 401 and WWW-Authenticate', async () => {
      for (const headers of [
        {},
        { authorization: 'Bearer' },
        { authorization: 'Bearer abc' },
        { authorization: 'Basic abc' },
      ]) {
        const r = await app.inject({ url: '/userinfo', headers });
        expect(r.statusCode).toBe(401);
        expect(r.headers['www-authenticate']).toMatch(/^Bearer/);
        expect(r.json().error).toBeTypeOf('string');
      }
    });

    it('accepts POST with the token in the form body', async () => {
      const t1 = await signedInTokens();
      const r = await app.inject({
        method: 'POST',
        url: '/userinfo',
        ...form({ access_token: t1.access_token }),
      });
      expect(r.statusCode).toBe(200);
      expect(r.json().sub).toBeTypeOf('string');
    });
  });
});
