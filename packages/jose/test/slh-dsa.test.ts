/**
 * SLH-DSA (FIPS 205) in JOSE (draft-ietf-cose-sphincs-plus): every public API with every
 * registered parameter set, both backends against each other, deterministic signing, key checks
 * and the invalid inputs a verifier must refuse. The parametrised suites only run the fast
 * SLH-DSA-SHA2-128f (helpers/algs.ts); this file is where the small ("s") sets are covered, so
 * it signs with them a bounded number of times: the hedged ones on node:crypto (hundreds of
 * ms), one deterministic SLH-DSA-SHA2-128s signature on noble (about a second), none with
 * SLH-DSA-SHAKE-128s on noble (several seconds; the ACVP test runs one).
 */
import {
  algorithms,
  backends,
  calculateThumbprint,
  configure,
  createLocalJWKSet,
  exportJWK,
  generateKeyPair,
  getAlgorithm,
  importJWK,
  type Jwk,
  type PrivateKey,
  type PublicKey,
  registry,
  SLHDSA_PARAMS,
  type SlhDsaAlg,
  signCompact,
  signGeneral,
  signJwt,
  slhdsa,
  verifyCompact,
  verifyGeneral,
  verifyJwt,
} from '@pqid/jose';
import { beforeAll, describe, expect, it } from 'vitest';
import { rejects } from './helpers/assert.ts';
import { availableBackends, flipByte, onBackend } from './helpers/backends.ts';
import { b64uToBytes, bytesToB64u } from './helpers/vectors.ts';

const ALL = Object.keys(SLHDSA_PARAMS) as SlhDsaAlg[];
const slhBackends = availableBackends().filter((b) => b.capabilities.slhDsa);
const te = new TextEncoder();

interface Fixture {
  privateJwk: Jwk;
  publicJwk: Jwk;
  priv: PrivateKey;
  pub: PublicKey;
}
const fixtures = new Map<SlhDsaAlg, Fixture>();
const fx = (alg: SlhDsaAlg) => fixtures.get(alg) as Fixture;

beforeAll(async () => {
  for (const alg of ALL) {
    const { privateJwk, publicJwk } = await generateKeyPair(alg);
    const priv = (await importJWK(privateJwk)) as PrivateKey;
    fixtures.set(alg, { privateJwk, publicJwk, priv, pub: (await importJWK(publicJwk)) as PublicKey });
  }
});

describe('registry', () => {
  it('has SHA2-128s, SHAKE-128s (draft -10) and SHA2-128f (draft -07) with the FIPS 205 Table 2 sizes', () => {
    const entries = registry().filter((e) => e.family === 'slh-dsa');
    expect(entries.map((e) => e.alg).sort()).toEqual(
      ['SLH-DSA-SHA2-128f', 'SLH-DSA-SHA2-128s', 'SLH-DSA-SHAKE-128s'].sort(),
    );
    const table2: Record<SlhDsaAlg, number> = {
      'SLH-DSA-SHA2-128s': 7856,
      'SLH-DSA-SHAKE-128s': 7856,
      'SLH-DSA-SHA2-128f': 17088,
    };
    for (const e of entries) {
      expect(e).toMatchObject({ kty: 'AKP', pq: true });
      expect(e.sizes).toEqual({ publicKey: 32, privateKey: 64, signature: table2[e.alg as SlhDsaAlg] });
      expect(e.description).toMatch(/draft-ietf-cose-sphincs-plus-(10|07)/);
      expect(algorithms()).toContain(e.alg);
      expect(getAlgorithm(e.alg)).toBe(e);
    }
    // RFC 9909 OIDs: id-slh-dsa-sha2-128s is …3.20, -sha2-128f …3.21, -shake-128s …3.26.
    expect(SLHDSA_PARAMS['SLH-DSA-SHA2-128s'].oid).toBe('2.16.840.1.101.3.4.3.20');
    expect(SLHDSA_PARAMS['SLH-DSA-SHA2-128f'].oid).toBe('2.16.840.1.101.3.4.3.21');
    expect(SLHDSA_PARAMS['SLH-DSA-SHAKE-128s'].oid).toBe('2.16.840.1.101.3.4.3.26');
  });

  it('node:crypto (OpenSSL 3.5) and noble both have SLH-DSA here; only noble signs deterministically', () => {
    const by = new Map(backends().map((b) => [b.name, b]));
    expect(by.get('noble')?.capabilities.slhDsa).toEqual({ rnd: true });
    expect(by.get('node')?.capabilities.slhDsa).toEqual({ rnd: false });
    expect(by.get('native')?.capabilities.slhDsa).toBeUndefined();
  });
});

