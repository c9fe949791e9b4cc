/** Token sizes against transport limits, and cookie chunking. */

import {
  algorithms,
  chunkCookie,
  generateKeyPair,
  importJWK,
  inspectToken,
  joinCookieChunks,
  LIMITS,
  type PqidError,
  type PrivateKey,
  registry,
  signCompact,
  signJwt,
} from '@pqid/jose';
import * as fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { rejects } from './helpers/assert.ts';

const b64u = (x: Uint8Array | string) => Buffer.from(x).toString('base64url');
const bytes = (s: string) => Buffer.byteLength(s, 'utf8');
const ALGS = algorithms();
const DEFAULT_ATTRS = '; Path=/; Secure; HttpOnly; SameSite=Lax';
const NOW = new Date('2030-01-01T00:00:00Z');

/** A typical OIDC ID token profile: ten claims, realistic lengths. */
const ID_TOKEN_CLAIMS = {
  sub: '248289761001-7f3a9c2e-1b4d-4e8a-9c3f-2d6b8e1a5f70',
  auth_time: Math.floor(NOW.getTime() / 1000) - 30,
  nonce: 'n-0S6_WzA2Mj-Rk3qL9xYvT1',
  name: 'Jane Doe',
  email: 'jane.doe@example.com',
  email_verified: true,
  sid: '08a5019c-17e1-4977-8f42-65a12843ea02',
};
const idToken = async (priv: PrivateKey) =>
  signJwt(ID_TOKEN_CLAIMS, priv, {
    issuer: 'https://idp.example.com',
    audience: 's6BhdRkqt3',
    expiresIn: '1h',
    now: NOW,
  });

const privs = new Map<string, PrivateKey>();
const tokens = new Map<string, string>();

beforeAll(async () => {
  await Promise.all(
    ALGS.map(async (alg) => {
      const priv = (await importJWK((await generateKeyPair(alg)).privateJwk)) as PrivateKey;
      privs.set(alg, priv);
      tokens.set(alg, await idToken(priv));
    }),
  );
});

