import { createPublicKey, X509Certificate } from 'node:crypto';
import { MLDSA_PARAMS } from '@pqid/jose';
import {
  CertificateInvalid,
  createRootCertificate,
  issueCertificate,
  parseCertificate,
  verifyCertificateSignature,
} from '@pqid/xmldsig';
import { describe, expect, it } from 'vitest';
import { ALL_ALGS, keyPair, ML_DSA_ALGS, root, signer } from './helpers/fixtures.ts';

describe('X.509 certificates for ML-DSA keys (RFC 9881)', () => {
  it('self-signed ML-DSA-87 root parses and verifies with itself', async () => {
    const r = await root();
    const parsed = parseCertificate(r.certificate);
    expect(parsed.publicKey.alg).toBe('ML-DSA-87');
    expect(parsed.isCA).toBe(true);
    expect(parsed.signatureAlgorithm).toBe(MLDSA_PARAMS['ML-DSA-87'].oid);
    expect(await verifyCertificateSignature(parsed, parsed)).toBe(true);
  });

  describe.each(ALL_ALGS)('leaf %s issued by the ML-DSA-87 root', (alg) => {
    it('round-trips: subject, key, issuer signature', async () => {
      const r = await root();
      const s = await signer(alg);
      const parsed = parseCertificate(s.certificate);
      expect(parsed.publicKey.alg).toBe(alg);
      expect(parsed.subject).toBe(`CN=pqid IdP ${alg}, O=pqid`);
      expect(parsed.issuer).toBe('CN=pqid test root, O=pqid');
      expect(parsed.isCA).toBe(false);
      if (alg.startsWith('ML-DSA')) expect(parsed.publicKey.jwk.pub).toBe(s.publicJwk.pub);
      expect(await verifyCertificateSignature(parsed, r.certificate)).toBe(true);
      // a different issuer key does not verify it
      const other = await createRootCertificate({
        subject: 'other root',
        key: (await keyPair('ML-DSA-87')).privateJwk,
      });
      expect(await verifyCertificateSignature(parsed, other.pem)).toBe(false);
    });

    it('node:crypto X509Certificate (OpenSSL) parses it and verifies it with the root key', async () => {
      const r = await root();
      const s = await signer(alg);
      const x = new X509Certificate(s.certificate);
      const expectedType = alg.startsWith('ML-DSA') ? alg.toLowerCase() : alg === 'ES256' ? 'ec' : 'rsa';
      expect(x.publicKey.asymmetricKeyType).toBe(expectedType);
      expect(x.subject).toContain(`CN=pqid IdP ${alg}`);
      expect(x.ca).toBe(false);
      expect(x.verify(new X509Certificate(r.certificate).publicKey)).toBe(true);
      expect(x.checkIssued(new X509Certificate(r.certificate))).toBe(true);
      if (alg.startsWith('ML-DSA')) {
        // The raw key in the BIT STRING is the JWK's pub: node:crypto exports the same bytes.
        const jwk = x.publicKey.export({ format: 'jwk' }) as { pub?: string };
        expect(jwk.pub).toBe(s.publicJwk.pub);
      }
    });
  });

  it.each(ML_DSA_ALGS)('%s root is accepted by OpenSSL as a self-signed CA', async (alg) => {
    const { privateJwk } = await keyPair(alg);
    const { pem } = await createRootCertificate({
      subject: `root ${alg}`,
      key: privateJwk,
      serialNumber: 'ff01',
    });
    const x = new X509Certificate(pem);
    expect(x.ca).toBe(true);
    expect(x.serialNumber.toLowerCase()).toBe('ff01');
    expect(x.verify(x.publicKey)).toBe(true);
    expect(x.publicKey.asymmetricKeyType).toBe(alg.toLowerCase());
  });

  it('ML-DSA SubjectPublicKeyInfo has absent parameters and the raw key', async () => {
    const s = await signer('ML-DSA-65');
    const spki = createPublicKey(s.certificate).export({ type: 'spki', format: 'der' });
    // SEQUENCE { SEQUENCE { OID 2.16.840.1.101.3.4.3.18 } BIT STRING (00 || 1952 bytes) }
    expect(spki.subarray(4, 17).toString('hex')).toBe('300b0609608648016503040312');
    expect(spki.length).toBe(4 + 13 + 5 + MLDSA_PARAMS['ML-DSA-65'].publicKey);
  });

  it('refuses garbage and truncated certificates with CertificateInvalid', async () => {
    const s = await signer('ML-DSA-44');
    expect(() => parseCertificate('not a certificate')).toThrow(CertificateInvalid);
    const der = parseCertificate(s.certificate).der;
    expect(() => parseCertificate(der.subarray(0, der.length - 100))).toThrow(CertificateInvalid);
  });

  it('issuing from a non-CA certificate is refused', async () => {
    const leaf = await signer('ML-DSA-44');
    const { publicJwk } = await keyPair('ML-DSA-44');
    await expect(
      issueCertificate({
        subject: 'x',
        subjectPublicKey: publicJwk,
        issuerKey: leaf.privateJwk,
        issuerCertificate: leaf.certificate,
      }),
    ).rejects.toThrow(/not a CA/);
  });
});
