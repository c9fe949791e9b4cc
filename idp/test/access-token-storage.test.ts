/**
 * JWT access tokens in both storage modes (`accessTokenStorage`: stored, stateless), on SQLite
 * and on PostgreSQL (skipped without PQID_TEST_DATABASE_URL locally, required in CI): every
 * revocation path leaves the token inactive at introspection and refused at userinfo, on this
 * instance, after a restart and on another instance; the stateless mode writes nothing per token,
 * verifies signatures with the published keys and keeps its denylist only as long as the tokens
 * it names.
 */
import { generateKeyPair, signJwt } from '@pqid/jose';
import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createIdp, type Idp, registerClient } from '../src/app.ts';
import type { AccessTokenStorage, LoadConfigOptions } from '../src/config/index.ts';
import { findRefreshToken } from '../src/oidc/tokens/refresh-tokens.ts';
import { passkeysOf } from '../src/signin/passkeys/credentials.ts';
import { DENYLIST_MARGIN_SECONDS } from '../src/storage/denylist.ts';
import { basicAuth, browserLogin, form, KEK, redeemCode, tempDir, testConfig } from './helpers.ts';
import {
  adminQuery,
  dropSchemas,
  PG_SKIP_REASON,
  PG_URL,
  uniqueSchema,
  urlWithSchema,
} from './storage-pg.ts';

const RP = 'https://rp.example/cb';
const APP_SECRET = 'app-secret-app-secret';
const RS_SECRET = 'rs-secret-rs-secret';
const MODES: AccessTokenStorage[] = ['stored', 'stateless'];

const claimsOf = (jwt: string): Record<string, unknown> =>
  JSON.parse(Buffer.from(jwt.split('.')[1] as string, 'base64url').toString());

interface Engine {
  name: 'sqlite' | 'postgres';
  /** A database URL for a fresh store (undefined: SQLite in the data directory). */
  fresh(): string | undefined;
}

const schemas: string[] = [];
const ENGINES: Engine[] = [
  { name: 'sqlite', fresh: () => undefined },
  {
    name: 'postgres',
    fresh: () => {
      const schema = uniqueSchema('pqid_ats');
      schemas.push(schema);
      return urlWithSchema(schema);
    },
  },
];

/** An IdP on a data directory and database that outlive it: restarted by opening them again. */
class Instance {
  idp!: Idp;
  readonly dir: string;
  readonly databaseUrl: string | undefined;
  constructor(dir: string, databaseUrl: string | undefined) {
    this.dir = dir;
    this.databaseUrl = databaseUrl;
  }

  async open(overrides: LoadConfigOptions['overrides']): Promise<this> {
    const config = testConfig(this.dir, {
      ...(this.databaseUrl ? { databaseUrl: this.databaseUrl } : {}),
      purgeInterval: 0,
      ...overrides,
    });
    this.idp = await createIdp(config, { env: { PQID_KEK: KEK }, warn: () => {} });
    return this;
  }

  get app(): FastifyInstance {
    return this.idp.app;
  }
}

async function registerClients(idp: Idp): Promise<void> {
  await registerClient(idp.ctx, {
    client_id: 'app',
    client_secret: APP_SECRET,
    redirect_uris: [RP],
    require_pkce: false,
    access_token_format: 'jwt',
    id_token_signed_response_alg: 'ES256',
    grant_types: ['authorization_code', 'refresh_token', 'client_credentials'],
  });
  // A resource server that introspects (an operator-registered confidential client).
  await registerClient(idp.ctx, { client_id: 'rs', client_secret: RS_SECRET, redirect_uris: [RP] });
}

const appAuth = basicAuth('app', APP_SECRET);

const post = (app: FastifyInstance, url: string, data: Record<string, string>, auth: string) =>
  app.inject({ method: 'POST', url, ...form(data, { authorization: auth }) });

async function introspect(
  app: FastifyInstance,
  token: string,
  auth = basicAuth('rs', RS_SECRET),
): Promise<Record<string, unknown>> {
  return (await post(app, '/introspect', { token }, auth)).json();
}

