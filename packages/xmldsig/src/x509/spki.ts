/**
 * SubjectPublicKeyInfo for the keys we certify. ML-DSA follows RFC 9881 and SLH-DSA RFC 9909:
 * the algorithm identifier is id-ml-dsa-* / id-slh-dsa-* with parameters ABSENT, and the BIT
 * STRING is the raw FIPS 204 / FIPS 205 public key (no inner ASN.1). Classical keys are encoded
 * by node:crypto and re-parsed, so their SPKI is byte-for-byte what OpenSSL expects.
 */
import { createPublicKey, type KeyObject } from 'node:crypto';
import { AsnConvert } from '@peculiar/asn1-schema';
import { AlgorithmIdentifier, SubjectPublicKeyInfo } from '@peculiar/asn1-x509';
import { CertificateInvalid } from '../errors.ts';
import {
  algOfJwk,
  classicalPublicKey,
  isMlDsa,
  isSlhDsa,
  type Jwk,
  type KeyLike,
  mlDsaPublicKey,
  publicJwkOfKey,
  slhDsaPublicKey,
} from '../keys.ts';
import type { XmlSignatureAlg } from '../uris.ts';
import { MLDSA_OIDS, OID, SLHDSA_OIDS } from './oids.ts';

/** A certified public key: what it verifies, and its encodings. */
export interface CertificatePublicKey {
  alg: XmlSignatureAlg;
  /** DER SubjectPublicKeyInfo. */
  spki: Uint8Array;
  /** ML-DSA / SLH-DSA only: the FIPS 204 / FIPS 205 public key. */
  raw?: Uint8Array;
  /** Public JWK (with `alg`). */
  jwk: Jwk;
}

export function spkiFromJwk(jwk: Jwk): SubjectPublicKeyInfo {
  const alg = algOfJwk(jwk);
  if (isMlDsa(alg)) {
    return new SubjectPublicKeyInfo({
      algorithm: new AlgorithmIdentifier({ algorithm: MLDSA_OIDS[alg] }),
      subjectPublicKey: toArrayBuffer(mlDsaPublicKey(jwk, alg)),
    });
  }
  if (isSlhDsa(alg)) {
    return new SubjectPublicKeyInfo({
      algorithm: new AlgorithmIdentifier({ algorithm: SLHDSA_OIDS[alg] }),
      subjectPublicKey: toArrayBuffer(slhDsaPublicKey(jwk, alg)),
    });
  }
  const der = classicalPublicKey(jwk).export({ type: 'spki', format: 'der' });
  return AsnConvert.parse(der, SubjectPublicKeyInfo);
}

export function publicKeyFromSpki(spkiDer: Uint8Array): CertificatePublicKey {
  let info: SubjectPublicKeyInfo;
  try {
    info = AsnConvert.parse(spkiDer, SubjectPublicKeyInfo);
  } catch (cause) {
    throw new CertificateInvalid('SubjectPublicKeyInfo does not parse', { cause });
  }
  const oid = info.algorithm.algorithm;
  const mlDsa = (Object.keys(MLDSA_OIDS) as (keyof typeof MLDSA_OIDS)[]).find((a) => MLDSA_OIDS[a] === oid);
  if (mlDsa) {
    if (info.algorithm.parameters !== undefined)
      throw new CertificateInvalid(`${mlDsa} AlgorithmIdentifier must have absent parameters (RFC 9881)`);
    const raw = new Uint8Array(info.subjectPublicKey);
    const jwk: Jwk = { kty: 'AKP', alg: mlDsa, pub: Buffer.from(raw).toString('base64url') };
    // Length check through the JWK decoder: a truncated key is a certificate error, not a verify failure.
    try {
      mlDsaPublicKey(jwk, mlDsa);
    } catch (cause) {
      throw new CertificateInvalid(`${mlDsa} public key has the wrong length`, { cause });
    }
    return { alg: mlDsa, spki: new Uint8Array(spkiDer), raw, jwk };
  }
  const slhDsa = (Object.keys(SLHDSA_OIDS) as (keyof typeof SLHDSA_OIDS)[]).find(
    (a) => SLHDSA_OIDS[a] === oid,
  );
  if (slhDsa) {
    if (info.algorithm.parameters !== undefined)
      throw new CertificateInvalid(`${slhDsa} AlgorithmIdentifier must have absent parameters (RFC 9909)`);
    const raw = new Uint8Array(info.subjectPublicKey);
    const jwk: Jwk = { kty: 'AKP', alg: slhDsa, pub: Buffer.from(raw).toString('base64url') };
    try {
      slhDsaPublicKey(jwk, slhDsa);
    } catch (cause) {
      throw new CertificateInvalid(`${slhDsa} public key has the wrong length`, { cause });
    }
    return { alg: slhDsa, spki: new Uint8Array(spkiDer), raw, jwk };
  }
  if (oid === OID.ecPublicKey || oid === OID.rsaEncryption) {
    const key = createPublicKey({ key: Buffer.from(spkiDer), format: 'der', type: 'spki' });
    const jwk = key.export({ format: 'jwk' }) as Jwk;
    if (key.asymmetricKeyType === 'ec') {
      if (key.asymmetricKeyDetails?.namedCurve !== 'prime256v1')
        throw new CertificateInvalid(`unsupported EC curve ${String(key.asymmetricKeyDetails?.namedCurve)}`);
      return { alg: 'ES256', spki: new Uint8Array(spkiDer), jwk: { ...jwk, alg: 'ES256' } };
    }
    return { alg: 'RS256', spki: new Uint8Array(spkiDer), jwk: { ...jwk, alg: 'RS256' } };
  }
  throw new CertificateInvalid(`unsupported public key algorithm ${oid}`);
}

/** node:crypto KeyObject of a classical certified key (ECDSA/RSA). */
export function classicalKeyObject(pk: CertificatePublicKey): KeyObject {
  if (pk.raw) throw new CertificateInvalid(`${pk.alg} is not a classical key`);
  return createPublicKey({ key: Buffer.from(pk.spki), format: 'der', type: 'spki' });
}

export function spkiDer(key: KeyLike): Uint8Array {
  return new Uint8Array(AsnConvert.serialize(spkiFromJwk(publicJwkOfKey(key))));
}

export function toArrayBuffer(u: Uint8Array): ArrayBuffer {
  return u.buffer.slice(u.byteOffset, u.byteOffset + u.byteLength) as ArrayBuffer;
}
