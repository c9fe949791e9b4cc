/**
 * Where a browser may be sent for a client (clients/redirect-uris.ts), as OAuth 2.1 and RFC 9700
 * want it: https, or http on a loopback IP literal with any port (RFC 8252 §7.3); no user info,
 * no wildcard, no fragment; private-use schemes only for native apps, and only reverse-domain
 * ones. The same rules for post_logout_redirect_uris (and front-channel logout URIs,
 * frontchannel-logout.test.ts), at registration, at an RFC 7592 update, and — with `localhost`
 * as the one exception — for clients the operator registers.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerClient } from '../src/app.ts';
import { ClientError } from '../src/clients/clients.ts';
import { basicAuth, browserLogin, dynamicRegistration, pkce, redeemCode, startTestIdp } from './helpers.ts';

const IAT = 'initial-access-token-0123456789';
const RP = 'https://rp.example/cb';

/** Refused for everyone. */
const ALWAYS_REFUSED: Array<[string, string, Record<string, unknown>?]> = [
  ['cleartext to a remote host', 'http://evil.example.com/cb'],
  ['cleartext to a private address', 'http://10.0.0.5/cb'],
  ['user info', 'https://user:pw@evil.example.com/cb'],
  ['a user name only', 'https://rp.example@evil.example.com/cb'],
  ['a wildcard host', 'https://*.example.com/cb'],
  ['a wildcard path', 'https://rp.example/*'],
  ['a percent-encoded wildcard host', 'https://%2A.example.com/cb'],
  ['a fragment', 'https://rp.example/cb#x'],
  ['an empty fragment', 'https://rp.example/cb#'],
  ['javascript:', 'javascript:alert(1)'],
  ['data:', 'data:text/html,hi'],
  ['a private-use scheme for a web app', 'com.example.app:/cb'],
  ['a private-use scheme without a domain', 'myapp:/cb', { application_type: 'native' }],
  ['a relative URI', '/cb'],
];
/** Refused for a dynamically registered client, allowed for the operator's. */
const DYNAMIC_ONLY_REFUSED: Array<[string, string]> = [
  ['cleartext to localhost (RFC 8252 §8.3)', 'http://localhost:5173/cb'],
  ['cleartext to another loopback address', 'http://127.0.0.2/cb'],
];
const ACCEPTED: Array<[string, string, Record<string, unknown>?]> = [
  ['https', 'https://rp.example/cb?tenant=1'],
  ['loopback IPv4, no port', 'http://127.0.0.1/cb'],
  ['loopback IPv4, a port', 'http://127.0.0.1:51004/cb'],
  ['loopback IPv6', 'http://[::1]:8080/cb'],
  ['a claimed https URI for a native app', 'https://app.example.com/oauth', { application_type: 'native' }],
  [
    'a reverse-domain scheme for a native app',
    'com.example.app:/oauth2redirect',
    { application_type: 'native' },
  ],
];

