/**
 * Hostile and malformed input: every way a token, a JWK or a raw ML-DSA argument can be wrong
 * must end in a typed PqidError with the right `code` — never in success, never in a bare
 * TypeError/SyntaxError from a dependency.
 */

import {
  backends,
  createLocalJWKSet,
  decodeProtectedHeader,
  generateKeyPair,
  importJWK,
  type Jwk,
  MLDSA_PARAMS,
  type MlDsaAlg,
  mldsa,
  type PqidError,
  type PrivateKey,
  type PublicKey,
  registry,
  signCompact,
  verifyCompact,
} from '@pqid/jose';
import * as fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { suiteAlgorithms } from './helpers/algs.ts';
import { rejects } from './helpers/assert.ts';

// ---- helpers (independent of src/lib/encoding.ts on purpose) ---------------------------------

const b64u = (x: Uint8Array | string) =>
  Buffer.from(typeof x === 'string' ? Buffer.from(x, 'utf8') : x).toString('base64url');
const unb64u = (s: string) => new Uint8Array(Buffer.from(s, 'base64url'));
const ascii = (s: string) => new Uint8Array(Buffer.from(s, 'ascii'));

/** Awaits `f` and returns its PqidError; fails the test on success or on an untyped error. */

const BASE64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

interface Fixture {
  alg: string;
  priv: PrivateKey;
  pub: PublicKey;
  publicJwk: Jwk;
  privateJwk: Jwk;
  token: string;
}

const ALGS = suiteAlgorithms();
const fixtures = new Map<string, Fixture>();
const fx = (alg: string) => fixtures.get(alg) as Fixture;
let keySet: Awaited<ReturnType<typeof createLocalJWKSet>>;

beforeAll(async () => {
  await Promise.all(
    ALGS.map(async (alg) => {
      const { privateJwk, publicJwk } = await generateKeyPair(alg);
      const priv = (await importJWK(privateJwk)) as PrivateKey;
      const pub = (await importJWK(publicJwk)) as PublicKey;
      const token = await signCompact(JSON.stringify({ sub: 'alice', n: 42, alg }), priv, {
        header: { typ: 'JWT' },
      });
      fixtures.set(alg, { alg, priv, pub, publicJwk, privateJwk, token });
    }),
  );
  keySet = await createLocalJWKSet({ keys: ALGS.map((a) => fx(a).publicJwk) });
});

it('the fixtures verify unmodified (so every rejection below is caused by the modification)', async () => {
  for (const alg of ALGS) {
    const { token, pub } = fx(alg);
    const r = await verifyCompact(token, pub, { algorithms: [alg] });
    expect(r.protectedHeader.alg).toBe(alg);
    await expect(verifyCompact(token, keySet, { algorithms: ALGS })).resolves.toBeTruthy();
  }
});

// ---- property-based tampering ------------------------------------------------------------

const HEADER_CODES = [
  'ERR_JWS_INVALID',
  'ERR_JWS_SIGNATURE_VERIFICATION_FAILED',
  'ERR_ALG_NOT_ALLOWED',
  'ERR_KEY_MISMATCH',
  'ERR_JWKS_NO_MATCHING_KEY',
];
const SIG_ONLY = ['ERR_JWS_SIGNATURE_VERIFICATION_FAILED'];
const SIG_OR_STRUCTURE = ['ERR_JWS_SIGNATURE_VERIFICATION_FAILED', 'ERR_JWS_INVALID'];