describe.each(ALL)('%s through the public API', (alg) => {
  it('keys: AKP JWKs of 32/64 bytes, kid = RFC 7638 thumbprint over {alg, kty, pub}, priv ends with pub', () => {
    const { privateJwk, publicJwk, priv } = fx(alg);
    expect(Object.keys(publicJwk).sort()).toEqual(['alg', 'kid', 'kty', 'pub']);
    expect(publicJwk.kid).toBe(calculateThumbprint({ kty: 'AKP', alg, pub: publicJwk.pub as string }));
    expect(priv.kid).toBe(publicJwk.kid);
    const pk = b64uToBytes(publicJwk.pub as string);
    const sk = b64uToBytes(privateJwk.priv as string);
    expect([pk.length, sk.length]).toEqual([32, 64]);
    expect(bytesToB64u(sk.subarray(32))).toBe(publicJwk.pub); // SK = SK.seed‖SK.prf‖PK.seed‖PK.root
    expect(exportJWK(priv)).toEqual(privateJwk);
    expect(exportJWK(fx(alg).pub)).toEqual(publicJwk);
  });

  it('signCompact → verifyCompact, and every tampering fails', async () => {
    const { priv, pub } = fx(alg);
    const token = await signCompact('{"hello":"slh"}', priv);
    const [h, p, s] = token.split('.') as [string, string, string];
    expect(JSON.parse(Buffer.from(h, 'base64url').toString())).toEqual({ alg, kid: pub.kid });
    expect(b64uToBytes(s).length).toBe(SLHDSA_PARAMS[alg].signature);
    const r = await verifyCompact(token, pub, { algorithms: [alg] });
    expect(new TextDecoder().decode(r.payload)).toBe('{"hello":"slh"}');
    const sig = b64uToBytes(s);
    const forged = [
      `${h}.${p}.${bytesToB64u(flipByte(sig, 0))}`, // R
      `${h}.${p}.${bytesToB64u(flipByte(sig, sig.length - 1))}`, // last hypertree layer
      `${h}.${p}.${bytesToB64u(sig.subarray(0, -1))}`, // one byte short
      `${h}.${p}.${bytesToB64u(new Uint8Array([...sig, 0]))}`, // one byte long
      `${h}.${bytesToB64u(te.encode('{"hello":"SLH"}'))}.${s}`,
    ];
    for (const t of forged)
      await rejects(
        () => verifyCompact(t, pub, { algorithms: [alg] }),
        'ERR_JWS_SIGNATURE_VERIFICATION_FAILED',
      );
  });

  it('signJwt → verifyJwt, through a local JWKS', async () => {
    const token = await signJwt({ sub: 'alice' }, fx(alg).priv, {
      issuer: 'https://idp.example',
      expiresIn: 60,
    });
    const set = await createLocalJWKSet({ keys: [fx(alg).publicJwk] });
    const { claims, key } = await verifyJwt(token, set, { algorithms: [alg], issuer: 'https://idp.example' });
    expect(claims.sub).toBe('alice');
    expect(key.kid).toBe(fx(alg).pub.kid);
  });

  it('signGeneral next to ES256 → verifyGeneral: the SLH-DSA signature satisfies require-pq', async () => {
    const es = await generateKeyPair('ES256');
    const esKey = (await importJWK(es.privateJwk)) as PrivateKey;
    const jws = await signGeneral('payload', [{ key: esKey }, { key: fx(alg).priv }]);
    const keys = await createLocalJWKSet({ keys: [es.publicJwk, fx(alg).publicJwk] });
    const r = await verifyGeneral(jws, keys, { algorithms: ['ES256', alg], policy: 'require-pq' });
    expect(r.verified.map((v) => v.protectedHeader.alg)).toEqual(['ES256', alg]);
    // Without the SLH-DSA key the PQ signature is skipped and require-pq fails.
    const onlyEs = await createLocalJWKSet({ keys: [es.publicJwk] });
    await rejects(
      () => verifyGeneral(jws, onlyEs, { algorithms: ['ES256', alg], policy: 'require-pq' }),
      'ERR_JWS_SIGNATURE_VERIFICATION_FAILED',
    );
  });

  it('a signature with a non-empty FIPS 205 context does not verify as a JWS (JOSE context is empty)', async () => {
    const { priv, privateJwk, pub } = fx(alg);
    const good = await signCompact('x', priv);
    const [h, p] = good.split('.') as [string, string];
    const sk = b64uToBytes(privateJwk.priv as string);
    for (const context of [new Uint8Array([0]), te.encode('JOSE')]) {
      const sig = await slhdsa.sign(alg, sk, te.encode(`${h}.${p}`), { context });
      expect(
        await slhdsa.verify(alg, b64uToBytes(fx(alg).publicJwk.pub as string), te.encode(`${h}.${p}`), sig, {
          context,
        }),
      ).toBe(true);
      await rejects(
        () => verifyCompact(`${h}.${p}.${bytesToB64u(sig)}`, pub, { algorithms: [alg] }),
        'ERR_JWS_SIGNATURE_VERIFICATION_FAILED',
      );
    }
  });
});

