/**
 * Refresh tokens (RFC 6749 §6): random handles stored under their digest until the grant's
 * absolute end, rotated at every use (the store marks a used one consumed; presenting it again
 * revokes the grant). Only clients allowed the refresh_token grant get one, and only for a grant
 * with `offline_access`.
 */
import type { Client } from '../../clients/clients.ts';
import type { IdpContext } from '../../context.ts';
import { randomToken, tokenId } from '../../crypto/secrets.ts';
import { type Model, model, type Stored } from '../../storage/model.ts';
import type { UserGrant } from './user-grant.ts';

export interface RefreshTokenRecord {
  clientId: string;
  accountId: string;
  scope: string;
  grantId: string;
  authTime: number;
  /** The sign-in behind the grant: refreshed ID tokens report it, not the refresh. */
  amr?: string[];
  acr?: string;
  nonce?: string;
  /** Absolute end of the grant: rotation never extends it. */
  expiresAt: number;
  iat?: number;
  /** Resources the grant covers (RFC 8707): later access tokens may be for any of them. */
  resources?: string[];
  /** Public clients' refresh tokens are bound to their DPoP key (RFC 9449 §5). */
  jkt?: string;
  /** The session the grant started in: refreshed ID tokens keep its `sid`. */
  sid?: string;
}

const now = () => Math.floor(Date.now() / 1000);

const refreshTokens = (ctx: IdpContext): Model<RefreshTokenRecord> =>
  model<RefreshTokenRecord>(ctx.storage, 'RefreshToken');

/**
 * A refresh token for the grant, or undefined when it gets none: no `offline_access`, a client
 * without the refresh_token grant, or a grant already at its end.
 */
export function issueRefreshToken(
  ctx: IdpContext,
  client: Client,
  grant: UserGrant,
): Promise<string> | undefined {
  if (!grant.scope.split(' ').includes('offline_access') || !client.grant_types.includes('refresh_token'))
    return undefined;
  const expiresAt = grant.grantExpiresAt ?? now() + ctx.config.ttl.refreshToken;
  const remaining = expiresAt - now();
  if (remaining <= 0) return undefined;
  const token = randomToken();
  const record: RefreshTokenRecord = {
    clientId: client.client_id,
    accountId: grant.accountId,
    scope: grant.scope,
    grantId: grant.grantId,
    authTime: grant.authTime,
    ...(grant.amr !== undefined ? { amr: grant.amr } : {}),
    ...(grant.acr !== undefined ? { acr: grant.acr } : {}),
    expiresAt,
    iat: now(),
    ...(grant.resources?.length ? { resources: grant.resources } : {}),
    ...(grant.refreshJkt !== undefined ? { jkt: grant.refreshJkt } : {}),
    ...(grant.sid !== undefined ? { sid: grant.sid } : {}),
  };
  return refreshTokens(ctx)
    .upsert(tokenId(token), record, remaining)
    .then(() => token);
}

/**
 * Where a presented refresh token is looked up (token endpoint, introspection, revocation): one
 * whose client was removed is unknown (Clients.holderOf), even to a client registered again
 * under the same id.
 */
export async function findRefreshToken(
  ctx: IdpContext,
  token: string,
): Promise<Stored<RefreshTokenRecord> | undefined> {
  const record = await refreshTokens(ctx).find(tokenId(token));
  if (record === undefined) return undefined;
  return (await ctx.clients.holderOf(record.clientId, record.iat)) ? record : undefined;
}

/** Spend it at a refresh, atomically: of concurrent uses, one gets true; the others are reuse. */
export function consumeRefreshToken(ctx: IdpContext, token: string): Promise<boolean> {
  return refreshTokens(ctx).consume(tokenId(token));
}
