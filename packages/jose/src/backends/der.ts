/** The few fixed DER shapes node:crypto needs to import ML-DSA keys (RFC 9881 / draft-ietf-lamps-dilithium-certificates). */
import { concat } from '../encoding.ts';
import { MLDSA_PARAMS, type MlDsaAlg } from './params.ts';

const OID_ARC: Record<MlDsaAlg, number> = { 'ML-DSA-44': 0x11, 'ML-DSA-65': 0x12, 'ML-DSA-87': 0x13 };

function len(n: number): Uint8Array {
  if (n < 0x80) return Uint8Array.of(n);
  if (n < 0x100) return Uint8Array.of(0x81, n);
  return Uint8Array.of(0x82, n >> 8, n & 0xff);
}
const tlv = (tag: number, body: Uint8Array) => concat(Uint8Array.of(tag), len(body.length), body);

const algId = (alg: MlDsaAlg) =>
  tlv(0x30, Uint8Array.of(0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x03, OID_ARC[alg]));

/** PKCS#8 OneAsymmetricKey holding the seed form `[0] IMPLICIT OCTET STRING` or the expanded key. */
export function pkcs8(alg: MlDsaAlg, secret: Uint8Array): Uint8Array {
  const inner = secret.length === 32 ? tlv(0x80, secret) : tlv(0x04, secret);
  return tlv(0x30, concat(Uint8Array.of(0x02, 0x01, 0x00), algId(alg), tlv(0x04, inner)));
}

/** SubjectPublicKeyInfo for a raw FIPS 204 public key. */
export function spki(alg: MlDsaAlg, publicKey: Uint8Array): Uint8Array {
  if (publicKey.length !== MLDSA_PARAMS[alg].publicKey) throw new RangeError('public key length');
  return tlv(0x30, concat(algId(alg), tlv(0x03, concat(Uint8Array.of(0), publicKey))));
}
