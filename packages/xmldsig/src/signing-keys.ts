/**
 * ML-DSA signing keys given as JWKs, prepared once. Expanding a seed (FIPS 204 KeyGen) costs about
 * as much as a signature, so it must not happen per signature: a JWK is prepared on first use and
 * kept in a small cache keyed by a SHA-256 digest of the key (never by the secret itself). A
 * @pqid/jose PrivateKey handle needs none of this: it brings the key prepared at import.
 */
import { createHash } from 'node:crypto';
import { InvalidArgument, type MlDsaAlg, type MlDsaSecretKey, mldsa } from '@pqid/jose';
import { signingJwk } from './algorithms/key-material.ts';
import { mlDsaPublicKey, mlDsaSeed } from './keys.ts';

const CACHE_SIZE = 64;
const prepared = new Map<string, MlDsaSecretKey>();

/** The prepared key of a private ML-DSA JWK (object or JSON text) for `alg`. */
export function preparedMlDsaKey(alg: MlDsaAlg, key: unknown): MlDsaSecretKey {
  const jwk = signingJwk(key);
  if (jwk.alg !== alg) throw new InvalidArgument(`key is for ${String(jwk.alg)}, not ${alg}`);
  const id = createHash('sha256')
    .update(`${alg}\0${String(jwk.priv)}\0${String(jwk.pub)}`)
    .digest('base64');
  let k = prepared.get(id);
  if (!k) {
    const seed = mlDsaSeed(jwk);
    k = mldsa.prepareKey(alg, seed);
    seed.fill(0);
    // A priv that does not derive pub would sign what the published certificate cannot verify.
    if (!k.publicKey || !Buffer.from(k.publicKey).equals(mlDsaPublicKey(jwk, alg)))
      throw new InvalidArgument('JWK "pub" does not match "priv"');
    if (prepared.size >= CACHE_SIZE) prepared.delete(prepared.keys().next().value as string);
    prepared.set(id, k);
  }
  return k;
}
