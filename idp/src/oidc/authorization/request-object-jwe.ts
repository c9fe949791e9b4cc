/**
 * Encrypted request objects: a JWE to one of the provider's own encryption keys (the `enc` key
 * set, keys/encryption-keys.ts) holding the client's signed request object. Any `alg` the provider
 * has keys for (`keys.encryptionAlgs`) and any `enc` is accepted: a client's
 * `request_object_encryption_alg`/`_enc` declare what it may use, and OIDC Dynamic Client
 * Registration 1.0 §2 lets it use another or none.
 *
 * The keys tried are every `enc` key still published in /jwks — next, active, and retired until
 * removed — so a client that cached the JWKS before a rotation is not locked out; a JWE to a key
 * that has left /jwks fails like any other. Every failure after the `alg`/`enc` allow-lists is
 * one message: which step failed (header, key, tag, content) is not revealed.
 */
import { AlgorithmNotAllowed, contentEncryptionRegistry, decryptCompact } from '@pqid/jose';
import type { IdpContext } from '../../context.ts';

/** A JWE is larger than the JWS it carries: room for an ML-DSA-87 object plus any KEM ciphertext. */
const MAX_JWE_BYTES = 48 * 1024;

/** The JWE's protected header as sent (decryption has already refused it; this only names why). */
function headerOf(jwe: string): { alg?: unknown; enc?: unknown } {
  try {
    return JSON.parse(Buffer.from(jwe.slice(0, jwe.indexOf('.')), 'base64url').toString('utf8')) ?? {};
  } catch {
    return {};
  }
}

/** The signed request object inside `jwe`; `refuse` answers invalid_request_object. */
export async function decryptRequestObject(
  ctx: IdpContext,
  jwe: string,
  refuse: (message: string) => never,
): Promise<string> {
  const algs = ctx.config.keys.encryptionAlgs;
  const encs = contentEncryptionRegistry().map((e) => e.enc);
  if (algs.length === 0)
    return refuse('this provider has no encryption keys: send the request object signed only');
  let result: Awaited<ReturnType<typeof decryptCompact>>;
  try {
    result = await decryptCompact(jwe, (header) => ctx.keys.decryptionKeys(header.alg), {
      keyManagementAlgorithms: algs,
      contentEncryptionAlgorithms: encs,
      maxTokenBytes: MAX_JWE_BYTES,
    });
  } catch (e) {
    if (e instanceof AlgorithmNotAllowed) {
      // Every registry `enc` is allowed: with an `alg` we have keys for, the `enc` is unknown.
      const { alg, enc } = headerOf(jwe);
      return refuse(
        typeof alg === 'string' && algs.includes(alg)
          ? `the request object is encrypted with enc ${String(enc)}, which this provider does not have; use one of ${encs.join(', ')}`
          : `the request object is encrypted with an algorithm this provider has no key for; use one of ${algs.join(', ')}`,
      );
    }
    return refuse('the request object could not be decrypted');
  }
  const cty = result.protectedHeader.cty;
  if (cty !== undefined && (typeof cty !== 'string' || !/^(application\/)?jwt$/i.test(cty)))
    return refuse('an encrypted request object must contain a signed JWT (cty "JWT")');
  const inner = Buffer.from(result.plaintext).toString('utf8');
  if (inner.split('.').length !== 3) return refuse('an encrypted request object must contain a signed JWT');
  return inner;
}
