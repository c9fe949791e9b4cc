/**
 * Signing keys: a @pqid/jose PrivateKey signs like its JWK, and no ML-DSA key is expanded per
 * signature (a handle brings its own prepared key; a JWK is prepared once and cached by a digest
 * of the key), counted by @pqid/jose's `mldsa.stats().seedExpansions`.
 */
import { generateKeyPair, importJWK, mldsa, type PrivateKey } from '@pqid/jose';
import { SIGNATURE_URIS, signXml, signXmlAsync, verifyXml } from '@pqid/xmldsig';
import { describe, expect, it } from 'vitest';
import { ALL_ALGS, ML_DSA_ALGS, samlResponse, signer } from './helpers/fixtures.ts';

const expansions = () => mldsa.stats().seedExpansions;

describe.each(ALL_ALGS)('%s', (alg) => {
  it('a @pqid/jose PrivateKey signs what its certificate verifies (signXmlAsync)', async () => {
    const s = await signer(alg);
    const handle = (await importJWK(s.privateJwk)) as PrivateKey;
    const opts = { trustedCertificates: [s.certificate], allowedAlgorithms: [alg] };
    const signed = await signXmlAsync(samlResponse(), { key: handle, certificate: s.certificate });
    expect(signed).toContain(`<ds:SignatureMethod Algorithm="${SIGNATURE_URIS[alg]}"/>`);
    expect(verifyXml(signed, opts).element.localName).toBe('Response');
  });
});

describe.each(ML_DSA_ALGS)('%s: no expansion per signature', (alg) => {
  it('a handle: none at all; a JWK: once, even as a fresh copy or JSON text each time', async () => {
    const s = await signer(alg);
    const handle = (await importJWK(s.privateJwk)) as PrivateKey;
    const opts = { trustedCertificates: [s.certificate], allowedAlgorithms: [alg] };
    let before = expansions();
    for (let i = 0; i < 10; i++) {
      const signed = await signXmlAsync(samlResponse(), { key: handle, certificate: s.certificate });
      if (i === 0) verifyXml(signed, opts);
    }
    expect(expansions()).toBe(before);
    before = expansions();
    for (let i = 0; i < 10; i++) {
      const key = i % 2 ? { ...s.privateJwk } : JSON.parse(JSON.stringify(s.privateJwk));
      const signed =
        i % 3
          ? signXml(samlResponse(), { key, certificate: s.certificate })
          : await signXmlAsync(samlResponse(), { key, certificate: s.certificate });
      verifyXml(signed, opts);
    }
    expect(expansions() - before).toBe(1);
  });
});

describe('bad signing keys', () => {
  it('a JWK whose pub is not its priv is refused before anything is signed', async () => {
    const s = await signer('ML-DSA-65');
    const other = (await generateKeyPair('ML-DSA-65')).privateJwk;
    // Certified public key, someone else's seed: refused before anything is signed.
    const forged = { ...s.privateJwk, priv: other.priv };
    expect(() => signXml(samlResponse(), { key: forged, certificate: s.certificate })).toThrow(
      expect.objectContaining({ code: 'ERR_INVALID_ARGUMENT' }),
    );
  });
});
