/**
 * External μ and delegated signers: a key whose signing happens elsewhere (a KMS, an HSM, the
 * local sealed-key store) used through every JWS API. The local signer stands in for a KMS here:
 * with deterministic signing, the delegated key must sign byte for byte what the local key signs,
 * whichever path (message or μ) the signer is asked for. Signers that fail or lie are typed
 * errors, and nothing they return is used unverified.
 */

import { createPublicKey, type JsonWebKey, verify as nodeVerify } from 'node:crypto';
import {
  createDelegatedKey,
  createLocalJWKSet,
  type DelegatedSigner,
  exportJWK,
  generateKeyPair,
  importJWK,
  type Jwk,
  type KeySigners,
  localSigner,
  MLDSA_PARAMS,
  type MlDsaAlg,
  mldsa,
  type PrivateKey,
  type PublicKey,
  registry,
  type SignRequest,
  signCompact,
  signGeneral,
  signJwt,
  signMessage,
  slhdsa,
  verifyCompact,
  verifyGeneral,
  verifyJwt,
} from '@pqid/jose';
import { beforeAll, describe, expect, it } from 'vitest';
// Internal: the strict DER decoder, to play a PKCS#11-style signer that returns raw r‖s.
import { derToRaw, rawToDer } from '../src/algorithms/delegate.ts';
import { suiteAlgorithms } from './helpers/algs.ts';
import { rejects } from './helpers/assert.ts';
import { availableBackends } from './helpers/backends.ts';
import { acvpSigGen, toHex } from './helpers/vectors.ts';

const ML = Object.keys(MLDSA_PARAMS) as MlDsaAlg[];
const te = new TextEncoder();
const familyOf = (alg: string) => registry().find((e) => e.alg === alg)?.family;

/** Wraps a signer: records each request kind, optionally overriding capabilities or the answer. */
function recording(
  inner: DelegatedSigner,
  over: Partial<DelegatedSigner['capabilities']> = {},
  answer?: (req: SignRequest, real: () => Promise<Uint8Array>) => Promise<unknown>,
): DelegatedSigner & { kinds: string[] } {
  const kinds: string[] = [];
  return {
    alg: inner.alg,
    publicJwk: inner.publicJwk,
    capabilities: { ...inner.capabilities, ...over },
    kinds,
    async sign(req) {
      kinds.push(req.kind);
      const real = () => inner.sign(req);
      return (answer ? answer(req, real) : real()) as Promise<Uint8Array>;
    },
  };
}

async function local(alg: string, opts: Parameters<typeof generateKeyPair>[1] = {}) {
  const { privateJwk, publicJwk } = await generateKeyPair(alg, opts);
  return { key: (await importJWK(privateJwk)) as PrivateKey, publicJwk, privateJwk };
}