describe('inspectToken', () => {
  it.each(ALGS)('%s: byte counts and limits are computed right', (alg) => {
    const token = tokens.get(alg) as string;
    const [h, p, s] = token.split('.') as [string, string, string];
    const r = inspectToken(token);
    expect(r.header).toEqual(JSON.parse(Buffer.from(h, 'base64url').toString()));
    expect(r.claims).toEqual(JSON.parse(Buffer.from(p, 'base64url').toString()));
    expect(r.claims?.email).toBe(ID_TOKEN_CLAIMS.email);
    expect(r.bytes).toEqual({
      token: bytes(token),
      header: h.length,
      payload: p.length,
      signature: s.length,
      signatureRaw: Buffer.from(s, 'base64url').length,
    });
    const entry = registry().find((e) => e.alg === alg);
    if (entry?.family === 'composite' && /-ES\d+$/.test(alg))
      expect(r.bytes.signatureRaw).toBeLessThanOrEqual(entry.sizes.signature);
    else expect(r.bytes.signatureRaw).toBe(entry?.sizes.signature);

    const cookie = bytes(`id_token=${token}${DEFAULT_ATTRS}`);
    expect(r.fits.cookie).toEqual({ bytes: cookie, limit: 4096, fits: cookie <= 4096 });
    const auth = bytes(`Authorization: Bearer ${token}`);
    expect(r.fits.authorizationHeader).toEqual({ bytes: auth, limit: 8190, fits: auth <= 8190 });
    expect(r.fits.urlConservative.limit).toBe(2048);
    expect(r.fits.url.limit).toBe(8000);
    expect(r.fits.url.bytes).toBeGreaterThan(bytes(token));
    expect(r.fits.url.fits).toBe(r.fits.url.bytes <= 8000);
    expect(r.fits.urlConservative.fits).toBe(r.fits.urlConservative.bytes <= 2048);
  });

  it('custom cookie name, attributes and URL base are counted', () => {
    const token = tokens.get('ML-DSA-44') as string;
    const urlBase = 'https://rp.example/logout?id_token_hint=';
    const r = inspectToken(token, { cookieName: '__Host-session', cookieAttributes: '; Secure', urlBase });
    expect(r.fits.cookie.bytes).toBe(bytes(`__Host-session=${token}; Secure`));
    expect(r.fits.url.bytes).toBe(bytes(urlBase + token));
    expect(r.fits.urlConservative.bytes).toBe(bytes(urlBase + token));
    // Bytes, not characters.
    const r2 = inspectToken(token, { cookieAttributes: '; Comment=ééé', urlBase: 'https://ü.example/?t=' });
    expect(r2.fits.cookie.bytes).toBe(bytes(`id_token=${token}; Comment=ééé`));
    expect(r2.fits.url.bytes).toBe(bytes(`https://ü.example/?t=${token}`));
  });

  it('the cookie limit is inclusive: exactly 4096 bytes fits, 4097 does not', () => {
    const token = `${b64u('{"alg":"ML-DSA-44"}')}.${b64u('{"sub":"x"}')}.${b64u(new Uint8Array(2420))}`;
    const base = bytes(`id_token=${token}`);
    const pad = (n: number) => `; X=${'a'.repeat(n - base - 4)}`;
    const exact = inspectToken(token, { cookieAttributes: pad(4096) });
    expect(exact.fits.cookie).toEqual({ bytes: 4096, limit: 4096, fits: true });
    const over = inspectToken(token, { cookieAttributes: pad(4097) });
    expect(over.fits.cookie).toEqual({ bytes: 4097, limit: 4096, fits: false });
  });

  it('a payload that is not a JSON object gives claims undefined, not an error', () => {
    for (const p of ['hello', '[1]', '42']) {
      const r = inspectToken(`${b64u('{"alg":"ES256"}')}.${b64u(p)}.${b64u('sig')}`);
      expect(r.claims).toBeUndefined();
    }
  });

  it('bad input is a typed error', async () => {
    await rejects(() => inspectToken(42 as unknown as string), 'ERR_INVALID_ARGUMENT');
    await rejects(() => inspectToken('a.b'), 'ERR_JWS_INVALID');
    await rejects(() => inspectToken('a.b.c.d'), 'ERR_JWS_INVALID');
    await rejects(() => inspectToken(`${b64u('{"alg":"ES256"}')}=.e30.AAAA`), 'ERR_JWS_INVALID');
    await rejects(() => inspectToken(`${b64u('{"alg":"ES256"}')}.e30.AA+A`), 'ERR_JWS_INVALID');
    await rejects(() => inspectToken('x'.repeat(64 * 1024 + 1)), 'ERR_TOKEN_TOO_LARGE');
  });

  it.each([
    ['not JSON', b64u('not json')],
    ['not UTF-8', b64u(new Uint8Array([0x7b, 0xff, 0x7d]))],
    ['a JSON array', b64u('[1]')],
  ])('a header that is %s is ERR_JWS_INVALID', async (_what, h) => {
    await rejects(() => inspectToken(`${h}.e30.AAAA`), 'ERR_JWS_INVALID');
  });
});