describe.each(ALGS)('tampering with a %s compact JWS', (alg) => {
  it('any single-byte change of a decoded segment (re-encoded) is rejected with a typed error', async () => {
    const { token, pub } = fx(alg);
    const segs = token.split('.');
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(0, 1, 2),
        fc.nat(),
        fc.integer({ min: 1, max: 255 }),
        fc.boolean(),
        async (seg, pos, xor, useSet) => {
          const bytes = unb64u(segs[seg] as string);
          const i = pos % bytes.length;
          bytes[i] = (bytes[i] as number) ^ xor;
          const parts = [...segs];
          parts[seg] = b64u(bytes);
          const forged = parts.join('.');
          expect(forged).not.toBe(token);
          // Header changes may break JSON, the alg or the kid; payload/signature changes can only break the signature.
          const codes = seg === 0 ? HEADER_CODES : SIG_ONLY;
          await rejects(() => verifyCompact(forged, useSet ? keySet : pub, { algorithms: ALGS }), codes);
        },
      ),
      { numRuns: 50 },
    );
  });

  it('any single-character change of the raw token is rejected with a typed error', async () => {
    const { token, pub } = fx(alg);
    const replacement = fc.oneof(
      { weight: 8, arbitrary: fc.constantFrom(...BASE64URL) },
      { weight: 2, arbitrary: fc.constantFrom('.', '=', '+', '/', ' ', '\n', '%', 'é', '\u0000') },
    );
    await fc.assert(
      fc.asyncProperty(fc.nat({ max: token.length - 1 }), replacement, async (i, ch) => {
        fc.pre(token[i] !== ch);
        const forged = token.slice(0, i) + ch + token.slice(i + 1);
        const headerEnd = token.indexOf('.');
        const codes = i < headerEnd ? HEADER_CODES : SIG_OR_STRUCTURE;
        await rejects(() => verifyCompact(forged, pub, { algorithms: ALGS }), codes);
      }),
      { numRuns: 50 },
    );
  });

  it('any proper prefix of the token is rejected with a typed error', async () => {
    const { token, pub } = fx(alg);
    await fc.assert(
      fc.asyncProperty(fc.nat({ max: token.length - 1 }), async (n) => {
        await rejects(() => verifyCompact(token.slice(0, n), pub, { algorithms: [alg] }), SIG_OR_STRUCTURE);
      }),
      { numRuns: 50 },
    );
  });

  it('a signature from a different key of the same algorithm is rejected', async () => {
    const other = (await importJWK((await generateKeyPair(alg)).publicJwk)) as PublicKey;
    await rejects(() => verifyCompact(fx(alg).token, other, { algorithms: [alg] }), SIG_ONLY);
  });

  it('swapping in the signature of another token of the same key is rejected', async () => {
    const { token, priv, pub } = fx(alg);
    const other = await signCompact('{"sub":"mallory"}', priv);
    const [h, p] = token.split('.');
    await rejects(
      () => verifyCompact(`${h}.${p}.${other.split('.')[2]}`, pub, { algorithms: [alg] }),
      SIG_ONLY,
    );
  });
});

it('every proper prefix of an ES256 token (exhaustively) is rejected with a typed error', async () => {
  const alg = ALGS.includes('ES256') ? 'ES256' : (ALGS[0] as string);
  const { token, pub } = fx(alg);
  for (let n = 0; n < token.length; n++) {
    await rejects(() => verifyCompact(token.slice(0, n), pub, { algorithms: [alg] }), SIG_OR_STRUCTURE);
  }
  // …and so is the token with anything appended.
  await rejects(() => verifyCompact(`${token}.`, pub, { algorithms: [alg] }), 'ERR_JWS_INVALID');
  await rejects(() => verifyCompact(`${token}A`, pub, { algorithms: [alg] }), SIG_OR_STRUCTURE);
});

// ---- size gate ---------------------------------------------------------------------------

describe('token size limit', () => {
  const alg = 'ML-DSA-44';

  it('a validly signed token larger than 64 KiB is rejected with ERR_TOKEN_TOO_LARGE, and verifies with a higher limit', async () => {
    const { priv, pub } = fx(alg);
    const big = await signCompact(JSON.stringify({ blob: 'x'.repeat(50_000) }), priv);
    expect(big.length).toBeGreaterThan(64 * 1024);
    await rejects(() => verifyCompact(big, pub, { algorithms: [alg] }), 'ERR_TOKEN_TOO_LARGE');
    await rejects(() => decodeProtectedHeader(big), 'ERR_TOKEN_TOO_LARGE');
    const ok = await verifyCompact(big, pub, { algorithms: [alg], maxTokenBytes: 200_000 });
    expect(ok.payload.length).toBeGreaterThan(50_000);
  });

  it('is checked before any parsing: oversized garbage gives ERR_TOKEN_TOO_LARGE, not ERR_JWS_INVALID', async () => {
    const { pub } = fx(alg);
    await rejects(
      () => verifyCompact('!'.repeat(64 * 1024 + 1), pub, { algorithms: [alg] }),
      'ERR_TOKEN_TOO_LARGE',
    );
    await rejects(
      () => verifyCompact('.'.repeat(100_000), pub, { algorithms: [alg] }),
      'ERR_TOKEN_TOO_LARGE',
    );
    // The boundary is 64 KiB inclusive, and is counted in UTF-8 bytes, not characters.
    await rejects(() => verifyCompact('!'.repeat(64 * 1024), pub, { algorithms: [alg] }), 'ERR_JWS_INVALID');
    await rejects(
      () => verifyCompact('é'.repeat(32 * 1024 + 1), pub, { algorithms: [alg] }),
      'ERR_TOKEN_TOO_LARGE',
    );
  });

  it('honours a custom maxTokenBytes exactly at the boundary', async () => {
    const { token, pub } = fx(alg);
    const n = Buffer.byteLength(token);
    await expect(verifyCompact(token, pub, { algorithms: [alg], maxTokenBytes: n })).resolves.toBeTruthy();
    await rejects(
      () => verifyCompact(token, pub, { algorithms: [alg], maxTokenBytes: n - 1 }),
      'ERR_TOKEN_TOO_LARGE',
    );
    await rejects(
      () => verifyCompact('garbage', pub, { algorithms: [alg], maxTokenBytes: 3 }),
      'ERR_TOKEN_TOO_LARGE',
    );
  });
});

