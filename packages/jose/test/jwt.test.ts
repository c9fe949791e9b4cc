/** JWTs over every algorithm: claims set by signJwt, claim validation in verifyJwt, typ, key sets. */

import {
  createLocalJWKSet,
  generateKeyPair,
  importJWK,
  type Jwk,
  JwtClaimValidationFailed,
  type PrivateKey,
  type PublicKey,
  signCompact,
  signJwt,
  verifyJwt,
} from '@pqid/jose';
import { beforeAll, describe, expect, it } from 'vitest';
import { suiteAlgorithms } from './helpers/algs.ts';
import { rejects } from './helpers/assert.ts';

async function claimFails(f: () => unknown, claim: string, code = 'ERR_JWT_CLAIM_VALIDATION_FAILED') {
  const e = await rejects(f, code);
  expect(e).toBeInstanceOf(JwtClaimValidationFailed);
  expect((e as JwtClaimValidationFailed).claim).toBe(claim);
  return e as JwtClaimValidationFailed;
}

const ALGS = suiteAlgorithms();
const NOW = new Date('2030-01-01T00:00:00Z');
const T = NOW.getTime() / 1000;
const at = (seconds: number) => new Date((T + seconds) * 1000);
const ISS = 'https://idp.example.com';
const AUD = 'client-123';

interface Fixture {
  priv: PrivateKey;
  pub: PublicKey;
  privateJwk: Jwk;
  publicJwk: Jwk;
}
const fixtures = new Map<string, Fixture>();
const fx = (alg: string) => fixtures.get(alg) as Fixture;

beforeAll(async () => {
  await Promise.all(
    ALGS.map(async (alg) => {
      const { privateJwk, publicJwk } = await generateKeyPair(alg);
      const priv = (await importJWK(privateJwk)) as PrivateKey;
      fixtures.set(alg, { priv, pub: priv.publicKey, privateJwk, publicJwk });
    }),
  );
});

describe.each(ALGS)('%s JWT', (alg) => {
  let token: string;
  beforeAll(async () => {
    token = await signJwt({ name: 'Alice', roles: ['a', 'b'] }, fx(alg).priv, {
      issuer: ISS,
      audience: AUD,
      subject: 'alice',
      jti: 'id-1',
      expiresIn: '10m',
      now: NOW,
    });
  });

  it('signs the claims given and verifies with issuer and audience', async () => {
    const r = await verifyJwt(token, fx(alg).pub, {
      algorithms: [alg],
      issuer: ISS,
      audience: AUD,
      subject: 'alice',
      currentDate: NOW,
    });
    expect(r.claims).toEqual({
      name: 'Alice',
      roles: ['a', 'b'],
      iss: ISS,
      aud: AUD,
      sub: 'alice',
      jti: 'id-1',
      iat: T,
      exp: T + 600,
    });
    expect(r.protectedHeader).toEqual({ alg, kid: fx(alg).pub.kid, typ: 'JWT' });
    expect(r.key.kid).toBe(fx(alg).pub.kid);
    expect(JSON.parse(new TextDecoder().decode(r.payload))).toEqual(r.claims);
  });

  it('wrong issuer, audience or subject → ERR_JWT_CLAIM_VALIDATION_FAILED naming the claim', async () => {
    const base = { algorithms: [alg], currentDate: NOW };
    await claimFails(() => verifyJwt(token, fx(alg).pub, { ...base, issuer: 'https://evil.example' }), 'iss');
    await claimFails(() => verifyJwt(token, fx(alg).pub, { ...base, issuer: [`${ISS}/`, 'x'] }), 'iss');
    await claimFails(() => verifyJwt(token, fx(alg).pub, { ...base, audience: 'other-client' }), 'aud');
    await claimFails(() => verifyJwt(token, fx(alg).pub, { ...base, subject: 'bob' }), 'sub');
    await expect(
      verifyJwt(token, fx(alg).pub, { ...base, issuer: ['x', ISS], audience: ['y', AUD] }),
    ).resolves.toBeTruthy();
  });

  it('expired → ERR_JWT_EXPIRED (exp is exclusive), and clockTolerance stretches it', async () => {
    const o = { algorithms: [alg], issuer: ISS, audience: AUD };
    await expect(verifyJwt(token, fx(alg).pub, { ...o, currentDate: at(599) })).resolves.toBeTruthy();
    const e = await claimFails(
      () => verifyJwt(token, fx(alg).pub, { ...o, currentDate: at(600) }),
      'exp',
      'ERR_JWT_EXPIRED',
    );
    expect(e.reason).toBe('check_failed');
    await claimFails(
      () => verifyJwt(token, fx(alg).pub, { ...o, currentDate: at(3600) }),
      'exp',
      'ERR_JWT_EXPIRED',
    );
    await expect(
      verifyJwt(token, fx(alg).pub, { ...o, currentDate: at(630), clockTolerance: 60 }),
    ).resolves.toBeTruthy();
    await expect(
      verifyJwt(token, fx(alg).pub, { ...o, currentDate: at(630), clockTolerance: '1m' }),
    ).resolves.toBeTruthy();
    await claimFails(
      () => verifyJwt(token, fx(alg).pub, { ...o, currentDate: at(630), clockTolerance: 10 }),
      'exp',
      'ERR_JWT_EXPIRED',
    );
  });
});

