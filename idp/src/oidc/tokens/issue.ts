/**
 * Issuing codes and tokens. Opaque artefacts (codes, access and refresh tokens) are random
 * handles stored under their SHA-256 digest; the ID token is a JWT signed asynchronously with
 * the key for the client's `id_token_signed_response_alg`.
 */
import { inspectToken } from '@pqid/jose';
import { accessTokenAlgOf, type Client } from '../../clients/clients.ts';
import type { ResourceServerConfig } from '../../config/index.ts';
import type { IdpContext } from '../../context.ts';
import { randomToken, tokenId } from '../../crypto/secrets.ts';
import { observeReference, signToken } from '../shared/signing.ts';

export interface CodeInput {
  clientId: string;
  accountId: string;
  redirectUri: string;
  scope: string;
  nonce?: string;
  codeChallenge?: string;
  authTime: number;
  /** RFC 8707 resource indicators of the authorization request. */
  resources?: string[];
  /** `dpop_jkt` of the request (RFC 9449 §10): the code is redeemed only with this key. */
  dpopJkt?: string;
  /** The browser session's public id: `sid` in ID tokens, named by logout tokens. */
  sid?: string;
  /** Methods of the sign-in (RFC 8176) and the class to report (absent in older records). */
  amr?: string[];
  acr?: string;
  /** A grant id chosen by the caller (one recorded against the passkey of the sign-in); else a new one. */
  grantId?: string;
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
  resources?: string[];
  dpopJkt?: string;
  sid?: string;
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
  /** The resource (RFC 8707) the token is audience-restricted to; absent: this provider (userinfo). */
  aud?: string;
  /** DPoP key thumbprint the token is bound to (RFC 9449 §6). */
  jkt?: string;
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
  /** Resources the grant covers (RFC 8707): later access tokens may be for any of them. */
  resources?: string[];
  /** Public clients' refresh tokens are bound to their DPoP key (RFC 9449 §5). */
  jkt?: string;
  /** The session the grant started in: refreshed ID tokens keep its `sid`. */
  sid?: string;
}

export interface TokenResponse {
  access_token: string;
  token_type: 'Bearer' | 'DPoP';
  expires_in: number;
  scope: string;
  id_token?: string;
  refresh_token?: string;
}

const now = () => Math.floor(Date.now() / 1000);

export async function issueCode(ctx: IdpContext, record: CodeInput): Promise<string> {
  const code = randomToken();
  const payload: AuthorizationCodeRecord = { ...record, grantId: record.grantId ?? randomToken(16) };
  await ctx.storage
    .adapter('AuthorizationCode')
    .upsert(tokenId(code), payload, ctx.config.ttl.authorizationCode);
  return code;
}

/** Bytes of the `Authorization: Bearer <token>` line, the figure `auto` compares to the budget. */
export function bearerLineBytes(jwt: string): number {
  return inspectToken(jwt).fits.authorizationHeader.bytes;
}

/** How an access token is constrained: its audience (RFC 8707) and its DPoP key (RFC 9449). */
export interface AccessTokenTarget {
  /** A configured resource server; absent: a token for this provider's userinfo. */
  resource?: ResourceServerConfig;
  /** Thumbprint of the DPoP key the token is bound to. */
  jkt?: string;
}

/** RFC 9068 §2.2 claims for a JWT access token; `cnf.jkt` when DPoP-bound (RFC 9449 §6.1). */
async function signAccessToken(
  ctx: IdpContext,
  client: Client,
  record: AccessTokenRecord,
  jti: string,
  target: AccessTokenTarget,
): Promise<string> {
  const claims: Record<string, unknown> = { client_id: client.client_id, scope: record.scope, jti };
  // RFC 9068 §2.2.1: a resource server can then demand a stronger sign-in (RFC 9470).
  if (record.authTime !== undefined) claims.auth_time = record.authTime;
  if (record.acr !== undefined) claims.acr = record.acr;
  if (record.amr !== undefined) claims.amr = record.amr;
  if (target.jkt !== undefined) claims.cnf = { jkt: target.jkt };
  // A resource's own algorithm is exact (it may be all that resource can verify); otherwise the
  // client's access-token algorithm, which key placement may replace.
  const pinned = target.resource?.accessTokenSigningAlg;
  return signToken(
    ctx,
    'access_token',
    pinned ?? accessTokenAlgOf(client, ctx.config.accessTokenSigningAlg),
    claims,
    {
      typ: 'at+jwt',
      issuer: ctx.config.issuer,
      // Without an end-user the client itself is the subject (RFC 9068 §2.2).
      subject: record.accountId ?? client.client_id,
      audience: target.resource?.uri ?? ctx.config.issuer,
      expiresIn: ctx.config.ttl.accessToken,
    },
    { exactAlg: pinned !== undefined },
  );
}

