/**
 * Encryption metadata of a client: what it asks the provider to encrypt to it (ID tokens, userinfo,
 * introspection responses) and what it may encrypt to the provider (request objects). Each is an
 * `_alg`/`_enc` pair (OIDC Dynamic Client Registration 1.0 §2, RFC 9701 §6), checked against the
 * `@pqid/jose` JWE registry.
 *
 * HPKE Integrated Encryption (`HPKE-0` … `HPKE-13`, draft-ietf-jose-hpke-encrypt-20 §5) has no
 * `enc`: HPKE encrypts the content itself. For such an `alg` the `_enc` member is refused, and not
 * defaulted; for every other `alg` it defaults to A128CBC-HS256, as OIDC Registration says.
 */
import {
  contentEncryptionRegistry,
  encryptionKeysFor,
  getJweAlgorithm,
  isJweAlgorithm,
  jweRegistry,
} from '@pqid/jose';
import type { Check } from './checks.ts';
import { ClientError } from './client-error.ts';

/** The `_enc` default of OIDC Registration §2, for an `alg` that has an `enc`. */
export const DEFAULT_ENC = 'A128CBC-HS256';

/** The pairs, by what they encrypt; `to: 'client'` pairs need the client's encryption keys. */
export const ENCRYPTION_PAIRS = [
  { alg: 'id_token_encrypted_response_alg', enc: 'id_token_encrypted_response_enc', to: 'client' },
  { alg: 'userinfo_encrypted_response_alg', enc: 'userinfo_encrypted_response_enc', to: 'client' },
  {
    alg: 'introspection_encrypted_response_alg',
    enc: 'introspection_encrypted_response_enc',
    to: 'client',
  },
  { alg: 'request_object_encryption_alg', enc: 'request_object_encryption_enc', to: 'provider' },
] as const;

/** Integrated Encryption: the JWE has no `enc`. */
export const isIntegrated = (alg: string): boolean => getJweAlgorithm(alg).mode === 'integrated';

/** A JWE `alg` of the registry. */
export const jweAlg: Check<string> = (alg, { field }) => {
  if (!isJweAlgorithm(alg))
    throw new ClientError(
      `${field} ${alg} is not a JWE algorithm this provider has; choose one of ${jweRegistry()
        .map((e) => e.alg)
        .join(', ')}`,
      field,
    );
  return alg;
};

/** A JWE `enc` of the registry. */
export const jweEnc: Check<string> = (enc, { field }) => {
  const known = contentEncryptionRegistry().map((e) => e.enc);
  if (!known.includes(enc)) throw new ClientError(`${field} must be one of ${known.join(', ')}`, field);
  return enc;
};

/** The client's members as read (metadata.ts `Values`): the pairs, `jwks`, `jwks_uri`. */
type EncMembers = Partial<Record<string, unknown>>;

/** The `enc` of one pair as used: none for Integrated Encryption, else the registered one or the default. */
export function encOf(alg: string, enc: string | undefined): string | undefined {
  return isIntegrated(alg) ? undefined : (enc ?? DEFAULT_ENC);
}

/**
 * The rules between the members of each pair and the client's keys; sets each `_enc` default.
 * `providerAlgs`: the provider's encryption key algorithms (`keys.encryptionAlgs`).
 */
export async function checkEncryption(
  c: EncMembers,
  providerAlgs: readonly string[] | undefined,
): Promise<void> {
  const m = c;
  for (const pair of ENCRYPTION_PAIRS) {
    const alg = m[pair.alg] as string | undefined;
    const enc = m[pair.enc] as string | undefined;
    if (alg === undefined) {
      if (enc !== undefined) throw new ClientError(`${pair.enc} needs ${pair.alg}`, pair.enc);
      continue;
    }
    if (isIntegrated(alg) && enc !== undefined)
      throw new ClientError(
        `${pair.alg} ${alg} is HPKE Integrated Encryption, which has no enc (draft-ietf-jose-hpke-encrypt-20 §5): leave ${pair.enc} out, or choose ${alg}-KE`,
        pair.enc,
      );
    if (!isIntegrated(alg)) m[pair.enc] = enc ?? DEFAULT_ENC;
    if (pair.to === 'provider') {
      if (providerAlgs !== undefined && !providerAlgs.includes(alg))
        throw new ClientError(
          `${pair.alg}: this provider has encryption keys for ${providerAlgs.join(', ') || 'no algorithm'}`,
          pair.alg,
        );
      continue;
    }
    await checkClientKey(c, pair.alg, alg);
  }
}

/** The client must be able to receive: keys to encrypt to, and with `jwks`, one for `alg` now. */
async function checkClientKey(c: EncMembers, field: string, alg: string): Promise<void> {
  if (c.jwks === undefined && c.jwks_uri === undefined)
    throw new ClientError(`${field} needs the client's encryption keys: jwks or jwks_uri`, field);
  if (c.jwks !== undefined && (await encryptionKeysFor(c.jwks, alg)).length === 0)
    throw new ClientError(
      `${field} ${alg}: jwks holds no public key for it (use "enc", alg ${alg} or none)`,
      field,
    );
}