describe('redirect URI rules', () => {
  let t: Awaited<ReturnType<typeof startTestIdp>>;
  let app: FastifyInstance;
  beforeAll(async () => {
    t = await startTestIdp({ registration: { mode: 'token', initialAccessToken: IAT } });
    app = t.idp.app;
  });
  afterAll(() => t.close());

  const register = (body: Record<string, unknown>) => dynamicRegistration(app, IAT).register(body);

  describe('dynamic registration (RFC 7591)', () => {
    it.each([...ALWAYS_REFUSED, ...DYNAMIC_ONLY_REFUSED])(
      'refuses %s as a redirect_uri (invalid_redirect_uri)',
      async (_why, uri, extra = {}) => {
        const r = await register({ redirect_uris: [RP, uri], ...extra });
        expect(r.statusCode, r.body).toBe(400);
        expect(r.json().error).toBe('invalid_redirect_uri');
        expect(r.json().error_description).toMatch(/^redirect_uris: /);
      },
    );

    it.each([...ALWAYS_REFUSED, ...DYNAMIC_ONLY_REFUSED])(
      'refuses %s as a post_logout_redirect_uri (invalid_client_metadata)',
      async (_why, uri, extra = {}) => {
        const r = await register({ redirect_uris: [RP], post_logout_redirect_uris: [uri], ...extra });
        expect(r.statusCode, r.body).toBe(400);
        expect(r.json().error).toBe('invalid_client_metadata');
        expect(r.json().error_description).toMatch(/^post_logout_redirect_uris: /);
      },
    );

    it.each(ACCEPTED)('accepts %s', async (_why, uri, extra = {}) => {
      const r = await register({ redirect_uris: [uri], post_logout_redirect_uris: [uri], ...extra });
      expect(r.statusCode, r.body).toBe(201);
      expect(r.json()).toMatchObject({ redirect_uris: [uri], post_logout_redirect_uris: [uri], ...extra });
    });

    it('refuses an unknown application_type', async () => {
      const r = await register({ redirect_uris: [RP], application_type: 'desktop' });
      expect(r.json()).toMatchObject({ error: 'invalid_client_metadata' });
    });

    it('applies the same rules to an RFC 7592 update', async () => {
      const registered = (await register({ redirect_uris: [RP] })).json();
      const put = (body: Record<string, unknown>) => dynamicRegistration(app, IAT).update(registered, body);
      for (const [why, uri, extra] of [...ALWAYS_REFUSED, ...DYNAMIC_ONLY_REFUSED]) {
        const r = await put({ redirect_uris: [uri], ...extra });
        expect(r.statusCode, why).toBe(400);
        expect(r.json().error, why).toBe('invalid_redirect_uri');
      }
      const ok = await put({ redirect_uris: ['com.example.app:/cb'], application_type: 'native' });
      expect(ok.statusCode, ok.body).toBe(200);
      expect(ok.json()).toMatchObject({ application_type: 'native', redirect_uris: ['com.example.app:/cb'] });
    });
  });

  describe("the operator's clients", () => {
    it.each(ALWAYS_REFUSED)('refuses %s', async (_why, uri, extra = {}) => {
      const e = await registerClient(t.idp.ctx, { redirect_uris: [uri], ...extra }).catch(
        (err: unknown) => err,
      );
      expect(e).toBeInstanceOf(ClientError);
      expect((e as ClientError).field).toBe('redirect_uris');
    });
    it.each([...ACCEPTED, ...DYNAMIC_ONLY_REFUSED])('accepts %s', async (_why, uri, extra = {}) => {
      const { client } = await registerClient(t.idp.ctx, {
        redirect_uris: [uri],
        post_logout_redirect_uris: [uri],
        ...extra,
      });
      expect(client.redirect_uris).toEqual([uri]);
    });
  });

  describe('matching at /authorize', () => {
    let secret = '';
    beforeAll(async () => {
      secret = (
        await registerClient(t.idp.ctx, {
          client_id: 'cli',
          application_type: 'native',
          redirect_uris: ['http://127.0.0.1/cb', 'http://[::1]:9000/cb?x=1', 'https://app.example.com/cb'],
        })
      ).clientSecret as string;
    });
    const authorize = (redirectUri: string) =>
      app.inject(
        `/authorize?${new URLSearchParams({ client_id: 'cli', redirect_uri: redirectUri, response_type: 'code', scope: 'openid', code_challenge: pkce().challenge, code_challenge_method: 'S256' })}`,
      );

    it('lets a loopback IP literal redirect use any port (RFC 8252 §7.3), and nothing else vary', async () => {
      for (const uri of [
        'http://127.0.0.1:51004/cb',
        'http://127.0.0.1:80/cb',
        'http://[::1]/cb?x=1',
        'http://[::1]:1234/cb?x=1',
      ])
        expect((await authorize(uri)).statusCode, uri).toBe(303);
      for (const uri of [
        'http://127.0.0.1:51004/cb/more',
        'http://127.0.0.1:51004/other',
        'http://127.0.0.1:51004/cb?x=1',
        'http://[::1]:1234/cb',
        'http://localhost:51004/cb',
        'https://127.0.0.1:51004/cb',
        'https://app.example.com:8443/cb',
        'http://127.0.0.1:51004/cb#f',
      ])
        expect((await authorize(uri)).statusCode, uri).toBe(400);
    });

    it('does not honour a dynamic registration stored under the earlier, laxer rules', async () => {
      // As open registration stored it before these rules: an http redirect to a remote host.
      const reg = await register({ redirect_uris: [RP] });
      const { client_id } = reg.json();
      const store = t.idp.ctx.storage.adapter('Client');
      const stored = (await store.find(client_id)) as Record<string, unknown>;
      await store.upsert(client_id, { ...stored, redirect_uris: [RP, 'http://evil.example.com/cb'] });
      const ask = (redirectUri: string) =>
        app.inject(
          `/authorize?${new URLSearchParams({ client_id, redirect_uri: redirectUri, response_type: 'code', scope: 'openid', code_challenge: pkce().challenge, code_challenge_method: 'S256' })}`,
        );
      const lax = await ask('http://evil.example.com/cb');
      expect(lax.statusCode).toBe(400);
      expect(lax.headers.location).toBeUndefined();
      expect(lax.body).toContain('must update its registration');
      expect((await ask(RP)).statusCode).toBe(303);
    });

    it('sends the code to the port asked for, and redeems it with that exact redirect_uri', async () => {
      const { verifier, challenge } = pkce();
      const redirectUri = 'http://127.0.0.1:49152/cb';
      const { location } = await browserLogin(app, {
        client_id: 'cli',
        redirect_uri: redirectUri,
        response_type: 'code',
        scope: 'openid',
        code_challenge: challenge,
        code_challenge_method: 'S256',
      });
      expect(`${location.origin}${location.pathname}`).toBe(redirectUri);
      const headers = { authorization: basicAuth('cli', secret) };
      const other = await redeemCode(app, location, 'http://127.0.0.1/cb', { verifier, headers });
      expect(other.json().error).toBe('invalid_grant');
      const ok = await redeemCode(app, location, redirectUri, { verifier, headers });
      expect(ok.statusCode, ok.body).toBe(200);
    });
  });
});
