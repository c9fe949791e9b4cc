/** General JWS JSON serialization: several signatures (classical + PQ) over one payload, and the policies. */

import {
  createLocalJWKSet,
  type GeneralJws,
  generateKeyPair,
  importJWK,
  type Jwk,
  type PrivateKey,
  type PublicKey,
  registry,
  signGeneral,
  verifyCompact,
  verifyGeneral,
} from '@pqid/jose';
import { beforeAll, describe, expect, it } from 'vitest';
import { suiteAlgorithms } from './helpers/algs.ts';
import { rejects } from './helpers/assert.ts';

const b64u = (x: Uint8Array | string) => Buffer.from(x).toString('base64url');
const text = (b: Uint8Array) => new TextDecoder().decode(b);

const ALGS = suiteAlgorithms();
const familyOf = (alg: string) => registry().find((e) => e.alg === alg)?.family;
const PQ = ALGS.filter((a) => familyOf(a) !== 'classical');
const CLASSICAL = 'ES256';
const POLICIES = ['any', 'all', 'require-pq'] as const;
const PAYLOAD = JSON.stringify({ iss: 'https://idp.example', sub: 'alice', n: 1 });

interface Fixture {
  priv: PrivateKey;
  pub: PublicKey;
  publicJwk: Jwk;
}
const fixtures = new Map<string, Fixture>();
const fx = (alg: string) => fixtures.get(alg) as Fixture;
const keySetOf = (...algs: string[]) => createLocalJWKSet({ keys: algs.map((a) => fx(a).publicJwk) });

/** Flips one bit in the middle of signature `index`'s decoded bytes. */
function tamperSignature(jws: GeneralJws, index: number): GeneralJws {
  const copy = structuredClone(jws);
  const sig = copy.signatures[index] as GeneralJws['signatures'][number];
  const bytes = Buffer.from(sig.signature, 'base64url');
  bytes[bytes.length >> 1] = (bytes[bytes.length >> 1] as number) ^ 0x10;
  sig.signature = bytes.toString('base64url');
  return copy;
}

beforeAll(async () => {
  await Promise.all(
    ALGS.map(async (alg) => {
      const { privateJwk, publicJwk } = await generateKeyPair(alg);
      const priv = (await importJWK(privateJwk)) as PrivateKey;
      fixtures.set(alg, { priv, pub: priv.publicKey, publicJwk });
    }),
  );
});

it('one payload signed by every algorithm verifies under "all" with a key set holding every key', async () => {
  const jws = await signGeneral(
    PAYLOAD,
    ALGS.map((a) => ({ key: fx(a).priv })),
  );
  expect(jws.payload).toBe(b64u(PAYLOAD));
  expect(jws.signatures).toHaveLength(ALGS.length);
  // SLH-DSA-SHA2-128f alone is 23 KB: the whole set is over the 64 KiB default.
  const r = await verifyGeneral(jws, await keySetOf(...ALGS), {
    algorithms: ALGS,
    policy: 'all',
    maxTokenBytes: 256 * 1024,
  });
  expect(text(r.payload)).toBe(PAYLOAD);
  expect(r.verified.map((v) => v.protectedHeader.alg)).toEqual(ALGS);
  expect(r.verified.map((v) => v.key.kid)).toEqual(ALGS.map((a) => fx(a).pub.kid));
  expect(r.skipped).toEqual([]);
  // Each signature is also an ordinary compact JWS.
  for (const [i, s] of jws.signatures.entries()) {
    const c = await verifyCompact(`${s.protected}.${jws.payload}.${s.signature}`, fx(ALGS[i] as string).pub, {
      algorithms: ALGS,
    });
    expect(text(c.payload)).toBe(PAYLOAD);
  }
});

