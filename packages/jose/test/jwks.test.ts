/** Local and remote key sets: selection, hygiene, and the remote set's fetch/caching behaviour against a real HTTP server. */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  createLocalJWKSet,
  createRemoteJWKSet,
  generateKeyPair,
  importJWK,
  importJwks,
  type JoseHeader,
  type Jwk,
  PqidError,
  type PrivateKey,
  PublicKey,
  signCompact,
  verifyCompact,
} from '@pqid/jose';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { suiteAlgorithms } from './helpers/algs.ts';
import { rejects } from './helpers/assert.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const ALGS = suiteAlgorithms();
type Pair = { privateJwk: Jwk; publicJwk: Jwk; priv: PrivateKey };
const gen = async (alg: string): Promise<Pair> => {
  const { privateJwk, publicJwk } = await generateKeyPair(alg);
  return { privateJwk, publicJwk, priv: (await importJWK(privateJwk)) as PrivateKey };
};
const tokenFor = (p: Pair, claims: object = { sub: 'x' }) => signCompact(JSON.stringify(claims), p.priv);

let es1: Pair;
let es2: Pair;
let ml1: Pair;
let ml2: Pair;
let ed: Pair;
const every = new Map<string, Pair>();

beforeAll(async () => {
  [es1, es2, ml1, ml2, ed] = await Promise.all([
    gen('ES256'),
    gen('ES256'),
    gen('ML-DSA-65'),
    gen('ML-DSA-65'),
    gen('EdDSA'),
  ]);
  await Promise.all(ALGS.map(async (a) => every.set(a, await gen(a))));
});

