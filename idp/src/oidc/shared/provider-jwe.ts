/**
 * JWEs a client encrypts to the provider's own encryption keys (the `enc` set,
 * keys/encryption-keys.ts), each holding a signed JWT (a Nested JWT): request objects (RFC 9101
 * §6.1) and ID tokens re-encrypted as an `id_token_hint` (RP-Initiated Logout 1.0 §2). Any `alg`
 * the provider has keys for (`keys.encryptionAlgs`) and any `enc` is accepted.
 *
 * The keys tried are every `enc` key still published in /jwks — next, active, and retired until
 * removed — so a client that cached the JWKS before a rotation is not locked out; a JWE to a key
 * that has left /jwks fails like any other. Every failure after the `alg`/`enc` allow-lists is
 * one outcome, `undecryptable`: which step failed (header, key, tag, content) is not revealed.
 * The caller verifies the JWT inside: encryption never stands in for the signature.
 */
import { AlgorithmNotAllowed, contentEncryptionRegistry, decryptCompact } from '@pqid/jose';
import type { IdpContext } from '../../context.ts';

/** Why a JWE to the provider was not opened; `algs`/`encs` are what the provider accepts. */
export type ProviderJweRefusal =
  | { reason: 'no-keys' }
  | { reason: 'alg'; algs: readonly string[] }
  | { reason: 'enc'; enc: unknown; encs: readonly string[] }
  | { reason: 'undecryptable' }
  | { reason: 'not-jwt' };

export type ProviderJweResult = { jwt: string } | ProviderJweRefusal;

/** The JWE's protected header as sent (decryption has already refused it; this only names why). */
function headerOf(jwe: string): { alg?: unknown; enc?: unknown } {
  try {
    return JSON.parse(Buffer.from(jwe.slice(0, jwe.indexOf('.')), 'base64url').toString('utf8')) ?? {};
  } catch {
    return {};
  }
}

/** The signed JWT inside `jwe`, a compact JWE to one of the provider's keys, or why not. */
export async function openProviderJwe(
  ctx: IdpContext,
  jwe: string,
  maxTokenBytes: number,
): Promise<ProviderJweResult> {
  const algs = ctx.config.keys.encryptionAlgs;
  const encs = contentEncryptionRegistry().map((e) => e.enc);
  if (algs.length === 0) return { reason: 'no-keys' };
  let result: Awaited<ReturnType<typeof decryptCompact>>;
  try {
    result = await decryptCompact(jwe, (header) => ctx.keys.decryptionKeys(header.alg), {
      keyManagementAlgorithms: algs,
      contentEncryptionAlgorithms: encs,
      maxTokenBytes,
    });
  } catch (e) {
    if (!(e instanceof AlgorithmNotAllowed)) return { reason: 'undecryptable' };
    // Every registry `enc` is allowed: with an `alg` we have keys for, the `enc` is unknown.
    const { alg, enc } = headerOf(jwe);
    return typeof alg === 'string' && algs.includes(alg)
      ? { reason: 'enc', enc, encs }
      : { reason: 'alg', algs };
  }
  const cty = result.protectedHeader.cty;
  if (cty !== undefined && (typeof cty !== 'string' || !/^(application\/)?jwt$/i.test(cty)))
    return { reason: 'not-jwt' };
  const inner = Buffer.from(result.plaintext).toString('utf8');
  return inner.split('.').length === 3 ? { jwt: inner } : { reason: 'not-jwt' };
}
