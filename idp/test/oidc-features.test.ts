/**
 * Consent, response modes, access-token formats, introspection, revocation, logout, signed
 * userinfo and /metrics (fastify inject).
 */
import { createLocalJWKSet, decodeProtectedHeader, verifyJwt } from '@pqid/jose';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerClient } from '../src/app.ts';
import { ClientError } from '../src/clients/clients.ts';
import { ACCESS_TOKEN_STORAGES } from '../src/config/index.ts';
import { bearerLineBytes } from '../src/oidc/tokens/access-tokens.ts';
import {
  answerConsent,
  basicAuth,
  browserLogin,
  cookieHeader,
  DEMO_REDIRECT,
  form,
  pkce,
  redeemCode,
  startTestIdp,
} from './helpers.ts';

const ISSUER = 'http://localhost:3000';
const RP = 'https://rp.example/cb';
const AFTER = 'https://rp.example/bye';

// Both access-token storage modes: every JWT access token here is stored, or verified (stateless).
describe.each(ACCESS_TOKEN_STORAGES)('OIDC features (inject), %s JWT access tokens', (accessTokenStorage) => {
  let t: Awaited<ReturnType<typeof startTestIdp>>;
  let app: FastifyInstance;
  const secrets = new Map<string, string>();

  beforeAll(async () => {
    t = await startTestIdp({ accessTokenStorage });
    app = t.idp.app;
    const reg = async (
      id: string,
      extra: Parameters<typeof registerClient>[1] extends infer I ? Partial<I> : never,
    ) => {
      const { clientSecret } = await registerClient(t.idp.ctx, {
        client_id: id,
        redirect_uris: [RP],
        post_logout_redirect_uris: [AFTER],
        require_pkce: false,
        ...extra,
      });
      secrets.set(id, clientSecret as string);
    };
    await reg('jwt-at', { access_token_format: 'jwt', id_token_signed_response_alg: 'ML-DSA-44' });
    await reg('auto-87', { access_token_format: 'auto', id_token_signed_response_alg: 'ML-DSA-87' });
    await reg('auto-44', { access_token_format: 'auto', id_token_signed_response_alg: 'ML-DSA-44' });
    await reg('ref', { id_token_signed_response_alg: 'ES256' });
    await reg('signed-ui', {
      userinfo_signed_response_alg: 'ML-DSA-65',
      id_token_signed_response_alg: 'RS256',
    });
    await reg('other', {});
  });
  afterAll(() => t.close());

  const auth = (id: string) => basicAuth(id, secrets.get(id) as string);
  const query = (clientId: string, extra: Record<string, string> = {}) => ({
    client_id: clientId,
    redirect_uri: RP,
    response_type: 'code',
    scope: 'openid profile email offline_access',
    state: 's1',
    nonce: 'n1',
    ...extra,
  });

  async function tokensFor(clientId: string, extra: Record<string, string> = {}) {
    const { location, sessionCookie } = await browserLogin(app, query(clientId, extra));
    const r = await redeemCode(app, location, RP, { headers: { authorization: auth(clientId) } });
    expect(r.statusCode).toBe(200);
    const body = r.json() as { access_token: string; id_token: string; refresh_token?: string };
    return { ...body, sessionCookie: sessionCookie as string };
  }

  const introspect = (token: string, clientId = 'ref', extra: Record<string, string> = {}) =>
    app.inject({
      method: 'POST',
      url: '/introspect',
      ...form({ token, ...extra }, { authorization: auth(clientId) }),
    });

  describe('consent', () => {
    async function toConsent(clientId: string, extra: Record<string, string> = {}) {
      const r1 = await app.inject(`/authorize?${new URLSearchParams(query(clientId, extra))}`);
      const cookie = cookieHeader(r1.cookies);
      const page = await app.inject({ url: r1.headers.location as string, headers: { cookie } });
      const csrf = /name="csrf" value="([^"]+)"/.exec(page.body)?.[1] as string;
      const r3 = await app.inject({
        method: 'POST',
        url: `${r1.headers.location}/login`,
        ...form({ csrf, username: 'demo', password: 'demo' }, { cookie }),
      });
      return r3;
    }

    it('asks before the first offline_access grant, with an accessible CSRF-protected page', async () => {
      const r = await toConsent('other');
      expect(r.statusCode).toBe(303);
      expect(r.headers.location).toMatch(/^\/interaction\//);
      // What a browser sends to the consent page: the interaction and the session just made.
      const cookie = cookieHeader(
        r.cookies.filter((c) => c.name === 'pqid_interaction' || c.name === 'pqid_session'),
      );
      const page = await app.inject({ url: r.headers.location as string, headers: { cookie } });
      expect(page.statusCode).toBe(200);
      expect(page.body).toContain('<html lang="en">');
      expect(page.body).toMatch(/name="csrf" value="[^"]{20,}"/);
      expect(page.body).toContain('name="decision" value="allow"');
      // True about what happens next: offline access outlives signing out (OIDC Core §11), for
      // ttl.refreshToken (14 days by default), and signing out is not offered as the way back.
      expect(page.body).toContain('Keep access when you are not using it, even after you sign out');
      expect(page.body).toMatch(
        /Signing out does not end the access[^<]*<strong>[^<]+<\/strong> keeps it for up to 14 days/,
      );
      expect(page.body).not.toContain('change your mind later by signing out');
      expect(page.headers['content-security-policy']).toContain("frame-ancestors 'none'");
      const forged = await app.inject({
        method: 'POST',
        url: `${r.headers.location}/consent`,
        ...form({ csrf: 'forged', decision: 'allow' }, { cookie }),
      });
      expect(forged.statusCode).toBe(403);
      const denied = new URL(await answerConsent(app, r.headers.location as string, cookie, 'deny'));
      expect(denied.searchParams.get('error')).toBe('access_denied');
      expect(denied.searchParams.get('state')).toBe('s1');
    });

    it('remembers consent per account and client; prompt=consent asks again', async () => {
      const first = await browserLogin(app, query('auto-44'));
      expect(first.location.searchParams.get('code')).toBeTruthy();
      const again = await app.inject({
        url: `/authorize?${new URLSearchParams(query('auto-44'))}`,
        headers: { cookie: first.sessionCookie as string },
      });
      expect(new URL(again.headers.location as string).searchParams.get('code')).toBeTruthy();
      const forced = await app.inject({
        url: `/authorize?${new URLSearchParams(query('auto-44', { prompt: 'consent' }))}`,
        headers: { cookie: first.sessionCookie as string },
      });
      expect(forced.headers.location).toMatch(/^\/interaction\//);
      // A different client has no consent yet: prompt=none → consent_required.
      const none = await app.inject({
        url: `/authorize?${new URLSearchParams(query('signed-ui', { prompt: 'none' }))}`,
        headers: { cookie: first.sessionCookie as string },
      });
      expect(new URL(none.headers.location as string).searchParams.get('error')).toBe('consent_required');
    });
  });

  describe('response_mode', () => {
    it('form_post answers with an auto-submitting form the CSP allows, and a noscript button', async () => {
      const { sessionCookie } = await browserLogin(app, query('ref'));
      const r = await app.inject({
        url: `/authorize?${new URLSearchParams(query('ref', { response_mode: 'form_post' }))}`,
        headers: { cookie: sessionCookie as string },
      });
      expect(r.statusCode).toBe(200);
      expect(r.headers.location).toBeUndefined();
      expect(r.body).toContain(`<form method="post" action="${RP}">`);
      expect(r.body).toMatch(/<input type="hidden" name="code" value="[^"]+">/);
      expect(r.body).toContain('name="state" value="s1"');
      expect(r.body).toContain(`name="iss" value="${ISSUER}"`);
      expect(r.body).toContain('<noscript>');
      const csp = r.headers['content-security-policy'] as string;
      expect(csp).toContain('form-action');
      expect(csp).toContain('https://rp.example');
      expect(csp).toMatch(/script-src 'sha256-[A-Za-z0-9+/=]+'/);
      expect(csp).not.toContain("unsafe-inline'; script");
    });

    it('sends errors by form_post too, and keeps query as the default', async () => {
      const r = await app.inject(
        `/authorize?${new URLSearchParams(query('ref', { response_mode: 'form_post', prompt: 'none' }))}`,
      );
      expect(r.statusCode).toBe(200);
      expect(r.body).toContain('name="error" value="login_required"');
      const q = await app.inject(
        `/authorize?${new URLSearchParams(query('ref', { response_mode: 'query', prompt: 'none' }))}`,
      );
      expect(q.statusCode).toBe(303);
      expect(new URL(q.headers.location as string).searchParams.get('error')).toBe('login_required');
    });
  });

  describe('access-token formats', () => {
    it('jwt: RFC 9068 at+jwt signed with the client alg, verifiable against the JWKS', async () => {
      const tokens = await tokensFor('jwt-at');
      const at = tokens.access_token as string;
      expect(decodeProtectedHeader(at)).toMatchObject({ typ: 'at+jwt', alg: 'ML-DSA-44' });
      const jwks = await createLocalJWKSet((await app.inject('/jwks')).json());
      const { claims } = await verifyJwt(at, jwks, {
        algorithms: ['ML-DSA-44'],
        typ: 'at+jwt',
        issuer: ISSUER,
        audience: ISSUER,
        requiredClaims: ['exp', 'iat', 'jti', 'client_id', 'sub'],
      });
      expect(claims).toMatchObject({ client_id: 'jwt-at', scope: 'openid profile email offline_access' });
      const ui = await app.inject({ url: '/userinfo', headers: { authorization: `Bearer ${at}` } });
      expect(ui.statusCode).toBe(200);
      expect((await introspect(at)).json()).toMatchObject({ active: true, access_token_format: 'jwt' });
    });

    it('auto: a JWT when it fits the header budget, a reference token when not', async () => {
      const small = (await tokensFor('auto-44')).access_token as string;
      expect(small.split('.')).toHaveLength(3);
      expect(bearerLineBytes(small)).toBeLessThanOrEqual(8190);
      const big = (await tokensFor('auto-87')).access_token as string;
      // ML-DSA-87 alone is ~4.6 KB of signature, so its JWT still fits 8190 here…
      expect(big.split('.')).toHaveLength(3);
      // …but not a tighter budget (e.g. a proxy limited to 4 KB header lines).
      const tight = await startTestIdp({ accessTokenHeaderBudget: 4096 });
      try {
        const { clientSecret } = await registerClient(tight.idp.ctx, {
          client_id: 'auto',
          redirect_uris: [RP],
          access_token_format: 'auto',
          id_token_signed_response_alg: 'ML-DSA-87',
          grant_types: ['client_credentials'],
        });
        const cc = await tight.idp.app.inject({
          method: 'POST',
          url: '/token',
          ...form(
            { grant_type: 'client_credentials', scope: 'profile' },
            { authorization: basicAuth('auto', clientSecret as string) },
          ),
        });
        expect(cc.json().access_token.split('.')).toHaveLength(1);
      } finally {
        await tight.close();
      }
    });

    it('validates the client metadata', async () => {
      await expect(
        registerClient(t.idp.ctx, {
          redirect_uris: [RP],
          access_token_format: 'cbor' as 'jwt',
        }),
      ).rejects.toBeInstanceOf(ClientError);
      await expect(
        registerClient(t.idp.ctx, { redirect_uris: [RP], userinfo_signed_response_alg: 'HS256' }),
      ).rejects.toThrow(/userinfo_signed_response_alg/);
      await expect(
        registerClient(t.idp.ctx, { redirect_uris: [RP], post_logout_redirect_uris: ['/relative'] }),
      ).rejects.toThrow(/post_logout_redirect_uris/);
    });
  });

  describe('introspection and revocation', () => {
    it('reports active tokens and active:false for unknown, tampered and revoked ones', async () => {
      const tokens = await tokensFor('ref');
      const a = (await introspect(tokens.access_token as string)).json();
      expect(a).toMatchObject({ active: true, client_id: 'ref', token_type: 'Bearer', iss: ISSUER });
      expect(a.exp).toBeGreaterThan(a.iat);
      const rt = (
        await introspect(tokens.refresh_token as string, 'ref', { token_type_hint: 'refresh_token' })
      ).json();
      expect(rt).toMatchObject({ active: true, token_type: 'refresh_token' });
      // Another client may not learn about this client's refresh token.
      expect((await introspect(tokens.refresh_token as string, 'other')).json()).toEqual({ active: false });
      expect((await introspect('nope')).json()).toEqual({ active: false });
      const jwt = (await tokensFor('jwt-at')).access_token as string;
      const tampered = `${jwt.slice(0, -4)}${jwt.slice(-4) === 'AAAA' ? 'BBBB' : 'AAAA'}`;
      expect((await introspect(tampered)).json()).toEqual({ active: false });
      expect(
        (await app.inject({ url: '/userinfo', headers: { authorization: `Bearer ${tampered}` } })).statusCode,
      ).toBe(401);

      // Revoking the refresh token revokes the grant, access token included.
      const rev = await app.inject({
        method: 'POST',
        url: '/revoke',
        ...form({ token: tokens.refresh_token as string }, { authorization: auth('ref') }),
      });
      expect(rev.statusCode).toBe(200);
      expect((await introspect(tokens.access_token as string)).json()).toEqual({ active: false });
      const refresh = await app.inject({
        method: 'POST',
        url: '/token',
        ...form(
          { grant_type: 'refresh_token', refresh_token: tokens.refresh_token as string },
          { authorization: auth('ref') },
        ),
      });
      expect(refresh.json().error).toBe('invalid_grant');
    });

    it('revokes a single access token, accepts unknown tokens, refuses other clients’ tokens', async () => {
      const tokens = await tokensFor('ref');
      const revoke = (token: string, clientId = 'ref') =>
        app.inject({ method: 'POST', url: '/revoke', ...form({ token }, { authorization: auth(clientId) }) });
      expect((await revoke(tokens.access_token as string, 'other')).json().error).toBe('unauthorized_client');
      expect((await revoke(tokens.access_token as string)).statusCode).toBe(200);
      expect((await introspect(tokens.access_token as string)).json().active).toBe(false);
      // The refresh token survives an access-token revocation.
      expect((await introspect(tokens.refresh_token as string)).json().active).toBe(true);
      expect((await revoke('unknown-token')).statusCode).toBe(200);
    });

    it('requires client authentication and well-formed requests', async () => {
      const noAuth = await app.inject({ method: 'POST', url: '/introspect', ...form({ token: 'x' }) });
      expect(noAuth.statusCode).toBe(401);
      expect(noAuth.json().error).toBe('invalid_client');
      const wrong = await app.inject({
        method: 'POST',
        url: '/introspect',
        ...form({ token: 'x' }, { authorization: basicAuth('ref', 'wrong') }),
      });
      expect(wrong.statusCode).toBe(401);
      for (const [payload, type] of [
        ['', 'application/x-www-form-urlencoded'],
        ['{"token":"x"}', 'application/json'],
        [`token=${'a'.repeat(70_000)}`, 'application/x-www-form-urlencoded'],
        ['token=a&token=b', 'application/x-www-form-urlencoded'],
      ] as const) {
        for (const url of ['/introspect', '/revoke']) {
          const r = await app.inject({
            method: 'POST',
            url,
            headers: { 'content-type': type, authorization: auth('ref') },
            payload,
          });
          expect(r.statusCode).toBeGreaterThanOrEqual(400);
          expect(r.statusCode).toBeLessThan(500);
          expect(r.json().error).toBeTypeOf('string');
        }
      }
    });

    it('expired tokens are inactive at introspection and refused at userinfo', async () => {
      const short = await startTestIdp({ ttl: { accessToken: 1 } });
      try {
        const { location } = await browserLogin(short.idp.app, {
          client_id: 'demo-client',
          redirect_uri: DEMO_REDIRECT,
          response_type: 'code',
          scope: 'openid',
          ...(() => {
            const p = pkce();
            verifier = p.verifier;
            return { code_challenge: p.challenge, code_challenge_method: 'S256' };
          })(),
        });
        const demo = basicAuth('demo-client', 'demo-secret');
        const tok = (
          await redeemCode(short.idp.app, location, DEMO_REDIRECT, {
            verifier,
            headers: { authorization: demo },
          })
        ).json();
        await new Promise((r) => setTimeout(r, 2100));
        const i = await short.idp.app.inject({
          method: 'POST',
          url: '/introspect',
          ...form({ token: tok.access_token }, { authorization: demo }),
        });
        expect(i.json()).toEqual({ active: false });
        const ui = await short.idp.app.inject({
          url: '/userinfo',
          headers: { authorization: `Bearer ${tok.access_token}` },
        });
        expect(ui.statusCode).toBe(401);
        expect(ui.json().error).toBe('invalid_token');
      } finally {
        await short.close();
      }
    });
  });
  let verifier = '';

  describe('signed userinfo', () => {
    it('answers application/jwt signed with the registered alg', async () => {
      const tokens = await tokensFor('signed-ui');
      const r = await app.inject({
        url: '/userinfo',
        headers: { authorization: `Bearer ${tokens.access_token}` },
      });
      expect(r.statusCode).toBe(200);
      expect(r.headers['content-type']).toMatch(/^application\/jwt/);
      const jwks = await createLocalJWKSet((await app.inject('/jwks')).json());
      const { claims, protectedHeader } = await verifyJwt(r.body, jwks, {
        algorithms: ['ML-DSA-65'],
        issuer: ISSUER,
        audience: 'signed-ui',
      });
      expect(protectedHeader.alg).toBe('ML-DSA-65');
      expect(claims).toMatchObject({ preferred_username: 'demo', email: 'demo@example.com' });
    });
  });

  describe('RP-initiated logout', () => {
    it('with a valid id_token_hint: ends the session and returns to the registered URI with state', async () => {
      const tokens = await tokensFor('ref');
      const r = await app.inject({
        url: `/end_session?${new URLSearchParams({ id_token_hint: tokens.id_token as string, post_logout_redirect_uri: AFTER, state: 'bye' })}`,
        headers: { cookie: tokens.sessionCookie },
      });
      expect(r.statusCode).toBe(303);
      expect(r.headers.location).toBe(`${AFTER}?state=bye`);
      expect(r.cookies.find((c) => c.name === 'pqid_session')?.value).toBe('');
      const after = await app.inject({
        url: `/authorize?${new URLSearchParams(query('ref', { prompt: 'none' }))}`,
        headers: { cookie: tokens.sessionCookie },
      });
      expect(new URL(after.headers.location as string).searchParams.get('error')).toBe('login_required');
    });

    it('refuses unregistered post_logout_redirect_uri and foreign or tampered hints with an error page', async () => {
      const tokens = await tokensFor('ref');
      const bad = await app.inject(
        `/end_session?${new URLSearchParams({ id_token_hint: tokens.id_token as string, post_logout_redirect_uri: `${AFTER}/x` })}`,
      );
      expect(bad.statusCode).toBe(400);
      expect(bad.headers.location).toBeUndefined();
      const id = tokens.id_token as string;
      const tampered = `${id.slice(0, -4)}${id.slice(-4) === 'AAAA' ? 'BBBB' : 'AAAA'}`;
      const t2 = await app.inject(`/end_session?${new URLSearchParams({ id_token_hint: tampered })}`);
      expect(t2.statusCode).toBe(400);
      expect(t2.body).toContain('not a valid ID token');
      const mismatch = await app.inject(
        `/end_session?${new URLSearchParams({ id_token_hint: id, client_id: 'other' })}`,
      );
      expect(mismatch.statusCode).toBe(400);
      const noClient = await app.inject(
        `/end_session?${new URLSearchParams({ post_logout_redirect_uri: AFTER })}`,
      );
      expect(noClient.statusCode).toBe(400);
    });

    it('without a hint asks for confirmation (CSRF-protected) before ending the session', async () => {
      const tokens = await tokensFor('ref');
      const r = await app.inject({
        url: `/end_session?${new URLSearchParams({ client_id: 'ref', post_logout_redirect_uri: AFTER, state: 'z' })}`,
        headers: { cookie: tokens.sessionCookie },
      });
      expect(r.statusCode).toBe(200);
      expect(r.body).toContain('Sign out?');
      const csrf = /name="csrf" value="([^"]+)"/.exec(r.body)?.[1] as string;
      const cookie = `${tokens.sessionCookie}; ${cookieHeader(r.cookies)}`;
      const forged = await app.inject({
        method: 'POST',
        url: '/end_session/confirm',
        ...form({ csrf: 'forged', logout: 'yes' }, { cookie }),
      });
      expect(forged.statusCode).toBe(403);
      const ok = await app.inject({
        method: 'POST',
        url: '/end_session/confirm',
        ...form({ csrf, logout: 'yes' }, { cookie }),
      });
      expect(ok.statusCode).toBe(303);
      expect(ok.headers.location).toBe(`${AFTER}?state=z`);
      const after = await app.inject({
        url: `/authorize?${new URLSearchParams(query('ref', { prompt: 'none' }))}`,
        headers: { cookie: tokens.sessionCookie },
      });
      expect(new URL(after.headers.location as string).searchParams.get('error')).toBe('login_required');
    });

    it('accepts hints signed by a retired key', async () => {
      const tokens = await tokensFor('ref');
      await t.idp.ctx.keys.rotate('ES256', { immediate: true });
      const r = await app.inject(
        `/end_session?${new URLSearchParams({ id_token_hint: tokens.id_token as string, post_logout_redirect_uri: AFTER })}`,
      );
      expect(r.statusCode).toBe(303);
    });
  });

  describe('malformed and oversized requests (never 5xx)', () => {
    it.each([
      ['GET', `/end_session?id_token_hint=${'a'.repeat(40_000)}`, undefined],
      ['GET', '/end_session?state=a&state=b', undefined],
      ['GET', '/end_session?id_token_hint=not.a.jwt', undefined],
      ['POST', '/end_session/confirm', 'csrf=x'],
      ['POST', '/userinfo', `access_token=${'a'.repeat(40_000)}`],
      ['GET', `/authorize?${'x'.repeat(20_000)}=1&client_id=ref`, undefined],
      ['POST', '/interaction/abc/consent', 'decision=maybe'],
    ])('%s %s', async (method, url, payload) => {
      const r = await app.inject({
        method: method as 'GET' | 'POST',
        url: url.slice(0, 60_000),
        ...(payload !== undefined
          ? { headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload }
          : {}),
      });
      expect(r.statusCode).toBeGreaterThanOrEqual(400);
      expect(r.statusCode).toBeLessThan(500);
    });
  });

  describe('discovery and metrics', () => {
    it('advertises the new endpoints and capabilities', async () => {
      const doc = (await app.inject('/.well-known/openid-configuration')).json();
      expect(doc).toMatchObject({
        introspection_endpoint: `${ISSUER}/introspect`,
        revocation_endpoint: `${ISSUER}/revoke`,
        end_session_endpoint: `${ISSUER}/end_session`,
        response_modes_supported: ['query', 'form_post'],
      });
      expect(doc.token_endpoint_auth_methods_supported).toContain('private_key_jwt');
      expect(doc.userinfo_signing_alg_values_supported).toContain('ML-DSA-65');
    });

    it('exposes sign latency, token sizes and request latency at /metrics', async () => {
      await tokensFor('jwt-at');
      const r = await app.inject('/metrics');
      expect(r.statusCode).toBe(200);
      expect(r.headers['content-type']).toMatch(/text\/plain/);
      expect(r.body).toMatch(/pqid_sign_duration_seconds_count\{alg="ML-DSA-44",kind="id_token"\} \d+/);
      expect(r.body).toMatch(/pqid_sign_duration_seconds_count\{alg="ML-DSA-44",kind="access_token"\} \d+/);
      expect(r.body).toMatch(
        /pqid_token_bytes_bucket\{le="4096",alg="ML-DSA-44",kind="id_token",encryption="none"\}/,
      );
      expect(r.body).toMatch(
        /pqid_token_bytes_count\{alg="reference",kind="access_token",encryption="none"\}/,
      );
      expect(r.body).toMatch(
        /pqid_http_request_duration_seconds_count\{method="POST",route="\/token",status_code="200"\}/,
      );
      expect(r.body).not.toContain('route="/metrics"');
    });
  });
});