describe.each(PQ)(`${CLASSICAL} + %s`, (pqAlg) => {
  let jws: GeneralJws;
  beforeAll(async () => {
    jws = await signGeneral(PAYLOAD, [
      { key: fx(CLASSICAL).priv },
      { key: fx(pqAlg).priv, header: { typ: 'JWT' }, unprotected: { note: 'pq' } },
    ]);
  });

  it('the JWS has the expected shape', () => {
    expect(jws.signatures).toHaveLength(2);
    const [c, p] = jws.signatures as [GeneralJws['signatures'][number], GeneralJws['signatures'][number]];
    expect(JSON.parse(Buffer.from(c.protected, 'base64url').toString())).toEqual({
      alg: CLASSICAL,
      kid: fx(CLASSICAL).pub.kid,
    });
    expect(JSON.parse(Buffer.from(p.protected, 'base64url').toString())).toEqual({
      alg: pqAlg,
      kid: fx(pqAlg).pub.kid,
      typ: 'JWT',
    });
    expect(c.header).toBeUndefined();
    expect(p.header).toEqual({ note: 'pq' });
  });

  it.each(POLICIES)('both keys: policy %s passes and verifies both signatures', async (policy) => {
    const r = await verifyGeneral(jws, await keySetOf(CLASSICAL, pqAlg), { algorithms: ALGS, policy });
    expect(r.verified.map((v) => v.key.alg)).toEqual([CLASSICAL, pqAlg]);
    expect(r.verified[1]?.protectedHeader.typ).toBe('JWT');
    expect(r.skipped).toEqual([]);
    expect(text(r.payload)).toBe(PAYLOAD);
  });

  it('the default policy is "all"', async () => {
    await rejects(
      () => verifyGeneral(jws, fx(CLASSICAL).pub, { algorithms: ALGS }),
      ['ERR_KEY_MISMATCH', 'ERR_JWKS_NO_MATCHING_KEY'],
    );
    await expect(
      verifyGeneral(jws, await keySetOf(CLASSICAL, pqAlg), { algorithms: ALGS }),
    ).resolves.toBeTruthy();
  });

  it(`only the ${CLASSICAL} key: "any" passes, "all" and "require-pq" fail`, async () => {
    for (const key of [await keySetOf(CLASSICAL), fx(CLASSICAL).pub]) {
      const r = await verifyGeneral(jws, key, { algorithms: ALGS, policy: 'any' });
      expect(r.verified.map((v) => v.key.alg)).toEqual([CLASSICAL]);
      expect(r.skipped.map((s) => s.index)).toEqual([1]);
      await rejects(
        () => verifyGeneral(jws, key, { algorithms: ALGS, policy: 'all' }),
        ['ERR_JWKS_NO_MATCHING_KEY', 'ERR_KEY_MISMATCH'],
      );
      await rejects(
        () => verifyGeneral(jws, key, { algorithms: ALGS, policy: 'require-pq' }),
        'ERR_JWS_SIGNATURE_VERIFICATION_FAILED',
      );
    }
  });

  it(`only the ${pqAlg} key: "require-pq" and "any" pass, "all" fails`, async () => {
    for (const key of [await keySetOf(pqAlg), fx(pqAlg).pub]) {
      for (const policy of ['require-pq', 'any'] as const) {
        const r = await verifyGeneral(jws, key, { algorithms: ALGS, policy });
        expect(r.verified.map((v) => v.key.alg)).toEqual([pqAlg]);
        expect(r.verified[0]?.key.pq).toBe(true);
        expect(r.skipped.map((s) => s.index)).toEqual([0]);
      }
      await rejects(
        () => verifyGeneral(jws, key, { algorithms: ALGS, policy: 'all' }),
        ['ERR_JWKS_NO_MATCHING_KEY', 'ERR_KEY_MISMATCH'],
      );
    }
  });

  it(`a tampered ${pqAlg} signature fails under every policy although ${CLASSICAL} verifies`, async () => {
    const bad = tamperSignature(jws, 1);
    const keys = await keySetOf(CLASSICAL, pqAlg);
    for (const policy of POLICIES) {
      await rejects(
        () => verifyGeneral(bad, keys, { algorithms: ALGS, policy }),
        'ERR_JWS_SIGNATURE_VERIFICATION_FAILED',
      );
    }
    // …while the classical signature alone is fine.
    const c = jws.signatures[0] as GeneralJws['signatures'][number];
    await expect(
      verifyCompact(`${c.protected}.${bad.payload}.${c.signature}`, fx(CLASSICAL).pub, { algorithms: ALGS }),
    ).resolves.toBeTruthy();
  });

  it(`a tampered ${CLASSICAL} signature fails under every policy although ${pqAlg} verifies`, async () => {
    const bad = tamperSignature(jws, 0);
    const keys = await keySetOf(CLASSICAL, pqAlg);
    for (const policy of POLICIES) {
      await rejects(
        () => verifyGeneral(bad, keys, { algorithms: ALGS, policy }),
        'ERR_JWS_SIGNATURE_VERIFICATION_FAILED',
      );
    }
  });

  it('a tampered payload or protected header fails under every policy', async () => {
    const keys = await keySetOf(CLASSICAL, pqAlg);
    const payload = { ...jws, payload: b64u(PAYLOAD.replace('alice', 'mallo')) };
    const header = structuredClone(jws);
    (header.signatures[1] as { protected: string }).protected = b64u(
      JSON.stringify({ alg: pqAlg, kid: fx(pqAlg).pub.kid, typ: 'jwt' }),
    );
    for (const bad of [payload, header]) {
      for (const policy of POLICIES) {
        await rejects(
          () => verifyGeneral(bad, keys, { algorithms: ALGS, policy }),
          'ERR_JWS_SIGNATURE_VERIFICATION_FAILED',
        );
      }
    }
  });

  it('the unprotected header is not covered by the signature and not trusted: changing it changes nothing', async () => {
    const changed = structuredClone(jws);
    (changed.signatures[1] as { header?: Record<string, unknown> }).header = { note: 'evil', alg: 'none' };
    const r = await verifyGeneral(changed, await keySetOf(CLASSICAL, pqAlg), {
      algorithms: ALGS,
      policy: 'all',
    });
    expect(r.verified[1]?.protectedHeader.alg).toBe(pqAlg);
  });

  it(`stripping the ${pqAlg} signature (downgrade) is caught by "require-pq"`, async () => {
    const stripped = { ...jws, signatures: [jws.signatures[0] as GeneralJws['signatures'][number]] };
    const keys = await keySetOf(CLASSICAL, pqAlg);
    await rejects(
      () => verifyGeneral(stripped, keys, { algorithms: ALGS, policy: 'require-pq' }),
      'ERR_JWS_SIGNATURE_VERIFICATION_FAILED',
    );
    await expect(verifyGeneral(stripped, keys, { algorithms: ALGS, policy: 'any' })).resolves.toBeTruthy();
  });

  it(`an allow-list without ${pqAlg}: "any" skips its signature, "all" refuses, "require-pq" fails`, async () => {
    const allowed = ALGS.filter((a) => a !== pqAlg);
    const keys = await keySetOf(CLASSICAL, pqAlg);
    const r = await verifyGeneral(jws, keys, { algorithms: allowed, policy: 'any' });
    expect(r.verified.map((v) => v.key.alg)).toEqual([CLASSICAL]);
    expect(r.skipped).toHaveLength(1);
    expect(r.skipped[0]?.index).toBe(1);
    expect(r.skipped[0]?.reason).toContain(pqAlg);
    await rejects(
      () => verifyGeneral(jws, keys, { algorithms: allowed, policy: 'all' }),
      'ERR_ALG_NOT_ALLOWED',
    );
    await rejects(
      () => verifyGeneral(jws, keys, { algorithms: allowed, policy: 'require-pq' }),
      'ERR_JWS_SIGNATURE_VERIFICATION_FAILED',
    );
  });

  it(`an allow-list without ${CLASSICAL}: "require-pq" passes on the PQ signature alone`, async () => {
    const allowed = ALGS.filter((a) => a !== CLASSICAL);
    const r = await verifyGeneral(jws, await keySetOf(CLASSICAL, pqAlg), {
      algorithms: allowed,
      policy: 'require-pq',
    });
    expect(r.verified.map((v) => v.key.alg)).toEqual([pqAlg]);
    expect(r.skipped.map((s) => s.index)).toEqual([0]);
  });

  it('a JSON string input works like the object', async () => {
    const r = await verifyGeneral(JSON.stringify(jws), await keySetOf(CLASSICAL, pqAlg), {
      algorithms: ALGS,
      policy: 'all',
    });
    expect(r.verified).toHaveLength(2);
    expect(text(r.payload)).toBe(PAYLOAD);
  });
});

