/**
 * IETF Hackathon pqc-certificates JOSE artifacts (providers pqc-jose-cose-noble-ref and
 * pqc-jose-cose-py-ref, artifacts_jose_cose_v1).
 *
 * - Pure ML-DSA and the EdDSA composites use the same encodings as today's drafts: they must verify.
 * - The ECDSA composites (ML-DSA-*-ES256 / -ES384) predate draft -05: their public key is the raw
 *   x‖y point without the 0x04 prefix and their signature the raw r‖s (IEEE P1363) form, where -05
 *   requires 0x04‖X‖Y and a DER Ecdsa-Sig-Value. A strict -05 implementation must reject them at
 *   import (the "pub" length is one byte short), so we EXPECT ERR_JWK_INVALID. A second test shows
 *   that re-encoding exactly those two things makes them verify, i.e. the encoding is the only
 *   difference.
 * - SLH-DSA-SHA2-128s and SLH-DSA-SHAKE-128s (draft-ietf-cose-sphincs-plus: AKP, pub = PK.seed‖PK.root,
 *   priv = the 64-byte FIPS 205 secret key) verify like ML-DSA, on every backend that has SLH-DSA.
 */

import {
  calculateThumbprint,
  importJWK,
  MLDSA_PARAMS,
  type MlDsaAlg,
  type PrivateKey,
  registry,
  signCompact,
  verifyCompact,
} from '@pqid/jose';
import { afterAll, describe, expect, it } from 'vitest';
import { availableBackends, onBackend, rejectsWithCode } from './helpers/backends.ts';
import {
  b64uToBytes,
  bytesToB64u,
  HACKATHON_PROVIDERS,
  hackathonArtifacts,
  hackathonPayload,
  toHex,
} from './helpers/vectors.ts';

const avail = availableBackends();
const registered = new Set(registry().map((e) => e.alg));
const familyOf = new Map(registry().map((e) => [e.alg, e.family]));
const ECDSA_COMPOSITE = /^ML-DSA-(44|65|87)-ES(256|384)$/;

const counts: Record<string, number> = {};
const bump = (k: string) => {
  counts[k] = (counts[k] ?? 0) + 1;
};
afterAll(() => console.log(`hackathon artifacts: ${JSON.stringify(counts)}`));

const der = (raw: Uint8Array) => {
  const n = raw.length / 2;
  const int = (v: Uint8Array) => {
    let i = 0;
    while (i < v.length - 1 && v[i] === 0) i++;
    let m = v.subarray(i);
    if ((m[0] as number) & 0x80) m = new Uint8Array([0, ...m]);
    return [0x02, m.length, ...m];
  };
  const body = [...int(raw.subarray(0, n)), ...int(raw.subarray(n))];
  return new Uint8Array([0x30, body.length, ...body]);
};