describe('external μ (FIPS 204)', () => {
  it.each(ML)('%s: signMu(mu(M)) is byte for byte sign(M), with and without a context', async (alg) => {
    const seed = crypto.getRandomValues(new Uint8Array(32));
    const { publicKey } = await mldsa.keygen(alg, seed);
    for (const context of [undefined, te.encode('COMPSIG-label')]) {
      for (const message of [new Uint8Array(0), te.encode('hello'), new Uint8Array(10_000).fill(7)]) {
        const direct = await mldsa.sign(alg, seed, message, {
          deterministic: true,
          ...(context ? { context } : {}),
        });
        const mu = mldsa.mu(alg, publicKey, message, context ? { context } : {});
        expect(mu.length).toBe(64);
        const viaMu = await mldsa.signMu(alg, seed, mu, { deterministic: true });
        expect(toHex(viaMu)).toBe(toHex(direct));
      }
    }
    // A μ over another context gives a signature the message does not verify under.
    const m = te.encode('x');
    const wrong = await mldsa.signMu(alg, seed, mldsa.mu(alg, publicKey, m, { context: te.encode('y') }));
    expect(await mldsa.verify(alg, publicKey, m, wrong)).toBe(false);
    const right = await mldsa.signMu(alg, seed, mldsa.mu(alg, publicKey, m));
    expect(await mldsa.verify(alg, publicKey, m, right)).toBe(true);
  });

  const muBackends = availableBackends().filter((b) => b.capabilities.externalMu);
  it('external μ is on noble and, with liboqs patch 0004, on the native backends', () => {
    const names = muBackends.map((b) => b.name);
    expect(names).toContain('noble');
    if (availableBackends().some((b) => b.name === 'native')) expect(names).toContain('native');
  });

  it.each(muBackends.map((b) => b.name))(
    'ACVP sigGen externalMu groups (FIPS204 and -tr1) reproduce byte for byte on %s',
    async (backend) => {
      const groups = [...acvpSigGen('FIPS204'), ...acvpSigGen('FIPS204-tr1')].filter(
        (g) => g.externalMu === true,
      );
      expect(groups.length).toBe(18);
      const bad: string[] = [];
      let n = 0;
      for (const g of groups)
        for (const t of g.tests) {
          const sig = await mldsa.signMu(g.parameterSet, t.secret, t.mu as Uint8Array, {
            backend,
            ...(g.deterministic ? { deterministic: true } : { rnd: t.rnd as Uint8Array }),
          });
          if (toHex(sig) !== toHex(t.signature)) bad.push(`${g.file} tg${g.tgId} tc${t.tcId}`);
          n++;
        }
      expect(bad).toEqual([]);
      expect(n).toBe(270);
    },
  );

  it('refuses a μ of the wrong length, and external μ pinned to a backend without it', async () => {
    const seed = new Uint8Array(32);
    await rejects(() => mldsa.signMu('ML-DSA-44', seed, new Uint8Array(63)), 'ERR_INVALID_ARGUMENT');
    await rejects(
      () => mldsa.signMu('ML-DSA-44', seed, new Uint8Array(64), { backend: 'node' }),
      'ERR_BACKEND_UNAVAILABLE',
    );
    expect(() => mldsa.mu('ML-DSA-44', new Uint8Array(10), new Uint8Array(1))).toThrow(/publicKey/);
  });
});

