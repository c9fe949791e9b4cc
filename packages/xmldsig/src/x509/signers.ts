/**
 * Certificate signature algorithms, by issuer key algorithm: an OID, a sign and a verify each.
 * The conservative root algorithm of the placement model is SLH-DSA (RFC 9909) or ML-DSA-87
 * (RFC 9881). An issuer key is a private JWK or a @pqid/jose PrivateKey handle, which may be
 * delegated: a root kept in a KMS or HSM signs through its signer.
 */
import { sign as nodeSign, verify as nodeVerify } from 'node:crypto';
import { type MlDsaAlg, mldsa, PrivateKey, type SlhDsaAlg, signMessage, slhdsa } from '@pqid/jose';
import { CertificateInvalid } from '../errors.ts';
import { classicalPrivateKey, type Jwk, type SigningKey, slhDsaSecretKey } from '../keys.ts';
import { preparedMlDsaKey } from '../signing-keys.ts';
import { MLDSA_OIDS, OID, SLHDSA_OIDS } from './oids.ts';
import { type CertificatePublicKey, classicalKeyObject } from './spki.ts';

export interface CertificateSignatureAlgorithm {
  /** Key algorithm of the issuer (JOSE name). */
  alg: string;
  oid: string;
  /** RSA's AlgorithmIdentifier carries an explicit NULL; every other one has parameters absent. */
  nullParameters: boolean;
  sign(issuerKey: SigningKey, tbs: Uint8Array): Promise<Uint8Array>;
  verify(issuer: CertificatePublicKey, tbs: Uint8Array, signature: Uint8Array): Promise<boolean>;
}

function mlDsaAlgorithm(alg: MlDsaAlg): CertificateSignatureAlgorithm {
  return {
    alg,
    oid: MLDSA_OIDS[alg],
    nullParameters: false,
    // RFC 9881: pure ML-DSA over the DER TBSCertificate, empty context.
    sign: (key, tbs) =>
      key instanceof PrivateKey ? signMessage(key, tbs) : mldsa.sign(alg, preparedMlDsaKey(alg, key), tbs),
    verify: async (issuer, tbs, sig) =>
      issuer.alg === alg && !!issuer.raw && mldsa.verify(alg, issuer.raw, tbs, sig),
  };
}

function slhDsaAlgorithm(alg: SlhDsaAlg): CertificateSignatureAlgorithm {
  return {
    alg,
    oid: SLHDSA_OIDS[alg],
    nullParameters: false,
    // RFC 9909: pure SLH-DSA over the DER TBSCertificate, empty context (hedged, node:crypto if it can).
    sign: (key, tbs) =>
      key instanceof PrivateKey
        ? signMessage(key, tbs)
        : slhdsa.sign(alg, slhDsaSecretKey(key as Jwk, alg), tbs),
    verify: async (issuer, tbs, sig) =>
      issuer.alg === alg && !!issuer.raw && slhdsa.verify(alg, issuer.raw, tbs, sig),
  };
}

/** Classical issuers: a JWK signs through node:crypto, a handle through @pqid/jose (DER ECDSA). */
const classicalSign = (hash: string) => async (key: SigningKey, tbs: Uint8Array) =>
  key instanceof PrivateKey
    ? signMessage(key, tbs, { ecdsaEncoding: 'der' })
    : new Uint8Array(nodeSign(hash, tbs, classicalPrivateKey(key)));

const ES256: CertificateSignatureAlgorithm = {
  alg: 'ES256',
  oid: OID.ecdsaWithSha256,
  nullParameters: false,
  // X.509 ECDSA signatures are DER (unlike XML-DSig's r‖s), node:crypto's default.
  sign: classicalSign('sha256'),
  verify: async (issuer, tbs, sig) =>
    issuer.alg === 'ES256' && nodeVerify('sha256', tbs, classicalKeyObject(issuer), sig),
};

const RS256: CertificateSignatureAlgorithm = {
  alg: 'RS256',
  oid: OID.sha256WithRsa,
  nullParameters: true,
  sign: classicalSign('sha256'),
  verify: async (issuer, tbs, sig) =>
    issuer.alg === 'RS256' && nodeVerify('sha256', tbs, classicalKeyObject(issuer), sig),
};

export const CERTIFICATE_SIGNATURE_ALGORITHMS: readonly CertificateSignatureAlgorithm[] = [
  mlDsaAlgorithm('ML-DSA-44'),
  mlDsaAlgorithm('ML-DSA-65'),
  mlDsaAlgorithm('ML-DSA-87'),
  slhDsaAlgorithm('SLH-DSA-SHA2-128s'),
  slhDsaAlgorithm('SLH-DSA-SHA2-128f'),
  slhDsaAlgorithm('SLH-DSA-SHAKE-128s'),
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