async function userinfoStatus(app: FastifyInstance, token: string): Promise<number> {
  return (await app.inject({ url: '/userinfo', headers: { authorization: `Bearer ${token}` } })).statusCode;
}

/** Whether the token is usable: active at introspection and (user tokens) served by userinfo. */
async function usable(app: FastifyInstance, token: string, user = true): Promise<boolean> {
  const active = (await introspect(app, token)).active === true;
  if (user) expect(await userinfoStatus(app, token)).toBe(active ? 200 : 401);
  return active;
}

async function userTokens(app: FastifyInstance) {
  const { location } = await browserLogin(app, {
    client_id: 'app',
    redirect_uri: RP,
    response_type: 'code',
    scope: 'openid profile offline_access',
  });
  const r = await redeemCode(app, location, RP, { headers: { authorization: appAuth } });
  expect(r.statusCode, r.body).toBe(200);
  return { ...(r.json() as { access_token: string; refresh_token: string }), location };
}

async function clientToken(app: FastifyInstance): Promise<string> {
  const r = await post(app, '/token', { grant_type: 'client_credentials' }, appAuth);
  expect(r.statusCode, r.body).toBe(200);
  return r.json().access_token;
}

const cleanups: Array<() => void> = [];
afterAll(async () => {
  for (const c of cleanups) c();
  if (PG_URL) await dropSchemas(schemas);
});