describe('general JWS: policies that cannot be met', () => {
  it('"require-pq" fails for a JWS with only classical signatures, even when all verify', async () => {
    const classical = ALGS.filter((a) => familyOf(a) === 'classical');
    const jws = await signGeneral(
      PAYLOAD,
      classical.map((a) => ({ key: fx(a).priv })),
    );
    const keys = await keySetOf(...classical);
    await expect(verifyGeneral(jws, keys, { algorithms: ALGS, policy: 'all' })).resolves.toBeTruthy();
    await rejects(
      () => verifyGeneral(jws, keys, { algorithms: ALGS, policy: 'require-pq' }),
      'ERR_JWS_SIGNATURE_VERIFICATION_FAILED',
    );
  });

  it('no key for any signature fails under every policy', async () => {
    const jws = await signGeneral(PAYLOAD, [{ key: fx(CLASSICAL).priv }, { key: fx('ML-DSA-65').priv }]);
    const unrelated = await keySetOf('ML-DSA-44');
    for (const policy of POLICIES) {
      await rejects(
        () => verifyGeneral(jws, unrelated, { algorithms: ALGS, policy }),
        ['ERR_JWS_SIGNATURE_VERIFICATION_FAILED', 'ERR_JWKS_NO_MATCHING_KEY'],
      );
    }
  });

  it('an impostor key under the signer kid: the signature fails, it is not skipped', async () => {
    const other = await generateKeyPair('ML-DSA-65');
    const jws = await signGeneral(PAYLOAD, [{ key: fx(CLASSICAL).priv }, { key: fx('ML-DSA-65').priv }]);
    const keys = await createLocalJWKSet({
      keys: [fx(CLASSICAL).publicJwk, { ...other.publicJwk, kid: fx('ML-DSA-65').pub.kid }],
    });
    for (const policy of POLICIES) {
      await rejects(
        () => verifyGeneral(jws, keys, { algorithms: ALGS, policy }),
        'ERR_JWS_SIGNATURE_VERIFICATION_FAILED',
      );
    }
  });
});

