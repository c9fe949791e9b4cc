/**
 * Composite ML-DSA JOSE examples from draft-ietf-jose-pq-composite-sigs-05 Appendix A.
 *
 * Encodings in -05 (NOT the raw ones SCHEMAS.md's "Composite encodings" section describes):
 * ECDSA signatures are DER Ecdsa-Sig-Value, EC public keys 0x04‖X‖Y, EC private keys a DER
 * ECPrivateKey; EdDSA keys/signatures are raw.
 *
 * The Label / pre-hash table below is copied from the draft (via SCHEMAS.md), not from src, so
 * the M′ check is independent of the implementation under test.
 */
import crypto from 'node:crypto';
import {
  algorithms,
  calculateThumbprint,
  importJWK,
  MLDSA_PARAMS,
  type MlDsaAlg,
  mldsa,
  type PrivateKey,
  registry,
  signCompact,
  verifyCompact,
} from '@pqid/jose';
import { afterAll, describe, expect, it } from 'vitest';
import { availableBackends, flipByte, onBackend, rejectsWithCode } from './helpers/backends.ts';
import { b64uToBytes, bytesToB64u, compositeExamples, toHex, unhex } from './helpers/vectors.ts';

const SPEC: Record<
  string,
  {
    mldsa: MlDsaAlg;
    label: string;
    ph: 'sha256' | 'sha512' | 'shake256';
    trad: 'P-256' | 'P-384' | 'Ed25519' | 'Ed448';
  }
> = {
  'ML-DSA-44-ES256': {
    mldsa: 'ML-DSA-44',
    label: 'COMPSIG-MLDSA44-ECDSA-P256-SHA256',
    ph: 'sha256',
    trad: 'P-256',
  },
  'ML-DSA-44-Ed25519': {
    mldsa: 'ML-DSA-44',
    label: 'COMPSIG-MLDSA44-Ed25519-SHA512',
    ph: 'sha512',
    trad: 'Ed25519',
  },
  'ML-DSA-65-ES256': {
    mldsa: 'ML-DSA-65',
    label: 'COMPSIG-MLDSA65-ECDSA-P256-SHA512',
    ph: 'sha512',
    trad: 'P-256',
  },
  'ML-DSA-65-Ed25519': {
    mldsa: 'ML-DSA-65',
    label: 'COMPSIG-MLDSA65-Ed25519-SHA512',
    ph: 'sha512',
    trad: 'Ed25519',
  },
  'ML-DSA-87-ES384': {
    mldsa: 'ML-DSA-87',
    label: 'COMPSIG-MLDSA87-ECDSA-P384-SHA512',
    ph: 'sha512',
    trad: 'P-384',
  },
  'ML-DSA-87-Ed448': {
    mldsa: 'ML-DSA-87',
    label: 'COMPSIG-MLDSA87-Ed448-SHAKE256',
    ph: 'shake256',
    trad: 'Ed448',
  },
};

const utf8 = (s: string) => new TextEncoder().encode(s);
const cat = (...p: Uint8Array[]) => new Uint8Array(Buffer.concat(p));
const ph = (alg: 'sha256' | 'sha512' | 'shake256', m: Uint8Array) =>
  new Uint8Array(
    crypto
      .createHash(alg, alg === 'shake256' ? { outputLength: 64 } : {})
      .update(m)
      .digest(),
  );

// ---- DER helpers for the ECDSA half ---------------------------------------------------------

/** Lax BER reader for Ecdsa-Sig-Value: accepts long-form lengths, extra leading zeros, trailing junk. */
function laxEcdsa(sig: Uint8Array, n: number): Uint8Array | undefined {
  let o = 0;
  const len = () => {
    const b = sig[o++] as number;
    if (b < 0x80) return b;
    let l = 0;
    for (let i = 0; i < (b & 0x7f); i++) l = (l << 8) | (sig[o++] as number);
    return l;
  };
  if (sig[o++] !== 0x30) return undefined;
  len();
  const out = new Uint8Array(2 * n);
  for (let i = 0; i < 2; i++) {
    if (sig[o++] !== 0x02) return undefined;
    const l = len();
    let v = sig.subarray(o, o + l);
    o += l;
    while (v.length > n && v[0] === 0) v = v.subarray(1);
    if (v.length > n) return undefined;
    out.set(v, (i + 1) * n - v.length);
  }
  return out;
}

function strictParts(der: Uint8Array): { r: Uint8Array; s: Uint8Array } {
  // Short-form DER as produced by every conforming signer for P-256/P-384.
  expect(der[0]).toBe(0x30);
  expect(der[1]).toBe(der.length - 2);
  expect(der[2]).toBe(0x02);
  const lr = der[3] as number;
  const r = der.subarray(4, 4 + lr);
  expect(der[4 + lr]).toBe(0x02);
  const ls = der[5 + lr] as number;
  const s = der.subarray(6 + lr, 6 + lr + ls);
  expect(6 + lr + ls).toBe(der.length);
  return { r, s };
}