describe('backends against each other', () => {
  const msg = te.encode('cross-backend');

  it.each(ALL)(
    '%s: a node:crypto signature verifies on every SLH-DSA backend, a tampered one on none',
    async (alg) => {
      const { privateJwk, publicJwk } = fx(alg);
      const sk = b64uToBytes(privateJwk.priv as string);
      const pk = b64uToBytes(publicJwk.pub as string);
      const sig = await slhdsa.sign(alg, sk, msg, { backend: 'node' });
      for (const b of slhBackends) {
        expect(await slhdsa.verify(alg, pk, msg, sig, { backend: b.name }), b.name).toBe(true);
        expect(slhdsa.verifySync(alg, pk, msg, sig, { backend: b.name }), b.name).toBe(true);
        expect(await slhdsa.verify(alg, pk, msg, flipByte(sig, 100), { backend: b.name }), b.name).toBe(
          false,
        );
        expect(await slhdsa.verify(alg, pk, flipByte(msg, 0), sig, { backend: b.name }), b.name).toBe(false);
        expect(await slhdsa.verify(alg, flipByte(pk, 31), msg, sig, { backend: b.name }), b.name).toBe(false);
      }
    },
  );

  it.each(['SLH-DSA-SHA2-128f', 'SLH-DSA-SHA2-128s'] as const)(
    '%s: noble deterministic signing (opt_rand = PK.seed) is reproducible, differs from hedged, and node:crypto verifies it',
    async (alg) => {
      const { privateJwk, publicJwk } = fx(alg);
      const sk = b64uToBytes(privateJwk.priv as string);
      const pk = b64uToBytes(publicJwk.pub as string);
      const a = await slhdsa.sign(alg, sk, msg, { deterministic: true });
      // opt_rand = PK.seed explicitly is the same signature: that is what "deterministic" means in FIPS 205.
      const b = slhdsa.signSync(alg, sk, msg, { rnd: sk.subarray(32, 48), backend: 'noble' });
      expect(bytesToB64u(b)).toBe(bytesToB64u(a));
      expect(await slhdsa.verify(alg, pk, msg, a, { backend: 'node' })).toBe(true);
      if (alg === 'SLH-DSA-SHA2-128f') {
        const hedged = await slhdsa.sign(alg, sk, msg, { backend: 'noble' });
        expect(bytesToB64u(hedged)).not.toBe(bytesToB64u(a));
        expect(await slhdsa.verify(alg, pk, msg, hedged, { backend: 'node' })).toBe(true);
      }
    },
  );

  it('JOSE-level deterministic signing goes to noble and gives the same compact JWS twice', async () => {
    const alg = 'SLH-DSA-SHA2-128f';
    const { result, signCalls } = await onBackend('noble', async () => [
      await signCompact('same', fx(alg).priv, { deterministic: true }),
      await signCompact('same', fx(alg).priv, { deterministic: true }),
    ]);
    expect(signCalls).toBe(2);
    expect(result[0]).toBe(result[1]);
    // The automatic choice for a deterministic signature is noble even when node is preferred.
    expect(await signCompact('same', fx(alg).priv, { deterministic: true })).toBe(result[0]);
    const { verifyCalls } = await onBackend('node', () =>
      verifyCompact(result[0] as string, fx(alg).pub, { algorithms: [alg] }),
    );
    expect(verifyCalls).toBe(1);
  });

  it('deterministic signing pinned to node:crypto, or SLH-DSA pinned to native, is refused, not silently changed', async () => {
    const alg = 'SLH-DSA-SHA2-128f';
    const sk = b64uToBytes(fx(alg).privateJwk.priv as string);
    await rejects(
      () => slhdsa.sign(alg, sk, msg, { deterministic: true, backend: 'node' }),
      'ERR_BACKEND_UNAVAILABLE',
    );
    await rejects(
      () => slhdsa.sign(alg, sk, msg, { rnd: new Uint8Array(16), backend: 'node' }),
      'ERR_BACKEND_UNAVAILABLE',
    );
    if (backends().find((b) => b.name === 'native')?.available)
      await rejects(() => slhdsa.sign(alg, sk, msg, { backend: 'native' }), 'ERR_BACKEND_UNAVAILABLE');
    await rejects(
      () => signCompact('x', fx(alg).priv, { deterministic: true, backend: 'node' }),
      'ERR_BACKEND_UNAVAILABLE',
    );
  });

  it('configure({ backend: native }) (no SLH-DSA) falls back to an SLH-DSA backend instead of failing', async () => {
    const alg = 'SLH-DSA-SHA2-128f';
    const prev = configure({ backend: 'native' });
    try {
      const t = await signCompact('fallback', fx(alg).priv);
      await expect(verifyCompact(t, fx(alg).pub, { algorithms: [alg] })).resolves.toBeTruthy();
    } finally {
      configure(prev);
    }
  });
});