describe.each(HACKATHON_PROVIDERS.map((p) => [p] as const))('provider %s', (provider) => {
  const artifacts = hackathonArtifacts(provider);
  const payload = hackathonPayload(provider);

  it('has the 11 algorithms PROVENANCE.md lists, and payload.txt is exactly the JWS payload (no trailing newline)', () => {
    expect(artifacts.length).toBe(11);
    expect(new TextDecoder().decode(payload)).toBe('This is a test of signature data');
    for (const a of artifacts) {
      expect(toHex(b64uToBytes(a.jws.split('.')[1] as string)), a.name).toBe(toHex(payload));
      expect(a.publicJwk.alg).toBe(a.name);
      expect(a.privateJwk.pub).toBe(a.publicJwk.pub);
    }
  });

  describe.each(artifacts.map((a) => [a.name, a] as const))('%s', (name, a) => {
    const supported = registered.has(name) && !ECDSA_COMPOSITE.test(name);

    it('kid is the RFC 7638 thumbprint over {alg, kty, pub}', () => {
      expect(calculateThumbprint(a.publicJwk)).toBe(a.publicJwk.kid);
    });

    if (supported) {
      const runs = avail.filter((b) => familyOf.get(name) !== 'slh-dsa' || b.capabilities.slhDsa);
      it.each(runs.map((b) => [b.name] as const))(
        'verifies with its public JWK on backend %s',
        async (backend) => {
          const pub = await importJWK(a.publicJwk);
          expect(pub.kid).toBe(a.publicJwk.kid);
          const { result, verifyCalls } = await onBackend(backend, () =>
            verifyCompact(a.jws, pub, { algorithms: [name] }),
          );
          expect(verifyCalls).toBe(1);
          expect(toHex(result.payload)).toBe(toHex(payload));
          expect(result.protectedHeader.kid).toBe(a.publicJwk.kid);
          // A flipped payload byte must fail: the verification above is not vacuous.
          const [h, , s] = a.jws.split('.');
          const bad = `${h}.${bytesToB64u(new TextEncoder().encode('This is a test of signature datA'))}.${s}`;
          await onBackend(backend, () =>
            rejectsWithCode(
              verifyCompact(bad, pub, { algorithms: [name] }),
              'ERR_JWS_SIGNATURE_VERIFICATION_FAILED',
            ),
          );
          bump(`${familyOf.get(name)} verified [${backend}]`);
        },
      );

      // The py-ref provider signs SLH-DSA deterministically (opt_rand = PK.seed): our deterministic
      // signing must give its JWS byte for byte. (SHAKE-128s too, but that costs 6 s on noble;
      // ACVP covers SHAKE-128s deterministic signing.)
      if (provider === 'pqc-jose-cose-py-ref' && name === 'SLH-DSA-SHA2-128s')
        it('deterministic signing reproduces the artifact JWS byte for byte', async () => {
          const key = (await importJWK(a.privateJwk)) as PrivateKey;
          expect(await signCompact(payload, key, { deterministic: true })).toBe(a.jws);
          bump('SLH-DSA JWS reproduced byte for byte');
        });

      it('its private JWK imports (priv derives pub) and signs a JWS its public JWK verifies', async () => {
        const key = (await importJWK(a.privateJwk)) as PrivateKey;
        expect(key.kid).toBe(a.publicJwk.kid);
        const jws = await signCompact(payload, key);
        const { payload: out } = await verifyCompact(jws, await importJWK(a.publicJwk), {
          algorithms: [name],
        });
        expect(toHex(out)).toBe(toHex(payload));
      });
    } else if (ECDSA_COMPOSITE.test(name)) {
      it('pre-05 ECDSA composite (raw x‖y pub, raw r‖s sig) is rejected at import with ERR_JWK_INVALID', async () => {
        const mldsa = name.slice(0, 9) as MlDsaAlg;
        const n = name.endsWith('384') ? 48 : 32;
        // Confirm this really is the old encoding, so the rejection is for the documented reason.
        expect(b64uToBytes(a.publicJwk.pub).length).toBe(MLDSA_PARAMS[mldsa].publicKey + 2 * n);
        expect(b64uToBytes(a.jws.split('.')[2] as string).length).toBe(MLDSA_PARAMS[mldsa].signature + 2 * n);
        await rejectsWithCode(importJWK(a.publicJwk), 'ERR_JWK_INVALID');
        await rejectsWithCode(importJWK(a.privateJwk), 'ERR_JWK_INVALID');
        bump('pre-05 ECDSA composite rejected');
      });

      it('re-encoded to -05 (0x04‖x‖y, DER r,s) it verifies: the encoding is the only difference', async () => {
        const mldsa = name.slice(0, 9) as MlDsaAlg;
        const mp = MLDSA_PARAMS[mldsa];
        const pub = b64uToBytes(a.publicJwk.pub);
        const newPub = new Uint8Array([
          ...pub.subarray(0, mp.publicKey),
          0x04,
          ...pub.subarray(mp.publicKey),
        ]);
        const [h, p, s] = a.jws.split('.') as [string, string, string];
        const sig = b64uToBytes(s);
        const newSig = new Uint8Array([...sig.subarray(0, mp.signature), ...der(sig.subarray(mp.signature))]);
        const key = await importJWK({ kty: 'AKP', alg: name, pub: bytesToB64u(newPub) });
        const { payload: out } = await verifyCompact(`${h}.${p}.${bytesToB64u(newSig)}`, key, {
          algorithms: [name],
        });
        expect(toHex(out)).toBe(toHex(payload));
        // The raw r‖s form against the re-encoded key still fails.
        await rejectsWithCode(
          verifyCompact(a.jws, key, { algorithms: [name] }),
          'ERR_JWS_SIGNATURE_VERIFICATION_FAILED',
        );
      });
    } else {
      it('is of an algorithm the registry has', () => {
        throw new Error(`${name} is not registered: the registry lost an algorithm the hackathon uses`);
      });
    }
  });
});
