/**
 * Issuing X.509 certificates for SAML signing keys. Placement is configuration: the hot signing
 * key (e.g. ML-DSA-65) gets a leaf certificate from a long-lived root whose key may use a
 * conservative algorithm (SLH-DSA, RFC 9909, or ML-DSA-87 — see signers.ts), possibly held in a
 * KMS or HSM (a delegated @pqid/jose PrivateKey). SAML trust is by certificate pinning, so the
 * chain matters for operations, not for the SP.
 */
import { createHash, randomBytes } from 'node:crypto';
import { AsnConvert, OctetString } from '@peculiar/asn1-schema';
import {
  AlgorithmIdentifier,
  AuthorityKeyIdentifier,
  BasicConstraints,
  Certificate,
  Extension,
  Extensions,
  id_ce_authorityKeyIdentifier,
  id_ce_basicConstraints,
  id_ce_keyUsage,
  id_ce_subjectKeyIdentifier,
  KeyIdentifier,
  KeyUsage,
  KeyUsageFlags,
  SubjectKeyIdentifier,
  TBSCertificate,
  Validity,
  Version,
} from '@peculiar/asn1-x509';
import { InvalidArgument } from '@pqid/jose';
import { algOfKey, type KeyLike, publicJwkOfKey, type SigningKey } from '../keys.ts';
import { buildName, type DistinguishedName } from './name.ts';
import { parseCertificate } from './parse.ts';
import { derToPem } from './pem.ts';
import { certificateAlgorithmForKey } from './signers.ts';
import { spkiFromJwk, toArrayBuffer } from './spki.ts';

export interface ValidityPeriod {
  notBefore?: Date;
  /** Either notAfter or days (from notBefore). */
  notAfter?: Date;
  days?: number;
}

export interface IssueCertificateOptions {
  subject: DistinguishedName | string;
  /**
   * The certified key: a public JWK (a private one is accepted and reduced to its public half),
   * or a @pqid/jose key handle.
   */
  subjectPublicKey: KeyLike;
  /** The issuer's private JWK, or a @pqid/jose PrivateKey handle (delegated ones included). */
  issuerKey: SigningKey;
  /** Issuer certificate (PEM/DER); omitted for a self-signed root, where issuerKey is the subject's own key. */
  issuerCertificate?: string | Uint8Array;
  validity?: ValidityPeriod;
  /** Positive serial as hex or bigint; random 128-bit by default. */
  serialNumber?: string | bigint;
  /** CA certificate (keyCertSign, basicConstraints cA). Default: false. */
  ca?: boolean;
}

export interface IssuedCertificate {
  pem: string;
  der: Uint8Array;
}

const DAY_MS = 86_400_000;

