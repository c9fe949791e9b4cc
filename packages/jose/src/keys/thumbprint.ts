/** RFC 7638 JWK thumbprints; for AKP (RFC 9964) the required members are alg, kty, pub. */
import crypto from 'node:crypto';
import { JwkInvalid } from '../errors.ts';
import type { Jwk } from '../lib/jwk.ts';

const REQUIRED: Record<string, readonly string[]> = {
  AKP: ['alg', 'kty', 'pub'],
  EC: ['crv', 'kty', 'x', 'y'],
  OKP: ['crv', 'kty', 'x'],
  RSA: ['e', 'kty', 'n'],
};

export function calculateThumbprint(jwk: Jwk, digest: 'sha256' | 'sha384' | 'sha512' = 'sha256'): string {
  const members = REQUIRED[jwk?.kty];
  if (!members) throw new JwkInvalid(`cannot compute a thumbprint for kty ${JSON.stringify(jwk?.kty)}`);
  const canonical: Record<string, string> = {};
  for (const m of members) {
    if (typeof jwk[m] !== 'string')
      throw new JwkInvalid(`JWK member "${m}" is required for a ${jwk.kty} thumbprint`);
    canonical[m] = jwk[m] as string; // members are already in lexicographic order
  }
  return crypto.createHash(digest).update(JSON.stringify(canonical)).digest('base64url');
}

/** The `kid` a key handle gets: the JWK's own non-empty `kid`, else its RFC 7638 thumbprint. */
export const kidOf = (jwk: Jwk): string =>
  typeof jwk.kid === 'string' && jwk.kid ? jwk.kid : calculateThumbprint(jwk);
