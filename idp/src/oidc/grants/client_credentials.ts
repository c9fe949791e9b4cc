/**
 * The client_credentials grant (RFC 6749 §4.4): a confidential client's own access token, for
 * scopes its registration allows. No user: `openid` and `offline_access` mean nothing here.
 */
import type { IdpContext } from '../../context.ts';
import { OAuthError } from '../shared/errors.ts';
import { pickClientResource, resourceParam } from '../shared/resources.ts';
import { issueClientCredentialsToken, scopeFor, type TokenResponse } from '../tokens/issue.ts';
import { accessTarget, type TokenRequest } from './grant.ts';

export const grantType = 'client_credentials';
export const parameters = ['scope', 'resource'] as const;

// openid and offline_access mean nothing without an end-user.
const noUser = (s: string) => s && s !== 'openid' && s !== 'offline_access';

export async function handler(
  ctx: IdpContext,
  { client, params, jkt }: TokenRequest,
): Promise<TokenResponse> {
  if (client.token_endpoint_auth_method === 'none')
    throw new OAuthError('unauthorized_client', 'public clients cannot use client_credentials');
  const allowed = new Set(client.scope.split(' '));
  const asked = (params.scope ?? '').split(' ').filter(noUser);
  if (asked.some((s) => !allowed.has(s)))
    throw new OAuthError('invalid_scope', 'requested scope is not allowed for this client');
  const resource = pickClientResource(ctx.config, resourceParam(params.resource));
  // For a resource without a scope parameter: every scope of the client that resource accepts.
  const scope =
    resource && params.scope === undefined
      ? scopeFor([...allowed].filter(noUser).join(' '), resource)
      : scopeFor(asked.join(' '), resource);
  return issueClientCredentialsToken(ctx, client, scope, accessTarget(resource, jkt));
}