describe('ID tokens and cookies', () => {
  const cookieBytes = (alg: string) => inspectToken(tokens.get(alg) as string).fits.cookie.bytes;
  const report = () =>
    ['ML-DSA-44', 'ML-DSA-65', 'ML-DSA-87']
      .map((a) => `${a}: ${cookieBytes(a)} bytes (token ${bytes(tokens.get(a) as string)})`)
      .join('; ');

  it('the typical profile has about ten claims', () => {
    const claims = inspectToken(tokens.get('ML-DSA-44') as string).claims as Record<string, unknown>;
    expect(Object.keys(claims).sort()).toEqual([
      'aud',
      'auth_time',
      'email',
      'email_verified',
      'exp',
      'iat',
      'iss',
      'name',
      'nonce',
      'sid',
      'sub',
    ]);
  });

  it('an ML-DSA-44 ID token fits one 4096-byte cookie; ML-DSA-65 and ML-DSA-87 do not', () => {
    const fits = (a: string) => inspectToken(tokens.get(a) as string).fits.cookie.fits;
    expect(fits('ML-DSA-44'), `expected ML-DSA-44 to fit 4096: ${report()}`).toBe(true);
    expect(fits('ML-DSA-65'), `expected ML-DSA-65 not to fit 4096: ${report()}`).toBe(false);
    expect(fits('ML-DSA-87'), `expected ML-DSA-87 not to fit 4096: ${report()}`).toBe(false);
    expect(cookieBytes('ML-DSA-44'), report()).toBeLessThanOrEqual(4096);
    expect(cookieBytes('ML-DSA-65'), report()).toBeGreaterThan(4096);
  });

  it('every token but SLH-DSA fits the Authorization header line; classical ones also fit the conservative URL', () => {
    for (const alg of ALGS) {
      const r = inspectToken(tokens.get(alg) as string);
      // SLH-DSA signatures (7856 / 17088 bytes) overflow a default 8190-byte header line: they
      // belong on rarely fetched, long-lived objects, not on bearer tokens.
      const slh = registry().find((e) => e.alg === alg)?.family === 'slh-dsa';
      expect(r.fits.authorizationHeader.fits, `${alg}: ${r.fits.authorizationHeader.bytes}`).toBe(!slh);
      if (registry().find((e) => e.alg === alg)?.family === 'classical')
        expect(r.fits.urlConservative.fits, alg).toBe(true);
      else expect(r.fits.urlConservative.fits, alg).toBe(false);
    }
  });

  it.each(ALGS)('%s: the ID token survives chunking into cookies of the default budget', (alg) => {
    const token = tokens.get(alg) as string;
    const chunks = chunkCookie('id_token', token);
    for (const c of chunks)
      expect(bytes(`${c.name}=${c.value}${DEFAULT_ATTRS}`)).toBeLessThanOrEqual(LIMITS.cookie);
    expect(chunks.length === 1).toBe(inspectToken(token).fits.cookie.fits);
    expect(joinCookieChunks('id_token', Object.fromEntries(chunks.map((c) => [c.name, c.value])))).toBe(
      token,
    );
  });
});

