/** Security headers (security/headers.ts) on every kind of response, over http and https issuers. */
import { createHash } from 'node:crypto';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerSamlSp } from '../src/saml/sps.ts';
import { DEFAULT_CSP } from '../src/security/headers.ts';
import { basicAuth, browserLogin, DEMO_REDIRECT, form, pkce, startTestIdp } from './helpers.ts';
import { authnRequestXml, redirectParam, SP_ACS, SP_ENTITY, samlLogin } from './saml-helpers.ts';

type Started = Awaited<ReturnType<typeof startTestIdp>>;

function expectBaseline(r: LightMyRequestResponse) {
  expect(r.headers['x-content-type-options']).toBe('nosniff');
  expect(r.headers['referrer-policy']).toBe('no-referrer');
  expect(r.headers['content-security-policy']).toMatch(/frame-ancestors 'none'/);
}

/** Every inline script of a page is allowed by a hash in its CSP, and nothing else may run. */
function expectScriptsAllowedByHash(r: LightMyRequestResponse) {
  const csp = String(r.headers['content-security-policy']);
  const scripts = [...r.body.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => m[1] as string);
  expect(scripts.length).toBeGreaterThan(0);
  for (const s of scripts)
    expect(csp).toContain(`'sha256-${createHash('sha256').update(s).digest('base64')}'`);
  expect(csp).not.toContain("unsafe-inline'; script");
  expect(csp).toMatch(/script-src 'sha256-[^ ;]+'(;|$)/);
}

const authorizeQuery = (extra: Record<string, string> = {}) => ({
  client_id: 'demo-client',
  redirect_uri: DEMO_REDIRECT,
  response_type: 'code',
  scope: 'openid',
  state: 's',
  code_challenge: pkce().challenge,
  code_challenge_method: 'S256',
  ...extra,
});

describe('security headers, http issuer', () => {
  let t: Started;
  let app: FastifyInstance;
  beforeAll(async () => {
    t = await startTestIdp();
    app = t.idp.app;
    await registerSamlSp(t.idp.ctx, {
      entityId: SP_ENTITY,
      acsUrls: [SP_ACS],
      signatureAlgorithm: 'ML-DSA-65',
    });
  });
  afterAll(() => t.close());

  it('sends nosniff, no-referrer and a locked-down CSP on JSON, XML and 404 responses; no HSTS over http', async () => {
    for (const url of ['/jwks', '/.well-known/openid-configuration', '/saml/metadata', '/nope', '/healthz']) {
      const r = await app.inject(url);
      expectBaseline(r);
      expect(r.headers['strict-transport-security']).toBeUndefined();
      expect(r.headers['content-security-policy']).toBe(DEFAULT_CSP);
    }
  });

  it('keeps the caching policy a route chose, and defaults to no-store', async () => {
    expect((await app.inject('/jwks')).headers['cache-control']).toBe('public, max-age=300');
    expect((await app.inject('/saml/metadata')).headers['cache-control']).toBe('public, max-age=3600');
    expect((await app.inject('/nope')).headers['cache-control']).toBe('no-store');
    expect((await app.inject('/metrics')).headers['cache-control']).toBe('no-store');
  });

  it('never lets token-bearing responses be cached', async () => {
    const auth = basicAuth('demo-client', 'demo-secret');
    const token = await app.inject({
      method: 'POST',
      url: '/token',
      ...form({ grant_type: 'client_credentials' }, { authorization: auth }),
    });
    expect(token.statusCode).toBe(200);
    expect(token.headers['cache-control']).toBe('no-store');
    expect(token.headers.pragma).toBe('no-cache');
    expectBaseline(token);
    const at = token.json().access_token as string;
    for (const r of [
      await app.inject({ url: '/userinfo', headers: { authorization: `Bearer ${at}` } }),
      await app.inject({
        method: 'POST',
        url: '/introspect',
        ...form({ token: at }, { authorization: auth }),
      }),
      await app.inject({ method: 'POST', url: '/revoke', ...form({ token: at }, { authorization: auth }) }),
      await app.inject({ method: 'POST', url: '/token', ...form({ grant_type: 'password' }) }),
    ]) {
      expect(r.headers['cache-control']).toBe('no-store');
      expectBaseline(r);
    }
    // A code in a redirect.
    const { sessionCookie } = await browserLogin(app, authorizeQuery());
    const again = await app.inject({
      url: `/authorize?${new URLSearchParams(authorizeQuery())}`,
      headers: { cookie: sessionCookie as string },
    });
    expect(again.statusCode).toBe(303);
    expect(again.headers['cache-control']).toBe('no-store');
    expect(again.headers['referrer-policy']).toBe('no-referrer');
  });

  it('keeps the UI pages’ own CSP: frame-ancestors none, form-action for the client', async () => {
    const start = await app.inject(`/authorize?${new URLSearchParams(authorizeQuery())}`);
    const login = await app.inject({
      url: start.headers.location as string,
      headers: { cookie: start.cookies.map((c) => `${c.name}=${c.value}`).join('; ') },
    });
    expect(login.statusCode).toBe(200);
    expectBaseline(login);
    const csp = String(login.headers['content-security-policy']);
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("form-action 'self' http://localhost:3001");
    expect(login.headers['x-frame-options']).toBe('DENY');
    expect(login.headers['cache-control']).toBe('no-store');
    // Error pages (an unknown client) and the logout page.
    for (const url of ['/authorize?client_id=nobody', '/end_session', '/saml/sso?SAMLRequest=%25%25']) {
      const r = await app.inject(url);
      expect(r.headers['content-type']).toMatch(/^text\/html/);
      expectBaseline(r);
      expect(r.headers['x-frame-options']).toBe('DENY');
    }
  });

  it('allows the form_post and SAML auto-submit scripts by hash', async () => {
    const { sessionCookie } = await browserLogin(app, authorizeQuery());
    const formPost = await app.inject({
      url: `/authorize?${new URLSearchParams(authorizeQuery({ response_mode: 'form_post' }))}`,
      headers: { cookie: sessionCookie as string },
    });
    expect(formPost.statusCode).toBe(200);
    expect(formPost.body).toContain('name="code"');
    expectBaseline(formPost);
    expectScriptsAllowedByHash(formPost);
    expect(formPost.headers['cache-control']).toBe('no-store');

    const sso = () => `/saml/sso?SAMLRequest=${encodeURIComponent(redirectParam(authnRequestXml()))}`;
    const { session } = await samlLogin(app, sso());
    const saml = await app.inject({ url: sso(), headers: { cookie: session } });
    expect(saml.statusCode).toBe(200);
    expect(saml.body).toContain('name="SAMLResponse"');
    expectBaseline(saml);
    expectScriptsAllowedByHash(saml);
    expect(String(saml.headers['content-security-policy'])).toContain(
      "form-action 'self' https://sp.example.test",
    );
    expect(saml.headers['cache-control']).toBe('no-store');
  });
});

describe('security headers, https issuer', () => {
  let t: Started;
  beforeAll(async () => {
    t = await startTestIdp({ issuer: 'https://idp.example.test' });
  });
  afterAll(() => t.close());

  it('sends HSTS on every response, also errors and 404s', async () => {
    const app = t.idp.app;
    for (const r of [
      await app.inject('/jwks'),
      await app.inject('/nope'),
      await app.inject('/authorize?client_id=nobody'),
      await app.inject({ method: 'POST', url: '/token', ...form({ grant_type: 'x' }) }),
      await app.inject('/healthz'),
    ]) {
      expect(r.headers['strict-transport-security']).toBe('max-age=31536000');
      expectBaseline(r);
    }
  });
});
