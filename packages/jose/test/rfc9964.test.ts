/**
 * RFC 9964 (ML-DSA for JOSE) examples from cose-wg/draft-ietf-cose-dilithium: key import,
 * thumbprint kid, byte-exact deterministic re-signing and verification, on every backend.
 */

import {
  calculateThumbprint,
  decodeProtectedHeader,
  importJWK,
  mldsa,
  type PrivateKey,
  type PublicKey,
  registry,
  signCompact,
  verifyCompact,
} from '@pqid/jose';
import { afterAll, describe, expect, it } from 'vitest';
import { availableBackends, flipByte, onBackend, rejectsWithCode } from './helpers/backends.ts';
import { b64uToBytes, bytesToB64u, rfc9964Examples, toHex, unhex } from './helpers/vectors.ts';

const examples = rfc9964Examples();
const avail = availableBackends();
const counts: Record<string, Record<string, number>> = {};
const bump = (b: string, k: string) => {
  counts[b] ??= {};
  counts[b][k] = (counts[b][k] ?? 0) + 1;
};
afterAll(() => {
  for (const [b, c] of Object.entries(counts)) console.log(`RFC 9964 [${b}] ${JSON.stringify(c)}`);
});

describe('RFC 9964 example files', () => {
  it('one example per ML-DSA parameter set in the registry', () => {
    const sets = registry()
      .filter((e) => e.family === 'ml-dsa')
      .map((e) => e.alg)
      .sort();
    expect(examples.map((e) => e.alg).sort()).toEqual(sets);
  });
});

