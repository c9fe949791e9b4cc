/**
 * Removing a client ends everything issued to it, when the removal returns: access tokens (JWT
 * and reference, bearer and DPoP-bound) at introspection and userinfo, refresh tokens and codes
 * not yet redeemed at /token, pushed request URIs at /authorize. On the instance that removed it
 * and on another one sharing the store, whose client cache still holds the record; after a
 * restart; on SQLite and PostgreSQL (skipped without PQID_TEST_DATABASE_URL locally, required
 * in CI); in both access-token storage modes. A client registered again under the same id gets
 * none of it back.
 */
import { generateKeyPair, importJWK, type PrivateKey, signDpopProof } from '@pqid/jose';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createIdp, type Idp, registerClient } from '../src/app.ts';
import type { AccessTokenStorage, LoadConfigOptions } from '../src/config/index.ts';
import { grantedScopes, rememberConsent } from '../src/oidc/authorization/consent.ts';
import {
  basicAuth,
  browserLogin,
  dynamicRegistration,
  form,
  KEK,
  redeemCode,
  tempDir,
  testConfig,
} from './helpers.ts';
import { dropSchemas, PG_SKIP_REASON, PG_URL, uniqueSchema, urlWithSchema } from './storage-pg.ts';

const ISSUER = 'http://localhost:3000';
const RP = 'https://rp.example/cb';
const SECRET = 'app-secret-app-secret';
const RS_SECRET = 'rs-secret-rs-secret';
const IAT = 'initial-access-token-for-removal-tests';
const MODES: AccessTokenStorage[] = ['stored', 'stateless'];
const FORMATS = ['jwt', 'reference'] as const;

const schemas: string[] = [];
const cleanups: Array<() => void> = [];
afterAll(async () => {
  for (const c of cleanups) c();
  if (PG_URL) await dropSchemas(schemas);
});

interface Engine {
  name: 'sqlite' | 'postgres';
  /** A database URL for a fresh store (undefined: SQLite in the shared data directory). */
  fresh(): string | undefined;
}

const ENGINES: Engine[] = [
  { name: 'sqlite', fresh: () => undefined },
  {
    name: 'postgres',
    fresh: () => {
      const schema = uniqueSchema('pqid_rm');
      schemas.push(schema);
      return urlWithSchema(schema);
    },
  },
];

/**
 * An IdP over a store that outlives it. Every instance caches client records for the longest
 * time allowed, so another instance's removal is invisible to its cache for the whole test.
 */
async function openIdp(dir: string, databaseUrl: string | undefined, mode: AccessTokenStorage): Promise<Idp> {
  const overrides: LoadConfigOptions['overrides'] = {
    ...(databaseUrl ? { databaseUrl } : {}),
    purgeInterval: 0,
    clientCacheTtl: 60,
    accessTokenStorage: mode,
    registration: { mode: 'token', initialAccessToken: IAT },
  };
  return createIdp(testConfig(dir, overrides), { env: { PQID_KEK: KEK }, warn: () => {} });
}

const post = (app: FastifyInstance, url: string, data: Record<string, string>, headers = {}) =>
  app.inject({ method: 'POST', url, ...form(data, headers) });

const introspect = async (app: FastifyInstance, token: string): Promise<boolean> =>
  (await post(app, '/introspect', { token }, { authorization: basicAuth('rs', RS_SECRET) })).json().active ===
  true;

const userinfo = async (app: FastifyInstance, token: string): Promise<number> =>
  (await app.inject({ url: '/userinfo', headers: { authorization: `Bearer ${token}` } })).statusCode;

/** What a client holds: every kind of token and handle it can be issued. */
interface Held {
  auth: string;
  userAccess: string;
  refresh: string;
  /** A code issued but not redeemed yet. */
  code: URL;
  clientAccess: string;
  dpopAccess: string;
  requestUri: string;
}

async function dpopKey(): Promise<PrivateKey> {
  return (await importJWK((await generateKeyPair('ES256')).privateJwk)) as PrivateKey;
}

