/**
 * /healthz: the status anyone may see (a load balancer's question), and the detail — key ids,
 * algorithms, backends and their versions — only for a request bearing the operator token
 * (`metricsToken`). Without a configured token the detail is not served at all.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestIdp } from './helpers.ts';

type Started = Awaited<ReturnType<typeof startTestIdp>>;
const TOKEN = 'operator-7d1e0c52a9b84f36';

/** Nothing in the public answer names a key, an algorithm or a backend. */
function expectMinimal(body: string, kids: string[]) {
  expect(JSON.parse(body)).toEqual({ status: 'ok', storage: { ok: true } });
  for (const kid of kids) expect(body).not.toContain(kid);
  expect(body).not.toMatch(/ML-DSA|native|noble|sqlite|liboqs/i);
}

describe('/healthz with an operator token configured', () => {
  let t: Started;
  let kids: string[];
  beforeAll(async () => {
    t = await startTestIdp({ metricsToken: TOKEN });
    kids = t.idp.ctx.keys.list().map((k) => k.kid);
    expect(kids.length).toBeGreaterThan(0);
  });
  afterAll(() => t.close());

  it('answers only the status without the token, or with a wrong one', async () => {
    for (const authorization of [undefined, 'Bearer nope', `Bearer ${TOKEN}x`, `Basic ${TOKEN}`, TOKEN]) {
      const r = await t.idp.app.inject({ url: '/healthz', headers: authorization ? { authorization } : {} });
      expect(r.statusCode, String(authorization)).toBe(200);
      expect(r.headers['cache-control']).toBe('no-store');
      expectMinimal(r.body, kids);
    }
  });

  it('adds the keys, algorithms and backends for the operator token', async () => {
    const r = await t.idp.app.inject({ url: '/healthz', headers: { authorization: `Bearer ${TOKEN}` } });
    expect(r.statusCode).toBe(200);
    const body = r.json();
    expect(body).toMatchObject({ status: 'ok', storage: { kind: 'sqlite', ok: true } });
    expect(body.keys.map((k: { kid: string }) => k.kid).sort()).toEqual([...kids].sort());
    expect(body.algorithms).toContain('ML-DSA-65');
    expect(body.backends.map((b: { name: string }) => b.name)).toEqual(
      expect.arrayContaining(['node', 'noble']),
    );
    expect(body.mldsa.backend).toBe(body.mldsaBackend);
  });
});

describe('/healthz without an operator token configured', () => {
  let t: Started;
  beforeAll(async () => {
    t = await startTestIdp();
  });
  afterAll(() => t.close());

  it('never serves the detail, whatever the request carries', async () => {
    const kids = t.idp.ctx.keys.list().map((k) => k.kid);
    for (const authorization of [undefined, 'Bearer anything-at-all-here', 'Bearer ']) {
      const r = await t.idp.app.inject({ url: '/healthz', headers: authorization ? { authorization } : {} });
      expect(r.statusCode).toBe(200);
      expectMinimal(r.body, kids);
    }
  });
});

describe('/healthz once the instance reports draining (shutdown delay)', () => {
  let t: Started;
  beforeAll(async () => {
    t = await startTestIdp({ metricsToken: TOKEN });
  });
  afterAll(() => t.close());

  it('answers 503 draining, with and without the token, while other routes still serve', async () => {
    const before = await t.idp.app.inject('/healthz');
    expect(before.statusCode).toBe(200);
    expect(before.headers.connection).not.toBe('close');
    t.idp.reportDraining();
    const pub = await t.idp.app.inject('/healthz');
    expect(pub.statusCode).toBe(503);
    expect(pub.headers['cache-control']).toBe('no-store');
    expect(pub.json()).toEqual({ status: 'draining', storage: { ok: true } });
    const op = await t.idp.app.inject({ url: '/healthz', headers: { authorization: `Bearer ${TOKEN}` } });
    expect(op.statusCode).toBe(503);
    expect(op.json()).toMatchObject({ status: 'draining', storage: { kind: 'sqlite', ok: true } });
    expect(op.json().keys.length).toBeGreaterThan(0);
    // still an instance that serves: only the balancer's question changed, and each answer
    // ends its connection, so keep-alive clients reconnect elsewhere before the listener closes
    for (const url of ['/.well-known/openid-configuration', '/jwks', '/no-such-route']) {
      const r = await t.idp.app.inject(url);
      expect(r.statusCode, url).toBe(url === '/no-such-route' ? 404 : 200);
      expect(r.headers.connection, url).toBe('close');
    }
  });

  it('says draining rather than degraded when storage is down too', async () => {
    const ping = t.idp.ctx.storage.ping;
    t.idp.ctx.storage.ping = async () => false;
    try {
      const r = await t.idp.app.inject('/healthz');
      expect(r.statusCode).toBe(503);
      expect(r.json()).toEqual({ status: 'draining', storage: { ok: false } });
    } finally {
      t.idp.ctx.storage.ping = ping;
    }
  });
});
