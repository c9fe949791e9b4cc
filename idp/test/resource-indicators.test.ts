/**
 * Resource indicators (RFC 8707), fastify inject: `resource` at authorize and token,
 * audience-restricted JWT access tokens per resource with the resource's own algorithm (an
 * ES256-only resource server gets ES256 even when placement pins ML-DSA), scopes narrowed to
 * what the resource accepts, and invalid_target for everything else.
 */
import {
  createLocalJWKSet,
  decodeProtectedHeader,
  generateKeyPair,
  importJWK,
  type PrivateKey,
  signDpopProof,
  verifyJwt,
} from '@pqid/jose';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerClient } from '../src/app.ts';
import { ACCESS_TOKEN_STORAGES, ConfigError, loadConfig } from '../src/config/index.ts';
import { basicAuth, browserLogin, form, startTestIdp } from './helpers.ts';

const ISSUER = 'http://localhost:3000';
const RP = 'https://rp.example/cb';
const ORDERS = 'https://api.example/orders';
const PQ = 'https://pq.example/';
const REF = 'urn:example:reference-api';

// Both access-token storage modes: the resources' JWT access tokens are stored, or verified (stateless).
describe.each(ACCESS_TOKEN_STORAGES)(
  'resource indicators (inject), %s JWT access tokens',
  (accessTokenStorage) => {
    let t: Awaited<ReturnType<typeof startTestIdp>>;
    let app: FastifyInstance;
    let secret: string;
    let ccSecret: string;
    const auth = () => basicAuth('app', secret);

    beforeAll(async () => {
      t = await startTestIdp({
        accessTokenStorage,
        // Placement pins ML-DSA-44 for access tokens; a resource's own algorithm still wins.
        keys: { placement: { accessToken: 'ML-DSA-44' } },
        resourceServers: {
          [ORDERS]: { scope: 'orders:read orders:write', accessTokenSigningAlg: 'ES256' },
          [PQ]: { scope: ['pq:read'], accessTokenSigningAlg: 'ML-DSA-65-Ed25519' },
          [REF]: { scope: 'ref:read', accessTokenFormat: 'reference' },
        },
      });
      app = t.idp.app;
      ({ clientSecret: secret } = (await registerClient(t.idp.ctx, {
        client_id: 'app',
        redirect_uris: [RP],
        scope: 'openid offline_access orders:read orders:write pq:read ref:read',
        id_token_signed_response_alg: 'ML-DSA-65',
        require_pkce: false,
      })) as { clientSecret: string });
      ({ clientSecret: ccSecret } = (await registerClient(t.idp.ctx, {
        client_id: 'svc',
        redirect_uris: [],
        grant_types: ['client_credentials'],
        scope: 'orders:read pq:read',
      })) as { clientSecret: string });
    });
    afterAll(() => t.close());

    const jwks = async () => createLocalJWKSet((await app.inject('/jwks')).json());
    const claimsOf = (jwt: string) =>
      JSON.parse(Buffer.from(jwt.split('.')[1] as string, 'base64url').toString());

    async function code(query: Record<string, string>) {
      const { location } = await browserLogin(app, {
        client_id: 'app',
        redirect_uri: RP,
        response_type: 'code',
        scope: 'openid offline_access orders:read pq:read',
        ...query,
      });
      return location;
    }

    /** authorize with repeated `resource` parameters (inject, existing session). */
    async function codeWith(resources: string[], scope = 'openid offline_access orders:read pq:read') {
      const first = await browserLogin(app, {
        client_id: 'app',
        redirect_uri: RP,
        response_type: 'code',
        scope,
      });
      const q = new URLSearchParams({ client_id: 'app', redirect_uri: RP, response_type: 'code', scope });
      for (const r of resources) q.append('resource', r);
      const r = await app.inject({
        url: `/authorize?${q}`,
        headers: { cookie: first.sessionCookie as string },
      });
      expect(r.statusCode).toBe(303);
      return new URL(r.headers.location as string);
    }

    const exchange = (location: URL, extra: Record<string, string | string[]> = {}) => {
      const body = new URLSearchParams({
        grant_type: 'authorization_code',
        code: location.searchParams.get('code') as string,
        redirect_uri: RP,
      });
      for (const [k, v] of Object.entries(extra)) for (const one of [v].flat()) body.append(k, one);
      return app.inject({
        method: 'POST',
        url: '/token',
        headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: auth() },
        payload: body.toString(),
      });
    };

    it('advertises the resource servers’ scopes', async () => {
      const doc = (await app.inject('/.well-known/openid-configuration')).json();
      expect(doc.scopes_supported).toEqual(
        expect.arrayContaining(['openid', 'orders:read', 'orders:write', 'pq:read', 'ref:read']),
      );
    });

    it('publishes a key for every pinned resource algorithm at start', async () => {
      const algs = ((await app.inject('/jwks')).json().keys as Array<{ alg: string }>).map((k) => k.alg);
      expect(algs).toEqual(expect.arrayContaining(['ES256', 'ML-DSA-65-Ed25519', 'ML-DSA-44']));
    });

    it('issues one audience-restricted token per resource, with that resource’s algorithm and scopes', async () => {
      const location = await codeWith([ORDERS, PQ]);
      const r = await exchange(location, { resource: ORDERS });
      expect(r.statusCode, r.body).toBe(200);
      const body = r.json();
      expect(body.scope).toBe('orders:read');
      expect(decodeProtectedHeader(body.access_token)).toMatchObject({ alg: 'ES256', typ: 'at+jwt' });
      const { claims } = await verifyJwt(body.access_token, await jwks(), {
        algorithms: ['ES256'],
        issuer: ISSUER,
        audience: ORDERS,
        typ: 'at+jwt',
      });
      expect(claims).toMatchObject({ aud: ORDERS, scope: 'orders:read', client_id: 'app' });
      // The ID token is still the client's algorithm.
      expect(decodeProtectedHeader(body.id_token).alg).toBe('ML-DSA-65');

      // The refresh token covers both resources: now one for the PQ resource.
      const pq = await app.inject({
        method: 'POST',
        url: '/token',
        ...form(
          { grant_type: 'refresh_token', refresh_token: body.refresh_token, resource: PQ },
          { authorization: auth() },
        ),
      });
      expect(pq.statusCode, pq.body).toBe(200);
      expect(decodeProtectedHeader(pq.json().access_token).alg).toBe('ML-DSA-65-Ed25519');
      expect(claimsOf(pq.json().access_token)).toMatchObject({ aud: PQ, scope: 'pq:read' });

      // Not granted at authorize: refused, and the refresh token is not spent by the refusal.
      const other = await app.inject({
        method: 'POST',
        url: '/token',
        ...form(
          { grant_type: 'refresh_token', refresh_token: pq.json().refresh_token, resource: REF },
          { authorization: auth() },
        ),
      });
      expect(other.statusCode).toBe(400);
      expect(other.json().error).toBe('invalid_target');
      const again = await app.inject({
        method: 'POST',
        url: '/token',
        ...form(
          { grant_type: 'refresh_token', refresh_token: pq.json().refresh_token },
          { authorization: auth() },
        ),
      });
      expect(again.statusCode, again.body).toBe(200);
    });

    it('uses the grant’s only resource when the token request names none', async () => {
      const location = await codeWith([PQ]);
      const body = (await exchange(location)).json();
      expect(claimsOf(body.access_token).aud).toBe(PQ);
    });

    it('gives this provider’s own token (reference, userinfo) without resources', async () => {
      const location = await code({});
      const body = (await exchange(location)).json();
      expect(body.access_token.split('.')).toHaveLength(1);
      expect(body.scope).toBe('openid offline_access orders:read pq:read');
      const ui = await app.inject({
        url: '/userinfo',
        headers: { authorization: `Bearer ${body.access_token}` },
      });
      expect(ui.statusCode).toBe(200);
    });

    const refresh = (refresh_token: string, extra: Record<string, string> = {}) =>
      app.inject({
        method: 'POST',
        url: '/token',
        ...form({ grant_type: 'refresh_token', refresh_token, ...extra }, { authorization: auth() }),
      });

    describe('without resource at authorize the grant covers this provider only (RFC 8707 §2.2)', () => {
      it('the code exchange cannot name a resource', async () => {
        const widened = await exchange(await code({}), { resource: ORDERS });
        expect(widened.statusCode).toBe(400);
        expect(widened.json()).toMatchObject({ error: 'invalid_target' });
        expect(widened.json().error_description).toMatch(/grant does not cover.*named no resource/);
      });

      it('the refusal does not spend the code: the client can redeem it without the resource', async () => {
        const location = await code({});
        for (const resource of [ORDERS, PQ, REF]) {
          const r = await exchange(location, { resource });
          expect(r.statusCode, resource).toBe(400);
          expect(r.json(), resource).toMatchObject({ error: 'invalid_target' });
        }
        const ok = await exchange(location);
        expect(ok.statusCode, ok.body).toBe(200);
        expect(ok.json().access_token.split('.')).toHaveLength(1);
        // Spent now: a replay is refused as before.
        expect((await exchange(location)).json()).toMatchObject({ error: 'invalid_grant' });
      });

      it('a refresh cannot name one either, and the refusal does not spend the refresh token', async () => {
        const { refresh_token } = (await exchange(await code({}))).json();
        for (const resource of [ORDERS, PQ, REF]) {
          const r = await refresh(refresh_token, { resource });
          expect(r.statusCode, resource).toBe(400);
          expect(r.json(), resource).toMatchObject({ error: 'invalid_target' });
        }
        // Still the client's: without resource it refreshes, for this provider's userinfo.
        const ok = await refresh(refresh_token);
        expect(ok.statusCode, ok.body).toBe(200);
        expect(ok.json().access_token.split('.')).toHaveLength(1);
        const ui = await app.inject({
          url: '/userinfo',
          headers: { authorization: `Bearer ${ok.json().access_token}` },
        });
        expect(ui.statusCode).toBe(200);
      });
    });

    it('refuses resource tokens at userinfo, and introspection reports their audience', async () => {
      const location = await codeWith([ORDERS], 'openid orders:read');
      const body = (await exchange(location, { resource: ORDERS })).json();
      const ui = await app.inject({
        url: '/userinfo',
        headers: { authorization: `Bearer ${body.access_token}` },
      });
      expect(ui.statusCode).toBe(401);
      expect(ui.json().error).toBe('invalid_token');
      const info = await app.inject({
        method: 'POST',
        url: '/introspect',
        ...form({ token: body.access_token }, { authorization: auth() }),
      });
      expect(info.json()).toMatchObject({ active: true, aud: ORDERS, scope: 'orders:read' });
    });

    it('a reference-format resource gets a reference token its server introspects', async () => {
      const location = await codeWith([REF], 'openid ref:read');
      const body = (await exchange(location)).json();
      expect(body.access_token.split('.')).toHaveLength(1);
      const info = await app.inject({
        method: 'POST',
        url: '/introspect',
        ...form({ token: body.access_token }, { authorization: auth() }),
      });
      expect(info.json()).toMatchObject({ active: true, aud: REF, scope: 'ref:read' });
    });

    it('answers invalid_target for unknown resources, fragments and several at once', async () => {
      for (const bad of ['https://unknown.example/', `${ORDERS}#frag`, 'not a uri']) {
        const q = new URLSearchParams({
          client_id: 'app',
          redirect_uri: RP,
          response_type: 'code',
          scope: 'openid',
          resource: bad,
          state: 's',
        });
        const r = await app.inject(`/authorize?${q}`);
        expect(r.statusCode, bad).toBe(303);
        const back = new URL(r.headers.location as string);
        expect(back.searchParams.get('error'), bad).toBe('invalid_target');
        expect(back.searchParams.get('state')).toBe('s');
      }
      const both = await exchange(await codeWith([ORDERS, PQ]), { resource: [ORDERS, PQ] });
      expect(both.json()).toMatchObject({ error: 'invalid_target' });
      expect(both.json().error_description).toMatch(/one resource/);
      const unknown = await exchange(await code({}), { resource: 'https://unknown.example/' });
      expect(unknown.json().error).toBe('invalid_target');
    });

    it('client_credentials: audience, the client’s scopes that resource accepts, and DPoP binding', async () => {
      const cc = (body: Record<string, string>, headers: Record<string, string> = {}) =>
        app.inject({
          method: 'POST',
          url: '/token',
          ...form(
            { grant_type: 'client_credentials', ...body },
            { authorization: basicAuth('svc', ccSecret), ...headers },
          ),
        });
      const orders = (await cc({ resource: ORDERS })).json();
      expect(orders.scope).toBe('orders:read');
      expect(claimsOf(orders.access_token)).toMatchObject({ aud: ORDERS, sub: 'svc' });
      const explicit = (await cc({ resource: PQ, scope: 'pq:read orders:read' })).json();
      expect(explicit.scope).toBe('pq:read');
      expect((await cc({ resource: PQ, scope: 'ref:read' })).json().error).toBe('invalid_scope');
      const key = (await importJWK((await generateKeyPair('ML-DSA-44')).privateJwk)) as PrivateKey;
      const bound = (
        await cc(
          { resource: PQ },
          { dpop: await signDpopProof(key, { htm: 'POST', htu: `${ISSUER}/token` }) },
        )
      ).json();
      expect(bound.token_type).toBe('DPoP');
      expect(claimsOf(bound.access_token)).toMatchObject({ aud: PQ, cnf: { jkt: expect.any(String) } });
    });

    it('the consent page names the resource servers the tokens would be for', async () => {
      const first = await browserLogin(app, {
        client_id: 'app',
        redirect_uri: RP,
        response_type: 'code',
        scope: 'openid orders:read',
      });
      const consentHtml = async (resources: string[]) => {
        const q = new URLSearchParams({
          client_id: 'app',
          redirect_uri: RP,
          response_type: 'code',
          scope: 'openid orders:read pq:read',
          prompt: 'consent',
        });
        for (const r of resources) q.append('resource', r);
        const r1 = await app.inject({
          url: `/authorize?${q}`,
          headers: { cookie: first.sessionCookie as string },
        });
        expect(r1.statusCode).toBe(303);
        const cookie = [first.sessionCookie, ...r1.cookies.map((c) => `${c.name}=${c.value}`)].join('; ');
        const page = await app.inject({ url: r1.headers.location as string, headers: { cookie } });
        expect(page.statusCode).toBe(200);
        expect(page.body).toContain('Allow access?');
        return page.body;
      };
      const both = await consentHtml([ORDERS, PQ]);
      expect(both).toContain('At these services:');
      expect(both).toContain(`<code>${ORDERS}</code>`);
      expect(both).toContain(`<code>${PQ}</code>`);
      const none = await consentHtml([]);
      expect(none).not.toContain('At these services:');
      expect(none).not.toContain(ORDERS);
    });

    it('validates resourceServers in the configuration', () => {
      const load = (resourceServers: unknown) =>
        loadConfig({ env: {}, cwd: '/srv', overrides: { resourceServers: resourceServers as never } });
      expect(() => load({ 'no-scheme': {} })).toThrow(/absolute URI/);
      expect(() => load({ 'https://a.example/#x': {} })).toThrow(ConfigError);
      expect(() => load({ 'https://a.example/': { accessTokenSigningAlg: 'HS256' } })).toThrow(
        /accessTokenSigningAlg/,
      );
      expect(() => load({ 'https://a.example/': { accessTokenFormat: 'auto' } })).toThrow(/jwt or reference/);
      expect(() => load({ 'https://a.example/': { audience: 'x' } })).toThrow(/unknown setting "audience"/);
      expect(() => load({ 'https://a.example/': { scope: 'a "b' } })).toThrow(/scope/);
      expect(load({ 'https://a.example/': { scope: 'a b' } }).resourceServers['https://a.example/']).toEqual({
        uri: 'https://a.example/',
        scope: ['a', 'b'],
        accessTokenFormat: 'jwt',
      });
    });
  },
);