async function register(idp: Idp, clientId: string, format: (typeof FORMATS)[number]): Promise<void> {
  await registerClient(idp.ctx, {
    client_id: clientId,
    client_secret: SECRET,
    redirect_uris: [RP],
    require_pkce: false,
    access_token_format: format,
    id_token_signed_response_alg: 'ES256',
    grant_types: ['authorization_code', 'refresh_token', 'client_credentials'],
  });
}

const login = (app: FastifyInstance, clientId: string) =>
  browserLogin(app, {
    client_id: clientId,
    redirect_uri: RP,
    response_type: 'code',
    scope: 'openid profile offline_access',
  });

/** Everything `clientId` can hold, issued by `app`. */
async function issueAll(app: FastifyInstance, clientId: string): Promise<Held> {
  const auth = basicAuth(clientId, SECRET);
  const { location } = await login(app, clientId);
  const r = await redeemCode(app, location, RP, { headers: { authorization: auth } });
  expect(r.statusCode, r.body).toBe(200);
  const { access_token: userAccess, refresh_token: refresh } = r.json();
  const code = (await login(app, clientId)).location;
  const cc = await post(app, '/token', { grant_type: 'client_credentials' }, { authorization: auth });
  expect(cc.statusCode, cc.body).toBe(200);
  const proof = await signDpopProof(await dpopKey(), { htm: 'POST', htu: `${ISSUER}/token` });
  const bound = await post(
    app,
    '/token',
    { grant_type: 'client_credentials' },
    { authorization: auth, dpop: proof },
  );
  expect(bound.json().token_type, bound.body).toBe('DPoP');
  const par = await post(
    app,
    '/par',
    { response_type: 'code', redirect_uri: RP, scope: 'openid' },
    { authorization: auth },
  );
  expect(par.statusCode, par.body).toBe(201);
  return {
    auth,
    userAccess,
    refresh,
    code,
    clientAccess: cc.json().access_token,
    dpopAccess: bound.json().access_token,
    requestUri: par.json().request_uri,
  };
}

/** Access tokens: inactive at introspection, refused at userinfo. */
async function expectAccessEnded(app: FastifyInstance, held: Held): Promise<void> {
  expect(await introspect(app, held.userAccess), 'user access token at introspection').toBe(false);
  expect(await userinfo(app, held.userAccess), 'user access token at userinfo').toBe(401);
  expect(await introspect(app, held.clientAccess), 'client access token').toBe(false);
  expect(await introspect(app, held.dpopAccess), 'DPoP-bound access token').toBe(false);
}

/** Refresh token, code and request URI are refused, even when the client authenticates. */
async function expectGrantsEnded(app: FastifyInstance, clientId: string, held: Held): Promise<void> {
  const refreshed = await post(
    app,
    '/token',
    { grant_type: 'refresh_token', refresh_token: held.refresh },
    { authorization: held.auth },
  );
  expect(refreshed.statusCode, `refresh token: ${refreshed.body}`).not.toBe(200);
  const redeemed = await redeemCode(app, held.code, RP, { headers: { authorization: held.auth } });
  expect(redeemed.statusCode, `code: ${redeemed.body}`).not.toBe(200);
  const authorize = await app.inject(
    `/authorize?${new URLSearchParams({ client_id: clientId, request_uri: held.requestUri })}`,
  );
  expect(authorize.statusCode, `request_uri: ${authorize.headers.location}`).not.toBe(303);
}

