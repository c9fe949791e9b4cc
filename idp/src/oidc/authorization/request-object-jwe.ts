/**
 * Encrypted request objects: a JWE to one of the provider's own encryption keys holding the
 * client's signed request object (shared/provider-jwe.ts decrypts). A client's
 * `request_object_encryption_alg`/`_enc` declare what it may use; OIDC Dynamic Client
 * Registration 1.0 §2 lets it use another the provider has keys for, or none.
 */
import type { IdpContext } from '../../context.ts';
import { openProviderJwe } from '../shared/provider-jwe.ts';

/** A JWE is larger than the JWS it carries: room for an ML-DSA-87 object plus any KEM ciphertext. */
const MAX_JWE_BYTES = 48 * 1024;

/** The signed request object inside `jwe`; `refuse` answers invalid_request_object. */
export async function decryptRequestObject(
  ctx: IdpContext,
  jwe: string,
  refuse: (message: string) => never,
): Promise<string> {
  const opened = await openProviderJwe(ctx, jwe, MAX_JWE_BYTES);
  if ('jwt' in opened) return opened.jwt;
  switch (opened.reason) {
    case 'no-keys':
      return refuse('this provider has no encryption keys: send the request object signed only');
    case 'alg':
      return refuse(
        `the request object is encrypted with an algorithm this provider has no key for; use one of ${opened.algs.join(', ')}`,
      );
    case 'enc':
      return refuse(
        `the request object is encrypted with enc ${String(opened.enc)}, which this provider does not have; use one of ${opened.encs.join(', ')}`,
      );
    case 'not-jwt':
      return refuse('an encrypted request object must contain a signed JWT');
    default:
      return refuse('the request object could not be decrypted');
  }
}