describe('delegated keys sign what the local key signs', () => {
  // Every algorithm whose signatures are fully deterministic given `deterministic: true`.
  const deterministic = suiteAlgorithms().filter(
    (a) => ['ml-dsa', 'slh-dsa'].includes(familyOf(a) ?? '') || /-Ed(25519|448)$/.test(a),
  );

  it.each(deterministic)('%s: byte-identical compact JWS through the delegated key', async (alg) => {
    const { key } = await local(alg);
    const delegated = await createDelegatedKey(localSigner(key, { deterministic: true }), { alg });
    expect(delegated.delegated).toBe(true);
    expect(delegated.kid).toBe(key.kid);
    const want = await signCompact('same payload', key, { deterministic: true });
    expect(await signCompact('same payload', delegated)).toBe(want);
  });

  it.each(ML)('%s: the μ path gives the same JWS as the message path', async (alg) => {
    const { key } = await local(alg);
    const want = await signCompact('payload', key, { deterministic: true });
    const inner = localSigner(key, { deterministic: true }) as DelegatedSigner;
    const muOnly = recording(inner, { message: false });
    expect(await signCompact('payload', await createDelegatedKey(muOnly))).toBe(want);
    expect(muOnly.kinds).toEqual(['mu']);
    // A KMS-like signer: raw messages up to 4096 bytes, μ beyond.
    const kms = recording(inner, { maxMessageBytes: 4096 });
    const k = await createDelegatedKey(kms);
    await signCompact('small', k);
    const big = 'x'.repeat(5000);
    expect(await signCompact(big, k)).toBe(await signCompact(big, key, { deterministic: true }));
    expect(kms.kinds).toEqual(['message', 'mu']);
  });

  it.each(['ML-DSA-65-ES256', 'ML-DSA-87-ES384'])(
    '%s: the halves in two signers make a composite whose ML-DSA half is byte-identical',
    async (alg) => {
      const { key, publicJwk } = await local(alg);
      const signers = localSigner(key, { deterministic: true });
      expect(Object.keys(signers).sort()).toEqual(['mldsa', 'traditional']);
      const delegated = await createDelegatedKey(signers, { alg });
      expect(delegated.kid).toBe(key.kid);
      const a = (await signCompact('p', key, { deterministic: true })).split('.')[2] as string;
      const b = (await signCompact('p', delegated)).split('.')[2] as string;
      const m = MLDSA_PARAMS[alg.slice(0, 9) as MlDsaAlg].signature;
      expect(toHex(Buffer.from(b, 'base64url').subarray(0, m))).toBe(
        toHex(Buffer.from(a, 'base64url').subarray(0, m)),
      );
      // ECDSA is randomised: the DER half differs but verifies.
      const t = await signCompact('p', delegated);
      await expect(verifyCompact(t, await importJWK(publicJwk), { algorithms: [alg] })).resolves.toBeTruthy();
    },
  );

  it.each(['ML-DSA-65-ES256', 'ML-DSA-87-ES384', 'ML-DSA-65-Ed25519'])(
    "%s: over a local key's own signers, the delegated key signs the way the key does",
    async (alg) => {
      const { key, publicJwk } = await local(alg);
      const paths = () => mldsa.stats().compositeSigns;
      const at = paths();
      await signCompact('p', key);
      const own = paths();
      const delegated = await createDelegatedKey(localSigner(key), { alg, verify: false });
      const t = await signCompact('p', delegated);
      const after = paths();
      // Same path as the plain key (whole where the backend signs it whole), never two halves.
      expect(after.delegated - own.delegated).toBe(0);
      expect([after.whole - own.whole, after.split - own.split]).toEqual([
        own.whole - at.whole,
        own.split - at.split,
      ]);
      await expect(verifyCompact(t, await importJWK(publicJwk), { algorithms: [alg] })).resolves.toBeTruthy();
      // Signers that are not exactly the local key's (a wrapper, a KMS) go half by half.
      const { mldsa: m, traditional } = localSigner(key) as {
        mldsa: DelegatedSigner;
        traditional: DelegatedSigner;
      };
      const wrapped = await createDelegatedKey({ mldsa: { ...m }, traditional: { ...traditional } }, { alg });
      await signCompact('p', wrapped);
      expect(paths().delegated - after.delegated).toBe(1);
    },
  );

  it('the ML-DSA half of a composite goes through μ when its signer has no context support', async () => {
    const alg = 'ML-DSA-44-Ed25519';
    const { key } = await local(alg);
    const { mldsa: m, traditional } = localSigner(key, { deterministic: true }) as {
      mldsa: DelegatedSigner;
      traditional: DelegatedSigner;
    };
    const noContext = recording(m, { context: false });
    const delegated = await createDelegatedKey({ mldsa: noContext, traditional }, { alg });
    expect(await signCompact('p', delegated)).toBe(await signCompact('p', key, { deterministic: true }));
    expect(noContext.kinds).toEqual(['mu']);
  });

  it.each(['ES256', 'ES384', 'EdDSA', 'Ed25519', 'RS256', 'PS256'])(
    '%s: a delegated classical key signs JWS that jose-level verification accepts',
    async (alg) => {
      const { key, publicJwk } = await local(alg);
      const delegated = await createDelegatedKey(localSigner(key));
      const t = await signCompact('classical', delegated);
      await expect(verifyCompact(t, await importJWK(publicJwk), { algorithms: [alg] })).resolves.toBeTruthy();
    },
  );

  it('the local signer of a classical handle signs without deprecated KeyObject.from (no DEP0204)', async () => {
    const warnings: string[] = [];
    const onWarning = (w: Error & { code?: string }) => warnings.push(`${w.code ?? w.name}: ${w.message}`);
    process.on('warning', onWarning);
    try {
      for (const alg of ['ES256', 'RS256', 'PS256', 'EdDSA']) {
        const { key, publicJwk } = await local(alg);
        const t = await signCompact('w', await createDelegatedKey(localSigner(key), { verify: false }));
        await expect(
          verifyCompact(t, await importJWK(publicJwk), { algorithms: [alg] }),
        ).resolves.toBeTruthy();
        // The X.509 / XML-DSig path signs through the same local signer.
        expect((await signMessage(key, new Uint8Array([1, 2, 3]))).length).toBeGreaterThan(0);
      }
      // Warnings are emitted on the next tick.
      await new Promise((r) => setImmediate(r));
    } finally {
      process.off('warning', onWarning);
    }
    expect(warnings.filter((w) => w.includes('DEP0204'))).toEqual([]);
  });

  it('a delegated key works in signJwt and signGeneral, and keeps no secret', async () => {
    const ml = await local('ML-DSA-65');
    const es = await local('ES256');
    const dm = await createDelegatedKey(localSigner(ml.key));
    const de = await createDelegatedKey(localSigner(es.key));
    const set = await createLocalJWKSet({ keys: [ml.publicJwk, es.publicJwk] });
    const jwt = await signJwt({ sub: 'alice' }, dm, { issuer: 'https://idp.example' });
    expect((await verifyJwt(jwt, set, { algorithms: ['ML-DSA-65'] })).claims.sub).toBe('alice');
    const g = await signGeneral('both', [{ key: de }, { key: dm }]);
    const r = await verifyGeneral(g, set, { algorithms: ['ES256', 'ML-DSA-65'], policy: 'all' });
    expect(r.verified).toHaveLength(2);
    await rejects(() => exportJWK(dm), 'ERR_INVALID_ARGUMENT');
    expect(() => JSON.stringify(dm)).toThrow();
    expect(String(dm)).toContain('delegated');
    expect(exportJWK(dm.publicKey)).toEqual(ml.publicJwk);
  });
});

