/**
 * The issuer URL answers a person and a program: the landing page (what this is, the discovery,
 * JWKS, SAML metadata and health links) for a browser, the same links as JSON for a client that
 * asks for JSON; an unknown address is a page with the way home for a browser and the OAuth
 * error body for everyone else.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestIdp } from './helpers.ts';

const ISSUER = 'http://localhost:3000';
const BROWSER = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';

describe('the landing page at the issuer URL', () => {
  let t: Awaited<ReturnType<typeof startTestIdp>>;
  let app: FastifyInstance;
  beforeAll(async () => {
    t = await startTestIdp({ saml: { enabled: true } });
    app = t.idp.app;
  });
  afterAll(() => t.close());

  it('shows a browser what the server is and where its documents are', async () => {
    const r = await app.inject({ url: '/', headers: { accept: BROWSER } });
    expect(r.statusCode).toBe(200);
    expect(r.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(r.headers.vary).toContain('accept');
    expect(r.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    for (const href of [
      `${ISSUER}/.well-known/openid-configuration`,
      `${ISSUER}/jwks`,
      `${ISSUER}/saml/metadata`,
      `${ISSUER}/healthz`,
      `${ISSUER}/account`,
    ])
      expect(r.body).toContain(`href="${href}"`);
    expect(r.body).toContain('<h1>Sign-in service</h1>');
  });

  it('is the page for clients that say nothing, and JSON for a client that asks for JSON', async () => {
    expect((await app.inject('/')).headers['content-type']).toMatch(/^text\/html/);
    const r = await app.inject({ url: '/', headers: { accept: 'application/json' } });
    expect(r.statusCode).toBe(200);
    expect(r.json()).toEqual({
      issuer: ISSUER,
      openid_configuration: `${ISSUER}/.well-known/openid-configuration`,
      jwks_uri: `${ISSUER}/jwks`,
      saml_metadata: `${ISSUER}/saml/metadata`,
      health: `${ISSUER}/healthz`,
      account: `${ISSUER}/account`,
    });
    // Every link it names answers.
    for (const url of [
      r.json().openid_configuration,
      r.json().jwks_uri,
      r.json().saml_metadata,
      r.json().health,
    ])
      expect((await app.inject(new URL(url).pathname)).statusCode, url).toBe(200);
  });

  it('answers an unknown address with a page for a browser and the OAuth error otherwise', async () => {
    const page = await app.inject({ url: '/nope', headers: { accept: BROWSER } });
    expect(page.statusCode).toBe(404);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.body).toContain(`href="${ISSUER}/"`);
    const api = await app.inject({ url: '/nope', headers: { accept: 'application/json' } });
    expect(api.statusCode).toBe(404);
    expect(api.json().error).toBe('not_found');
    const post = await app.inject({ method: 'POST', url: '/nope', headers: { accept: BROWSER } });
    expect(post.json().error).toBe('not_found');
  });
});

describe('the landing page without SAML', () => {
  it('leaves the SAML metadata out', async () => {
    const t = await startTestIdp({ saml: { enabled: false } });
    try {
      const r = await t.idp.app.inject({ url: '/', headers: { accept: 'application/json' } });
      expect(r.json()).not.toHaveProperty('saml_metadata');
      expect((await t.idp.app.inject('/')).body).not.toContain('SAML');
    } finally {
      await t.close();
    }
  });
});