// ---- base64url strictness ----------------------------------------------------------------

describe('strict base64url', () => {
  /** A segment with unused trailing bits set: Buffer decodes it to the same bytes, we must not accept it. */
  const nonCanonical = (seg: string): string => {
    expect(seg.length % 4).not.toBe(0);
    const last = BASE64URL.indexOf(seg.at(-1) as string);
    return seg.slice(0, -1) + BASE64URL[last + 1];
  };

  it('the non-canonical helper really produces an alias Buffer accepts', () => {
    const seg = b64u(new Uint8Array([1, 2, 3, 4]));
    expect(Buffer.from(nonCanonical(seg), 'base64url')).toEqual(Buffer.from(seg, 'base64url'));
  });

  describe.each(ALGS)('%s', (alg) => {
    const variants = (seg: string): [string, string][] => [
      ['padding', seg.length % 4 ? seg + '='.repeat(4 - (seg.length % 4)) : `${seg}==`],
      ['"+"', seg.includes('-') ? seg.replaceAll('-', '+') : `+${seg.slice(1)}`],
      ['"/"', seg.includes('_') ? seg.replaceAll('_', '/') : `/${seg.slice(1)}`],
      ['inner space', `${seg.slice(0, 4)} ${seg.slice(4)}`],
      ['inner newline', `${seg.slice(0, 4)}\n${seg.slice(4)}`],
      ['trailing tab', `${seg}\t`],
      ['standard base64', Buffer.from(seg, 'base64url').toString('base64')],
    ];

    it.each([0, 1, 2])(
      'segment %i: padding, +, /, whitespace and standard base64 are rejected',
      async (i) => {
        const { token, pub } = fx(alg);
        const segs = token.split('.');
        for (const [what, v] of variants(segs[i] as string)) {
          if (v === segs[i]) continue; // standard base64 of a segment without -_ or padding is identical
          const parts = [...segs];
          parts[i] = v;
          // Decoding is strict for every segment, so these are structural errors, never a signature check.
          await rejects(
            () => verifyCompact(parts.join('.'), pub, { algorithms: [alg] }),
            'ERR_JWS_INVALID',
          ).catch((e: Error) => {
            throw new Error(`segment ${i} with ${what}: ${e.message}`);
          });
        }
      },
    );

    it('a signature with non-canonical trailing bits is rejected (it would otherwise verify)', async () => {
      const { priv, pub } = fx(alg);
      // Find a payload for which the signature length is not a multiple of 3 (ECDSA-DER composites vary).
      for (let tries = 0; tries < 20; tries++) {
        const token = await signCompact(`{"try":${tries}}`, priv);
        const [h, p, s] = token.split('.') as [string, string, string];
        if (s.length % 4 === 0) continue;
        await rejects(
          () => verifyCompact(`${h}.${p}.${nonCanonical(s)}`, pub, { algorithms: [alg] }),
          'ERR_JWS_INVALID',
        );
        return;
      }
      // Raw signature sizes that are multiples of 3 have no trailing bits (e.g. ES384's 96 bytes).
      expect(getSig(alg) % 3).toBe(0);
    });

    it('a payload with non-canonical trailing bits is rejected', async () => {
      const { priv, pub } = fx(alg);
      const token = await signCompact('{"a":1}', priv); // 7 bytes → 10 chars, 2 trailing bits
      const [h, p, s] = token.split('.') as [string, string, string];
      await rejects(
        () => verifyCompact(`${h}.${nonCanonical(p)}.${s}`, pub, { algorithms: [alg] }),
        SIG_OR_STRUCTURE,
      );
    });
  });
});

const getSig = (alg: string) => registry().find((e) => e.alg === alg)?.sizes.signature as number;

// ---- forged-but-validly-signed tokens ----------------------------------------------------
// ML-DSA JWS signatures are plain ML-DSA over ASCII(header.payload) with an empty context, so
// the raw API can sign any header we like: rejections below are due to the header alone.

