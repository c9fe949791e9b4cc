/** Picking a recipient's encryption key out of its JWKS (e.g. an OIDC client's `jwks`). */
import { InvalidArgument } from '../errors.ts';
import { lookupJweAlgorithm } from './algorithms.ts';
import { EncryptionKey } from './handles.ts';
import { importEncryptionKey } from './keys.ts';

/**
 * The public keys of a JWKS that can receive `alg`: `use` absent or "enc", `alg` absent or
 * equal, and the key type the algorithm needs. Unusable entries are skipped, as every JWKS
 * consumer skips them; a private key found in a JWKS is skipped too, never used.
 */
export async function encryptionKeysFor(jwks: unknown, alg: string): Promise<EncryptionKey[]> {
  lookupJweAlgorithm(alg);
  const keys = (jwks as { keys?: unknown })?.keys;
  if (!Array.isArray(keys)) throw new InvalidArgument('a JWKS is an object with a "keys" array');
  const out: EncryptionKey[] = [];
  for (const jwk of keys) {
    if (typeof jwk !== 'object' || jwk === null) continue;
    if (jwk.use !== undefined && jwk.use !== 'enc') continue;
    if (jwk.alg !== undefined && jwk.alg !== alg) continue;
    try {
      const k = await importEncryptionKey(jwk, { alg });
      if (k instanceof EncryptionKey) out.push(k);
    } catch {
      /* a key of another type or a malformed one: not a candidate */
    }
  }
  return out;
}
