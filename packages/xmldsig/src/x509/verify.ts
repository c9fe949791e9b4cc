/** Checking a certificate's signature with its issuer (a CA certificate or a bare public key). */
import { type ParsedCertificate, parseCertificate } from './parse.ts';
import { certificateAlgorithmForOid } from './signers.ts';
import type { CertificatePublicKey } from './spki.ts';

export async function verifyCertificateSignature(
  certificate: string | Uint8Array | ParsedCertificate,
  issuer: string | Uint8Array | ParsedCertificate | CertificatePublicKey,
): Promise<boolean> {
  const cert = isParsed(certificate) ? certificate : parseCertificate(certificate);
  const issuerKey = isPublicKey(issuer)
    ? issuer
    : (isParsed(issuer) ? issuer : parseCertificate(issuer)).publicKey;
  const algorithm = certificateAlgorithmForOid(cert.signatureAlgorithm);
  // The signature algorithm must be the one the issuer's key is for: no cross-algorithm reuse.
  if (algorithm.alg !== issuerKey.alg) return false;
  return algorithm.verify(issuerKey, cert.tbs, cert.signature);
}

/** Within notBefore..notAfter at `now`. */
export function isCertificateCurrent(cert: ParsedCertificate, now = new Date()): boolean {
  return cert.notBefore <= now && now <= cert.notAfter;
}

function isParsed(x: unknown): x is ParsedCertificate {
  return typeof x === 'object' && x !== null && 'tbs' in x && 'publicKey' in x;
}
function isPublicKey(x: unknown): x is CertificatePublicKey {
  return typeof x === 'object' && x !== null && 'spki' in x && 'alg' in x && !('tbs' in x);
}