export async function issueCertificate(opts: IssueCertificateOptions): Promise<IssuedCertificate> {
  const signer = certificateAlgorithmForKey(algOfKey(opts.issuerKey));
  const subjectPub = publicJwkOfKey(opts.subjectPublicKey);
  const spki = spkiFromJwk(subjectPub);
  const ski = keyIdentifier(new Uint8Array(spki.subjectPublicKey));

  let issuerName = buildName(opts.subject);
  let aki = ski;
  if (opts.issuerCertificate !== undefined) {
    const issuer = parseCertificate(opts.issuerCertificate);
    if (!issuer.isCA) throw new InvalidArgument('issuer certificate is not a CA certificate');
    issuerName = issuer.subjectName;
    aki = issuer.subjectKeyIdentifier ?? keyIdentifier(issuer.publicKey.raw ?? issuer.publicKey.spki);
  }

  const notBefore = opts.validity?.notBefore ?? new Date(Date.now() - 60_000);
  const notAfter =
    opts.validity?.notAfter ?? new Date(notBefore.getTime() + (opts.validity?.days ?? 365) * DAY_MS);
  if (notAfter <= notBefore) throw new InvalidArgument('validity: notAfter must be after notBefore');

  const ca = opts.ca ?? false;
  const usage = ca
    ? KeyUsageFlags.keyCertSign | KeyUsageFlags.cRLSign | KeyUsageFlags.digitalSignature
    : KeyUsageFlags.digitalSignature;
  const algorithm = new AlgorithmIdentifier({
    algorithm: signer.oid,
    ...(signer.nullParameters ? { parameters: null } : {}),
  });

  const tbs = new TBSCertificate({
    version: Version.v3,
    serialNumber: serialBytes(opts.serialNumber),
    signature: algorithm,
    issuer: issuerName,
    validity: new Validity({ notBefore, notAfter }),
    subject: buildName(opts.subject),
    subjectPublicKeyInfo: spki,
    extensions: new Extensions([
      extension(id_ce_basicConstraints, true, new BasicConstraints({ cA: ca })),
      extension(id_ce_keyUsage, true, new KeyUsage(usage)),
      extension(id_ce_subjectKeyIdentifier, false, new SubjectKeyIdentifier(toArrayBuffer(ski))),
      extension(
        id_ce_authorityKeyIdentifier,
        false,
        new AuthorityKeyIdentifier({ keyIdentifier: new KeyIdentifier(toArrayBuffer(aki)) }),
      ),
    ]),
  });
  const tbsDer = new Uint8Array(AsnConvert.serialize(tbs));
  const signature = await signer.sign(opts.issuerKey, tbsDer);
  const cert = new Certificate({
    tbsCertificate: tbs,
    signatureAlgorithm: algorithm,
    signatureValue: toArrayBuffer(signature),
  });
  const der = new Uint8Array(AsnConvert.serialize(cert));
  return { der, pem: derToPem(der) };
}

export interface RootCertificateOptions {
  subject: DistinguishedName | string;
  /** The root's private JWK or PrivateKey handle (delegated ones included); it certifies its own public half. */
  key: SigningKey;
  validity?: ValidityPeriod;
  serialNumber?: string | bigint;
}

/** A self-signed CA certificate (the long-lived root of the placement model). */
export function createRootCertificate(opts: RootCertificateOptions): Promise<IssuedCertificate> {
  return issueCertificate({
    subject: opts.subject,
    subjectPublicKey: opts.key,
    issuerKey: opts.key,
    validity: opts.validity ?? { days: 3650 },
    ...(opts.serialNumber !== undefined ? { serialNumber: opts.serialNumber } : {}),
    ca: true,
  });
}

/** RFC 5280 §4.2.1.2 method 1: SHA-1 of the subjectPublicKey BIT STRING value. */
function keyIdentifier(publicKeyBits: Uint8Array): Uint8Array {
  return new Uint8Array(createHash('sha1').update(publicKeyBits).digest());
}

function extension(id: string, critical: boolean, value: object): Extension {
  return new Extension({ extnID: id, critical, extnValue: new OctetString(AsnConvert.serialize(value)) });
}

function serialBytes(serial: string | bigint | undefined): ArrayBuffer {
  let hex: string;
  if (serial === undefined) {
    const b = randomBytes(16);
    b[0] = ((b[0] ?? 0) & 0x7f) | 0x01; // positive, and never a leading zero octet
    return toArrayBuffer(new Uint8Array(b));
  }
  hex = typeof serial === 'bigint' ? serial.toString(16) : serial.replace(/^0x/i, '');
  if (!/^[0-9a-f]+$/i.test(hex) || /^0+$/.test(hex))
    throw new InvalidArgument('serialNumber must be a positive hex number');
  if (hex.length % 2) hex = `0${hex}`;
  // DER INTEGER is signed: a high first bit needs a leading zero octet to stay positive.
  if (Number.parseInt(hex.slice(0, 2), 16) & 0x80) hex = `00${hex}`;
  return toArrayBuffer(new Uint8Array(Buffer.from(hex, 'hex')));
}