describe('keys from seeds (slh_keygen_internal)', () => {
  const alg = 'SLH-DSA-SHA2-128f';

  it('the same 48-byte seed gives the same keys; priv = SK.seed‖SK.prf‖PK.seed‖PK.root', async () => {
    const seed = crypto.getRandomValues(new Uint8Array(48));
    const a = await generateKeyPair(alg, { seed });
    const b = await generateKeyPair(alg, { seed: new Uint8Array(seed) });
    expect(a).toEqual(b);
    const sk = b64uToBytes(a.privateJwk.priv as string);
    expect(bytesToB64u(sk.subarray(0, 48))).toBe(bytesToB64u(seed));
    expect(bytesToB64u(sk.subarray(32))).toBe(a.publicJwk.pub);
    const c = await generateKeyPair(alg, { seed: crypto.getRandomValues(new Uint8Array(48)) });
    expect(c.publicJwk.pub).not.toBe(a.publicJwk.pub);
    const raw = await slhdsa.keygen(alg, seed);
    expect(bytesToB64u(raw.publicKey)).toBe(a.publicJwk.pub);
  });

  it('seeds of the wrong length and a traditional secret are refused', async () => {
    for (const n of [0, 32, 47, 49, 64])
      await rejects(() => generateKeyPair(alg, { seed: new Uint8Array(n) }), 'ERR_INVALID_ARGUMENT');
    await rejects(
      () => generateKeyPair(alg, { seed: new Uint8Array(48), traditionalSecret: new Uint8Array(32) }),
      'ERR_INVALID_ARGUMENT',
    );
  });
});

