/**
 * The token response (RFC 6749 §5.1): what the token endpoint's grants answer with. Opaque
 * artefacts (codes, access and refresh tokens) are random handles stored under their SHA-256
 * digest; JWTs are signed asynchronously on the signing pool.
 */
import type { Client } from '../../clients/clients.ts';
import type { ResourceServerConfig } from '../../config/index.ts';
import type { IdpContext } from '../../context.ts';
import { type AccessTokenTarget, issueAccessToken } from './access-tokens.ts';
import { signIdToken } from './id-token.ts';
import { issueRefreshToken } from './refresh-tokens.ts';
import type { UserGrant } from './user-grant.ts';

export interface TokenResponse {
  access_token: string;
  token_type: 'Bearer' | 'DPoP';
  expires_in: number;
  scope: string;
  id_token?: string;
  refresh_token?: string;
}

/** Scopes of an access token for `resource`: the granted ones that resource accepts. */
export function scopeFor(granted: string, resource: ResourceServerConfig | undefined): string {
  if (!resource) return granted;
  const accepted = new Set(resource.scope);
  return granted
    .split(' ')
    .filter((s) => accepted.has(s))
    .join(' ');
}

const tokenType = (target: AccessTokenTarget) => (target.jkt !== undefined ? 'DPoP' : 'Bearer');

/** Tokens for a user grant (authorization_code and refresh_token). */
export async function issueUserTokens(
  ctx: IdpContext,
  client: Client,
  grant: UserGrant,
  target: AccessTokenTarget = {},
): Promise<TokenResponse> {
  const tokenScope = grant.tokenScope ?? grant.scope;
  const atScope = scopeFor(tokenScope, target.resource);
  // The access token, the ID token and the refresh token's record at once: both signatures reach
  // the signing pool together (the native queue batches them) instead of one after the other.
  const accessToken = issueAccessToken(
    ctx,
    client,
    {
      clientId: client.client_id,
      accountId: grant.accountId,
      scope: atScope,
      grantId: grant.grantId,
      authTime: grant.authTime,
      ...(grant.amr !== undefined ? { amr: grant.amr } : {}),
      ...(grant.acr !== undefined ? { acr: grant.acr } : {}),
    },
    target,
  );
  const idToken = tokenScope.split(' ').includes('openid') ? signIdToken(ctx, client, grant) : undefined;
  const refreshToken = issueRefreshToken(ctx, client, grant);
  // allSettled first: a failure in one must not leave the others' rejections unhandled.
  const settled = await Promise.allSettled([accessToken, idToken, refreshToken]);
  for (const r of settled) if (r.status === 'rejected') throw r.reason;
  const [at, id, rt] = settled.map((r) => (r.status === 'fulfilled' ? r.value : undefined));
  const response: TokenResponse = {
    access_token: at as string,
    token_type: tokenType(target),
    expires_in: ctx.config.ttl.accessToken,
    scope: atScope,
  };
  if (id !== undefined) response.id_token = id;
  if (rt !== undefined) response.refresh_token = rt;
  return response;
}

/** A client's own access token (client_credentials): no user, no ID or refresh token. */
export async function issueClientCredentialsToken(
  ctx: IdpContext,
  client: Client,
  scope: string,
  target: AccessTokenTarget = {},
): Promise<TokenResponse> {
  const accessToken = await issueAccessToken(ctx, client, { clientId: client.client_id, scope }, target);
  return {
    access_token: accessToken,
    token_type: tokenType(target),
    expires_in: ctx.config.ttl.accessToken,
    scope,
  };
}