describe('chunkCookie / joinCookieChunks', () => {
  const name = fc.stringMatching(/^[A-Za-z0-9_]{1,16}$/);
  const value = fc.stringMatching(/^[A-Za-z0-9_-]*$/, { maxLength: 20_000 });
  const attrs = fc.constantFrom(
    '',
    '; Path=/',
    DEFAULT_ATTRS,
    '; Domain=example.com; Path=/; Secure; HttpOnly; SameSite=Strict',
  );

  it('joinCookieChunks reads only own members: inherited names are not cookies', () => {
    // Found by the property below: a chunked cookie named `constructor` came back as
    // Object.prototype.constructor.
    const jar = { 'constructor.0': 'ab', 'constructor.1': 'cd' };
    expect(joinCookieChunks('constructor', jar)).toBe('abcd');
    expect(joinCookieChunks('toString', {})).toBeUndefined();
    expect(joinCookieChunks('__proto__', JSON.parse('{"__proto__.0":"x"}'))).toBe('x');
  });

  it('round-trips, and every chunk fits the limit', () => {
    fc.assert(
      fc.property(name, value, attrs, fc.integer({ min: 0, max: 8192 }), (n, v, a, extra) => {
        // Leave room for at least one value byte even with a five-digit chunk index.
        const limit = bytes(`${n}.99999=${a}`) + 1 + extra;
        const chunks = chunkCookie(n, v, { limit, attributes: a });
        for (const c of chunks) {
          expect(bytes(`${c.name}=${c.value}${a}`)).toBeLessThanOrEqual(limit);
        }
        expect(chunks.map((c) => c.value).join('')).toBe(v);
        expect(joinCookieChunks(n, Object.fromEntries(chunks.map((c) => [c.name, c.value])))).toBe(v);
        if (bytes(`${n}=${v}${a}`) <= limit) {
          expect(chunks).toEqual([{ name: n, value: v }]);
        } else {
          expect(chunks.map((c) => c.name)).toEqual(chunks.map((_, i) => `${n}.${i}`));
          for (const c of chunks) expect(c.value.length).toBeGreaterThan(0);
          // Not wasteful: every chunk but the last is filled to the limit.
          for (const c of chunks.slice(0, -1)) expect(bytes(`${c.name}=${c.value}${a}`)).toBe(limit);
        }
      }),
      { numRuns: 200, seed: 0x5a17 },
    );
  });

  it('a small value stays one cookie named `name`; one byte over the limit makes two', () => {
    expect(chunkCookie('id_token', 'abc')).toEqual([{ name: 'id_token', value: 'abc' }]);
    expect(chunkCookie('id_token', '')).toEqual([{ name: 'id_token', value: '' }]);
    const room = 4096 - bytes(`id_token=${DEFAULT_ATTRS}`);
    expect(chunkCookie('id_token', 'a'.repeat(room))).toHaveLength(1);
    const two = chunkCookie('id_token', 'a'.repeat(room + 1));
    expect(two.map((c) => c.name)).toEqual(['id_token.0', 'id_token.1']);
  });

  it('joinCookieChunks: the unchunked cookie wins, missing is undefined, chunks are read in order', () => {
    expect(joinCookieChunks('s', { s: 'whole', 's.0': 'x' })).toBe('whole');
    expect(joinCookieChunks('s', {})).toBeUndefined();
    expect(joinCookieChunks('s', { 's.1': 'b' })).toBeUndefined();
    expect(joinCookieChunks('s', { 's.1': 'b', 's.0': 'a', 's.2': 'c', other: 'z' })).toBe('abc');
    expect(joinCookieChunks('s', { 'ss.0': 'a' })).toBeUndefined();
  });

  it('invalid cookie names and values are ERR_INVALID_ARGUMENT', async () => {
    for (const n of ['', 'a b', 'a;b', 'a=b', 'a,b', '(x)', 'a"b', 'é', 'a\tb', 'a/b', 'a:b', '[x]']) {
      await rejects(() => chunkCookie(n, 'value'), 'ERR_INVALID_ARGUMENT');
    }
    for (const v of ['a b', 'a;b', 'a,b', 'a"b', 'a\\b', 'a\nb', 'a\tb', ' ']) {
      await rejects(() => chunkCookie('name', v), 'ERR_INVALID_ARGUMENT');
    }
    await rejects(
      () => chunkCookie('name', 'x'.repeat(5000), { attributes: `; ${'a'.repeat(5000)}` }),
      'ERR_INVALID_ARGUMENT',
    );
    await rejects(
      () => chunkCookie('name', 'x'.repeat(100), { limit: 6, attributes: '' }),
      'ERR_INVALID_ARGUMENT',
    );
  });

  // Regression (src/size.ts chunkCookie, fixed): the budget was computed in bytes but the value was sliced in UTF-16
  // code units, and non-ASCII values are not refused, so multi-byte values produce over-limit chunks.
  it('a non-ASCII value is refused or chunked within the limit', () => {
    let chunks: { name: string; value: string }[];
    try {
      chunks = chunkCookie('c', 'é'.repeat(3000));
    } catch (e) {
      expect((e as PqidError).code).toBe('ERR_INVALID_ARGUMENT');
      return;
    }
    for (const c of chunks) expect(bytes(`${c.name}=${c.value}${DEFAULT_ATTRS}`)).toBeLessThanOrEqual(4096);
  });
});

it('signCompact of a raw payload inspects fine too', async () => {
  const t = await signCompact(new Uint8Array([1, 2, 3]), privs.get('ES256') as PrivateKey);
  const r = inspectToken(t);
  expect(r.claims).toBeUndefined();
  expect(r.bytes.payload).toBe(4);
});