const int = (v: Uint8Array, longForm = false) =>
  cat(Uint8Array.of(0x02), longForm ? Uint8Array.of(0x81, v.length) : Uint8Array.of(v.length), v);
const seq = (body: Uint8Array, longForm = false) =>
  cat(Uint8Array.of(0x30), longForm ? Uint8Array.of(0x81, body.length) : Uint8Array.of(body.length), body);

function nonCanonicalVariants(der: Uint8Array, n: number): Record<string, Uint8Array> {
  const { r, s } = strictParts(der);
  return {
    'extra leading 0x00 on r': seq(cat(int(cat(Uint8Array.of(0), r)), int(s))),
    'extra leading 0x00 on s': seq(cat(int(r), int(cat(Uint8Array.of(0), s)))),
    'BER long-form SEQUENCE length': seq(cat(int(r), int(s)), true),
    'BER long-form INTEGER length': seq(cat(int(r, true), int(s))),
    'trailing byte after the SEQUENCE': cat(der, Uint8Array.of(0)),
    'raw r‖s (pre-05 encoding)': laxEcdsa(der, n) as Uint8Array,
  };
}

// ---------------------------------------------------------------------------------------------

const examples = compositeExamples();
const usable = new Set(algorithms());
const avail = availableBackends();
const counts: Record<string, Record<string, number>> = {};
const bump = (b: string, k: string) => {
  counts[b] ??= {};
  counts[b][k] = (counts[b][k] ?? 0) + 1;
};
afterAll(() => {
  for (const [b, c] of Object.entries(counts)) console.log(`composite-05 [${b}] ${JSON.stringify(c)}`);
});

describe('composite -05 example files', () => {
  it('there is one example for every composite in the registry', () => {
    const reg = registry()
      .filter((e) => e.family === 'composite')
      .map((e) => e.alg)
      .sort();
    expect(reg.length).toBe(6);
    expect(examples.map((e) => e.alg).sort()).toEqual(reg);
    const skipped = reg.filter((a) => !usable.has(a));
    console.log(
      `composite-05: ${reg.length - skipped.length} runnable, unavailable here: ${skipped.join(', ') || 'none'}`,
    );
  });
});