describe('createLocalJWKSet', () => {
  /** Calls the set and turns a synchronous throw into a rejection. */
  const query = async (set: (h: JoseHeader) => unknown, h: JoseHeader) => (await set(h)) as PublicKey[];

  it('selects by alg, and by kid when the header has one', async () => {
    const set = await createLocalJWKSet({
      keys: [es1.publicJwk, es2.publicJwk, ml1.publicJwk, ml2.publicJwk],
    });
    expect(set.keys).toHaveLength(4);
    expect((await query(set, { alg: 'ES256' })).map((k) => k.kid)).toEqual([
      es1.publicJwk.kid,
      es2.publicJwk.kid,
    ]);
    expect((await query(set, { alg: 'ML-DSA-65' })).map((k) => k.kid)).toEqual([
      ml1.publicJwk.kid,
      ml2.publicJwk.kid,
    ]);
    expect((await query(set, { alg: 'ES256', kid: es2.publicJwk.kid as string })).map((k) => k.kid)).toEqual([
      es2.publicJwk.kid,
    ]);
    expect(
      (await query(set, { alg: 'ML-DSA-65', kid: ml1.publicJwk.kid as string })).map((k) => k.kid),
    ).toEqual([ml1.publicJwk.kid]);
    // A kid of the wrong alg does not match: alg and kid must both fit.
    await rejects(
      () => query(set, { alg: 'ML-DSA-65', kid: es1.publicJwk.kid as string }),
      'ERR_JWKS_NO_MATCHING_KEY',
    );
    await rejects(() => query(set, { alg: 'ES256', kid: 'nope' }), 'ERR_JWKS_NO_MATCHING_KEY');
    await rejects(() => query(set, { alg: 'ML-DSA-44' }), 'ERR_JWKS_NO_MATCHING_KEY');
  });

  it('an Ed25519 key serves both EdDSA and Ed25519 headers', async () => {
    const set = await createLocalJWKSet({ keys: [ed.publicJwk] });
    expect(await query(set, { alg: 'EdDSA' })).toHaveLength(1);
    expect(await query(set, { alg: 'Ed25519' })).toHaveLength(1);
  });

  it('verifies tokens of every algorithm from one set, and an unknown kid is ERR_JWKS_NO_MATCHING_KEY', async () => {
    const set = await createLocalJWKSet({ keys: [...every.values()].map((p) => p.publicJwk) });
    expect(set.keys.map((k) => k.alg).sort()).toEqual([...ALGS].sort());
    for (const [alg, p] of every) {
      const r = await verifyCompact(await tokenFor(p), set, { algorithms: ALGS });
      expect(r.key.kid, alg).toBe(p.publicJwk.kid);
    }
    const stranger = await gen('ML-DSA-65');
    const t = await tokenFor(stranger);
    await rejects(() => verifyCompact(t, set, { algorithms: ALGS }), 'ERR_JWKS_NO_MATCHING_KEY');
  });

  it('keys without kid are selected by their thumbprint', async () => {
    const { kid: _a, ...noKid } = ml1.publicJwk;
    const set = await createLocalJWKSet({ keys: [noKid] });
    expect(set.keys[0]?.kid).toBe(ml1.publicJwk.kid);
    await expect(
      verifyCompact(await tokenFor(ml1), set, { algorithms: ['ML-DSA-65'] }),
    ).resolves.toBeTruthy();
  });

  it('private keys in a JWKS are ignored, not used and not exposed', async () => {
    const set = await createLocalJWKSet({ keys: [ml1.privateJwk, es1.privateJwk, ml2.publicJwk] });
    expect(set.keys.map((k) => k.kid)).toEqual([ml2.publicJwk.kid]);
    for (const k of set.keys) expect(k).toBeInstanceOf(PublicKey);
    await rejects(
      async () => verifyCompact(await tokenFor(ml1), set, { algorithms: ALGS }),
      'ERR_JWKS_NO_MATCHING_KEY',
    );
    await rejects(
      async () => verifyCompact(await tokenFor(es1), set, { algorithms: ALGS }),
      'ERR_JWKS_NO_MATCHING_KEY',
    );
    expect(JSON.stringify(set.keys)).not.toContain(ml1.privateJwk.priv as string);
  });

  it('keys of unknown algorithms, malformed keys and non-signing keys are skipped; the rest are kept', async () => {
    const junk: unknown[] = [
      null,
      42,
      'AKP',
      [],
      {},
      { kty: 'AKP', alg: 'ML-DSA-99', pub: ml1.publicJwk.pub },
      { kty: 'AKP', pub: ml1.publicJwk.pub }, // AKP without alg
      { ...ml1.publicJwk, alg: 'ML-DSA-44' }, // pub of the wrong size
      { ...ml1.publicJwk, pub: 'not base64url!' },
      { kty: 'oct', k: 'c2VjcmV0', alg: 'HS256' },
      { kty: 'EC', crv: 'P-521', x: 'AA', y: 'AA' },
      { kty: 'OKP', crv: 'X25519', x: ed.publicJwk.x },
      { kty: 'RSA', alg: 'RSA-OAEP', n: 'AQAB', e: 'AQAB' },
      { ...es2.publicJwk, use: 'enc' },
    ];
    const keys = [
      junk[0],
      es1.publicJwk,
      ...junk.slice(1, 8),
      ml1.publicJwk,
      ...junk.slice(8),
      { ...ed.publicJwk, use: 'sig' },
    ];
    const set = await createLocalJWKSet({ keys });
    expect(set.keys.map((k) => k.kid)).toEqual([es1.publicJwk.kid, ml1.publicJwk.kid, ed.publicJwk.kid]);
    expect((await importJwks({ keys })).map((k) => k.kid)).toEqual(set.keys.map((k) => k.kid));
  });

  it('something that is not a JWKS is ERR_INVALID_ARGUMENT', async () => {
    for (const j of [null, undefined, 42, [], {}, { keys: {} }, { keys: 'x' }]) {
      await rejects(() => createLocalJWKSet(j), 'ERR_INVALID_ARGUMENT');
    }
    expect((await createLocalJWKSet({ keys: [] })).keys).toEqual([]);
  });
});

// ---- remote ------------------------------------------------------------------------------

interface Route {
  status?: number;
  body?: string | (() => string);
  delay?: number;
  hang?: boolean;
  headers?: Record<string, string>;
}

let server: Server;
let base: string;
const routes = new Map<string, Route>();
const hits = new Map<string, number>();
const lastHeaders = new Map<string, IncomingMessage['headers']>();
let pathCounter = 0;