describe('general JWS: malformed input', () => {
  let good: GeneralJws;
  beforeAll(async () => {
    good = await signGeneral(PAYLOAD, [{ key: fx(CLASSICAL).priv }, { key: fx('ML-DSA-44').priv }]);
  });

  it('malformed shapes are ERR_JWS_INVALID', async () => {
    const sig = () => ({ ...(good.signatures[0] as GeneralJws['signatures'][number]) });
    const shapes: unknown[] = [
      null,
      undefined,
      42,
      'not json',
      '{"payload":',
      '[]',
      [],
      {},
      { payload: good.payload },
      { signatures: good.signatures },
      { payload: good.payload, signatures: [] },
      { payload: good.payload, signatures: {} },
      { payload: good.payload, signatures: 'x' },
      { payload: 42, signatures: good.signatures },
      { payload: `${good.payload}=`, signatures: good.signatures },
      { payload: good.payload.replace(/.$/, '+'), signatures: good.signatures },
      { payload: good.payload, signatures: [null] },
      { payload: good.payload, signatures: [42] },
      { payload: good.payload, signatures: [{ ...sig(), protected: undefined }] },
      { payload: good.payload, signatures: [{ ...sig(), protected: 7 }] },
      { payload: good.payload, signatures: [{ ...sig(), signature: undefined }] },
      { payload: good.payload, signatures: [{ ...sig(), signature: `${sig().signature}==` }] },
      { payload: good.payload, signatures: [{ ...sig(), protected: `${sig().protected} ` }] },
      { payload: good.payload, signatures: [{ ...sig(), protected: b64u('[1]') }] },
      { payload: good.payload, signatures: [{ ...sig(), protected: b64u('{"typ":"JWT"}') }] },
      {
        payload: good.payload,
        signatures: [{ ...sig(), protected: b64u(`{"alg":"${CLASSICAL}","crit":["x"],"x":1}`) }],
      },
      // Flattened JSON serialization is not the general one.
      { payload: good.payload, protected: sig().protected, signature: sig().signature },
      // One good signature does not excuse a malformed sibling.
      { payload: good.payload, signatures: [sig(), { protected: 1, signature: 'x' }] },
    ];
    const keys = await keySetOf(CLASSICAL, 'ML-DSA-44');
    for (const [i, shape] of shapes.entries()) {
      for (const policy of POLICIES) {
        await rejects(
          () => verifyGeneral(shape, keys, { algorithms: ALGS, policy }),
          'ERR_JWS_INVALID',
        ).catch((e: Error) => {
          throw new Error(`shape #${i} (${policy}): ${e.message}`);
        });
      }
    }
  });

  it('options are checked: algorithms mandatory, policy known', async () => {
    const keys = await keySetOf(CLASSICAL, 'ML-DSA-44');
    const v = verifyGeneral as (...a: unknown[]) => Promise<unknown>;
    await rejects(() => v(good, keys), 'ERR_INVALID_ARGUMENT');
    await rejects(() => v(good, keys, { policy: 'any' }), 'ERR_INVALID_ARGUMENT');
    await rejects(() => v(good, keys, { algorithms: [], policy: 'any' }), 'ERR_INVALID_ARGUMENT');
    await rejects(() => v(good, keys, { algorithms: ['none'], policy: 'any' }), 'ERR_INVALID_ARGUMENT');
    await rejects(() => v(good, keys, { algorithms: ALGS, policy: 'some' }), 'ERR_INVALID_ARGUMENT');
    await rejects(() => v(good, 'not a key', { algorithms: ALGS, policy: 'any' }), 'ERR_INVALID_ARGUMENT');
  });

  it('an oversized general JWS is ERR_TOKEN_TOO_LARGE (as object and as string)', async () => {
    const keys = await keySetOf(CLASSICAL, 'ML-DSA-44');
    const big = await signGeneral('x'.repeat(60_000), [{ key: fx(CLASSICAL).priv }]);
    await rejects(() => verifyGeneral(big, keys, { algorithms: ALGS, policy: 'any' }), 'ERR_TOKEN_TOO_LARGE');
    await rejects(
      () => verifyGeneral(JSON.stringify(big), keys, { algorithms: ALGS, policy: 'any' }),
      'ERR_TOKEN_TOO_LARGE',
    );
    await rejects(
      () => verifyGeneral(`[${' '.repeat(70_000)}`, keys, { algorithms: ALGS, policy: 'any' }),
      'ERR_TOKEN_TOO_LARGE',
    );
    await expect(
      verifyGeneral(big, keys, { algorithms: ALGS, policy: 'any', maxTokenBytes: 100_000 }),
    ).resolves.toBeTruthy();
  });

  it('signGeneral refuses an empty signer list', async () => {
    await rejects(() => signGeneral(PAYLOAD, []), 'ERR_INVALID_ARGUMENT');
    await rejects(() => signGeneral(PAYLOAD, undefined as unknown as []), 'ERR_INVALID_ARGUMENT');
  });

  it('signGeneral refuses crit/b64 and a mismatched alg in a signer header', async () => {
    await rejects(
      () => signGeneral(PAYLOAD, [{ key: fx(CLASSICAL).priv, header: { crit: ['x'] } }]),
      'ERR_INVALID_ARGUMENT',
    );
    await rejects(
      () => signGeneral(PAYLOAD, [{ key: fx(CLASSICAL).priv, header: { b64: false } }]),
      'ERR_INVALID_ARGUMENT',
    );
    await rejects(
      () => signGeneral(PAYLOAD, [{ key: fx(CLASSICAL).priv, header: { alg: 'ML-DSA-65' } }]),
      'ERR_INVALID_ARGUMENT',
    );
  });

  // Regression (src/jws/general.ts signGeneral, fixed): unlike signCompact it used not to check that each signer key is a
  // PrivateKey, so a PublicKey reaches entry.sign and fails with an untyped TypeError.
  it.each(['ML-DSA-44', CLASSICAL])(
    'signGeneral with a %s PublicKey is ERR_INVALID_ARGUMENT',
    async (alg) => {
      await rejects(
        () => signGeneral(PAYLOAD, [{ key: fx(alg).pub as unknown as PrivateKey }]),
        'ERR_INVALID_ARGUMENT',
      );
    },
  );
});