describe('time claims', () => {
  const alg = 'ML-DSA-44';

  it('nbf in the future → claim "nbf"; fine once reached or within clockTolerance', async () => {
    const t = await signJwt({}, fx(alg).priv, { notBefore: '5m', expiresIn: '1h', now: NOW });
    const o = { algorithms: [alg] };
    const e = await claimFails(() => verifyJwt(t, fx(alg).pub, { ...o, currentDate: NOW }), 'nbf');
    expect(e.code).not.toBe('ERR_JWT_EXPIRED');
    await claimFails(() => verifyJwt(t, fx(alg).pub, { ...o, currentDate: at(299) }), 'nbf');
    await expect(verifyJwt(t, fx(alg).pub, { ...o, currentDate: at(300) })).resolves.toBeTruthy();
    await expect(
      verifyJwt(t, fx(alg).pub, { ...o, currentDate: at(270), clockTolerance: 30 }),
    ).resolves.toBeTruthy();
    await claimFails(
      () => verifyJwt(t, fx(alg).pub, { ...o, currentDate: at(269), clockTolerance: 30 }),
      'nbf',
    );
  });

  it('expiresIn/notBefore spans: numbers and units', async () => {
    for (const [span, secs] of [
      [90, 90],
      ['90s', 90],
      ['2h', 7200],
      ['7d', 604800],
      ['1w', 604800],
      ['3 minutes', 180],
    ] as const) {
      const t = await signJwt({}, fx(alg).priv, { expiresIn: span, notBefore: span, now: NOW });
      const { claims } = await verifyJwt(t, fx(alg).pub, {
        algorithms: [alg],
        currentDate: at(secs),
        clockTolerance: 1,
      });
      expect(claims.exp).toBe(T + secs);
      expect(claims.nbf).toBe(T + secs);
    }
    for (const bad of ['soon', '10 parsecs', '', '-5m', Number.NaN]) {
      await rejects(
        () => signJwt({}, fx(alg).priv, { expiresIn: bad as string, now: NOW }),
        'ERR_INVALID_ARGUMENT',
      );
    }
  });

  it('maxTokenAge bounds the age from iat → ERR_JWT_EXPIRED on "iat"', async () => {
    const t = await signJwt({}, fx(alg).priv, { now: NOW });
    const o = { algorithms: [alg] };
    await expect(
      verifyJwt(t, fx(alg).pub, { ...o, currentDate: at(1700), maxTokenAge: '30m' }),
    ).resolves.toBeTruthy();
    await claimFails(
      () => verifyJwt(t, fx(alg).pub, { ...o, currentDate: at(3600), maxTokenAge: '30m' }),
      'iat',
      'ERR_JWT_EXPIRED',
    );
    await claimFails(
      () => verifyJwt(t, fx(alg).pub, { ...o, currentDate: at(3600), maxTokenAge: 1800 }),
      'iat',
      'ERR_JWT_EXPIRED',
    );
    // Without iat, maxTokenAge cannot be checked: the token is refused.
    const noIat = await signJwt({}, fx(alg).priv, { now: NOW, issuedAt: false });
    const e = await claimFails(
      () => verifyJwt(noIat, fx(alg).pub, { ...o, currentDate: NOW, maxTokenAge: '30m' }),
      'iat',
    );
    expect(e.reason).toBe('missing');
  });

  it('issuedAt: an explicit iat claim is kept, issuedAt:false leaves it out', async () => {
    const kept = await signJwt({ iat: T - 10 }, fx(alg).priv, { now: NOW });
    expect((await verifyJwt(kept, fx(alg).pub, { algorithms: [alg], currentDate: NOW })).claims.iat).toBe(
      T - 10,
    );
    const none = await signJwt({}, fx(alg).priv, { now: NOW, issuedAt: false });
    expect((await verifyJwt(none, fx(alg).pub, { algorithms: [alg], currentDate: NOW })).claims).toEqual({});
  });

  it('time claims of the wrong type are refused, not ignored', async () => {
    for (const claims of [{ exp: 'never' }, { nbf: '0' }, { exp: T + 60, iat: 'now' }]) {
      const t = await signJwt(claims as Record<string, unknown>, fx(alg).priv, { now: NOW, issuedAt: false });
      const e = await rejects(
        () => verifyJwt(t, fx(alg).pub, { algorithms: [alg], currentDate: NOW }),
        'ERR_JWT_CLAIM_VALIDATION_FAILED',
      );
      expect((e as JwtClaimValidationFailed).reason).toBe('invalid');
    }
  });
});

