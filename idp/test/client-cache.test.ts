/**
 * The client record cache (clients/client-cache.ts): every write through an instance takes
 * effect on that instance at once (DCR PUT and DELETE, replace, remove), another instance on the
 * same database sees it within `clientCacheTtl`, the secret is still checked on every request,
 * and one client's record never answers for another.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createIdp, type Idp, registerClient } from '../src/app.ts';
import { ClientCache } from '../src/clients/client-cache.ts';
import { type Client, Clients } from '../src/clients/clients.ts';
import { replaceClient } from '../src/clients/register.ts';
import { ConfigError } from '../src/config/index.ts';
import type { Adapter, Payload } from '../src/storage/adapter.ts';
import { basicAuth, form, KEK, startTestIdp, tempDir, testConfig } from './helpers.ts';

const IAT = 'initial-access-token-0123456789';
const CC = {
  redirect_uris: [],
  grant_types: ['client_credentials' as const],
  scope: 'api',
  access_token_format: 'jwt' as const,
};

const part = (jwt: string, i: 0 | 1) =>
  JSON.parse(Buffer.from(jwt.split('.')[i] as string, 'base64url').toString()) as Record<string, unknown>;

const token = (app: FastifyInstance, id: string, secret: string) =>
  app.inject({
    method: 'POST',
    url: '/token',
    ...form({ grant_type: 'client_credentials', scope: 'api' }, { authorization: basicAuth(id, secret) }),
  });

describe('client cache: writes through this instance', () => {
  let t: Awaited<ReturnType<typeof startTestIdp>>;
  let app: FastifyInstance;
  beforeAll(async () => {
    // A long TTL: only invalidation can make these changes visible within the test.
    t = await startTestIdp({ clientCacheTtl: 60, registration: { mode: 'token', initialAccessToken: IAT } });
    app = t.idp.app;
  });
  afterAll(() => t.close());

  const dcr = (method: 'POST' | 'PUT' | 'DELETE', path: string, bearer: string, body?: unknown) =>
    app.inject({
      method,
      url: path,
      headers: {
        authorization: `Bearer ${bearer}`,
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      },
      ...(body !== undefined ? { payload: JSON.stringify(body) } : {}),
    });

  it('DCR PUT takes effect at once: a grant taken away is refused on the next request', async () => {
    const reg = (await dcr('POST', '/register', IAT, CC)).json();
    expect((await token(app, reg.client_id, reg.client_secret)).statusCode).toBe(200);
    const put = await dcr('PUT', `/register/${reg.client_id}`, reg.registration_access_token, {
      ...CC,
      client_id: reg.client_id,
      grant_types: ['authorization_code'],
      redirect_uris: ['https://rp.example/cb'],
    });
    expect(put.statusCode).toBe(200);
    const r = await token(app, reg.client_id, reg.client_secret);
    expect(r.statusCode).toBe(400);
    expect(r.json().error).toBe('unauthorized_client');
  });

  it('DCR DELETE takes effect at once: the deleted client is refused on the next request', async () => {
    const reg = (await dcr('POST', '/register', IAT, CC)).json();
    expect((await token(app, reg.client_id, reg.client_secret)).statusCode).toBe(200);
    expect(
      (await dcr('DELETE', `/register/${reg.client_id}`, reg.registration_access_token)).statusCode,
    ).toBe(204);
    const r = await token(app, reg.client_id, reg.client_secret);
    expect(r.statusCode).toBe(401);
    expect(r.json().error).toBe('invalid_client');
  });

  it('replace and remove take effect at once', async () => {
    const { client, clientSecret } = await registerClient(t.idp.ctx, { ...CC, client_id: 'svc-replace' });
    const secret = clientSecret as string;
    expect((await token(app, 'svc-replace', secret)).statusCode).toBe(200);
    // The access-token alg changes: the next token is signed with the new one.
    await replaceClient(t.idp.ctx, client, { ...CC, access_token_signed_response_alg: 'ES256' });
    const r = await token(app, 'svc-replace', secret);
    expect(r.statusCode).toBe(200);
    expect(part(r.json().access_token, 0).alg).toBe('ES256');
    await t.idp.ctx.clients.remove('svc-replace');
    expect((await token(app, 'svc-replace', secret)).json().error).toBe('invalid_client');
  });

  it('checks the secret on every request, also with the record cached', async () => {
    const { clientSecret } = await registerClient(t.idp.ctx, { ...CC, client_id: 'svc-secret' });
    const secret = clientSecret as string;
    expect((await token(app, 'svc-secret', secret)).statusCode).toBe(200);
    for (const wrong of [`${secret}x`, secret.slice(1), '']) {
      const r = await token(app, 'svc-secret', wrong);
      expect(r.statusCode).toBe(401);
      expect(r.json().error).toBe('invalid_client');
    }
    expect((await token(app, 'svc-secret', secret)).statusCode).toBe(200);
  });

  it('never answers for one client with another client record', async () => {
    const one = await registerClient(t.idp.ctx, { ...CC, client_id: 'svc-one' });
    const two = await registerClient(t.idp.ctx, {
      ...CC,
      client_id: 'svc-two',
      access_token_signed_response_alg: 'ES256',
    });
    for (let i = 0; i < 3; i++) {
      for (const [id, secret] of [
        ['svc-one', one.clientSecret],
        ['svc-two', two.clientSecret],
      ] as const) {
        const r = await token(app, id, secret as string);
        expect(r.statusCode).toBe(200);
        const at = r.json().access_token as string;
        expect(part(at, 1).client_id).toBe(id);
        expect(part(at, 0).alg).toBe(id === 'svc-two' ? 'ES256' : t.idp.ctx.config.defaultSigningAlg);
      }
      // Each secret only for its own client, with both records cached.
      expect((await token(app, 'svc-one', two.clientSecret as string)).statusCode).toBe(401);
      expect((await token(app, 'svc-two', one.clientSecret as string)).statusCode).toBe(401);
    }
  });

  it('hands out a frozen record: no request can change what the next one sees', async () => {
    await registerClient(t.idp.ctx, { ...CC, client_id: 'svc-frozen' });
    const c = (await t.idp.ctx.clients.find('svc-frozen')) as Client;
    expect(() => {
      c.grant_types.push('refresh_token');
    }).toThrow(TypeError);
    expect(() => {
      (c as { scope: string }).scope = 'api admin';
    }).toThrow(TypeError);
    expect((await t.idp.ctx.clients.find('svc-frozen'))?.scope).toBe('api');
  });
});

describe('client cache: two instances on one database', () => {
  let a: Awaited<ReturnType<typeof startTestIdp>>;
  let b: Idp;
  let cleanupB: () => void;
  beforeAll(async () => {
    a = await startTestIdp({ clientCacheTtl: 2 });
    const { dir, cleanup } = tempDir();
    cleanupB = cleanup;
    b = await createIdp(testConfig(dir, { databaseUrl: a.idp.ctx.config.databaseUrl, clientCacheTtl: 2 }), {
      env: { PQID_KEK: KEK },
      warn: () => {},
    });
  });
  afterAll(async () => {
    await b.close();
    cleanupB();
    await a.close();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('a client deleted on one instance is refused there at once and on the other within the TTL', async () => {
    const { clientSecret } = await registerClient(a.idp.ctx, { ...CC, client_id: 'svc-shared' });
    const secret = clientSecret as string;
    vi.useFakeTimers({ toFake: ['Date', 'performance'], now: Date.now() });
    expect((await token(a.idp.app, 'svc-shared', secret)).statusCode).toBe(200);
    expect((await token(b.app, 'svc-shared', secret)).statusCode).toBe(200);
    await a.idp.ctx.clients.remove('svc-shared');
    expect((await token(a.idp.app, 'svc-shared', secret)).json().error).toBe('invalid_client');
    // B read the record less than the TTL ago: it may still use it (the documented window)…
    vi.advanceTimersByTime(1000);
    expect((await token(b.app, 'svc-shared', secret)).statusCode).toBe(200);
    // …and not once the TTL has passed.
    vi.advanceTimersByTime(1100);
    const r = await token(b.app, 'svc-shared', secret);
    expect(r.statusCode).toBe(401);
    expect(r.json().error).toBe('invalid_client');
  });

  it('a client changed on one instance is used as changed on the other within the TTL', async () => {
    const { client, clientSecret } = await registerClient(a.idp.ctx, { ...CC, client_id: 'svc-changed' });
    const secret = clientSecret as string;
    vi.useFakeTimers({ toFake: ['Date', 'performance'], now: Date.now() });
    expect((await token(b.app, 'svc-changed', secret)).statusCode).toBe(200);
    await replaceClient(a.idp.ctx, client, {
      ...CC,
      grant_types: ['authorization_code'],
      redirect_uris: ['https://rp.example/cb'],
    });
    vi.advanceTimersByTime(2100);
    expect((await token(b.app, 'svc-changed', secret)).json().error).toBe('unauthorized_client');
  });
});

describe('Clients.holderOf', () => {
  it("reads storage, not the cache: another instance's removal counts at once, and ends the entry", async () => {
    const records = new Map<string, Payload>();
    const store = {
      find: async (id: string) => records.get(id),
      upsert: async (id: string, payload: Payload) => void records.set(id, payload),
      destroy: async (id: string) => void records.delete(id),
    } as unknown as Adapter;
    // Two instances on one store, each caching for a minute.
    const a = new Clients(store, 'ML-DSA-65', { cacheTtl: 60 });
    const b = new Clients(store, 'ML-DSA-65', { cacheTtl: 60 });
    const { client } = await a.register({ ...CC, client_id: 'held' });
    const issued = client.client_id_issued_at as number;
    expect((await b.find('held'))?.client_id).toBe('held');
    expect((await b.holderOf('held', issued))?.client_id).toBe('held');
    // A token issued before this registration belongs to an earlier client of that id.
    expect(await b.holderOf('held', issued - 1)).toBeUndefined();
    await a.remove('held');
    // B's cache still authenticates it (the documented window)…
    expect((await b.find('held'))?.client_id).toBe('held');
    // …but no token of it is honoured, and from then on B does not authenticate it either.
    expect(await b.holderOf('held', issued)).toBeUndefined();
    expect(await b.find('held')).toBeUndefined();
  });
});

describe('ClientCache', () => {
  /** An adapter whose reads wait until released, as a PostgreSQL read in flight does. */
  function slowStore(records: Map<string, Payload>) {
    const pending: Array<() => void> = [];
    const store = {
      async find(id: string) {
        const snapshot = records.get(id);
        await new Promise<void>((resolve) => pending.push(resolve));
        return snapshot;
      },
      async upsert(id: string, payload: Payload) {
        records.set(id, payload);
      },
      async destroy(id: string) {
        records.delete(id);
      },
    } as unknown as Adapter;
    const release = () => {
      for (const resume of pending.splice(0)) resume();
    };
    return { store, release };
  }

  it('does not keep a record read before a write that finished while the read was in flight', async () => {
    const records = new Map<string, Payload>([['c1', { client_id: 'c1', scope: 'old' }]]);
    const { store, release } = slowStore(records);
    const clients = new Clients(store, 'ML-DSA-65', { cacheTtl: 60 });
    const read = clients.find('c1');
    await clients.remove('c1');
    release();
    expect((await read)?.scope).toBe('old');
    // The stale read was not cached: the next one goes to the store and finds nothing.
    const next = clients.find('c1');
    release();
    expect(await next).toBeUndefined();
  });

  it('does not cache unknown ids, and reads the store on every call with a TTL of 0', async () => {
    const records = new Map<string, Payload>();
    let reads = 0;
    const store = {
      async find(id: string) {
        reads++;
        return records.get(id);
      },
    } as unknown as Adapter;
    const cached = new Clients(store, 'ML-DSA-65', { cacheTtl: 60 });
    expect(await cached.find('nobody')).toBeUndefined();
    records.set('nobody', { client_id: 'nobody' });
    expect((await cached.find('nobody'))?.client_id).toBe('nobody');
    expect((await cached.find('nobody'))?.client_id).toBe('nobody');
    expect(reads).toBe(2);
    const uncached = new Clients(store, 'ML-DSA-65', { cacheTtl: 0 });
    await uncached.find('nobody');
    await uncached.find('nobody');
    expect(reads).toBe(4);
  });

  it('is bounded', () => {
    const cache = new ClientCache<Client>(60);
    for (let i = 0; i < 10_001; i++) cache.set(`c${i}`, { client_id: `c${i}` } as Client, cache.generation);
    expect(cache.get('c0')).toBeUndefined();
    expect(cache.get('c1')?.client_id).toBe('c1');
    expect(cache.get('c10000')?.client_id).toBe('c10000');
  });

  it('is configured in whole seconds up to 60', () => {
    const { dir, cleanup } = tempDir();
    try {
      expect(testConfig(dir).clientCacheTtl).toBe(2);
      expect(testConfig(dir, { clientCacheTtl: 0 }).clientCacheTtl).toBe(0);
      expect(() => testConfig(dir, { clientCacheTtl: 61 })).toThrow(ConfigError);
      expect(() => testConfig(dir, { clientCacheTtl: 1.5 })).toThrow(ConfigError);
      expect(() => testConfig(dir, { clientCacheTtl: -1 })).toThrow(ConfigError);
    } finally {
      cleanup();
    }
  });
});
