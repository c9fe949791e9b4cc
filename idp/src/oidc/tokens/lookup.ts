/**
 * A token presented to introspection (RFC 7662) or revocation (RFC 7009), of either kind: the
 * hint only orders the lookups (RFC 7009 §2.1), and an unknown token is simply not found.
 */
import type { IdpContext } from '../../context.ts';
import type { Stored } from '../../storage/model.ts';
import { type AccessTokenRecord, findAccessToken } from './access-tokens.ts';
import { findRefreshToken, type RefreshTokenRecord } from './refresh-tokens.ts';

export type FoundToken =
  | { kind: 'access_token'; record: Stored<AccessTokenRecord> }
  | { kind: 'refresh_token'; record: Stored<RefreshTokenRecord> };

async function find(
  ctx: IdpContext,
  kind: FoundToken['kind'],
  token: string,
): Promise<FoundToken | undefined> {
  if (kind === 'access_token') {
    const record = await findAccessToken(ctx, token);
    return record && { kind, record };
  }
  const record = await findRefreshToken(ctx, token);
  return record && { kind, record };
}

export async function findToken(
  ctx: IdpContext,
  token: string,
  hint: string | undefined,
): Promise<FoundToken | undefined> {
  const order: Array<FoundToken['kind']> =
    hint === 'refresh_token' ? ['refresh_token', 'access_token'] : ['access_token', 'refresh_token'];
  for (const kind of order) {
    const found = await find(ctx, kind, token);
    if (found) return found;
  }
  return undefined;
}
