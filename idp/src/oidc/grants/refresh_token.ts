/**
 * The refresh_token grant (RFC 6749 §6), with rotation and reuse detection: every use spends the
 * token and issues a new one, and presenting a spent one revokes the whole grant. Everything the
 * request can fail on is checked before the token is spent, so a thief without the client's
 * credentials or its DPoP key cannot spend (and so revoke) it.
 */
import type { IdpContext } from '../../context.ts';
import { revokeGrant } from '../../storage/denylist.ts';
import { invalidGrant, invalidRequest, OAuthError } from '../shared/errors.ts';
import { pickResource, resourceParam } from '../shared/resources.ts';
import { issueUserTokens, type TokenResponse } from '../tokens/issue.ts';
import { consumeRefreshToken, findRefreshToken, type RefreshTokenRecord } from '../tokens/refresh-tokens.ts';
import { userGrant } from '../tokens/user-grant.ts';
import { accessTarget, bindRefresh, refreshBinding, type TokenRequest } from './grant.ts';

export const grantType = 'refresh_token';
export const parameters = ['refresh_token', 'scope', 'resource'] as const;

/** A narrower scope is for this access token only: the refresh token keeps the grant's (RFC 6749 §6). */
function narrowedScope(record: RefreshTokenRecord, scope: string | undefined): string | undefined {
  if (scope === undefined) return undefined;
  const granted = new Set(record.scope.split(' '));
  const asked = scope.split(' ').filter(Boolean);
  if (asked.some((s) => !granted.has(s)))
    throw new OAuthError('invalid_scope', 'scope exceeds the original grant');
  return asked.join(' ');
}

/** The grant ends: its refresh token was reused, or its user is gone. */
async function endGrant(ctx: IdpContext, record: RefreshTokenRecord, description: string): Promise<never> {
  await revokeGrant(ctx.storage, record.grantId, ctx.config.ttl.accessToken);
  throw invalidGrant(description);
}

export async function handler(
  ctx: IdpContext,
  { client, params, jkt }: TokenRequest,
): Promise<TokenResponse> {
  if (!params.refresh_token) throw invalidRequest('refresh_token is required');
  const record = await findRefreshToken(ctx, params.refresh_token);
  if (!record) throw invalidGrant('refresh token is invalid or expired');
  if (record.clientId !== client.client_id) throw invalidGrant('refresh token was issued to another client');
  if (record.jkt !== undefined && record.jkt !== jkt)
    throw invalidGrant('the refresh token is bound to a DPoP key: send a proof signed with it');
  // A resource or scope the grant does not cover must not cost the client its grant either.
  const resource = pickResource(ctx.config, resourceParam(params.resource), record.resources);
  const tokenScope = narrowedScope(record, params.scope);
  if (record.consumed !== undefined || !(await consumeRefreshToken(ctx, params.refresh_token)))
    return endGrant(ctx, record, 'refresh token has already been used');
  if (!(await ctx.accounts.find(record.accountId)))
    return endGrant(ctx, record, 'the account no longer exists');
  return issueUserTokens(
    ctx,
    client,
    {
      ...userGrant(record),
      ...(tokenScope !== undefined ? { tokenScope } : {}),
      grantExpiresAt: record.expiresAt,
      // Once bound, always bound: a proof with the same key was required above.
      ...bindRefresh(record.jkt ?? refreshBinding(client, jkt)),
    },
    accessTarget(resource, jkt),
  );
}