describe.each(examples.map((e) => [e.alg, e] as const))('%s', (alg, ex) => {
  const { priv: _priv, ...publicJwk } = ex.jwk;
  const [h, p, s] = ex.jws.split('.') as [string, string, string];
  const payload = b64uToBytes(p);

  it('the example is self-consistent (raw fields match the JWS and the JWK)', () => {
    expect(new TextDecoder().decode(unhex(ex.raw_to_be_signed))).toBe(`${h}.${p}`);
    expect(toHex(b64uToBytes(s))).toBe(ex.raw_signature);
    expect(toHex(b64uToBytes(ex.jwk.pub))).toBe(ex.raw_public_key);
    expect(toHex(b64uToBytes(ex.jwk.priv))).toBe(ex.priv);
  });

  it('calculateThumbprint equals the published kid', () => {
    expect(calculateThumbprint(publicJwk)).toBe(ex.jwk.kid);
    // Members other than alg/kty/pub must not change it.
    expect(calculateThumbprint({ ...publicJwk, kid: 'x', use: 'sig' })).toBe(ex.jwk.kid);
    expect(
      calculateThumbprint({ ...publicJwk, pub: bytesToB64u(flipByte(b64uToBytes(publicJwk.pub), 0)) }),
    ).not.toBe(ex.jwk.kid);
  });

  it('importJWK: public and private JWKs, kid = thumbprint when the JWK has none', async () => {
    const { kid, ...noKid } = publicJwk;
    const pub = (await importJWK(noKid)) as PublicKey;
    expect(pub.type).toBe('public');
    expect(pub.alg).toBe(alg);
    expect(pub.kid).toBe(ex.jwk.kid);
    expect(pub.kid).toBe(calculateThumbprint(publicJwk));
    const withKid = await importJWK(publicJwk);
    expect(withKid.kid).toBe(kid);
    const { kid: _k, ...privNoKid } = ex.jwk;
    const priv = (await importJWK(privNoKid)) as PrivateKey;
    expect(priv.type).toBe('private');
    expect(priv.kid).toBe(ex.jwk.kid);
    expect(priv.publicKey.jwk.pub).toBe(ex.jwk.pub);
  });

  it('a private JWK whose pub does not derive from priv is rejected (ERR_JWK_INVALID)', async () => {
    const badPub = bytesToB64u(flipByte(b64uToBytes(ex.jwk.pub), 500));
    await rejectsWithCode(importJWK({ ...ex.jwk, pub: badPub }), 'ERR_JWK_INVALID');
    await rejectsWithCode(
      importJWK({ ...ex.jwk, priv: bytesToB64u(flipByte(b64uToBytes(ex.jwk.priv), 0)) }),
      'ERR_JWK_INVALID',
    );
  });

  it('the example header is exactly what signCompact builds ({"alg","kid"} in that order)', () => {
    expect(new TextDecoder().decode(b64uToBytes(h))).toBe(JSON.stringify({ alg, kid: ex.jwk.kid }));
    expect(decodeProtectedHeader(ex.jws)).toEqual({ alg, kid: ex.jwk.kid });
  });

  describe.each(avail.map((b) => [b.name, b] as const))('backend %s', (name, status) => {
    it('keygen from the seed gives the published public key', async () => {
      const { publicKey } = await mldsa.keygen(alg, unhex(ex.priv), { backend: name });
      expect(toHex(publicKey)).toBe(ex.raw_public_key);
    });

    it.runIf(status.capabilities.rnd)(
      'deterministic signCompact reproduces the JWS byte for byte',
      async () => {
        const key = (await importJWK(ex.jwk)) as PrivateKey;
        const { result: jws, signCalls } = await onBackend(name, () =>
          signCompact(payload, key, { deterministic: true, backend: name }),
        );
        expect(signCalls).toBe(1);
        expect(jws).toBe(ex.jws);
        // Same thing one level down: raw ML-DSA over the signing input with ctx = "".
        const raw = await mldsa.sign(alg, unhex(ex.priv), unhex(ex.raw_to_be_signed), {
          deterministic: true,
          backend: name,
        });
        expect(toHex(raw)).toBe(ex.raw_signature);
        bump(name, 'byte-exact re-sign');
      },
    );

    it.runIf(!status.capabilities.rnd)(
      'without rnd: a hedged signCompact verifies with the published key; deterministic is refused',
      async () => {
        const key = (await importJWK(ex.jwk)) as PrivateKey;
        const jws = await signCompact(payload, key, { backend: name });
        expect(jws).not.toBe(ex.jws);
        expect(jws.split('.').slice(0, 2).join('.')).toBe(`${h}.${p}`);
        const pub = await importJWK(publicJwk);
        const { result } = await onBackend(name, () => verifyCompact(jws, pub, { algorithms: [alg] }));
        expect(toHex(result.payload)).toBe(toHex(payload));
        await rejectsWithCode(
          signCompact(payload, key, { deterministic: true, backend: name }),
          'ERR_BACKEND_UNAVAILABLE',
        );
        bump(name, 'hedged re-sign verified (no rnd)');
      },
    );

    it('verifyCompact accepts the example with its public key', async () => {
      const pub = await importJWK(publicJwk);
      const { result, verifyCalls } = await onBackend(name, () =>
        verifyCompact(ex.jws, pub, { algorithms: [alg] }),
      );
      expect(verifyCalls).toBe(1);
      expect(toHex(result.payload)).toBe(toHex(payload));
      expect(new TextDecoder().decode(result.payload)).toBe(
        'It’s a dangerous business, Frodo, going out your door.',
      );
      expect(result.protectedHeader).toEqual({ alg, kid: ex.jwk.kid });
      expect(result.key.kid).toBe(ex.jwk.kid);
      expect(
        await mldsa.verify(
          alg,
          unhex(ex.raw_public_key),
          unhex(ex.raw_to_be_signed),
          unhex(ex.raw_signature),
          { backend: name },
        ),
      ).toBe(true);
      bump(name, 'verify');
    });

    it('verifyCompact rejects a tampered example (signature, payload, header)', async () => {
      const pub = await importJWK(publicJwk);
      const sig = b64uToBytes(s);
      const badSig = `${h}.${p}.${bytesToB64u(flipByte(sig, 17))}`;
      const badPayload = `${h}.${bytesToB64u(flipByte(payload, 0))}.${s}`;
      const badHeader = `${bytesToB64u(new TextEncoder().encode(JSON.stringify({ alg, kid: ex.jwk.kid, typ: 'JWT' })))}.${p}.${s}`;
      await onBackend(name, async () => {
        for (const t of [badSig, badPayload, badHeader]) {
          await rejectsWithCode(
            verifyCompact(t, pub, { algorithms: [alg] }),
            'ERR_JWS_SIGNATURE_VERIFICATION_FAILED',
          );
        }
        // Context separation: the same signature is not valid for a non-empty context.
        expect(
          await mldsa.verify(
            alg,
            unhex(ex.raw_public_key),
            unhex(ex.raw_to_be_signed),
            unhex(ex.raw_signature),
            {
              context: new Uint8Array([0]),
              backend: name,
            },
          ),
        ).toBe(false);
      });
      bump(name, 'tamper rejected');
    });
  });

  it('verifyCompact refuses the example when its alg is not allowed, or with another parameter set’s key', async () => {
    const pub = await importJWK(publicJwk);
    const other = registry().find((e) => e.family === 'ml-dsa' && e.alg !== alg)?.alg as string;
    await rejectsWithCode(verifyCompact(ex.jws, pub, { algorithms: [other] }), 'ERR_ALG_NOT_ALLOWED');
    const otherEx = examples.find((e) => e.alg === other);
    if (otherEx) {
      const { priv: _p, ...otherPub } = otherEx.jwk;
      await rejectsWithCode(
        verifyCompact(ex.jws, await importJWK(otherPub), { algorithms: [alg] }),
        'ERR_KEY_MISMATCH',
      );
    }
  });
});
