/** Parsing certificates back to what a verifier needs: the public key, its algorithm, the signed bytes. */
import { AsnConvert } from '@peculiar/asn1-schema';
import {
  BasicConstraints,
  Certificate,
  id_ce_basicConstraints,
  id_ce_subjectKeyIdentifier,
  type Name,
  SubjectKeyIdentifier,
} from '@peculiar/asn1-x509';
import { CertificateInvalid } from '../errors.ts';
import { formatName } from './name.ts';
import { certificateDer, derToPem } from './pem.ts';
import { type CertificatePublicKey, publicKeyFromSpki } from './spki.ts';

export interface ParsedCertificate {
  der: Uint8Array;
  pem: string;
  subject: string;
  subjectName: Name;
  issuer: string;
  issuerName: Name;
  serialNumber: string;
  notBefore: Date;
  notAfter: Date;
  publicKey: CertificatePublicKey;
  isCA: boolean;
  subjectKeyIdentifier?: Uint8Array;
  /** The DER TBSCertificate exactly as signed, the signature algorithm OID and the signature. */
  tbs: Uint8Array;
  signatureAlgorithm: string;
  signature: Uint8Array;
}

/** Parses PEM, bare base64 (as in KeyInfo or metadata) or DER. Throws CertificateInvalid. */
export function parseCertificate(input: string | Uint8Array): ParsedCertificate {
  const der = certificateDer(input);
  let cert: Certificate;
  try {
    cert = AsnConvert.parse(der, Certificate);
  } catch (cause) {
    throw new CertificateInvalid('certificate does not parse as X.509', { cause });
  }
  const tbs = cert.tbsCertificate;
  if (!cert.tbsCertificateRaw) throw new CertificateInvalid('certificate has no TBSCertificate bytes');
  if (cert.signatureAlgorithm.algorithm !== tbs.signature.algorithm)
    throw new CertificateInvalid('signatureAlgorithm differs from TBSCertificate.signature');
  const spki = new Uint8Array(AsnConvert.serialize(tbs.subjectPublicKeyInfo));
  let isCA = false;
  let subjectKeyIdentifier: Uint8Array | undefined;
  for (const ext of tbs.extensions ?? []) {
    if (ext.extnID === id_ce_basicConstraints) isCA = AsnConvert.parse(ext.extnValue, BasicConstraints).cA;
    if (ext.extnID === id_ce_subjectKeyIdentifier)
      subjectKeyIdentifier = new Uint8Array(AsnConvert.parse(ext.extnValue, SubjectKeyIdentifier).buffer);
  }
  return {
    der,
    pem: derToPem(der),
    subject: formatName(tbs.subject),
    subjectName: tbs.subject,
    issuer: formatName(tbs.issuer),
    issuerName: tbs.issuer,
    serialNumber: Buffer.from(tbs.serialNumber).toString('hex'),
    notBefore: tbs.validity.notBefore.getTime(),
    notAfter: tbs.validity.notAfter.getTime(),
    publicKey: publicKeyFromSpki(spki),
    isCA,
    ...(subjectKeyIdentifier ? { subjectKeyIdentifier } : {}),
    tbs: new Uint8Array(cert.tbsCertificateRaw),
    signatureAlgorithm: cert.signatureAlgorithm.algorithm,
    signature: new Uint8Array(cert.signatureValue),
  };
}
