/**
 * SLH-DSA in @pqid/xmldsig: X.509 certificates with the NIST SLH-DSA OIDs as RFC 9909 profiles
 * them (parameters absent, raw FIPS 205 public key in the BIT STRING, pure SLH-DSA with the
 * empty context over the TBSCertificate), the placement chain of the cold path (an SLH-DSA root
 * certifying an ML-DSA leaf), checked by an independent parser and verifier: node:crypto's
 * X509Certificate (OpenSSL 3.5). Then XML signatures with the draft's SLH-DSA URIs, and keys
 * held by a delegated signer (KMS/HSM) issuing certificates and signing XML.
 */
import { createPublicKey, X509Certificate } from 'node:crypto';
import { AsnConvert } from '@peculiar/asn1-schema';
import { Certificate } from '@peculiar/asn1-x509';
import {
  createDelegatedKey,
  generateKeyPair,
  importJWK,
  type Jwk,
  localSigner,
  type PrivateKey,
  SLHDSA_PARAMS,
  type SlhDsaAlg,
} from '@pqid/jose';
import {
  CertificateInvalid,
  createRootCertificate,
  issueCertificate,
  parseCertificate,
  SIGNATURE_URIS,
  signXml,
  signXmlAsync,
  verifyCertificateSignature,
  verifyXml,
} from '@pqid/xmldsig';
import { beforeAll, describe, expect, it } from 'vitest';
import { idpMetadata, samlResponse } from './helpers/fixtures.ts';

const ALGS = Object.keys(SLHDSA_PARAMS) as SlhDsaAlg[];
const OID_HEX: Record<SlhDsaAlg, string> = {
  'SLH-DSA-SHA2-128s': '14',
  'SLH-DSA-SHA2-128f': '15',
  'SLH-DSA-SHAKE-128s': '1a',
};

interface Root {
  alg: SlhDsaAlg;
  privateJwk: Jwk;
  publicJwk: Jwk;
  pem: string;
  der: Uint8Array;
}
const roots = new Map<SlhDsaAlg, Root>();

beforeAll(async () => {
  for (const alg of ALGS) {
    const { privateJwk, publicJwk } = await generateKeyPair(alg);
    const { pem, der } = await createRootCertificate({
      subject: { commonName: `pqid cold root ${alg}`, organization: 'pqid' },
      key: privateJwk,
      serialNumber: '5a01',
    });
    roots.set(alg, { alg, privateJwk, publicJwk, pem, der });
  }
});
const root = (alg: SlhDsaAlg) => roots.get(alg) as Root;

describe.each(ALGS)('%s root certificate (RFC 9909)', (alg) => {
  it('parses back to the same key and algorithm, and verifies with itself', async () => {
    const r = root(alg);
    const p = parseCertificate(r.pem);
    expect(p.publicKey.alg).toBe(alg);
    expect(p.publicKey.jwk.pub).toBe(r.publicJwk.pub);
    expect(p.signatureAlgorithm).toBe(SLHDSA_PARAMS[alg].oid);
    expect(p.signature.length).toBe(SLHDSA_PARAMS[alg].signature);
    expect(p.isCA).toBe(true);
    expect(await verifyCertificateSignature(p, p)).toBe(true);
  });

  it('OpenSSL (node:crypto X509Certificate) parses it as a self-signed SLH-DSA CA and verifies it', () => {
    const x = new X509Certificate(root(alg).pem);
    expect(x.ca).toBe(true);
    expect(x.serialNumber.toLowerCase()).toBe('5a01');
    expect(x.publicKey.asymmetricKeyType).toBe(alg.toLowerCase());
    expect(x.verify(x.publicKey)).toBe(true);
    expect(x.checkIssued(x)).toBe(true);
    // The BIT STRING is the raw PK.seed‖PK.root: OpenSSL exports the JWK's pub.
    expect((x.publicKey.export({ format: 'jwk' }) as { pub?: string }).pub).toBe(root(alg).publicJwk.pub);
  });

  it('the algorithm identifiers have absent parameters, in the signature and the key', () => {
    const hex = Buffer.from(root(alg).der).toString('hex');
    // SEQUENCE { OID 2.16.840.1.101.3.4.3.x } with nothing after the OID: in TBSCertificate.signature,
    // in Certificate.signatureAlgorithm and in the SubjectPublicKeyInfo.
    const id = `300b06096086480165030403${OID_HEX[alg]}`;
    expect(hex.split(id).length - 1).toBe(3);
    const spki = createPublicKey(root(alg).pem).export({ type: 'spki', format: 'der' });
    expect(spki.toString('hex')).toBe(
      `3030${id}032100${Buffer.from(root(alg).publicJwk.pub as string, 'base64url').toString('hex')}`,
    );
  });
});