describe('signers that fail or lie', () => {
  let base: { key: PrivateKey; publicJwk: Jwk; signer: DelegatedSigner; pub: PublicKey };
  beforeAll(async () => {
    const { key, publicJwk } = await local('ML-DSA-44');
    base = {
      key,
      publicJwk,
      signer: localSigner(key) as DelegatedSigner,
      pub: (await importJWK(publicJwk)) as PublicKey,
    };
  });
  const answering = (answer: Parameters<typeof recording>[2], over = {}) =>
    recording(base.signer, over, answer);

  it('a signer that throws is ERR_SIGNER_FAILED, with the cause kept', async () => {
    const k = await createDelegatedKey(
      answering(async () => {
        throw new Error('KMS: AccessDeniedException');
      }),
    );
    const e = await rejects(() => signCompact('x', k), 'ERR_SIGNER_FAILED');
    expect((e.cause as Error).message).toContain('AccessDenied');
  });

  it('non-bytes, the wrong length, or another key’s signature are ERR_SIGNER_INVALID_SIGNATURE', async () => {
    const other = await local('ML-DSA-44');
    const otherSigner = localSigner(other.key) as DelegatedSigner;
    const lies: Parameters<typeof recording>[2][] = [
      async () => 'not bytes',
      async () => new Uint8Array(MLDSA_PARAMS['ML-DSA-44'].signature - 1),
      async () => new Uint8Array(MLDSA_PARAMS['ML-DSA-44'].signature), // right length, all zeros
      async (req) => otherSigner.sign(req), // a real signature, by the wrong key
    ];
    for (const lie of lies) {
      const k = await createDelegatedKey(answering(lie));
      await rejects(() => signCompact('x', k), 'ERR_SIGNER_INVALID_SIGNATURE');
    }
    // With verification switched off the wrong-key signature is returned, and then fails where it lands.
    const unchecked = await createDelegatedKey(answering(lies[3]), { verify: false });
    const t = await signCompact('x', unchecked);
    await rejects(
      () => verifyCompact(t, base.pub, { algorithms: ['ML-DSA-44'] }),
      'ERR_JWS_SIGNATURE_VERIFICATION_FAILED',
    );
  });

  it('malformed ECDSA encodings are ERR_SIGNER_INVALID_SIGNATURE; a declared raw encoding is accepted', async () => {
    const es = await local('ES256');
    // The local signer answers raw r‖s (WebCrypto); a KMS-style signer answers DER and says so.
    const rawSigner = localSigner(es.key) as DelegatedSigner;
    expect(rawSigner.capabilities.ecdsaEncoding).toBe('raw');
    const inner = recording(rawSigner, { ecdsaEncoding: 'der' }, async (_req, real) =>
      rawToDer(await real()),
    );
    const der = await inner.sign({ kind: 'message', message: new Uint8Array(1), context: new Uint8Array(0) });
    const bad = [
      new Uint8Array([...der, 0]), // trailing byte
      Uint8Array.of(0x30, 0x06, 0x02, 0x01, 0x00, 0x02, 0x01, 0x80), // negative s
      new Uint8Array(64), // raw when DER was declared
    ];
    for (const b of bad) {
      const k = await createDelegatedKey(recording(inner, {}, async () => b));
      await rejects(() => signCompact('x', k), 'ERR_SIGNER_INVALID_SIGNATURE');
    }
    // A PKCS#11-style signer returns raw r‖s and says so.
    const raw = recording(inner, { ecdsaEncoding: 'raw' }, async (_req, real) => {
      return derToRaw(await real(), 32);
    });
    const t = await signCompact('raw', await createDelegatedKey(raw));
    await expect(
      verifyCompact(t, await importJWK(es.publicJwk), { algorithms: ['ES256'] }),
    ).resolves.toBeTruthy();
  });

  it('a request the signer cannot take is ERR_SIGNER_UNSUPPORTED', async () => {
    const tooSmall = await createDelegatedKey(
      answering(undefined, { maxMessageBytes: 10, externalMu: false }),
    );
    await rejects(() => signCompact('a payload longer than ten bytes', tooSmall), 'ERR_SIGNER_UNSUPPORTED');
    const nothing = await createDelegatedKey(answering(undefined, { message: false, externalMu: false }));
    await rejects(() => signCompact('x', nothing), 'ERR_SIGNER_UNSUPPORTED');
    // An SLH-DSA signer has no μ path: too large is unsupported.
    const slh = await local('SLH-DSA-SHA2-128f');
    const small = await createDelegatedKey(
      recording(localSigner(slh.key) as DelegatedSigner, { maxMessageBytes: 4 }),
    );
    await rejects(() => signCompact('longer', small), 'ERR_SIGNER_UNSUPPORTED');
  });

  it('createDelegatedKey refuses mismatched or malformed signers', async () => {
    const es = await local('ES256');
    const ed = await local('Ed25519');
    const ml65 = await local('ML-DSA-65');
    const s = (k: PrivateKey) => localSigner(k) as DelegatedSigner;
    await rejects(() => createDelegatedKey(s(base.key), { alg: 'ML-DSA-65' }), 'ERR_INVALID_ARGUMENT');
    await rejects(
      () => createDelegatedKey({ ...s(base.key), publicJwk: ml65.publicJwk }),
      'ERR_KEY_MISMATCH',
    );
    await rejects(
      () => createDelegatedKey({ ...s(base.key), sign: undefined } as never),
      'ERR_INVALID_ARGUMENT',
    );
    await rejects(
      () => createDelegatedKey({ ...s(base.key), publicJwk: { ...base.publicJwk, priv: 'AA' } }),
      'ERR_INVALID_ARGUMENT',
    );
    const pair: KeySigners = { mldsa: s(base.key), traditional: s(es.key) };
    await rejects(() => createDelegatedKey(pair), 'ERR_INVALID_ARGUMENT'); // no alg
    await rejects(() => createDelegatedKey(pair, { alg: 'ML-DSA-65-ES256' }), 'ERR_INVALID_ARGUMENT'); // 44 ≠ 65
    await rejects(() => createDelegatedKey(pair, { alg: 'ML-DSA-44-Ed25519' }), 'ERR_INVALID_ARGUMENT'); // ES256 ≠ Ed25519
    await expect(
      createDelegatedKey({ mldsa: s(base.key), traditional: s(ed.key) }, { alg: 'ML-DSA-44-Ed25519' }),
    ).resolves.toBeTruthy();
    await rejects(() => createDelegatedKey(s(base.key), { alg: 'ML-DSA-44-ES256' }), 'ERR_INVALID_ARGUMENT');
  });
});

