/**
 * Every JWT the provider issues is signed here, so sign latency and token size are measured
 * in one place, per algorithm and kind. A token encrypted afterwards (encryption.ts) is counted
 * there instead, at the size sent. The key comes from the key manager's placement: `alg`
 * is the client's registered one, which a fixed placement may override (not a resource's pinned one).
 */
import { type JwtClaims, type SignJwtOptions, signJwt } from '@pqid/jose';
import type { IdpContext } from '../../context.ts';
import { metricsFor, type TokenKind } from '../../metrics.ts';

export async function signToken(
  ctx: IdpContext,
  kind: TokenKind,
  alg: string,
  claims: JwtClaims,
  opts: SignJwtOptions = {},
  /**
   * `exactAlg`: sign with `alg` itself, whatever key placement says (a resource's pinned alg).
   * `encrypted`: the caller encrypts it to the client, which counts its size (encryptSignedJwt).
   */
  { exactAlg = false, encrypted = false }: { exactAlg?: boolean; encrypted?: boolean } = {},
): Promise<string> {
  // Logout tokens and introspection answers (RFC 9701) are signed like the client's ID tokens
  // (same placement).
  const purpose = kind === 'logout_token' || kind === 'introspection' ? 'id_token' : kind;
  const key = exactAlg ? await ctx.keys.signingKey(alg) : await ctx.keys.signerFor(purpose, alg);
  const m = metricsFor(ctx);
  const end = m.signSeconds.startTimer({ alg: key.alg, kind });
  const token = await signJwt(claims, key, opts);
  end();
  if (!encrypted) observeSent(ctx, kind, key.alg, 'none', token);
  return token;
}

/**
 * The bytes of a token as sent: `alg` signed it (`reference` for opaque tokens, `none` for an
 * unsigned encrypted answer), `encryption` is the JWE alg it was encrypted with, or `none`.
 */
export function observeSent(
  ctx: IdpContext,
  kind: TokenKind,
  alg: string,
  encryption: string,
  token: string,
): void {
  metricsFor(ctx).tokenBytes.observe({ alg, kind, encryption }, Buffer.byteLength(token));
}

/** Opaque tokens are counted too, so dashboards compare them with the JWTs they replace. */
export function observeReference(ctx: IdpContext, kind: TokenKind, token: string): void {
  observeSent(ctx, kind, 'reference', 'none', token);
}