describe('headers rejected before any signature check', () => {
  const alg: MlDsaAlg = 'ML-DSA-65';
  const forge = async (header: string | Uint8Array, payload = '{"sub":"x"}') => {
    const h = b64u(header);
    const p = b64u(payload);
    const sig = await mldsa.sign(alg, unb64u(fx(alg).privateJwk.priv as string), ascii(`${h}.${p}`), {
      deterministic: true,
    });
    return `${h}.${p}.${b64u(sig)}`;
  };

  it('the forging helper makes tokens that verify', async () => {
    const t = await forge(JSON.stringify({ alg, typ: 'JWT' }));
    const r = await verifyCompact(t, fx(alg).pub, { algorithms: [alg] });
    expect(r.protectedHeader).toEqual({ alg, typ: 'JWT' });
  });

  it('alg "none" is refused with ERR_ALG_NOT_ALLOWED (with and without a signature)', async () => {
    const p = b64u('{"sub":"admin"}');
    for (const t of [
      `${b64u('{"alg":"none"}')}.${p}.`,
      `${b64u('{"alg":"none","typ":"JWT"}')}.${p}.`,
      await forge('{"alg":"none"}'),
    ]) {
      await rejects(() => verifyCompact(t, fx(alg).pub, { algorithms: ALGS }), 'ERR_ALG_NOT_ALLOWED');
      await rejects(() => verifyCompact(t, keySet, { algorithms: ALGS }), 'ERR_ALG_NOT_ALLOWED');
    }
    for (const none of ['None', 'NONE', 'nOnE']) {
      await rejects(
        () =>
          verifyCompact(`${b64u(JSON.stringify({ alg: none }))}.${p}.`, fx(alg).pub, { algorithms: ALGS }),
        'ERR_ALG_NOT_ALLOWED',
      );
    }
  });

  it('allowing "none" or an unregistered algorithm is itself an error', async () => {
    const { token, pub } = fx(alg);
    for (const bad of [['none'], [alg, 'none'], ['HS256'], ['ml-dsa-65'], [42]]) {
      await rejects(() => verifyCompact(token, pub, { algorithms: bad as string[] }), 'ERR_INVALID_ARGUMENT');
    }
  });

  it('a missing or empty algorithms option is ERR_INVALID_ARGUMENT, even for a valid token', async () => {
    const { token, pub } = fx(alg);
    const v = verifyCompact as (...a: unknown[]) => Promise<unknown>;
    await rejects(() => v(token, pub), 'ERR_INVALID_ARGUMENT');
    await rejects(() => v(token, pub, {}), 'ERR_INVALID_ARGUMENT');
    await rejects(() => v(token, pub, { algorithms: [] }), 'ERR_INVALID_ARGUMENT');
    await rejects(() => v(token, pub, { algorithms: alg }), 'ERR_INVALID_ARGUMENT');
    await rejects(() => v(token, pub, { algorithms: null }), 'ERR_INVALID_ARGUMENT');
  });

  it.each(ALGS)('a valid %s token whose alg is not in the allow-list is refused', async (a) => {
    const { token, pub } = fx(a);
    const others = ALGS.filter(
      (x) => x !== a && !(['EdDSA', 'Ed25519'].includes(x) && ['EdDSA', 'Ed25519'].includes(a)),
    );
    await rejects(() => verifyCompact(token, pub, { algorithms: others }), 'ERR_ALG_NOT_ALLOWED');
    await rejects(() => verifyCompact(token, keySet, { algorithms: others }), 'ERR_ALG_NOT_ALLOWED');
  });

  it('an HS256 token (HMAC keyed with the public key: the classic confusion attack) is refused', async () => {
    const crypto = await import('node:crypto');
    const h = b64u('{"alg":"HS256","typ":"JWT"}');
    const p = b64u('{"sub":"admin"}');
    for (const secret of [fx(alg).publicJwk.pub as string, JSON.stringify(fx(alg).publicJwk)]) {
      const s = crypto.createHmac('sha256', secret).update(`${h}.${p}`).digest('base64url');
      await rejects(
        () => verifyCompact(`${h}.${p}.${s}`, fx(alg).pub, { algorithms: ALGS }),
        ['ERR_ALG_NOT_ALLOWED', 'ERR_ALG_UNSUPPORTED'],
      );
      await rejects(
        () => verifyCompact(`${h}.${p}.${s}`, fx(alg).pub, { algorithms: ['HS256'] }),
        ['ERR_INVALID_ARGUMENT', 'ERR_ALG_UNSUPPORTED'],
      );
    }
    await rejects(() => importJWK({ kty: 'oct', alg: 'HS256', k: b64u('secret') }), 'ERR_JWK_INVALID');
  });

  it('"crit" and "b64" headers are refused with ERR_JWS_INVALID even when validly signed', async () => {
    for (const header of [
      { alg, crit: ['exp'], exp: 1 },
      { alg, crit: [] },
      { alg, b64: false, crit: ['b64'] },
      { alg, b64: false },
      { alg, b64: true },
    ]) {
      const t = await forge(JSON.stringify(header));
      await rejects(() => verifyCompact(t, fx(alg).pub, { algorithms: [alg] }), 'ERR_JWS_INVALID');
    }
  });

  it('headers that are not a JSON object, not JSON, or not UTF-8 are refused with ERR_JWS_INVALID', async () => {
    const bad: (string | Uint8Array)[] = [
      JSON.stringify([{ alg }]),
      JSON.stringify(alg),
      'null',
      '42',
      'true',
      `{"alg":"${alg}"`,
      `{alg:"${alg}"}`,
      '',
      new Uint8Array([0x7b, 0x22, 0x61, 0x6c, 0x67, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d]), // {"alg":"\xff\xfe"}
      new Uint8Array([...Buffer.from(`{"alg":"${alg}","x":"`), 0xc3, 0x28, ...Buffer.from('"}')]), // truncated 2-byte sequence
      new Uint8Array([...Buffer.from(`{"alg":"${alg}","x":"`), 0xed, 0xa0, 0x80, ...Buffer.from('"}')]), // UTF-8-encoded surrogate
      JSON.stringify({ typ: 'JWT' }), // no alg
      JSON.stringify({ alg: 65 }),
      JSON.stringify({ alg: [alg] }),
      JSON.stringify({ alg, kid: 7 }),
      JSON.stringify({ alg, kid: null }),
    ];
    for (const header of bad) {
      const t = await forge(header);
      await rejects(() => verifyCompact(t, fx(alg).pub, { algorithms: [alg] }), 'ERR_JWS_INVALID').catch(
        (e: Error) => {
          throw new Error(
            `header ${JSON.stringify(typeof header === 'string' ? header : [...header])}: ${e.message}`,
          );
        },
      );
    }
    for (const header of bad.slice(0, 11)) {
      await rejects(() => decodeProtectedHeader(`${b64u(header)}.e30.AAAA`), 'ERR_JWS_INVALID');
    }
  });

  it('non-string tokens and wrong segment counts are ERR_JWS_INVALID', async () => {
    const { token, pub } = fx(alg);
    const v = verifyCompact as (t: unknown, ...a: unknown[]) => Promise<unknown>;
    for (const t of [undefined, null, 42, {}, [token], new TextEncoder().encode(token)]) {
      await rejects(() => v(t, pub, { algorithms: [alg] }), 'ERR_JWS_INVALID');
    }
    const [h, p, s] = token.split('.');
    for (const t of [
      '',
      '..',
      `${h}.${p}`,
      `${h}.${p}.${s}.${s}`,
      `${h}..${s}`,
      `${h}.${p}..`,
      `.${p}.${s}`,
    ]) {
      await rejects(() => verifyCompact(t, pub, { algorithms: [alg] }), SIG_OR_STRUCTURE);
    }
  });
});