describe.each(ENGINES)('access-token storage on $name', (engine) => {
  const skip = engine.name === 'postgres' && !PG_URL;
  if (skip) it.skip(PG_SKIP_REASON, () => {});

  describe.skipIf(skip).each(MODES)('%s mode', (mode) => {
    let a: Instance;
    const open = async (overrides: LoadConfigOptions['overrides'] = {}) => {
      const { dir, cleanup } = tempDir();
      cleanups.push(cleanup);
      return new Instance(dir, engine.fresh()).open({ accessTokenStorage: mode, ...overrides });
    };

    beforeAll(async () => {
      a = await open();
      await registerClients(a.idp);
    });
    afterAll(() => a.idp.close());
    afterEach(() => {
      vi.useRealTimers();
    });

    it('answers introspection and userinfo alike; only the stored mode writes a record per token', async () => {
      const before = (await a.idp.ctx.storage.adapter('AccessToken').list()).length;
      const { access_token: at } = await userTokens(a.app);
      const cc = await clientToken(a.app);
      const written = (await a.idp.ctx.storage.adapter('AccessToken').list()).length - before;
      expect(written).toBe(mode === 'stored' ? 2 : 0);
      expect(String(claimsOf(at).jti).startsWith('s1.')).toBe(mode === 'stateless');
      const answer = await introspect(a.app, at);
      const claims = claimsOf(at);
      expect(answer).toEqual({
        active: true,
        token_type: 'Bearer',
        client_id: 'app',
        sub: claims.sub,
        scope: 'openid profile offline_access',
        exp: claims.exp,
        iat: claims.iat,
        auth_time: claims.auth_time,
        iss: 'http://localhost:3000',
        aud: 'http://localhost:3000',
        access_token_format: 'jwt',
      });
      expect(await introspect(a.app, cc)).toMatchObject({ active: true, sub: 'app', client_id: 'app' });
      const ui = await a.app.inject({ url: '/userinfo', headers: { authorization: `Bearer ${at}` } });
      expect(ui.statusCode).toBe(200);
      expect(ui.json().sub).toBe(claims.sub);
    });

    it('RFC 7009: a revoked access token is dead, its refresh token lives; other clients may not revoke it', async () => {
      const { access_token: at, refresh_token: rt } = await userTokens(a.app);
      expect(await usable(a.app, at)).toBe(true);
      const other = await post(a.app, '/revoke', { token: at }, basicAuth('rs', RS_SECRET));
      expect(other.json().error).toBe('unauthorized_client');
      expect(await usable(a.app, at)).toBe(true);
      expect((await post(a.app, '/revoke', { token: at }, appAuth)).statusCode).toBe(200);
      expect(await usable(a.app, at)).toBe(false);
      // A refresh token is only shown to its own client.
      expect((await introspect(a.app, rt, appAuth)).active).toBe(true);
      // Revoking again, or a client token, is fine too.
      expect((await post(a.app, '/revoke', { token: at }, appAuth)).statusCode).toBe(200);
      const cc = await clientToken(a.app);
      expect((await post(a.app, '/revoke', { token: cc }, appAuth)).statusCode).toBe(200);
      expect(await usable(a.app, cc, false)).toBe(false);
    });

    it('revoking the refresh token revokes the grant, access tokens included', async () => {
      const { access_token: at, refresh_token: rt } = await userTokens(a.app);
      const other = await userTokens(a.app);
      expect(
        (await post(a.app, '/revoke', { token: rt, token_type_hint: 'refresh_token' }, appAuth)).statusCode,
      ).toBe(200);
      expect(await usable(a.app, at)).toBe(false);
      // Another grant of the same user and client is untouched.
      expect(await usable(a.app, other.access_token)).toBe(true);
    });

    it('a replayed code revokes the grant, access tokens included', async () => {
      const { access_token: at, location } = await userTokens(a.app);
      const replay = await redeemCode(a.app, location, RP, { headers: { authorization: appAuth } });
      expect(replay.json().error).toBe('invalid_grant');
      expect(await usable(a.app, at)).toBe(false);
    });

    it('reusing a rotated refresh token revokes the grant, the new access token included', async () => {
      const first = await userTokens(a.app);
      const refresh = (rt: string) =>
        post(a.app, '/token', { grant_type: 'refresh_token', refresh_token: rt }, appAuth);
      const second = (await refresh(first.refresh_token)).json();
      expect(await usable(a.app, second.access_token)).toBe(true);
      expect((await refresh(first.refresh_token)).json().error).toBe('invalid_grant');
      expect(await usable(a.app, first.access_token)).toBe(false);
      expect(await usable(a.app, second.access_token)).toBe(false);
    });

    it('removing the passkey (or account) behind a grant revokes its access tokens', async () => {
      const { access_token: at, refresh_token: rt } = await userTokens(a.app);
      const grant = (await findRefreshToken(a.idp.ctx, rt))?.grantId as string;
      await passkeysOf(a.idp.ctx).uses.undo({ grant });
      expect(await usable(a.app, at)).toBe(false);
    });

    it('removing the client revokes its tokens; a client registered again under its id gets live ones', async () => {
      const registerGone = () =>
        registerClient(a.idp.ctx, {
          client_id: 'gone',
          client_secret: APP_SECRET,
          redirect_uris: [RP],
          access_token_format: 'jwt',
          id_token_signed_response_alg: 'ES256',
          grant_types: ['client_credentials'],
        });
      await registerGone();
      const auth = basicAuth('gone', APP_SECRET);
      const old = (await post(a.app, '/token', { grant_type: 'client_credentials' }, auth)).json()
        .access_token;
      await a.idp.ctx.clients.remove('gone');
      expect(await usable(a.app, old, false)).toBe(false);
      // At once: the removal returns in a later second than the old token's, so nothing waits here.
      await registerGone();
      const fresh = (await post(a.app, '/token', { grant_type: 'client_credentials' }, auth)).json()
        .access_token;
      expect(await usable(a.app, fresh, false)).toBe(true);
      expect(await usable(a.app, old, false)).toBe(false);
    });

    it('a tampered token, one signed by a foreign key, and one of ours that is not an access token are inactive', async () => {
      const at = await clientToken(a.app);
      const [h, p, s] = at.split('.') as [string, string, string];
      const flipped = `${h}.${p}.${s.slice(0, -4)}${s.slice(-4) === 'AAAA' ? 'BBBB' : 'AAAA'}`;
      expect(await usable(a.app, flipped, false)).toBe(false);
      const claims = claimsOf(at);
      const header = JSON.parse(Buffer.from(h, 'base64url').toString());
      // Same kid, same claims, another ES256 key.
      const foreign = await generateKeyPair('ES256');
      const forged = await signJwt(
        claims,
        { ...foreign.privateJwk, kid: header.kid },
        { typ: 'at+jwt', issuedAt: false },
      );
      expect(JSON.parse(Buffer.from(forged.split('.')[0] as string, 'base64url').toString()).kid).toBe(
        header.kid,
      );
      expect(await usable(a.app, forged, false)).toBe(false);
      // Our own key, our claims, but `typ: JWT` (an ID token's): not an access token.
      const ours = await a.idp.ctx.keys.signingKey('ES256');
      const notAt = await signJwt(claims, ours, { typ: 'JWT', issuedAt: false });
      expect(await usable(a.app, notAt, false)).toBe(false);
      // And the genuine one, re-signed by our key with its typ: the same token again, active.
      const resigned = await signJwt(claims, ours, { typ: 'at+jwt', issuedAt: false });
      expect(await usable(a.app, resigned, false)).toBe(mode === 'stateless');
    });

    it('a token signed by a retired key stays active while the key is published; a removed key ends it', async () => {
      const at = await clientToken(a.app);
      const { kid } = JSON.parse(Buffer.from(at.split('.')[0] as string, 'base64url').toString());
      await a.idp.ctx.keys.rotate('ES256', { immediate: true });
      expect(await usable(a.app, at, false)).toBe(true);
      expect(
        JSON.parse(Buffer.from((await clientToken(a.app)).split('.')[0] as string, 'base64url').toString())
          .kid,
      ).not.toBe(kid);
      await a.idp.ctx.keys.remove(kid);
      // A stored token is looked up, not verified: only the stateless one needs its key.
      expect(await usable(a.app, at, false)).toBe(mode === 'stored');
    });

    it('a revocation is seen after a restart, also when the restarted instance runs the other mode', async () => {
      const { dir, cleanup } = tempDir();
      cleanups.push(cleanup);
      const first = await new Instance(dir, engine.fresh()).open({ accessTokenStorage: mode });
      await registerClients(first.idp);
      const live = await userTokens(first.app);
      const revoked = await userTokens(first.app);
      expect((await post(first.app, '/revoke', { token: revoked.access_token }, appAuth)).statusCode).toBe(
        200,
      );
      await first.idp.close();
      const other: AccessTokenStorage = mode === 'stored' ? 'stateless' : 'stored';
      for (const m of [mode, other]) {
        const again = await new Instance(dir, first.databaseUrl).open({ accessTokenStorage: m });
        try {
          // A token keeps the mode it was issued in: a revoked stored JWT never passes as stateless.
          expect(await usable(again.app, live.access_token)).toBe(true);
          expect(await usable(again.app, revoked.access_token)).toBe(false);
        } finally {
          await again.idp.close();
        }
      }
    });

    it.runIf(engine.name === 'sqlite')(
      'at expiry: active until exp, inactive from exp on (no leeway)',
      async () => {
        const at = await clientToken(a.app);
        const exp = claimsOf(at).exp as number;
        vi.useFakeTimers({ toFake: ['Date'] });
        for (const [t, active] of [
          [exp - 1, true],
          [exp, false],
          [exp + 1, false],
        ] as const) {
          vi.setSystemTime(t * 1000);
          expect(await usable(a.app, at, false), `at exp${t - exp >= 0 ? '+' : ''}${t - exp}`).toBe(active);
        }
      },
    );

    it.runIf(engine.name === 'sqlite')(
      'leaves nothing behind: denylist entries and records are swept once their tokens expired',
      async () => {
        const { dir, cleanup } = tempDir();
        cleanups.push(cleanup);
        const idp = (await new Instance(dir, undefined).open({ accessTokenStorage: mode })).idp;
        try {
          await registerClients(idp);
          const { access_token: at, refresh_token: rt } = await userTokens(idp.app);
          const cc = await clientToken(idp.app);
          expect((await post(idp.app, '/revoke', { token: at }, appAuth)).statusCode).toBe(200);
          expect((await post(idp.app, '/revoke', { token: cc }, appAuth)).statusCode).toBe(200);
          expect((await post(idp.app, '/revoke', { token: rt }, appAuth)).statusCode).toBe(200);
          const left = async () => ({
            denylist: (await idp.ctx.storage.adapter('AccessTokenDenylist').list()).length,
            accessTokens: (await idp.ctx.storage.adapter('AccessToken').list()).length,
          });
          // The grant's entry in both modes (a grant may have tokens of both); the jtis when stateless.
          expect(await left()).toEqual({ denylist: mode === 'stateless' ? 3 : 1, accessTokens: 0 });
          const exp = claimsOf(at).exp as number;
          vi.useFakeTimers({ toFake: ['Date'] });
          // Still there within the margin after the tokens' expiry...
          vi.setSystemTime((exp + DENYLIST_MARGIN_SECONDS - 5) * 1000);
          await idp.ctx.storage.purgeExpired();
          expect((await left()).denylist).toBe(mode === 'stateless' ? 3 : 1);
          // ...and gone after it.
          vi.setSystemTime((exp + DENYLIST_MARGIN_SECONDS + 5) * 1000);
          await idp.ctx.storage.purgeExpired();
          expect(await left()).toEqual({ denylist: 0, accessTokens: 0 });
        } finally {
          vi.useRealTimers();
          await idp.close();
        }
      },
    );
  });
});

