/** Finding the key(s) for a JWS header: a single key, or a key set queried by alg/kid. */
import { keyServesAlg } from '../algorithms/registry.ts';
import { InvalidArgument, JwksNoMatchingKey, KeyMismatch } from '../errors.ts';
import { PrivateKey, PublicKey } from '../keys/handles.ts';
import type { JoseHeader } from './parse.ts';

/** A key set: given a header, the candidate keys (like jose's JWTVerifyGetKey). */
export type KeySet = (header: JoseHeader) => Promise<readonly PublicKey[]> | readonly PublicKey[];
export type VerificationKey = PublicKey | PrivateKey | KeySet;

export async function candidateKeys(key: VerificationKey, header: JoseHeader): Promise<readonly PublicKey[]> {
  if (key instanceof PrivateKey) key = key.publicKey;
  if (key instanceof PublicKey) {
    if (!keyServesAlg(key.alg, header.alg))
      throw new KeyMismatch(`key is for ${key.alg}, token is ${header.alg}`);
    return [key];
  }
  if (typeof key !== 'function')
    throw new InvalidArgument('verification key must be a key handle or a key set');
  const keys = await key(header);
  if (keys.length === 0)
    throw new JwksNoMatchingKey(`no key for alg ${header.alg}${header.kid ? ` kid ${header.kid}` : ''}`);
  return keys;
}

/** Keys of a list that fit a header: same algorithm and, if the header names one, same kid. */
export function selectKeys(keys: readonly PublicKey[], header: JoseHeader): PublicKey[] {
  return keys.filter(
    (k) => keyServesAlg(k.alg, header.alg) && (header.kid === undefined || k.kid === header.kid),
  );
}