// ---- key-type confusion ------------------------------------------------------------------

describe('key / token algorithm confusion', () => {
  const pairs: [string, string][] = [
    ['ML-DSA-65', 'ES256'], // AKP key, ES256 token
    ['ES256', 'ML-DSA-65'],
    ['ML-DSA-65', 'ML-DSA-65-Ed25519'], // pure key, composite token
    ['ML-DSA-65-Ed25519', 'ML-DSA-65'], // composite key, pure token
    ['ML-DSA-44', 'ML-DSA-65'],
    ['ML-DSA-44-ES256', 'ML-DSA-44'],
    ['ES384', 'ES256'],
    ['RS256', 'PS256'],
    ['EdDSA', 'ES256'],
  ];

  it.each(pairs)('a %s key cannot verify a %s token (ERR_KEY_MISMATCH)', async (keyAlg, tokenAlg) => {
    if (!ALGS.includes(keyAlg) || !ALGS.includes(tokenAlg)) return;
    const { token } = fx(tokenAlg);
    await rejects(
      () => verifyCompact(token, fx(keyAlg).pub, { algorithms: [keyAlg, tokenAlg] }),
      'ERR_KEY_MISMATCH',
    );
    // A private key handle given for verification is held to the same rule.
    await rejects(
      () => verifyCompact(token, fx(keyAlg).priv, { algorithms: [keyAlg, tokenAlg] }),
      'ERR_KEY_MISMATCH',
    );
  });

  it('every algorithm rejects a key of every other algorithm', async () => {
    const same = (a: string, b: string) =>
      a === b || (['EdDSA', 'Ed25519'].includes(a) && ['EdDSA', 'Ed25519'].includes(b));
    for (const tokenAlg of ALGS) {
      for (const keyAlg of ALGS) {
        if (same(keyAlg, tokenAlg)) continue;
        await rejects(
          () => verifyCompact(fx(tokenAlg).token, fx(keyAlg).pub, { algorithms: ALGS }),
          'ERR_KEY_MISMATCH',
        );
      }
    }
  });

  it('a composite token re-labelled as its pure ML-DSA half does not verify under the ML-DSA key', async () => {
    // Same ML-DSA seed for both keys: only the alg label differs.
    const seed = crypto.getRandomValues(new Uint8Array(32));
    const pure = (await importJWK((await generateKeyPair('ML-DSA-65', { seed })).privateJwk)) as PrivateKey;
    const comp = (await importJWK(
      (
        await generateKeyPair('ML-DSA-65-Ed25519', { seed })
      ).privateJwk,
    )) as PrivateKey;
    const t = await signCompact('{"sub":"x"}', comp, { omitKid: true });
    const [, p, s] = t.split('.') as [string, string, string];
    const mldsaHalf = b64u(unb64u(s).subarray(0, MLDSA_PARAMS['ML-DSA-65'].signature));
    const relabelled = `${b64u('{"alg":"ML-DSA-65"}')}.${p}.${mldsaHalf}`;
    await rejects(() => verifyCompact(relabelled, pure.publicKey, { algorithms: ['ML-DSA-65'] }), SIG_ONLY);
  });
});