describe.skipIf(!PG_URL)('two instances on one PostgreSQL database, stateless mode', () => {
  let a: Instance;
  let b: Instance;
  const schema = uniqueSchema('pqid_ats');
  beforeAll(async () => {
    schemas.push(schema);
    const url = urlWithSchema(schema);
    const da = tempDir();
    const db = tempDir();
    cleanups.push(da.cleanup, db.cleanup);
    a = await new Instance(da.dir, url).open({ accessTokenStorage: 'stateless' });
    await registerClients(a.idp);
    b = await new Instance(db.dir, url).open({ accessTokenStorage: 'stateless' });
  });
  afterAll(async () => {
    await a?.idp.close();
    await b?.idp.close();
  });

  it('a revocation on A racing an introspection on B: B answers either way during, inactive after', async () => {
    for (let i = 0; i < 5; i++) {
      const at = await clientToken(a.app);
      expect(await usable(b.app, at, false)).toBe(true);
      const [revoked, during] = await Promise.all([
        post(a.app, '/revoke', { token: at }, appAuth),
        introspect(b.app, at),
      ]);
      expect(revoked.statusCode).toBe(200);
      expect(typeof during.active).toBe('boolean');
      expect(await usable(b.app, at, false)).toBe(false);
      expect(await usable(a.app, at, false)).toBe(false);
    }
  });

  it('a grant revoked on A (code replay) ends its access tokens on B', async () => {
    const { access_token: at, location } = await userTokens(a.app);
    expect(await usable(b.app, at)).toBe(true);
    await redeemCode(b.app, location, RP, { headers: { authorization: appAuth } });
    expect(await usable(a.app, at)).toBe(false);
    expect(await usable(b.app, at)).toBe(false);
  });

  it('a denylist entry expires with its token (by the database clock) and the purge leaves nothing', async () => {
    const at = await clientToken(a.app);
    const exp = claimsOf(at).exp as number;
    expect((await post(a.app, '/revoke', { token: at }, appAuth)).statusCode).toBe(200);
    const jti = String(claimsOf(at).jti);
    const row = async () =>
      (
        await adminQuery(
          `SELECT extract(epoch FROM expires_at)::float8 AS at FROM "${schema}".records WHERE model = 'AccessTokenDenylist' AND id = $1`,
          [`jti:${jti}`],
        )
      ).rows[0] as { at: number } | undefined;
    const entry = await row();
    expect(Math.abs((entry?.at ?? 0) - (exp + DENYLIST_MARGIN_SECONDS))).toBeLessThan(3);
    await a.idp.ctx.storage.purgeExpired();
    expect(await row()).toBeDefined();
    // Once its time has passed (moved back here rather than waited for), the sweep takes it.
    await adminQuery(
      `UPDATE "${schema}".records SET expires_at = now() - interval '1 second' WHERE model = 'AccessTokenDenylist' AND id = $1`,
      [`jti:${jti}`],
    );
    // An entry gone before its token would bring the token back: why it lives until exp + margin.
    expect(await usable(b.app, at, false)).toBe(true);
    await b.idp.ctx.storage.purgeExpired();
    expect(await row()).toBeUndefined();
  });
});
describe('which mode a token gets: its resource server, else its client, else the configuration', () => {
  const API = 'https://api.example/';
  let i: Instance;
  beforeAll(async () => {
    const { dir, cleanup } = tempDir();
    cleanups.push(cleanup);
    i = await new Instance(dir, undefined).open({
      accessTokenStorage: 'stored',
      resourceServers: { [API]: { scope: 'api', accessTokenStorage: 'stateless' } },
    });
    await registerClients(i.idp);
    await registerClient(i.idp.ctx, {
      client_id: 'svc',
      client_secret: APP_SECRET,
      redirect_uris: [RP],
      scope: 'api',
      access_token_format: 'jwt',
      id_token_signed_response_alg: 'ES256',
      grant_types: ['client_credentials'],
    });
    await registerClient(i.idp.ctx, {
      client_id: 'm2m',
      client_secret: APP_SECRET,
      redirect_uris: [RP],
      scope: 'api',
      access_token_format: 'jwt',
      access_token_storage: 'stateless',
      id_token_signed_response_alg: 'ES256',
      grant_types: ['client_credentials'],
    });
  });
  afterAll(() => i.idp.close());

  const cc = async (client: string, extra: Record<string, string> = {}) => {
    const r = await post(
      i.app,
      '/token',
      { grant_type: 'client_credentials', ...extra },
      basicAuth(client, APP_SECRET),
    );
    expect(r.statusCode, r.body).toBe(200);
    return r.json().access_token as string;
  };
  const stateless = (jwt: string) => String(claimsOf(jwt).jti).startsWith('s1.');

  it('the configuration by default, the client over it, the resource server over both', async () => {
    expect(stateless(await cc('svc'))).toBe(false);
    expect(stateless(await cc('m2m'))).toBe(true);
    const forApi = await cc('svc', { resource: API });
    expect(claimsOf(forApi).aud).toBe(API);
    expect(stateless(forApi)).toBe(true);
    expect(await introspect(i.app, forApi)).toMatchObject({ active: true, aud: API, client_id: 'svc' });
    expect((await post(i.app, '/revoke', { token: forApi }, basicAuth('svc', APP_SECRET))).statusCode).toBe(
      200,
    );
    expect((await introspect(i.app, forApi)).active).toBe(false);
  });

  it('refuses an unknown mode in the configuration and in client metadata', async () => {
    const { dir, cleanup } = tempDir();
    cleanups.push(cleanup);
    expect(() => testConfig(dir, { accessTokenStorage: 'none' as AccessTokenStorage })).toThrow(
      /accessTokenStorage/,
    );
    expect(() =>
      testConfig(dir, { resourceServers: { [API]: { scope: 'api', accessTokenStorage: 'maybe' } } } as never),
    ).toThrow(/accessTokenStorage must be stored or stateless/);
    await expect(
      registerClient(i.idp.ctx, {
        client_id: 'bad',
        redirect_uris: [RP],
        access_token_storage: 'sometimes' as AccessTokenStorage,
      }),
    ).rejects.toThrow(/access_token_storage/);
  });
});