describe('private-key checks at import (FIPS 205 §3.1)', () => {
  it.each(['SLH-DSA-SHA2-128f', 'SLH-DSA-SHA2-128s'] as const)(
    '%s: each inconsistency alone is ERR_JWK_INVALID',
    async (alg) => {
      const { privateJwk, publicJwk } = fx(alg);
      const sk = b64uToBytes(privateJwk.priv as string);
      const pk = b64uToBytes(publicJwk.pub as string);
      const jwk = (priv: Uint8Array, pub: Uint8Array) => ({
        kty: 'AKP',
        alg,
        priv: bytesToB64u(priv),
        pub: bytesToB64u(pub),
      });
      await expect(importJWK(jwk(sk, pk))).resolves.toBeTruthy();
      // SK.seed corrupted: pub and the public half of priv still agree, only regeneration sees it.
      await rejects(() => importJWK(jwk(flipByte(sk, 0), pk)), 'ERR_JWK_INVALID');
      // SK.prf corrupted: cannot be detected (it only randomises R), so it imports and still verifies.
      const prf = (await importJWK(jwk(flipByte(sk, 16), pk))) as PrivateKey;
      await expect(
        verifyCompact(await signCompact('prf', prf), fx(alg).pub, { algorithms: [alg] }),
      ).resolves.toBeTruthy();
      // PK.root corrupted consistently in priv and pub: regeneration catches it.
      await rejects(() => importJWK(jwk(flipByte(sk, 63), flipByte(pk, 31))), 'ERR_JWK_INVALID');
      // PK.seed corrupted consistently: PK.root no longer matches.
      await rejects(() => importJWK(jwk(flipByte(sk, 40), flipByte(pk, 8))), 'ERR_JWK_INVALID');
      // pub differs from the public half of priv.
      await rejects(() => importJWK(jwk(sk, flipByte(pk, 0))), 'ERR_JWK_INVALID');
      // Lengths.
      await rejects(() => importJWK(jwk(sk.subarray(0, 48), pk)), 'ERR_JWK_INVALID');
      await rejects(
        () => importJWK({ kty: 'AKP', alg, pub: bytesToB64u(new Uint8Array(64)) }),
        'ERR_JWK_INVALID',
      );
    },
  );

  it('key confusion between parameter sets of equal sizes (SHA2-128s / SHAKE-128s) is refused', async () => {
    const sha2 = fx('SLH-DSA-SHA2-128s');
    const shake = fx('SLH-DSA-SHAKE-128s');
    const t = await signCompact('confuse', sha2.priv);
    await rejects(
      () => verifyCompact(t, shake.pub, { algorithms: ['SLH-DSA-SHA2-128s', 'SLH-DSA-SHAKE-128s'] }),
      'ERR_KEY_MISMATCH',
    );
    // The same public key bytes relabelled as SHAKE do not verify the SHA2 signature either.
    const relabelled = await importJWK({ kty: 'AKP', alg: 'SLH-DSA-SHAKE-128s', pub: sha2.publicJwk.pub });
    const [, p, s] = t.split('.');
    const h = bytesToB64u(te.encode(JSON.stringify({ alg: 'SLH-DSA-SHAKE-128s' })));
    await rejects(
      () => verifyCompact(`${h}.${p}.${s}`, relabelled, { algorithms: ['SLH-DSA-SHAKE-128s'] }),
      'ERR_JWS_SIGNATURE_VERIFICATION_FAILED',
    );
    await rejects(() => importJWK(sha2.publicJwk, { alg: 'SLH-DSA-SHAKE-128s' }), 'ERR_KEY_MISMATCH');
  });
});

describe('raw slhdsa API input checks', () => {
  const alg = 'SLH-DSA-SHA2-128f';
  const sk = () => b64uToBytes(fx(alg).privateJwk.priv as string);
  const pk = () => b64uToBytes(fx(alg).publicJwk.pub as string);
  const m = new Uint8Array([1]);

  it('wrong parameter set, lengths, context and option combinations are typed errors', async () => {
    await rejects(() => slhdsa.sign('SLH-DSA-SHA2-256s' as SlhDsaAlg, sk(), m), 'ERR_ALG_UNSUPPORTED');
    await rejects(() => slhdsa.sign(alg, sk().subarray(1), m), 'ERR_INVALID_ARGUMENT');
    await rejects(() => slhdsa.sign(alg, sk(), 'text' as never), 'ERR_INVALID_ARGUMENT');
    await rejects(() => slhdsa.sign(alg, sk(), m, { context: new Uint8Array(256) }), 'ERR_INVALID_ARGUMENT');
    await rejects(() => slhdsa.sign(alg, sk(), m, { rnd: new Uint8Array(32) }), 'ERR_INVALID_ARGUMENT');
    await rejects(
      () => slhdsa.sign(alg, sk(), m, { rnd: new Uint8Array(16), deterministic: true }),
      'ERR_INVALID_ARGUMENT',
    );
    await rejects(
      () => slhdsa.verify(alg, pk().subarray(1), m, new Uint8Array(17088)),
      'ERR_INVALID_ARGUMENT',
    );
    await rejects(() => slhdsa.keygen(alg, new Uint8Array(32)), 'ERR_INVALID_ARGUMENT');
  });

  it('a signature of the wrong length is false, not an exception', async () => {
    for (const n of [0, 7856, 17087, 17089])
      expect(await slhdsa.verify(alg, pk(), m, new Uint8Array(n))).toBe(false);
  });
});
