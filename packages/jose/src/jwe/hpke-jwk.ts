/**
 * HPKE keys ↔ JWK members: the KEM's SerializePublicKey/SerializePrivateKey bytes of
 * draft-ietf-jose-hpke-encrypt-20 §8 (EC P-256/384/521: the SEC 1 uncompressed point and `d`;
 * OKP X25519/X448: `x` and `d`) and draft-ietf-jose-hpke-pq-pqt-00 §4 (`kty: "AKP"`, `pub` and
 * `priv`: a 32-byte seed for the hybrids, the 64-byte d‖z seed for ML-KEM).
 */

import { JwkInvalid } from '../errors.ts';
import { b64u, b64uDecode, concat } from '../lib/encoding.ts';
import type { Jwk } from '../lib/jwk.ts';
import type { JweAlgorithmEntry, JweKeyType } from './types.ts';

/** EC coordinate length per curve (SEC 1 field element size). */
const COORD: Record<string, number> = { 'P-256': 32, 'P-384': 48, 'P-521': 66 };

function member(jwk: Jwk, name: string, bytes?: number): Uint8Array {
  const v = jwk[name];
  const out = typeof v === 'string' ? b64uDecode(v) : undefined;
  if (!out) throw new JwkInvalid(`JWK member "${name}" must be base64url`);
  if (bytes !== undefined && out.length !== bytes)
    throw new JwkInvalid(`JWK member "${name}" must be ${bytes} bytes, got ${out.length}`);
  return out;
}

/** SerializePublicKey for an HPKE JWK: EC → SEC 1 uncompressed point, OKP → x, AKP → pub. */
export function hpkePublicBytes(entry: JweAlgorithmEntry, jwk: Jwk): Uint8Array {
  const kem = (entry.hpke as NonNullable<JweAlgorithmEntry['hpke']>).kem;
  if (jwk.kty === 'EC') {
    const n = COORD[jwk.crv as string] as number;
    return concat(Uint8Array.of(4), member(jwk, 'x', n), member(jwk, 'y', n));
  }
  if (jwk.kty === 'OKP') return member(jwk, 'x', kem.Npk);
  return member(jwk, 'pub', kem.Npk);
}

export function hpkePrivateBytes(entry: JweAlgorithmEntry, jwk: Jwk): Uint8Array {
  const kem = (entry.hpke as NonNullable<JweAlgorithmEntry['hpke']>).kem;
  return member(jwk, jwk.kty === 'AKP' ? 'priv' : 'd', kem.Nsk);
}

/** The JWK members of serialized HPKE keys (the inverse of the two functions above). */
export function hpkeJwk(entry: JweAlgorithmEntry, pub: Uint8Array, priv?: Uint8Array): Jwk {
  const kt = entry.keyTypes[0] as JweKeyType;
  if (kt.kty === 'EC') {
    const n = COORD[kt.crv as string] as number;
    return {
      kty: 'EC',
      crv: kt.crv,
      x: b64u(pub.subarray(1, 1 + n)),
      y: b64u(pub.subarray(1 + n)),
      ...(priv ? { d: b64u(priv) } : {}),
    };
  }
  if (kt.kty === 'OKP') return { kty: 'OKP', crv: kt.crv, x: b64u(pub), ...(priv ? { d: b64u(priv) } : {}) };
  return { kty: 'AKP', alg: entry.alg, pub: b64u(pub), ...(priv ? { priv: b64u(priv) } : {}) };
}