describe.each(ENGINES)('removing a client on $name', (engine) => {
  const skip = engine.name === 'postgres' && !PG_URL;
  if (skip) it.skip(PG_SKIP_REASON, () => {});

  describe.skipIf(skip).each(MODES)('%s mode', (mode) => {
    let a: Idp;
    let b: Idp;
    let dir: string;
    let url: string | undefined;
    let n = 0;
    const nextId = () => `app-${mode}-${++n}`;

    beforeAll(async () => {
      const t = tempDir();
      cleanups.push(t.cleanup);
      dir = t.dir;
      url = engine.fresh();
      // Two instances on one store: the same SQLite file, or the same PostgreSQL schema.
      a = await openIdp(dir, url, mode);
      // The ES256 key the clients' tokens use exists before B starts, so B has it loaded.
      await registerClient(a.ctx, {
        client_id: 'rs',
        client_secret: RS_SECRET,
        redirect_uris: [RP],
        id_token_signed_response_alg: 'ES256',
      });
      b = await openIdp(dir, url, mode);
    });
    afterAll(async () => {
      await a?.close();
      await b?.close();
    });

    it.each(FORMATS)(
      '%s access tokens: everything ends on both instances when the removal returns',
      async (format) => {
        const id = nextId();
        await register(a, id, format);
        const held = await issueAll(a.app, id);
        // B reads the client now, and its cache keeps the record after A removes it.
        expect(await introspect(b.app, held.clientAccess)).toBe(true);
        expect(await userinfo(b.app, held.userAccess)).toBe(200);
        const warm = await post(
          b.app,
          '/token',
          { grant_type: 'client_credentials' },
          { authorization: held.auth },
        );
        expect(warm.statusCode).toBe(200);
        await a.ctx.clients.remove(id);
        await expectGrantsEnded(b.app, id, held);
        for (const idp of [a, b]) await expectAccessEnded(idp.app, held);
        expect(await introspect(a.app, warm.json().access_token)).toBe(false);
      },
    );

    it('stays ended after a restart, and a client registered again under the same id gets none of it back', async () => {
      const id = nextId();
      await register(a, id, 'jwt');
      const held = await issueAll(a.app, id);
      await a.ctx.clients.remove(id);
      await a.close();
      a = await openIdp(dir, url, mode);
      await expectAccessEnded(a.app, held);
      // The same id and secret, registered again: old tokens stay dead, new ones work.
      await register(a, id, 'jwt');
      await expectAccessEnded(a.app, held);
      await expectGrantsEnded(a.app, id, held);
      const fresh = await issueAll(a.app, id);
      for (const idp of [a, b]) {
        expect(await introspect(idp.app, fresh.userAccess)).toBe(true);
        expect(await introspect(idp.app, fresh.clientAccess)).toBe(true);
        expect(await userinfo(idp.app, fresh.userAccess)).toBe(200);
      }
      const refreshed = await post(
        a.app,
        '/token',
        { grant_type: 'refresh_token', refresh_token: fresh.refresh },
        { authorization: fresh.auth },
      );
      expect(refreshed.statusCode, refreshed.body).toBe(200);
    });

    it('consent given to the removed client is not given to one registered again under its id', async () => {
      const id = nextId();
      await register(a, id, 'jwt');
      await rememberConsent(a.ctx, 'someone', id, 'openid offline_access');
      expect(await grantedScopes(b.ctx, 'someone', id)).toEqual(new Set(['openid', 'offline_access']));
      await a.ctx.clients.remove(id);
      await register(a, id, 'jwt');
      expect(await grantedScopes(a.ctx, 'someone', id)).toEqual(new Set());
    });

    it('an RFC 7592 DELETE ends the tokens of a dynamically registered client on both instances', async () => {
      const reg = await dynamicRegistration(a.app, IAT).register({
        redirect_uris: [RP],
        grant_types: ['client_credentials'],
        token_endpoint_auth_method: 'client_secret_basic',
      });
      expect(reg.statusCode, reg.body).toBe(201);
      const { client_id, client_secret, registration_access_token } = reg.json();
      const auth = basicAuth(client_id, client_secret);
      const token = (
        await post(b.app, '/token', { grant_type: 'client_credentials' }, { authorization: auth })
      ).json().access_token;
      expect(await introspect(b.app, token)).toBe(true);
      const deleted = await a.app.inject({
        method: 'DELETE',
        url: `/register/${client_id}`,
        headers: { authorization: `Bearer ${registration_access_token}` },
      });
      expect(deleted.statusCode).toBe(204);
      for (const idp of [a, b]) expect(await introspect(idp.app, token)).toBe(false);
    });
  });
});