describe('signMessage: raw signatures for X.509 and XML-DSig', () => {
  const msg = te.encode('TBSCertificate bytes');

  it('ML-DSA and SLH-DSA: pure, empty context, the same through a delegated key', async () => {
    for (const alg of ['ML-DSA-44', 'SLH-DSA-SHA2-128f']) {
      const { key, publicJwk } = await local(alg);
      const a = await signMessage(key, msg, { deterministic: true });
      const d = await createDelegatedKey(localSigner(key, { deterministic: true }));
      expect(toHex(await signMessage(d, msg))).toBe(toHex(a));
      const pk = Buffer.from(publicJwk.pub as string, 'base64url');
      const ok =
        alg === 'ML-DSA-44'
          ? await mldsa.verify(alg, pk, msg, a)
          : await slhdsa.verify(alg as 'SLH-DSA-SHA2-128f', pk, msg, a);
      expect(ok).toBe(true);
    }
  });

  it('ECDSA in DER (X.509) or raw r‖s (XML-DSig), local and delegated; a lying classical signer is caught', async () => {
    const { key, publicJwk } = await local('ES256');
    const pub = createPublicKey({ key: publicJwk as JsonWebKey, format: 'jwk' });
    for (const k of [key, await createDelegatedKey(localSigner(key))]) {
      const der = await signMessage(k, msg);
      expect(der[0]).toBe(0x30);
      expect(nodeVerify('sha256', msg, pub, der)).toBe(true);
      const raw = await signMessage(k, msg, { ecdsaEncoding: 'raw' });
      expect(raw.length).toBe(64);
      expect(nodeVerify('sha256', msg, { key: pub, dsaEncoding: 'ieee-p1363' }, raw)).toBe(true);
    }
    const other = await local('ES256');
    const liar = await createDelegatedKey(
      recording(localSigner(key) as DelegatedSigner, {}, (req) =>
        (localSigner(other.key) as DelegatedSigner).sign(req),
      ),
    );
    await rejects(() => signMessage(liar, msg), 'ERR_SIGNER_INVALID_SIGNATURE');
  });

  it('composites have no raw-message form here, and non-handles are refused', async () => {
    const { key } = await local('ML-DSA-44-Ed25519');
    await rejects(() => signMessage(key, msg), 'ERR_INVALID_ARGUMENT');
    await rejects(() => signMessage({} as PrivateKey, msg), 'ERR_INVALID_ARGUMENT');
  });
});

describe('deterministic signing through a signer', () => {
  it('is refused unless the signer says it signs deterministically', async () => {
    const { key } = await local('ML-DSA-44');
    const hedged = await createDelegatedKey(localSigner(key));
    await rejects(() => signCompact('x', hedged, { deterministic: true }), 'ERR_SIGNER_UNSUPPORTED');
    await rejects(
      () => signMessage(hedged, new Uint8Array(1), { deterministic: true }),
      'ERR_SIGNER_UNSUPPORTED',
    );
    const det = await createDelegatedKey(localSigner(key, { deterministic: true }));
    expect(await signCompact('x', det, { deterministic: true })).toBe(
      await signCompact('x', key, { deterministic: true }),
    );
  });
});