describe('other checks', () => {
  const alg = 'ML-DSA-65';

  it('requiredClaims: a missing claim is named', async () => {
    const t = await signJwt({ a: 1 }, fx(alg).priv, { now: NOW, issuer: ISS });
    const e = await claimFails(
      () =>
        verifyJwt(t, fx(alg).pub, { algorithms: [alg], currentDate: NOW, requiredClaims: ['iss', 'jti'] }),
      'jti',
    );
    expect(e.reason).toBe('missing');
    await expect(
      verifyJwt(t, fx(alg).pub, { algorithms: [alg], currentDate: NOW, requiredClaims: ['iss', 'a', 'iat'] }),
    ).resolves.toBeTruthy();
  });

  it('typ header: set by signJwt, checked by verifyJwt (case-insensitive, application/ prefix ignored)', async () => {
    const at_ = await signJwt({ scope: 'openid' }, fx(alg).priv, { typ: 'at+jwt', now: NOW });
    const jwt = await signJwt({}, fx(alg).priv, { now: NOW });
    const raw = await signCompact('{}', fx(alg).priv);
    const o = { algorithms: [alg], currentDate: NOW };
    expect((await verifyJwt(at_, fx(alg).pub, { ...o, typ: 'at+jwt' })).protectedHeader.typ).toBe('at+jwt');
    await expect(verifyJwt(at_, fx(alg).pub, { ...o, typ: 'application/AT+JWT' })).resolves.toBeTruthy();
    await claimFails(() => verifyJwt(at_, fx(alg).pub, { ...o, typ: 'JWT' }), 'typ');
    await claimFails(() => verifyJwt(jwt, fx(alg).pub, { ...o, typ: 'at+jwt' }), 'typ');
    await claimFails(() => verifyJwt(raw, fx(alg).pub, { ...o, typ: 'JWT' }), 'typ');
    // Without the option any typ (or none) is accepted.
    await expect(verifyJwt(raw, fx(alg).pub, o)).resolves.toBeTruthy();
    // A typ in the header option overrides the default.
    const custom = await signJwt({}, fx(alg).priv, { header: { typ: 'logout+jwt', cty: 'x' }, now: NOW });
    expect((await verifyJwt(custom, fx(alg).pub, { ...o, typ: 'logout+jwt' })).protectedHeader).toMatchObject(
      { typ: 'logout+jwt', cty: 'x' },
    );
  });

  it('a payload that is not a JSON object → ERR_JWT_INVALID (the signature being fine)', async () => {
    const payloads: (string | Uint8Array)[] = [
      'hello',
      '[1,2]',
      '"str"',
      '42',
      'null',
      'true',
      '',
      '{"a":1',
      new Uint8Array([0x7b, 0xff, 0x7d]),
    ];
    for (const p of payloads) {
      const t = await signCompact(p, fx(alg).priv);
      await rejects(() => verifyJwt(t, fx(alg).pub, { algorithms: [alg] }), 'ERR_JWT_INVALID').catch(
        (e: Error) => {
          throw new Error(`payload ${JSON.stringify(typeof p === 'string' ? p : [...p])}: ${e.message}`);
        },
      );
    }
  });

  it('signJwt refuses claims that are not an object', async () => {
    for (const c of [null, 'x', 42, ['a']]) {
      await rejects(
        () => signJwt(c as unknown as Record<string, unknown>, fx(alg).priv),
        'ERR_INVALID_ARGUMENT',
      );
    }
  });

  it('verifyJwt needs an allow-list and enforces it', async () => {
    const t = await signJwt({}, fx(alg).priv, { now: NOW });
    await rejects(() => verifyJwt(t, fx(alg).pub, {} as { algorithms: string[] }), 'ERR_INVALID_ARGUMENT');
    await rejects(() => verifyJwt(t, fx(alg).pub, { algorithms: ['ML-DSA-44'] }), 'ERR_ALG_NOT_ALLOWED');
    await rejects(
      () => verifyJwt(t, fx('ML-DSA-44').pub, { algorithms: [alg, 'ML-DSA-44'] }),
      'ERR_KEY_MISMATCH',
    );
    await rejects(
      () => verifyJwt(t, fx(alg).pub, { algorithms: [alg], maxTokenBytes: 100 }),
      'ERR_TOKEN_TOO_LARGE',
    );
  });

  it('a tampered claim breaks the signature before any claim check', async () => {
    const t = await signJwt({ admin: false }, fx(alg).priv, { now: NOW, expiresIn: 60 });
    const [h, , s] = t.split('.');
    const forged = Buffer.from(JSON.stringify({ admin: true, iat: T, exp: T + 60 })).toString('base64url');
    await rejects(
      () => verifyJwt(`${h}.${forged}.${s}`, fx(alg).pub, { algorithms: [alg], currentDate: at(3600) }),
      'ERR_JWS_SIGNATURE_VERIFICATION_FAILED',
    );
  });
});