describe.each(examples.map((e) => [e.alg, e] as const))('%s', (alg, ex) => {
  const spec = SPEC[alg];
  if (!spec) throw new Error(`no Label/PH for ${alg}`);
  const runnable = usable.has(alg);
  const mp = MLDSA_PARAMS[spec.mldsa];
  const { priv: _priv, ...publicJwk } = ex.jwk;
  const [h, p, s] = ex.jws.split('.') as [string, string, string];
  const tbs = unhex(ex.raw_to_be_signed);
  const compositeSig = unhex(ex.raw_composite_signature);
  const mldsaSig = compositeSig.subarray(0, mp.signature);
  const tradSig = compositeSig.subarray(mp.signature);
  const pubBytes = unhex(ex.raw_composite_public_key);
  const mldsaPub = pubBytes.subarray(0, mp.publicKey);
  const isEc = spec.trad === 'P-256' || spec.trad === 'P-384';
  const n = spec.trad === 'P-256' ? 32 : 48;

  it('the example is self-consistent (signing input, signature, public key)', () => {
    expect(new TextDecoder().decode(tbs)).toBe(`${h}.${p}`);
    expect(toHex(b64uToBytes(s))).toBe(ex.raw_composite_signature);
    expect(toHex(b64uToBytes(ex.jwk.pub))).toBe(ex.raw_composite_public_key);
    expect(toHex(b64uToBytes(ex.jwk.priv).subarray(0, 32))).toBe(ex.mldsa_seed);
    if (isEc) {
      // -05 encodings: 0x04‖X‖Y public key, DER signature.
      expect(pubBytes.length).toBe(mp.publicKey + 1 + 2 * n);
      expect(pubBytes[mp.publicKey]).toBe(0x04);
      expect(tradSig[0]).toBe(0x30);
      const ecdh = crypto.createECDH(spec.trad === 'P-256' ? 'prime256v1' : 'secp384r1');
      ecdh.setPrivateKey(unhex(ex.ecdsa_d as string));
      expect(toHex(ecdh.getPublicKey())).toBe(toHex(pubBytes.subarray(mp.publicKey)));
    }
  });

  it('M′ = "CompositeAlgorithmSignatures2025" ‖ Label ‖ 0x00 ‖ PH(signing input) equals raw_message_representative', () => {
    const mPrime = cat(
      utf8('CompositeAlgorithmSignatures2025'),
      utf8(spec.label),
      Uint8Array.of(0),
      ph(spec.ph, tbs),
    );
    expect(toHex(mPrime)).toBe(ex.raw_message_representative);
  });

  it('the traditional half verifies over M′ with node:crypto (independent of src)', () => {
    const mPrime = unhex(ex.raw_message_representative);
    const tradPub = pubBytes.subarray(mp.publicKey);
    let key: crypto.KeyObject;
    if (isEc) {
      key = crypto.createPublicKey({
        key: {
          kty: 'EC',
          crv: spec.trad,
          x: bytesToB64u(tradPub.subarray(1, 1 + n)),
          y: bytesToB64u(tradPub.subarray(1 + n)),
        },
        format: 'jwk',
      });
      expect(
        crypto.verify(
          spec.trad === 'P-256' ? 'sha256' : 'sha384',
          mPrime,
          { key, dsaEncoding: 'der' },
          tradSig,
        ),
      ).toBe(true);
    } else {
      key = crypto.createPublicKey({
        key: { kty: 'OKP', crv: spec.trad, x: bytesToB64u(tradPub) },
        format: 'jwk',
      });
      expect(crypto.verify(null, mPrime, key, tradSig)).toBe(true);
    }
  });

  it('kid equals the RFC 7638 thumbprint (alg, kty, pub), and importJWK derives it', async () => {
    expect(calculateThumbprint(publicJwk)).toBe(ex.jwk.kid);
    if (!runnable) return;
    const { kid: _k, ...noKid } = publicJwk;
    expect((await importJWK(noKid)).kid).toBe(ex.jwk.kid);
  });

  it.runIf(runnable)(
    'a private JWK whose pub does not match priv (either component) is rejected (ERR_JWK_INVALID)',
    async () => {
      const pubB = b64uToBytes(ex.jwk.pub);
      for (const i of [500, pubB.length - 2]) {
        await rejectsWithCode(
          importJWK({ ...ex.jwk, pub: bytesToB64u(flipByte(pubB, i)) }),
          'ERR_JWK_INVALID',
        );
      }
    },
  );

  describe.runIf(runnable).each(avail.map((b) => [b.name, b] as const))('backend %s', (name, status) => {
    it('verifyCompact accepts the example with the public JWK', async () => {
      const pub = await importJWK(publicJwk);
      const { result, verifyCalls } = await onBackend(name, () =>
        verifyCompact(ex.jws, pub, { algorithms: [alg] }),
      );
      expect(verifyCalls).toBe(1);
      expect(new TextDecoder().decode(result.payload)).toBe(
        "It's a dangerous business, Frodo, going out your door.",
      );
      expect(result.protectedHeader).toEqual({ alg, kid: ex.jwk.kid });
      bump(name, 'verify');
    });

    it('the ML-DSA half verifies over M′ with ctx = Label', async () => {
      const ok = await mldsa.verify(spec.mldsa, mldsaPub, unhex(ex.raw_message_representative), mldsaSig, {
        context: utf8(spec.label),
        backend: name,
      });
      expect(ok).toBe(true);
      // ... and not with the empty context (the Label really is the ML-DSA context).
      expect(
        await mldsa.verify(spec.mldsa, mldsaPub, unhex(ex.raw_message_representative), mldsaSig, {
          backend: name,
        }),
      ).toBe(false);
    });

    it.runIf(status.capabilities.rnd)(
      'the ML-DSA half reproduces byte for byte (deterministic, ctx = Label)',
      async () => {
        const sig = await mldsa.sign(spec.mldsa, unhex(ex.mldsa_seed), unhex(ex.raw_message_representative), {
          context: utf8(spec.label),
          deterministic: true,
          backend: name,
        });
        expect(toHex(sig)).toBe(toHex(mldsaSig));
        bump(name, 'ML-DSA half byte-exact');
      },
    );

    it.runIf(status.capabilities.rnd)(
      'the private JWK re-signs deterministically: ML-DSA half identical (EdDSA: whole JWS identical)',
      async () => {
        const key = (await importJWK(ex.jwk)) as PrivateKey;
        const jws = await signCompact(b64uToBytes(p), key, { deterministic: true, backend: name });
        const [h2, p2, s2] = jws.split('.') as [string, string, string];
        expect(`${h2}.${p2}`).toBe(`${h}.${p}`);
        const sig = b64uToBytes(s2);
        expect(toHex(sig.subarray(0, mp.signature))).toBe(toHex(mldsaSig));
        if (!isEc) expect(jws).toBe(ex.jws); // Ed25519/Ed448 are deterministic too
        bump(name, 'deterministic re-sign');
      },
    );

    it('the private JWK imports, has the published kid, and signs a JWS that verifies', async () => {
      const key = (await importJWK(ex.jwk)) as PrivateKey;
      expect(key.type).toBe('private');
      expect(key.kid).toBe(ex.jwk.kid);
      const jws = await signCompact('fresh payload', key, { backend: name });
      const { result } = await onBackend(name, () =>
        verifyCompact(jws, key.publicKey, { algorithms: [alg] }),
      );
      expect(new TextDecoder().decode(result.payload)).toBe('fresh payload');
      // And with a key imported from the published public JWK only.
      const pub = await importJWK(publicJwk);
      await onBackend(name, () => verifyCompact(jws, pub, { algorithms: [alg] }));
      bump(name, 'fresh sign+verify');
    });

    it('tampering with either half fails verification', async () => {
      const pub = await importJWK(publicJwk);
      const key = (await importJWK(ex.jwk)) as PrivateKey;
      const other = b64uToBytes(
        (await signCompact('a different message', key, { backend: name })).split('.')[2] as string,
      );
      const withSig = (sig: Uint8Array) => `${h}.${p}.${bytesToB64u(sig)}`;
      const cases: Record<string, Uint8Array> = {
        'flipped byte in the ML-DSA half': flipByte(compositeSig, 100),
        'flipped last byte of the ML-DSA half': flipByte(compositeSig, mp.signature - 1),
        'flipped byte in the traditional half': flipByte(compositeSig, compositeSig.length - 5),
        'traditional half from a valid signature over another message': cat(
          mldsaSig,
          other.subarray(mp.signature),
        ),
        'ML-DSA half from a valid signature over another message': cat(
          other.subarray(0, mp.signature),
          tradSig,
        ),
        'traditional half missing': new Uint8Array(mldsaSig),
        'ML-DSA signature only, truncated by one byte': compositeSig.subarray(0, compositeSig.length - 1),
      };
      // The spliced-in halves are valid signatures on their own: the failures below are not accidents.
      expect(toHex(other.subarray(0, mp.signature))).not.toBe(toHex(mldsaSig));
      await onBackend(name, async () => {
        for (const [what, sig] of Object.entries(cases)) {
          await rejectsWithCode(
            verifyCompact(withSig(sig), pub, { algorithms: [alg] }),
            'ERR_JWS_SIGNATURE_VERIFICATION_FAILED',
          ).catch((e) => {
            throw new Error(`${what}: ${(e as Error).message}`);
          });
        }
      });
      bump(name, 'tamper cases rejected');
    });
  });

  it.runIf(runnable && isEc)('non-canonical encodings of the ECDSA half are rejected', async () => {
    const pub = await importJWK(publicJwk);
    const mPrime = unhex(ex.raw_message_representative);
    const tradPub = pubBytes.subarray(mp.publicKey);
    const key = crypto.createPublicKey({
      key: {
        kty: 'EC',
        crv: spec.trad,
        x: bytesToB64u(tradPub.subarray(1, 1 + n)),
        y: bytesToB64u(tradPub.subarray(1 + n)),
      },
      format: 'jwk',
    });
    const rawRS = laxEcdsa(tradSig, n) as Uint8Array;
    // Sanity: the (r, s) pair itself is valid, so each variant below differs only in encoding.
    expect(
      crypto.verify(
        spec.trad === 'P-256' ? 'sha256' : 'sha384',
        mPrime,
        { key, dsaEncoding: 'ieee-p1363' },
        rawRS,
      ),
    ).toBe(true);
    for (const [what, variant] of Object.entries(nonCanonicalVariants(tradSig, n))) {
      expect(toHex(laxEcdsa(variant, n) ?? variant), what).toBe(toHex(rawRS));
      expect(toHex(variant), what).not.toBe(toHex(tradSig));
      await rejectsWithCode(
        verifyCompact(`${h}.${p}.${bytesToB64u(cat(mldsaSig, variant))}`, pub, { algorithms: [alg] }),
        'ERR_JWS_SIGNATURE_VERIFICATION_FAILED',
      ).catch((e) => {
        throw new Error(`${what}: ${(e as Error).message}`);
      });
    }
    bump('any', 'non-canonical DER variants rejected');
  });

  it.runIf(runnable && isEc)('an ECDSA half with r = 0 or s = 0 is rejected', async () => {
    const pub = await importJWK(publicJwk);
    const { r, s: sBytes } = strictParts(tradSig);
    const zero = Uint8Array.of(0);
    for (const bad of [seq(cat(int(zero), int(sBytes))), seq(cat(int(r), int(zero)))]) {
      await rejectsWithCode(
        verifyCompact(`${h}.${p}.${bytesToB64u(cat(mldsaSig, bad))}`, pub, { algorithms: [alg] }),
        'ERR_JWS_SIGNATURE_VERIFICATION_FAILED',
      );
    }
  });
});
