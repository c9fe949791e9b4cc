/**
 * Certificate signature algorithms, by issuer key algorithm. Adding a conservative root
 * algorithm (SLH-DSA once @pqid/jose has it) is one more entry here: an OID, a sign and a verify.
 */
import { sign as nodeSign, verify as nodeVerify } from 'node:crypto';
import { type MlDsaAlg, mldsa } from '@pqid/jose';
import { CertificateInvalid } from '../errors.ts';
import { classicalPrivateKey, type Jwk, mlDsaSeed } from '../keys.ts';
import { MLDSA_OIDS, OID } from './oids.ts';
import { type CertificatePublicKey, classicalKeyObject } from './spki.ts';

export interface CertificateSignatureAlgorithm {
  /** Key algorithm of the issuer (JOSE name). */
  alg: string;
  oid: string;
  /** RSA's AlgorithmIdentifier carries an explicit NULL; every other one has parameters absent. */
  nullParameters: boolean;
  sign(issuerPrivateJwk: Jwk, tbs: Uint8Array): Promise<Uint8Array>;
  verify(issuer: CertificatePublicKey, tbs: Uint8Array, signature: Uint8Array): Promise<boolean>;
}

function mlDsaAlgorithm(alg: MlDsaAlg): CertificateSignatureAlgorithm {
  return {
    alg,
    oid: MLDSA_OIDS[alg],
    nullParameters: false,
    // RFC 9881: pure ML-DSA over the DER TBSCertificate, empty context.
    sign: (jwk, tbs) => mldsa.sign(alg, mlDsaSeed(jwk), tbs),
    verify: async (issuer, tbs, sig) =>
      issuer.alg === alg && !!issuer.raw && mldsa.verify(alg, issuer.raw, tbs, sig),
  };
}

const ES256: CertificateSignatureAlgorithm = {
  alg: 'ES256',
  oid: OID.ecdsaWithSha256,
  nullParameters: false,
  // X.509 ECDSA signatures are DER (unlike XML-DSig's r‖s), node:crypto's default.
  sign: async (jwk, tbs) => new Uint8Array(nodeSign('sha256', tbs, classicalPrivateKey(jwk))),
  verify: async (issuer, tbs, sig) =>
    issuer.alg === 'ES256' && nodeVerify('sha256', tbs, classicalKeyObject(issuer), sig),
};

const RS256: CertificateSignatureAlgorithm = {
  alg: 'RS256',
  oid: OID.sha256WithRsa,
  nullParameters: true,
  sign: async (jwk, tbs) => new Uint8Array(nodeSign('sha256', tbs, classicalPrivateKey(jwk))),
  verify: async (issuer, tbs, sig) =>
    issuer.alg === 'RS256' && nodeVerify('sha256', tbs, classicalKeyObject(issuer), sig),
};

export const CERTIFICATE_SIGNATURE_ALGORITHMS: readonly CertificateSignatureAlgorithm[] = [
  mlDsaAlgorithm('ML-DSA-44'),
  mlDsaAlgorithm('ML-DSA-65'),
  mlDsaAlgorithm('ML-DSA-87'),
  ES256,
  RS256,
];

export function certificateAlgorithmForKey(alg: string): CertificateSignatureAlgorithm {
  const hit = CERTIFICATE_SIGNATURE_ALGORITHMS.find((a) => a.alg === alg);
  if (!hit) throw new CertificateInvalid(`no certificate signature algorithm for issuer key ${alg}`);
  return hit;
}

export function certificateAlgorithmForOid(oid: string): CertificateSignatureAlgorithm {
  const hit = CERTIFICATE_SIGNATURE_ALGORITHMS.find((a) => a.oid === oid);
  if (!hit) throw new CertificateInvalid(`unsupported certificate signature algorithm ${oid}`);
  return hit;
}