describe('keys for signJwt / verifyJwt', () => {
  it.each(ALGS)('%s: signJwt accepts a private JWK directly', async (alg) => {
    const t = await signJwt({ a: 1 }, fx(alg).privateJwk, { now: NOW });
    const r = await verifyJwt(t, fx(alg).pub, { algorithms: [alg], currentDate: NOW });
    expect(r.claims.a).toBe(1);
    expect(r.protectedHeader.kid).toBe(fx(alg).pub.kid);
    await rejects(() => signJwt({ a: 1 }, fx(alg).publicJwk), 'ERR_INVALID_ARGUMENT');
  });

  it('verifyJwt with a key set selects the key by kid', async () => {
    const algs = ['ES256', 'ML-DSA-44', 'ML-DSA-65-Ed25519'].filter((a) => ALGS.includes(a));
    const pairs = await Promise.all(algs.flatMap((a) => [0, 1, 2].map(() => generateKeyPair(a))));
    const set = await createLocalJWKSet({ keys: pairs.map((p) => p.publicJwk) });
    expect(set.keys).toHaveLength(pairs.length);
    for (const p of pairs) {
      const t = await signJwt({ sub: p.publicJwk.kid }, p.privateJwk, { now: NOW });
      const r = await verifyJwt(t, set, { algorithms: ALGS, currentDate: NOW });
      expect(r.key.kid).toBe(p.publicJwk.kid);
      expect(r.claims.sub).toBe(p.publicJwk.kid);
      // Without a kid the set offers every key of the alg, and the right one is found.
      const noKid = await signCompact('{}', (await importJWK(p.privateJwk)) as PrivateKey, { omitKid: true });
      expect(
        JSON.parse(Buffer.from(noKid.split('.')[0] as string, 'base64url').toString()),
      ).not.toHaveProperty('kid');
      expect((await verifyJwt(noKid, set, { algorithms: ALGS, currentDate: NOW })).key.kid).toBe(
        p.publicJwk.kid,
      );
    }
    const unknown = await generateKeyPair('ML-DSA-44');
    const t = await signJwt({}, unknown.privateJwk, { now: NOW });
    await rejects(
      () => verifyJwt(t, set, { algorithms: ALGS, currentDate: NOW }),
      'ERR_JWKS_NO_MATCHING_KEY',
    );
  });

  it('a token that names one key but is signed by another in the same set fails', async () => {
    const a = await generateKeyPair('ML-DSA-44');
    const b = await generateKeyPair('ML-DSA-44');
    const set = await createLocalJWKSet({ keys: [a.publicJwk, b.publicJwk] });
    const t = await signJwt({}, b.privateJwk, { now: NOW, header: { kid: a.publicJwk.kid } });
    expect(JSON.parse(Buffer.from(t.split('.')[0] as string, 'base64url').toString()).kid).toBe(
      a.publicJwk.kid,
    );
    await rejects(
      () => verifyJwt(t, set, { algorithms: ['ML-DSA-44'], currentDate: NOW }),
      'ERR_JWS_SIGNATURE_VERIFICATION_FAILED',
    );
  });
});
