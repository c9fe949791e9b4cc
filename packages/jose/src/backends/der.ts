/**
 * The few fixed DER shapes node:crypto needs to import ML-DSA (RFC 9881) and SLH-DSA (RFC 9909)
 * keys: AlgorithmIdentifier = the algorithm's OID with parameters absent.
 */
import { concat } from '../lib/encoding.ts';
import { MLDSA_PARAMS, type MlDsaAlg, SLHDSA_PARAMS, type SlhDsaAlg } from './params.ts';

type DerAlg = MlDsaAlg | SlhDsaAlg;
const params = (alg: DerAlg) =>
  alg in MLDSA_PARAMS ? MLDSA_PARAMS[alg as MlDsaAlg] : SLHDSA_PARAMS[alg as SlhDsaAlg];

function len(n: number): Uint8Array {
  if (n < 0x80) return Uint8Array.of(n);
  if (n < 0x100) return Uint8Array.of(0x81, n);
  return Uint8Array.of(0x82, n >> 8, n & 0xff);
}
const tlv = (tag: number, body: Uint8Array) => concat(Uint8Array.of(tag), len(body.length), body);

/** 2.16.840.1.101.3.4.3.x: every NIST signature OID we use differs only in its last arc (< 128). */
const algId = (alg: DerAlg) => {
  const last = Number(params(alg).oid.split('.').pop());
  return tlv(0x30, Uint8Array.of(0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x03, last));
};

/**
 * PKCS#8 OneAsymmetricKey. ML-DSA: the seed form `[0] IMPLICIT OCTET STRING` or the expanded key.
 * SLH-DSA: the privateKey OCTET STRING is the raw 4n-byte secret key (RFC 9909 §6).
 */
export function pkcs8(alg: DerAlg, secret: Uint8Array): Uint8Array {
  const inner = alg in SLHDSA_PARAMS ? secret : secret.length === 32 ? tlv(0x80, secret) : tlv(0x04, secret);
  return tlv(0x30, concat(Uint8Array.of(0x02, 0x01, 0x00), algId(alg), tlv(0x04, inner)));
}

/** SubjectPublicKeyInfo for a raw FIPS 204 / FIPS 205 public key. */
export function spki(alg: DerAlg, publicKey: Uint8Array): Uint8Array {
  if (publicKey.length !== params(alg).publicKey) throw new RangeError('public key length');
  return tlv(0x30, concat(algId(alg), tlv(0x03, concat(Uint8Array.of(0), publicKey))));
}