describe('the cold-path chain: an SLH-DSA root certifies an ML-DSA leaf', () => {
  let leaf: { pem: string; privateJwk: Jwk; publicJwk: Jwk };
  beforeAll(async () => {
    const { privateJwk, publicJwk } = await generateKeyPair('ML-DSA-65');
    const r = root('SLH-DSA-SHA2-128s');
    const { pem } = await issueCertificate({
      subject: { commonName: 'pqid IdP ML-DSA-65', organization: 'pqid' },
      subjectPublicKey: publicJwk,
      issuerKey: r.privateJwk,
      issuerCertificate: r.pem,
      validity: { days: 30 },
    });
    leaf = { pem, privateJwk, publicJwk };
  });

  it('verifies with the root here and in OpenSSL; no other root verifies it', async () => {
    const r = root('SLH-DSA-SHA2-128s');
    const p = parseCertificate(leaf.pem);
    expect([p.publicKey.alg, p.signatureAlgorithm, p.isCA]).toEqual([
      'ML-DSA-65',
      SLHDSA_PARAMS['SLH-DSA-SHA2-128s'].oid,
      false,
    ]);
    expect(p.issuer).toBe('CN=pqid cold root SLH-DSA-SHA2-128s, O=pqid');
    expect(await verifyCertificateSignature(p, r.pem)).toBe(true);
    const x = new X509Certificate(leaf.pem);
    const xr = new X509Certificate(r.pem);
    expect(x.checkIssued(xr)).toBe(true);
    expect(x.verify(xr.publicKey)).toBe(true);
    // The SHAKE root (same key and signature sizes) verifies nothing the SHA2 root signed.
    const shake = root('SLH-DSA-SHAKE-128s');
    expect(await verifyCertificateSignature(p, shake.pem)).toBe(false);
    expect(x.verify(new X509Certificate(shake.pem).publicKey)).toBe(false);
  });

  it('a flipped signature bit fails here and in OpenSSL', async () => {
    const der = parseCertificate(leaf.pem).der;
    const bad = new Uint8Array(der);
    bad[bad.length - 100] = (bad[bad.length - 100] as number) ^ 1; // inside the SLH-DSA signature
    const r = root('SLH-DSA-SHA2-128s');
    expect(await verifyCertificateSignature(bad, r.pem)).toBe(false);
    expect(new X509Certificate(Buffer.from(bad)).verify(new X509Certificate(r.pem).publicKey)).toBe(false);
  });

  it('the leaf key signs SAML that verifies with the leaf certificate', () => {
    const xml = signXml(samlResponse(), {
      key: leaf.privateJwk,
      certificate: leaf.pem,
      id: '_a0123456789abcdef',
    });
    const v = verifyXml(xml, {
      allowedAlgorithms: ['ML-DSA-65'],
      trustedCertificates: [leaf.pem],
      expectedReferenceId: '_a0123456789abcdef',
    });
    expect(v.algorithm).toBe(SIGNATURE_URIS['ML-DSA-65']);
  });
});

describe('malformed SLH-DSA certificates', () => {
  const mutate = (der: Uint8Array, f: (c: Certificate) => void) => {
    const c = AsnConvert.parse(der, Certificate);
    f(c);
    return new Uint8Array(AsnConvert.serialize(c));
  };

  it('an SLH-DSA SubjectPublicKeyInfo with parameters present is CertificateInvalid', () => {
    const bad = mutate(root('SLH-DSA-SHA2-128f').der, (c) => {
      c.tbsCertificate.subjectPublicKeyInfo.algorithm.parameters = new Uint8Array([5, 0]).buffer;
    });
    expect(() => parseCertificate(bad)).toThrow(CertificateInvalid);
  });

  it('an SLH-DSA public key one byte short is CertificateInvalid', () => {
    const bad = mutate(root('SLH-DSA-SHA2-128f').der, (c) => {
      c.tbsCertificate.subjectPublicKeyInfo.subjectPublicKey =
        c.tbsCertificate.subjectPublicKeyInfo.subjectPublicKey.slice(1);
    });
    expect(() => parseCertificate(bad)).toThrow(CertificateInvalid);
  });

  it('a signatureAlgorithm of another parameter set than the issuer key does not verify', async () => {
    // Relabel a SHA2-128s signature as SHAKE-128s (same lengths): refused before any crypto.
    const shakeOid = SLHDSA_PARAMS['SLH-DSA-SHAKE-128s'].oid;
    const bad = mutate(root('SLH-DSA-SHA2-128s').der, (c) => {
      c.signatureAlgorithm.algorithm = shakeOid;
      c.tbsCertificate.signature.algorithm = shakeOid;
    });
    expect(await verifyCertificateSignature(bad, root('SLH-DSA-SHA2-128s').pem)).toBe(false);
  });
});