/** A fresh path on the server with this behaviour; returns its URL and a hit counter. */
function route(r: Route) {
  const path = `/jwks-${++pathCounter}`;
  routes.set(path, r);
  return {
    url: `${base}${path}`,
    hits: () => hits.get(path) ?? 0,
    set: (next: Route) => routes.set(path, next),
    path,
  };
}
const jwks = (...pairs: Pair[]) => JSON.stringify({ keys: pairs.map((p) => p.publicJwk) });

beforeAll(async () => {
  server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? '').split('?')[0] as string;
    hits.set(path, (hits.get(path) ?? 0) + 1);
    lastHeaders.set(path, req.headers);
    const r = routes.get(path);
    if (!r) {
      res.writeHead(404).end();
      return;
    }
    if (r.hang) return; // never answer
    const send = () => {
      const body = typeof r.body === 'function' ? r.body() : (r.body ?? '');
      res.writeHead(r.status ?? 200, { 'content-type': 'application/json', ...r.headers }).end(body);
    };
    if (r.delay) setTimeout(send, r.delay);
    else send();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

describe('createRemoteJWKSet', () => {
  afterEach(() => {
    // Hung requests must not keep the server busy for the next test.
    server.closeIdleConnections();
  });

  it('fetches once and serves later lookups from the cache', async () => {
    const r = route({ body: jwks(es1, ml1) });
    const set = createRemoteJWKSet(r.url);
    expect(r.hits()).toBe(0); // lazy: nothing fetched before the first lookup
    for (const p of [es1, ml1, es1, ml1, es1]) {
      const res = await verifyCompact(await tokenFor(p), set, { algorithms: ALGS });
      expect(res.key.kid).toBe(p.publicJwk.kid);
    }
    expect(r.hits()).toBe(1);
    expect(lastHeaders.get(r.path)?.accept).toContain('application/json');
  });

  it('refetches after cacheMaxAge', async () => {
    const r = route({ body: jwks(es1) });
    const set = createRemoteJWKSet(r.url, { cacheMaxAge: 100 });
    await verifyCompact(await tokenFor(es1), set, { algorithms: ALGS });
    await verifyCompact(await tokenFor(es1), set, { algorithms: ALGS });
    expect(r.hits()).toBe(1);
    await sleep(150);
    await verifyCompact(await tokenFor(es1), set, { algorithms: ALGS });
    expect(r.hits()).toBe(2);
  });

  it('an unknown kid triggers a refetch only once the cooldown has passed', async () => {
    const r = route({ body: jwks(es1) });
    const set = createRemoteJWKSet(r.url, { cooldownDuration: 150 });
    const unknown = await tokenFor(es2);
    await verifyCompact(await tokenFor(es1), set, { algorithms: ALGS });
    expect(r.hits()).toBe(1);
    // Within the cooldown: no fetch, however many unknown kids arrive.
    for (let i = 0; i < 5; i++)
      await rejects(() => verifyCompact(unknown, set, { algorithms: ALGS }), 'ERR_JWKS_NO_MATCHING_KEY');
    expect(r.hits()).toBe(1);
    await sleep(200);
    await rejects(() => verifyCompact(unknown, set, { algorithms: ALGS }), 'ERR_JWKS_NO_MATCHING_KEY');
    expect(r.hits()).toBe(2);
    // …and the refetch restarted the cooldown.
    await rejects(() => verifyCompact(unknown, set, { algorithms: ALGS }), 'ERR_JWKS_NO_MATCHING_KEY');
    expect(r.hits()).toBe(2);
  });

  it('picks up a rotated key after the cooldown', async () => {
    const r = route({ body: jwks(ml1) });
    const set = createRemoteJWKSet(r.url, { cooldownDuration: 100 });
    await verifyCompact(await tokenFor(ml1), set, { algorithms: ALGS });
    r.set({ body: jwks(ml2) }); // the IdP rotates
    const next = await tokenFor(ml2);
    await rejects(() => verifyCompact(next, set, { algorithms: ALGS }), 'ERR_JWKS_NO_MATCHING_KEY');
    expect(r.hits()).toBe(1);
    await sleep(150);
    const res = await verifyCompact(next, set, { algorithms: ALGS });
    expect(res.key.kid).toBe(ml2.publicJwk.kid);
    expect(r.hits()).toBe(2);
    // The old key is gone from the set now.
    await rejects(
      async () => verifyCompact(await tokenFor(ml1), set, { algorithms: ALGS }),
      'ERR_JWKS_NO_MATCHING_KEY',
    );
  });

  it('concurrent lookups share one fetch', async () => {
    const r = route({ body: jwks(es1, ml1), delay: 100 });
    const set = createRemoteJWKSet(r.url);
    const tokens = await Promise.all([es1, ml1, es1, ml1, es1, ml1, es1, ml1].map((p) => tokenFor(p)));
    const results = await Promise.all(tokens.map((t) => verifyCompact(t, set, { algorithms: ALGS })));
    expect(results).toHaveLength(8);
    expect(r.hits()).toBe(1);
  });

  it('a server that never answers → ERR_JWKS_FETCH_FAILED after timeoutDuration', async () => {
    const r = route({ hang: true });
    const set = createRemoteJWKSet(r.url, { timeoutDuration: 200 });
    const t0 = performance.now();
    await rejects(
      async () => verifyCompact(await tokenFor(es1), set, { algorithms: ALGS }),
      'ERR_JWKS_FETCH_FAILED',
    );
    const elapsed = performance.now() - t0;
    expect(elapsed).toBeGreaterThanOrEqual(150);
    expect(elapsed).toBeLessThan(2000);
    expect(r.hits()).toBe(1);
  });

  it.each([404, 500, 204, 301, 302])('HTTP %i → ERR_JWKS_FETCH_FAILED', async (status) => {
    const target = route({ body: jwks(es1) });
    const r = route({
      status,
      body: status === 204 ? '' : jwks(es1),
      headers: status >= 300 && status < 400 ? { location: target.url } : {},
    });
    const set = createRemoteJWKSet(r.url);
    await rejects(
      async () => verifyCompact(await tokenFor(es1), set, { algorithms: ALGS }),
      'ERR_JWKS_FETCH_FAILED',
    );
    expect(target.hits()).toBe(0); // redirects are not followed
  });

  it.each([
    ['not JSON', 'this is not json'],
    ['truncated JSON', '{"keys":[{"kty":"EC"'],
    ['JSON but not a JWKS', '{"foo":1}'],
    ['a JSON array', '[]'],
    ['JSON null', 'null'],
  ])('a body that is %s → ERR_JWKS_FETCH_FAILED', async (_what, body) => {
    const r = route({ body });
    const set = createRemoteJWKSet(r.url);
    await rejects(
      async () => verifyCompact(await tokenFor(es1), set, { algorithms: ALGS }),
      'ERR_JWKS_FETCH_FAILED',
    );
  });

  it('a body larger than maxBytes → ERR_JWKS_FETCH_FAILED; the same body under a larger limit works', async () => {
    const body = JSON.stringify({ keys: [es1.publicJwk], padding: 'x'.repeat(5000) });
    const r = route({ body });
    await rejects(
      async () =>
        verifyCompact(await tokenFor(es1), createRemoteJWKSet(r.url, { maxBytes: 4000 }), {
          algorithms: ALGS,
        }),
      'ERR_JWKS_FETCH_FAILED',
    );
    await expect(
      verifyCompact(await tokenFor(es1), createRemoteJWKSet(r.url, { maxBytes: 6000 }), { algorithms: ALGS }),
    ).resolves.toBeTruthy();
    // The default limit (1 MiB) applies too.
    const huge = route({
      body: JSON.stringify({ keys: [es1.publicJwk], padding: 'x'.repeat((1 << 20) + 1) }),
    });
    await rejects(
      async () => verifyCompact(await tokenFor(es1), createRemoteJWKSet(huge.url), { algorithms: ALGS }),
      'ERR_JWKS_FETCH_FAILED',
    );
  });

  // Regression (src/jwks.ts, `body.length > maxBytes`, fixed): the limit used to be compared with the UTF-16 length of the
  // decoded text, not with the byte size of the response, so multi-byte content passes a byte limit.
  it('maxBytes counts bytes, also for multi-byte UTF-8 bodies', async () => {
    const body = JSON.stringify({ keys: [es1.publicJwk], padding: '€'.repeat(2000) }); // ≈ 2.2k chars, ≈ 6.2 KB
    expect(Buffer.byteLength(body)).toBeGreaterThan(6000);
    expect(body.length).toBeLessThan(4000);
    const r = route({ body });
    await rejects(
      async () =>
        verifyCompact(await tokenFor(es1), createRemoteJWKSet(r.url, { maxBytes: 4000 }), {
          algorithms: ALGS,
        }),
      'ERR_JWKS_FETCH_FAILED',
    );
  });

  // Regression (src/jwks.ts, end of createRemoteJWKSet, fixed): `Object.assign(set, { reload, get fresh() {…} })` used to copy
  // the getter's value at creation time (false), not the accessor, so `fresh` never changes.
  it('`fresh` is true after a fetch and false again once cacheMaxAge has passed', async () => {
    const r = route({ body: jwks(es1) });
    const set = createRemoteJWKSet(r.url, { cacheMaxAge: 100 });
    expect(set.fresh).toBe(false);
    await set.reload();
    expect(r.hits()).toBe(1);
    expect(set.fresh).toBe(true);
    await sleep(150);
    expect(set.fresh).toBe(false);
  });

  it('a failed fetch is not cached: the next lookup tries again and succeeds once the server recovers', async () => {
    const r = route({ status: 503, body: '' });
    const set = createRemoteJWKSet(r.url, { cooldownDuration: 60_000 });
    await rejects(
      async () => verifyCompact(await tokenFor(es1), set, { algorithms: ALGS }),
      'ERR_JWKS_FETCH_FAILED',
    );
    r.set({ body: jwks(es1) });
    await expect(verifyCompact(await tokenFor(es1), set, { algorithms: ALGS })).resolves.toBeTruthy();
    expect(r.hits()).toBe(2);
  });

  it('private keys served in a remote JWKS are ignored', async () => {
    const r = route({ body: JSON.stringify({ keys: [ml1.privateJwk] }) });
    const set = createRemoteJWKSet(r.url);
    await rejects(
      async () => verifyCompact(await tokenFor(ml1), set, { algorithms: ALGS }),
      'ERR_JWKS_NO_MATCHING_KEY',
    );
  });

  it('a header with an unregistered alg does not cause a fetch', async () => {
    const r = route({ body: jwks(es1) });
    const set = createRemoteJWKSet(r.url);
    await rejects(async () => set({ alg: 'HS256' }), 'ERR_JWKS_NO_MATCHING_KEY');
    await rejects(async () => set({ alg: 'none' }), 'ERR_JWKS_NO_MATCHING_KEY');
    expect(r.hits()).toBe(0);
  });

  it('reload() fetches now; custom headers and a custom fetch are used', async () => {
    const r = route({ body: jwks(es1) });
    let calls = 0;
    const set = createRemoteJWKSet(r.url, {
      headers: { 'x-test': 'yes' },
      fetch: (input, init) => {
        calls++;
        return fetch(input, init);
      },
    });
    await set.reload();
    expect(r.hits()).toBe(1);
    expect(calls).toBe(1);
    expect(lastHeaders.get(r.path)?.['x-test']).toBe('yes');
    await verifyCompact(await tokenFor(es1), set, { algorithms: ALGS });
    expect(r.hits()).toBe(1);
  });

  it('a non-http(s) URL is ERR_INVALID_ARGUMENT', () => {
    for (const u of ['ftp://127.0.0.1/jwks', 'file:///etc/passwd', 'data:application/json,{"keys":[]}']) {
      let err: unknown;
      try {
        createRemoteJWKSet(u);
      } catch (e) {
        err = e;
      }
      expect(err, u).toBeInstanceOf(PqidError);
      expect((err as PqidError).code).toBe('ERR_INVALID_ARGUMENT');
    }
  });

  // Regression (src/jwks.ts createRemoteJWKSet: `new URL(url)`, fixed): an unparsable URL used to escape as Node's
  // TypeError [ERR_INVALID_URL] instead of a typed PqidError.
  it('an unparsable URL is ERR_INVALID_ARGUMENT', () => {
    let err: unknown;
    try {
      createRemoteJWKSet('not a url');
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(PqidError);
    expect((err as PqidError).code).toBe('ERR_INVALID_ARGUMENT');
  });
});
