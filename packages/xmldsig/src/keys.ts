/**
 * The keys @pqid/xmldsig accepts are JWKs, as the key manager stores them: ML-DSA as `AKP`
 * (`pub` = FIPS 204 public key, `priv` = 32-byte seed), ECDSA P-256 as `EC`, RSA as `RSA`.
 * This module answers the two questions every signer asks: which algorithm is this key for,
 * and what bytes or KeyObject do I hand to the primitive.
 */
import { createPrivateKey, createPublicKey, type JsonWebKey, type KeyObject } from 'node:crypto';
import { InvalidArgument, type Jwk, MLDSA_PARAMS, type MlDsaAlg } from '@pqid/jose';
import type { XmlSignatureAlg } from './uris.ts';

export type { Jwk };

export const isMlDsa = (alg: string): alg is MlDsaAlg => alg in MLDSA_PARAMS;

const PRIVATE_MEMBERS = ['priv', 'd', 'p', 'q', 'dp', 'dq', 'qi', 'oth', 'k'];

/** The algorithm a JWK signs with. An explicit `alg` must agree with the key type. */
export function algOfJwk(jwk: Jwk): XmlSignatureAlg {
  const alg = typeof jwk.alg === 'string' ? jwk.alg : undefined;
  if (jwk.kty === 'AKP') {
    if (alg && isMlDsa(alg)) return alg;
    throw new InvalidArgument(`AKP JWK with unsupported alg ${String(alg)} (expected ML-DSA-44/65/87)`);
  }
  if (jwk.kty === 'EC') {
    if (jwk.crv !== 'P-256' || (alg && alg !== 'ES256'))
      throw new InvalidArgument('EC JWK must be P-256 / ES256 for XML signatures');
    return 'ES256';
  }
  if (jwk.kty === 'RSA') {
    if (alg && alg !== 'RS256') throw new InvalidArgument(`RSA JWK with alg ${alg}: only RS256 is supported`);
    return 'RS256';
  }
  throw new InvalidArgument(`unsupported JWK kty ${String(jwk.kty)}`);
}

/** The public half of a private JWK (drops every private member). */
export function publicJwkOf(jwk: Jwk): Jwk {
  const out: Jwk = { ...jwk };
  for (const m of PRIVATE_MEMBERS) delete out[m];
  return out;
}

function b64u(name: string, v: unknown, length?: number): Uint8Array {
  if (typeof v !== 'string' || !/^[A-Za-z0-9_-]*$/.test(v))
    throw new InvalidArgument(`JWK ${name} must be base64url`);
  const bytes = new Uint8Array(Buffer.from(v, 'base64url'));
  if (length !== undefined && bytes.length !== length)
    throw new InvalidArgument(`JWK ${name} must be ${length} bytes, got ${bytes.length}`);
  return bytes;
}

/** ML-DSA public key bytes of an AKP JWK. */
export function mlDsaPublicKey(jwk: Jwk, alg: MlDsaAlg): Uint8Array {
  return b64u('pub', jwk.pub, MLDSA_PARAMS[alg].publicKey);
}

/** ML-DSA 32-byte seed of a private AKP JWK: the only private form @pqid/jose keys take. */
export function mlDsaSeed(jwk: Jwk): Uint8Array {
  return b64u('priv', jwk.priv, 32);
}

/** node:crypto KeyObject for a classical (EC/RSA) private JWK, PEM, or KeyObject. */
export function classicalPrivateKey(key: unknown): KeyObject {
  if (isKeyObject(key)) return key;
  if (typeof key === 'string' || Buffer.isBuffer(key)) return createPrivateKey(key);
  if (key && typeof key === 'object') return createPrivateKey({ key: key as JsonWebKey, format: 'jwk' });
  throw new InvalidArgument('expected a private JWK, PEM or KeyObject');
}

/** node:crypto KeyObject for a classical public JWK. */
export function classicalPublicKey(jwk: Jwk): KeyObject {
  return createPublicKey({ key: publicJwkOf(jwk) as JsonWebKey, format: 'jwk' });
}

export function isKeyObject(k: unknown): k is KeyObject {
  return (
    typeof k === 'object' &&
    k !== null &&
    (k as { constructor?: { name?: string } }).constructor?.name?.endsWith('KeyObject') === true
  );
}