describe('XML signatures with SLH-DSA (draft-eastlake-rfc9231bis-xmlsec-uris-09)', () => {
  it.each(['SLH-DSA-SHA2-128f', 'SLH-DSA-SHA2-128s'] as const)(
    '%s signs SAML metadata; verifyXml accepts it only when allowed',
    (alg) => {
      const r = root(alg);
      const xml = signXml(idpMetadata(Buffer.from(r.der).toString('base64')), {
        key: r.privateJwk,
        certificate: r.pem,
      });
      expect(xml).toContain(`Algorithm="${SIGNATURE_URIS[alg]}"`);
      expect(SIGNATURE_URIS[alg]).toBe(`http://www.w3.org/2026/08/xmldsig-more#${alg.toLowerCase()}`);
      const v = verifyXml(xml, { allowedAlgorithms: [alg], trustedCertificates: [r.pem] });
      expect(v.algorithm).toBe(SIGNATURE_URIS[alg]);
      expect(() =>
        verifyXml(xml, { allowedAlgorithms: ['ML-DSA-65'], trustedCertificates: [r.pem] }),
      ).toThrow(/not allowed|allow/i);
      // Tampered content fails.
      const tampered = xml.replace('HTTP-Redirect"', 'HTTP-POST"');
      expect(() => verifyXml(tampered, { allowedAlgorithms: [alg], trustedCertificates: [r.pem] })).toThrow();
    },
  );
});

describe('keys in a delegated signer (KMS/HSM)', () => {
  let delegatedRoot: PrivateKey;
  beforeAll(async () => {
    const local = (await importJWK(root('SLH-DSA-SHA2-128f').privateJwk)) as PrivateKey;
    delegatedRoot = await createDelegatedKey(localSigner(local));
  });

  it('a delegated SLH-DSA root issues itself and an ML-DSA leaf that OpenSSL verifies', async () => {
    expect(delegatedRoot.delegated).toBe(true);
    const self = await createRootCertificate({ subject: 'KMS root', key: delegatedRoot });
    const xs = new X509Certificate(self.pem);
    expect(xs.verify(xs.publicKey)).toBe(true);
    const { publicJwk } = await generateKeyPair('ML-DSA-44');
    const leaf = await issueCertificate({
      subject: 'leaf',
      subjectPublicKey: publicJwk,
      issuerKey: delegatedRoot,
      issuerCertificate: self.pem,
    });
    expect(new X509Certificate(leaf.pem).verify(xs.publicKey)).toBe(true);
    expect(await verifyCertificateSignature(leaf.pem, self.pem)).toBe(true);
  });

  it.each(['ML-DSA-65', 'ES256'] as const)(
    'a delegated %s key signs SAML with signXmlAsync, not signXml',
    async (alg) => {
      const { privateJwk, publicJwk } = await generateKeyPair(alg);
      const key = await createDelegatedKey(localSigner((await importJWK(privateJwk)) as PrivateKey));
      const { pem } = await issueCertificate({
        subject: `delegated ${alg}`,
        subjectPublicKey: publicJwk,
        issuerKey: delegatedRoot,
        issuerCertificate: (await createRootCertificate({ subject: 'KMS root', key: delegatedRoot })).pem,
      });
      const xml = await signXmlAsync(samlResponse(), { key, certificate: pem, id: '_a0123456789abcdef' });
      const v = verifyXml(xml, {
        allowedAlgorithms: [alg],
        trustedCertificates: [pem],
        expectedReferenceId: '_a0123456789abcdef',
      });
      expect(v.algorithm).toBe(SIGNATURE_URIS[alg]);
      expect(() => signXml(samlResponse(), { key, certificate: pem, id: '_a0123456789abcdef' })).toThrow(
        /signXmlAsync/,
      );
      // A certificate for another key is refused before anything is signed.
      const other = await generateKeyPair(alg);
      const { pem: otherPem } = await createRootCertificate({ subject: 'other', key: other.privateJwk });
      await expect(signXmlAsync(samlResponse(), { key, certificate: otherPem })).rejects.toThrow(
        /does not certify/,
      );
    },
  );
});
