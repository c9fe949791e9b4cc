/**
 * The keys @pqid/xmldsig accepts are JWKs, as the key manager stores them: ML-DSA as `AKP`
 * (`pub` = FIPS 204 public key, `priv` = 32-byte seed), SLH-DSA as `AKP` (`pub` = PK.seed‖PK.root,
 * `priv` = the FIPS 205 secret key), ECDSA P-256 as `EC`, RSA as `RSA` — or @pqid/jose
 * PrivateKey handles, delegated ones (KMS/HSM) included. This module answers the two questions
 * every signer asks: which algorithm is this key for, and what do I hand to the primitive.
 */
import { createPrivateKey, createPublicKey, type JsonWebKey, type KeyObject } from 'node:crypto';
import {
  InvalidArgument,
  type Jwk,
  MLDSA_PARAMS,
  type MlDsaAlg,
  PrivateKey,
  PublicKey,
  SLHDSA_PARAMS,
  type SlhDsaAlg,
} from '@pqid/jose';
import type { XmlSignatureAlg } from './uris.ts';

export type { Jwk };

export const isMlDsa = (alg: string): alg is MlDsaAlg => alg in MLDSA_PARAMS;
export const isSlhDsa = (alg: string): alg is SlhDsaAlg => alg in SLHDSA_PARAMS;
/** Keys signed through @pqid/jose (ML-DSA, SLH-DSA): their JWK goes to our algorithm as it is. */
export const isPq = (alg: string): alg is MlDsaAlg | SlhDsaAlg => isMlDsa(alg) || isSlhDsa(alg);

/** A signing key: a private JWK, or a @pqid/jose PrivateKey handle (local or delegated). */
export type SigningKey = Jwk | PrivateKey;
/** A key whose public half is wanted: a JWK (public or private) or a @pqid/jose handle. */
export type KeyLike = Jwk | PrivateKey | PublicKey;

/** The public JWK of a key of any of these forms. */
export function publicJwkOfKey(key: KeyLike): Jwk {
  if (key instanceof PrivateKey) return { ...key.publicKey.jwk } as Jwk;
  if (key instanceof PublicKey) return { ...key.jwk } as Jwk;
  return publicJwkOf(key);
}

/** The algorithm a key signs with, for JWKs and handles alike. */
export function algOfKey(key: KeyLike): XmlSignatureAlg {
  return algOfJwk(publicJwkOfKey(key));
}

const PRIVATE_MEMBERS = ['priv', 'd', 'p', 'q', 'dp', 'dq', 'qi', 'oth', 'k'];

/** The algorithm a JWK signs with. An explicit `alg` must agree with the key type. */
export function algOfJwk(jwk: Jwk): XmlSignatureAlg {
  const alg = typeof jwk.alg === 'string' ? jwk.alg : undefined;
  if (jwk.kty === 'AKP') {
    if (alg && isPq(alg)) return alg;
    throw new InvalidArgument(
      `AKP JWK with unsupported alg ${String(alg)} (expected ML-DSA-44/65/87 or ${Object.keys(SLHDSA_PARAMS).join('/')})`,
    );
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

/** SLH-DSA public key bytes (PK.seed‖PK.root) of an AKP JWK. */
export function slhDsaPublicKey(jwk: Jwk, alg: SlhDsaAlg): Uint8Array {
  return b64u('pub', jwk.pub, SLHDSA_PARAMS[alg].publicKey);
}

/** SLH-DSA secret key (SK.seed‖SK.prf‖PK.seed‖PK.root) of a private AKP JWK. */
export function slhDsaSecretKey(jwk: Jwk, alg: SlhDsaAlg): Uint8Array {
  return b64u('priv', jwk.priv, SLHDSA_PARAMS[alg].secretKey);
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