/**
 * Every access token, JWT or not, is recorded under its digest: userinfo, introspection and
 * revocation then treat both formats the same, and revoking a grant also kills its JWTs here.
 */
async function issueAccessToken(
  ctx: IdpContext,
  client: Client,
  input: AccessTokenRecord,
  target: AccessTokenTarget,
): Promise<string> {
  const iat = now();
  const record: AccessTokenRecord = {
    ...input,
    iat,
    exp: iat + ctx.config.ttl.accessToken,
    ...(target.resource ? { aud: target.resource.uri } : {}),
    ...(target.jkt !== undefined ? { jkt: target.jkt } : {}),
  };
  // A resource server says how it validates tokens; this provider's own tokens follow the client.
  const format = target.resource?.accessTokenFormat ?? client.access_token_format ?? 'reference';
  let token: string | undefined;
  if (format !== 'reference') {
    const jwt = await signAccessToken(ctx, client, record, randomToken(16), target);
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
  input: {
    accountId: string;
    scope: string;
    authTime: number;
    nonce?: string;
    acr?: string;
    amr?: string[];
    sid?: string;
  },
): Promise<string> {
  const claims: Record<string, unknown> = { auth_time: input.authTime };
  if (input.nonce !== undefined) claims.nonce = input.nonce;
  // How the user signed in (OIDC Core §2): what the session achieved, never more.
  if (input.acr !== undefined) claims.acr = input.acr;
  if (input.amr !== undefined) claims.amr = input.amr;
  // OIDC Back-Channel / Front-Channel Logout §3: the session the RP can be told about later.
  if (input.sid !== undefined) claims.sid = input.sid;
  // Profile claims stay at userinfo: PQ signatures are large already, so the ID token stays minimal.
  return signToken(ctx, 'id_token', client.id_token_signed_response_alg, claims, {
    issuer: ctx.config.issuer,
    subject: input.accountId,
    audience: client.client_id,
    expiresIn: ctx.config.ttl.idToken,
  });
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

/** Tokens for a user grant (authorization_code and refresh_token). */
export async function issueUserTokens(
  ctx: IdpContext,
  client: Client,
  grant: {
    accountId: string;
    /** The grant's scope: a new refresh token carries exactly this one (RFC 6749 §6). */
    scope: string;
    /** A narrower scope the client asked for at refresh: the access and ID token get it. */
    tokenScope?: string;
    grantId: string;
    authTime: number;
    amr?: string[];
    acr?: string;
    nonce?: string;
    grantExpiresAt?: number;
    resources?: string[];
    /** DPoP key the refresh token is bound to (public clients). */
    refreshJkt?: string;
    sid?: string;
  },
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
  let refreshToken: Promise<string> | undefined;
  if (grant.scope.split(' ').includes('offline_access') && client.grant_types.includes('refresh_token')) {
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
        ...(grant.resources?.length ? { resources: grant.resources } : {}),
        ...(grant.refreshJkt !== undefined ? { jkt: grant.refreshJkt } : {}),
        ...(grant.sid !== undefined ? { sid: grant.sid } : {}),
      };
      refreshToken = ctx.storage
        .adapter('RefreshToken')
        .upsert(tokenId(refresh), record, remaining)
        .then(() => refresh);
    }
  }
  // allSettled first: a failure in one must not leave the others' rejections unhandled.
  const settled = await Promise.allSettled([accessToken, idToken, refreshToken]);
  for (const r of settled) if (r.status === 'rejected') throw r.reason;
  const [at, id, rt] = settled.map((r) => (r as PromiseFulfilledResult<string | undefined>).value);
  const response: TokenResponse = {
    access_token: at as string,
    token_type: target.jkt !== undefined ? 'DPoP' : 'Bearer',
    expires_in: ctx.config.ttl.accessToken,
    scope: atScope,
  };
  if (id !== undefined) response.id_token = id;
  if (rt !== undefined) response.refresh_token = rt;
  return response;
}

export async function issueClientCredentialsToken(
  ctx: IdpContext,
  client: Client,
  scope: string,
  target: AccessTokenTarget = {},
): Promise<TokenResponse> {
  const accessToken = await issueAccessToken(ctx, client, { clientId: client.client_id, scope }, target);
  return {
    access_token: accessToken,
    token_type: target.jkt !== undefined ? 'DPoP' : 'Bearer',
    expires_in: ctx.config.ttl.accessToken,
    scope,
  };
}
