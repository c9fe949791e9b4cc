/**
 * The authorization_code grant (RFC 6749 §4.1.3, RFC 7636 PKCE). Everything a redemption can fail
 * on is checked before the code is spent, as at a refresh: someone who has only seen the code (a
 * referrer, a log, the browser history) but not the client's credentials, its redirect_uri, the
 * PKCE verifier or the DPoP key cannot spend it and so make the real redemption fail. The record
 * never changes after it is written, so checking the copy read first is checking the code.
 */
import type { Client } from '../../clients/clients.ts';
import type { IdpContext } from '../../context.ts';
import { s256 } from '../../crypto/secrets.ts';
import { revokeGrant } from '../../storage/denylist.ts';
import type { Stored } from '../../storage/model.ts';
import { invalidGrant, invalidRequest } from '../shared/errors.ts';
import { pickResource, resourceParam } from '../shared/resources.ts';
import { type AuthorizationCodeRecord, consumeCode, findCode } from '../tokens/authorization-codes.ts';
import { issueUserTokens, type TokenResponse } from '../tokens/issue.ts';
import { userGrant } from '../tokens/user-grant.ts';
import { accessTarget, bindRefresh, refreshBinding, type TokenParams, type TokenRequest } from './grant.ts';

export const grantType = 'authorization_code';
export const parameters = ['code', 'redirect_uri', 'code_verifier', 'resource'] as const;

const VERIFIER = /^[A-Za-z0-9._~-]{43,128}$/;

/** The checks that need no store: who redeems, where to, the PKCE verifier and the DPoP key. */
function checkRedemption(
  record: AuthorizationCodeRecord,
  client: Client,
  params: TokenParams,
  jkt: string | undefined,
): void {
  if (record.clientId !== client.client_id)
    throw invalidGrant('authorization code was issued to another client');
  if (record.redirectUri !== params.redirect_uri)
    throw invalidGrant('redirect_uri does not match the authorization request');
  if (record.codeChallenge !== undefined) {
    if (!params.code_verifier) throw invalidGrant('code_verifier is required');
    if (!VERIFIER.test(params.code_verifier) || s256(params.code_verifier) !== record.codeChallenge)
      throw invalidGrant('PKCE verification failed');
  } else if (params.code_verifier !== undefined) {
    // A verifier without a challenge is a downgrade attempt (RFC 9700 §2.1.1).
    throw invalidGrant('code_verifier sent but no code_challenge was used');
  }
  // dpop_jkt at the authorization request: only that key may redeem the code (RFC 9449 §10).
  if (record.dpopJkt !== undefined && record.dpopJkt !== jkt)
    throw invalidGrant('the authorization code is bound to another DPoP key (dpop_jkt)');
}

/** A replayed code means it leaked: revoke everything issued from it (RFC 6749 §4.1.2). */
async function replayed(ctx: IdpContext, record: Stored<AuthorizationCodeRecord>): Promise<never> {
  await revokeGrant(ctx.storage, record.grantId, ctx.config.ttl.accessToken);
  throw invalidGrant('authorization code has already been used');
}

export async function handler(
  ctx: IdpContext,
  { client, params, jkt }: TokenRequest,
): Promise<TokenResponse> {
  if (!params.code) throw invalidRequest('code is required');
  if (!params.redirect_uri) throw invalidRequest('redirect_uri is required');
  const record = await findCode(ctx, params.code);
  if (!record) throw invalidGrant('authorization code is invalid or expired');
  if (record.consumed !== undefined) return replayed(ctx, record);
  checkRedemption(record, client, params, jkt);
  // A resource the grant does not cover is the client's mistake to correct (RFC 8707 §2.2).
  const resource = pickResource(ctx.config, resourceParam(params.resource), record.resources);
  // Of concurrent redemptions, on any number of instances, one wins; the others are replays.
  if (!(await consumeCode(ctx, params.code))) return replayed(ctx, record);
  // A user removed since the code was issued gets no tokens (a refresh checks the same).
  if (!(await ctx.accounts.find(record.accountId))) {
    await revokeGrant(ctx.storage, record.grantId, ctx.config.ttl.accessToken);
    throw invalidGrant('the account no longer exists');
  }
  return issueUserTokens(
    ctx,
    client,
    {
      ...userGrant(record),
      ...(record.nonce !== undefined ? { nonce: record.nonce } : {}),
      ...bindRefresh(refreshBinding(client, jkt)),
    },
    accessTarget(resource, jkt),
  );
}