// ---- malformed JWKs ----------------------------------------------------------------------

describe('malformed JWKs', () => {
  const akp = () => registry().filter((e) => e.kty === 'AKP' && ALGS.includes(e.alg));

  it.each(akp().map((e) => [e.alg, e.sizes] as const))(
    '%s: pub/priv of the wrong length are ERR_JWK_INVALID',
    async (alg, sizes) => {
      const { publicJwk, privateJwk } = fx(alg);
      const pub = unb64u(publicJwk.pub as string);
      const priv = unb64u(privateJwk.priv as string);
      expect(pub.length).toBe(sizes.publicKey);
      expect(priv.length).toBe(sizes.privateKey);
      const longer = (b: Uint8Array) => b64u(new Uint8Array([...b, 0]));
      const shorter = (b: Uint8Array) => b64u(b.subarray(0, -1));
      for (const p of [
        longer(pub),
        shorter(pub),
        '',
        `${publicJwk.pub}=`,
        `${(publicJwk.pub as string).replaceAll('-', '+')}+`,
        42,
        null,
      ]) {
        await rejects(() => importJWK({ ...publicJwk, pub: p }), 'ERR_JWK_INVALID');
        await rejects(() => importJWK({ ...privateJwk, pub: p }), 'ERR_JWK_INVALID');
      }
      for (const p of [longer(priv), shorter(priv), '', 7]) {
        await rejects(() => importJWK({ ...privateJwk, priv: p }), 'ERR_JWK_INVALID');
      }
      const { pub: _drop, ...noPub } = publicJwk;
      await rejects(() => importJWK(noPub), 'ERR_JWK_INVALID');
    },
  );

  it.each(akp().map((e) => e.alg))('%s: a priv that does not derive pub is ERR_JWK_INVALID', async (alg) => {
    const other = await generateKeyPair(alg);
    await rejects(() => importJWK({ ...fx(alg).privateJwk, priv: other.privateJwk.priv }), 'ERR_JWK_INVALID');
    await rejects(() => importJWK({ ...fx(alg).privateJwk, pub: other.publicJwk.pub }), 'ERR_JWK_INVALID');
  });

  it('a composite priv whose traditional half does not match pub is ERR_JWK_INVALID', async () => {
    const trad: Record<string, number> = { Ed25519: 32, ES256: 32, ES384: 48, Ed448: 57 };
    for (const e of registry().filter((x) => x.family === 'composite' && !x.unavailable())) {
      const n = trad[e.alg.split('-').at(-1) as string];
      if (n === undefined)
        throw new Error(`unknown traditional half in ${e.alg}: add its secret length here`);
      const seed = crypto.getRandomValues(new Uint8Array(32));
      const a = await generateKeyPair(e.alg, {
        seed,
        traditionalSecret: crypto.getRandomValues(new Uint8Array(n)),
      });
      const b = await generateKeyPair(e.alg, {
        seed,
        traditionalSecret: crypto.getRandomValues(new Uint8Array(n)),
      });
      await expect(importJWK(a.privateJwk)).resolves.toBeTruthy();
      await rejects(() => importJWK({ ...a.privateJwk, priv: b.privateJwk.priv }), 'ERR_JWK_INVALID');
    }
  });

  it('an AKP JWK without alg is ERR_JWK_INVALID (even when the importer names the alg)', async () => {
    for (const alg of akp().map((e) => e.alg)) {
      const { alg: _a, ...noAlg } = fx(alg).publicJwk;
      await rejects(() => importJWK(noAlg), 'ERR_JWK_INVALID');
      await rejects(() => importJWK(noAlg, { alg }), 'ERR_JWK_INVALID');
    }
  });

  it('an AKP pub labelled with the wrong ML-DSA parameter set is ERR_JWK_INVALID', async () => {
    await rejects(() => importJWK({ ...fx('ML-DSA-44').publicJwk, alg: 'ML-DSA-65' }), 'ERR_JWK_INVALID');
    await rejects(
      () => importJWK({ ...fx('ML-DSA-65').publicJwk, alg: 'ML-DSA-65-Ed25519' }),
      'ERR_JWK_INVALID',
    );
    await rejects(() => importJWK({ ...fx('ML-DSA-65').publicJwk, alg: 'ML-DSA-99' }), 'ERR_JWK_INVALID');
  });

  it('non-objects and unknown key types are ERR_JWK_INVALID', async () => {
    for (const j of [
      null,
      undefined,
      'AKP',
      42,
      [],
      {},
      { kty: 1 },
      { kty: 'AKP', alg: 'none', pub: 'AA' },
      { kty: 'oct', k: 'AAAA' },
    ]) {
      await rejects(() => importJWK(j), 'ERR_JWK_INVALID');
    }
  });

  it('classical JWKs with bad members are ERR_JWK_INVALID', async () => {
    if (ALGS.includes('ES256')) {
      const j = fx('ES256').publicJwk;
      await rejects(() => importJWK({ ...j, x: b64u(unb64u(j.x as string).subarray(1)) }), 'ERR_JWK_INVALID');
      await rejects(() => importJWK({ ...j, y: j.x }), 'ERR_JWK_INVALID'); // not on the curve
      await rejects(() => importJWK({ ...j, crv: 'P-384' }), ['ERR_JWK_INVALID', 'ERR_KEY_MISMATCH']);
    }
    if (ALGS.includes('EdDSA')) {
      const j = fx('EdDSA').publicJwk;
      await rejects(() => importJWK({ ...j, x: b64u(new Uint8Array(31)) }), 'ERR_JWK_INVALID');
      await rejects(() => importJWK({ ...j, crv: 'X25519' }), 'ERR_JWK_INVALID');
    }
  });

  it('an RSA key below 2048 bits is accepted at import and then fails verification with an untyped TypeError', async () => {
    const crypto = await import('node:crypto');
    const { publicKey } = crypto.generateKeyPairSync('rsa', { modulusLength: 1024 });
    const jwk = { ...(publicKey.export({ format: 'jwk' }) as Jwk), alg: 'RS256' };
    let key: PublicKey;
    try {
      key = (await importJWK(jwk)) as PublicKey;
    } catch (e) {
      expect((e as PqidError).code).toBe('ERR_JWK_INVALID'); // the fix we want
      return;
    }
    const t = `${b64u('{"alg":"RS256"}')}.${b64u('{}')}.${b64u(new Uint8Array(128))}`;
    await rejects(
      () => verifyCompact(t, key, { algorithms: ['RS256'] }),
      ['ERR_JWK_INVALID', 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED'],
    );
  });
});

// ---- raw ML-DSA API ----------------------------------------------------------------------

const usableBackends = backends()
  .filter((b) => b.available && b.capabilities.context && b.capabilities.rnd)
  .map((b) => b.name);

describe.each(Object.keys(MLDSA_PARAMS) as MlDsaAlg[])('raw mldsa API, %s', (alg) => {
  const P = MLDSA_PARAMS[alg];
  const seed = new Uint8Array(32).fill(7);
  const msg = new TextEncoder().encode('message');

  it.each(usableBackends)(
    'backend %s: context of 255 bytes works, 256 is ERR_INVALID_ARGUMENT',
    async (backend) => {
      const { publicKey, secretKey } = await mldsa.keygen(alg, seed, { backend });
      const ctx = new Uint8Array(255).fill(1);
      const sig = await mldsa.sign(alg, secretKey, msg, { context: ctx, backend });
      expect(await mldsa.verify(alg, publicKey, msg, sig, { context: ctx, backend })).toBe(true);
      expect(await mldsa.verify(alg, publicKey, msg, sig, { context: ctx.subarray(1), backend })).toBe(false);
      expect(await mldsa.verify(alg, publicKey, msg, sig, { backend })).toBe(false);
      await rejects(
        () => mldsa.sign(alg, secretKey, msg, { context: new Uint8Array(256), backend }),
        'ERR_INVALID_ARGUMENT',
      );
      await rejects(
        () => mldsa.verify(alg, publicKey, msg, sig, { context: new Uint8Array(256), backend }),
        'ERR_INVALID_ARGUMENT',
      );
    },
  );

  it('rnd must be 32 bytes, and deterministic+rnd together is refused', async () => {
    for (const n of [0, 31, 33, 64]) {
      await rejects(() => mldsa.sign(alg, seed, msg, { rnd: new Uint8Array(n) }), 'ERR_INVALID_ARGUMENT');
    }
    await rejects(
      () => mldsa.sign(alg, seed, msg, { rnd: new Uint8Array(32), deterministic: true }),
      'ERR_INVALID_ARGUMENT',
    );
    // rnd = zeros is exactly deterministic mode
    const a = await mldsa.sign(alg, seed, msg, { rnd: new Uint8Array(32) });
    const b = await mldsa.sign(alg, seed, msg, { deterministic: true });
    expect(Buffer.from(a).equals(Buffer.from(b))).toBe(true);
  });

  it('seeds and secret keys of the wrong length are ERR_INVALID_ARGUMENT', async () => {
    for (const n of [0, 31, 33, 64]) {
      await rejects(() => mldsa.keygen(alg, new Uint8Array(n)), 'ERR_INVALID_ARGUMENT');
      await rejects(() => mldsa.sign(alg, new Uint8Array(n), msg), 'ERR_INVALID_ARGUMENT');
    }
    await rejects(() => mldsa.sign(alg, new Uint8Array(P.secretKey - 1), msg), 'ERR_INVALID_ARGUMENT');
    await rejects(() => mldsa.keygen(alg, 'x'.repeat(32) as unknown as Uint8Array), 'ERR_INVALID_ARGUMENT');
    await rejects(() => mldsa.sign(alg, seed, 'message' as unknown as Uint8Array), 'ERR_INVALID_ARGUMENT');
    await rejects(() => mldsa.keygen('ML-DSA-99' as MlDsaAlg, seed), 'ERR_ALG_UNSUPPORTED');
  });

  it('a public key of the wrong length is ERR_INVALID_ARGUMENT; a signature of the wrong length is just false', async () => {
    const { publicKey } = await mldsa.keygen(alg, seed);
    const sig = await mldsa.sign(alg, seed, msg);
    expect(sig.length).toBe(P.signature);
    expect(await mldsa.verify(alg, publicKey, msg, sig)).toBe(true);
    await rejects(() => mldsa.verify(alg, publicKey.subarray(1), msg, sig), 'ERR_INVALID_ARGUMENT');
    await rejects(
      () => mldsa.verify(alg, new Uint8Array([...publicKey, 0]), msg, sig),
      'ERR_INVALID_ARGUMENT',
    );
    for (const s of [sig.subarray(0, -1), new Uint8Array([...sig, 0]), new Uint8Array(0)]) {
      await expect(mldsa.verify(alg, publicKey, msg, s)).resolves.toBe(false);
    }
    const flipped = new Uint8Array(sig);
    flipped[100] = (flipped[100] as number) ^ 1;
    expect(await mldsa.verify(alg, publicKey, msg, flipped)).toBe(false);
  });

  it('the synchronous forms apply the same checks', async () => {
    const { publicKey } = await mldsa.keygen(alg, seed);
    const sig = mldsa.signSync(alg, seed, msg, { deterministic: true });
    expect(
      Buffer.from(sig).equals(Buffer.from(await mldsa.sign(alg, seed, msg, { deterministic: true }))),
    ).toBe(true);
    expect(mldsa.verifySync(alg, publicKey, msg, sig)).toBe(true);
    expect(mldsa.verifySync(alg, publicKey, msg, sig.subarray(1))).toBe(false);
    expect(mldsa.verifySync(alg, publicKey, msg, new Uint8Array([...sig, 0]))).toBe(false);
    await rejects(() => mldsa.verifySync(alg, publicKey.subarray(1), msg, sig), 'ERR_INVALID_ARGUMENT');
    await rejects(
      () => mldsa.signSync(alg, seed, msg, { context: new Uint8Array(256) }),
      'ERR_INVALID_ARGUMENT',
    );
    await rejects(
      () => mldsa.verifySync(alg, publicKey, msg, sig, { context: new Uint8Array(256) }),
      'ERR_INVALID_ARGUMENT',
    );
    await rejects(() => mldsa.signSync(alg, seed, msg, { rnd: new Uint8Array(31) }), 'ERR_INVALID_ARGUMENT');
    await rejects(
      () => mldsa.signSync(alg, seed, msg, { rnd: new Uint8Array(32), deterministic: true }),
      'ERR_INVALID_ARGUMENT',
    );
    await rejects(() => mldsa.signSync(alg, new Uint8Array(31), msg), 'ERR_INVALID_ARGUMENT');
  });
});

describe('sign options cannot change what a JOSE signature is', () => {
  // A JavaScript caller (no types) passing primitive-level options to signCompact must not get a
  // signature over a FIPS 204/205 context, or with a caller rnd: JOSE signs with the empty
  // context (RFC 9964, draft-ietf-cose-sphincs-plus) and a composite's ML-DSA half with its label.
  it.each(['ML-DSA-44', 'ML-DSA-44-Ed25519', 'SLH-DSA-SHA2-128f'].filter((a) => ALGS.includes(a)))(
    '%s: a stray context/rnd option is ignored and the token verifies',
    async (alg) => {
      const { priv, pub } = fx(alg);
      const stray = { context: new Uint8Array([1, 2, 3]), rnd: new Uint8Array(32).fill(9) } as never;
      const t = await signCompact('payload', priv, stray);
      await expect(verifyCompact(t, pub, { algorithms: [alg] })).resolves.toBeTruthy();
    },
  );
});
