/**
 * Issuing codes and tokens. Opaque artefacts (codes, access and refresh tokens) are random
 * handles stored under their SHA-256 digest; the ID token is a JWT signed asynchronously with
 * the key for the client's `id_token_signed_response_alg`.
 */
import { inspectToken } from '@pqid/jose';
import { accessTokenAlgOf, type Client } from '../clients/clients.ts';
import type { IdpContext } from '../context.ts';
import { randomToken, tokenId } from '../crypto/secrets.ts';
import { observeReference, signToken } from './signing.ts';

export interface CodeInput {
  clientId: string;
  accountId: string;
  redirectUri: string;
  scope: string;
  nonce?: string;
  codeChallenge?: string;
  authTime: number;
  /** Methods of the sign-in (RFC 8176) and the class to report (absent in older records). */
  amr?: string[];
  acr?: string;
}

export interface AuthorizationCodeRecord {
  [member: string]: unknown;
  clientId: string;
  accountId: string;
  redirectUri: string;
  scope: string;
  nonce?: string;
  codeChallenge?: string;
  authTime: number;
  amr?: string[];
  acr?: string;
  grantId: string;
}

export interface AccessTokenRecord {
  [member: string]: unknown;
  clientId: string;
  accountId?: string;
  scope: string;
  grantId?: string;
  /** Epoch seconds; introspection reports them. */
  iat?: number;
  exp?: number;
  /** `jwt` when the token is an RFC 9068 JWT (stored under its digest like a reference token). */
  format?: 'jwt' | 'reference';
  authTime?: number;
  amr?: string[];
  acr?: string;
}

export interface RefreshTokenRecord {
  [member: string]: unknown;
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
}

export interface TokenResponse {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  scope: string;
  id_token?: string;
  refresh_token?: string;
}

const now = () => Math.floor(Date.now() / 1000);

export async function issueCode(ctx: IdpContext, record: CodeInput): Promise<string> {
  const code = randomToken();
  const payload: AuthorizationCodeRecord = { ...record, grantId: randomToken(16) };
  await ctx.storage
    .adapter('AuthorizationCode')
    .upsert(tokenId(code), payload, ctx.config.ttl.authorizationCode);
  return code;
}

/** Bytes of the `Authorization: Bearer <token>` line, the figure `auto` compares to the budget. */
export function bearerLineBytes(jwt: string): number {
  return inspectToken(jwt).fits.authorizationHeader.bytes;
}

/** RFC 9068 §2.2 claims for a JWT access token. */
async function signAccessToken(
  ctx: IdpContext,
  client: Client,
  record: AccessTokenRecord,
  jti: string,
): Promise<string> {
  const claims: Record<string, unknown> = { client_id: client.client_id, scope: record.scope, jti };
  // RFC 9068 §2.2.1: a resource server can then demand a stronger sign-in (RFC 9470).
  if (record.authTime !== undefined) claims.auth_time = record.authTime;
  if (record.acr !== undefined) claims.acr = record.acr;
  if (record.amr !== undefined) claims.amr = record.amr;
  return signToken(ctx, 'access_token', accessTokenAlgOf(client, ctx.config.accessTokenSigningAlg), claims, {
    typ: 'at+jwt',
    issuer: ctx.config.issuer,
    // Without an end-user the client itself is the subject (RFC 9068 §2.2).
    subject: record.accountId ?? client.client_id,
    // No resource indicators yet: the only protected resource here is this provider's userinfo.
    audience: ctx.config.issuer,
    expiresIn: ctx.config.ttl.accessToken,
  });
}

/**
 * Every access token, JWT or not, is recorded under its digest: userinfo, introspection and
 * revocation then treat both formats the same, and revoking a grant also kills its JWTs here.
 */
async function issueAccessToken(ctx: IdpContext, client: Client, input: AccessTokenRecord): Promise<string> {
  const iat = now();
  const record: AccessTokenRecord = { ...input, iat, exp: iat + ctx.config.ttl.accessToken };
  const format = client.access_token_format ?? 'reference';
  let token: string | undefined;
  if (format !== 'reference') {
    const jwt = await signAccessToken(ctx, client, record, randomToken(16));
    if (format === 'jwt' || bearerLineBytes(jwt) <= ctx.config.accessTokenHeaderBudget) token = jwt;
  }
  if (token === undefined) {
    token = randomToken();
    observeReference(ctx, 'access_token', token);
    record.format = 'reference';
  } else {
    record.format = 'jwt';
  }
  await ctx.storage.adapter('AccessToken').upsert(tokenId(token), record, ctx.config.ttl.accessToken);
  return token;
}

export async function signIdToken(
  ctx: IdpContext,
  client: Client,
  input: { accountId: string; scope: string; authTime: number; nonce?: string; acr?: string; amr?: string[] },
): Promise<string> {
  const claims: Record<string, unknown> = { auth_time: input.authTime };
  if (input.nonce !== undefined) claims.nonce = input.nonce;
  // How the user signed in (OIDC Core §2): what the session achieved, never more.
  if (input.acr !== undefined) claims.acr = input.acr;
  if (input.amr !== undefined) claims.amr = input.amr;
  // Profile claims stay at userinfo: PQ signatures are large already, so the ID token stays minimal.
  return signToken(ctx, 'id_token', client.id_token_signed_response_alg, claims, {
    issuer: ctx.config.issuer,
    subject: input.accountId,
    audience: client.client_id,
    expiresIn: ctx.config.ttl.idToken,
  });
}

/** Tokens for a user grant (authorization_code and refresh_token). */
export async function issueUserTokens(
  ctx: IdpContext,
  client: Client,
  grant: {
    accountId: string;
    scope: string;
    grantId: string;
    authTime: number;
    amr?: string[];
    acr?: string;
    nonce?: string;
    grantExpiresAt?: number;
  },
): Promise<TokenResponse> {
  const scopes = new Set(grant.scope.split(' '));
  const accessToken = await issueAccessToken(ctx, client, {
    clientId: client.client_id,
    accountId: grant.accountId,
    scope: grant.scope,
    grantId: grant.grantId,
    authTime: grant.authTime,
    ...(grant.amr !== undefined ? { amr: grant.amr } : {}),
    ...(grant.acr !== undefined ? { acr: grant.acr } : {}),
  });
  const response: TokenResponse = {
    access_token: accessToken,
    token_type: 'Bearer',
    expires_in: ctx.config.ttl.accessToken,
    scope: grant.scope,
  };
  if (scopes.has('openid')) {
    response.id_token = await signIdToken(ctx, client, grant);
  }
  if (scopes.has('offline_access') && client.grant_types.includes('refresh_token')) {
    const expiresAt = grant.grantExpiresAt ?? now() + ctx.config.ttl.refreshToken;
    const remaining = expiresAt - now();
    if (remaining > 0) {
      const refresh = randomToken();
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
      };
      await ctx.storage.adapter('RefreshToken').upsert(tokenId(refresh), record, remaining);
      response.refresh_token = refresh;
    }
  }
  return response;
}

export async function issueClientCredentialsToken(
  ctx: IdpContext,
  client: Client,
  scope: string,
): Promise<TokenResponse> {
  const accessToken = await issueAccessToken(ctx, client, { clientId: client.client_id, scope });
  return { access_token: accessToken, token_type: 'Bearer', expires_in: ctx.config.ttl.accessToken, scope };
}
