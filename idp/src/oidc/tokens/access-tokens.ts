/**
 * Access tokens: an opaque handle or an RFC 9068 JWT, by the resource's or the client's
 * `access_token_format`. Every access token, JWT or not, is recorded under its digest: userinfo,
 * introspection and revocation then treat both formats the same, and revoking a grant also kills
 * its JWTs. `recordAccessToken`, `findAccessToken` and `revokeAccessToken` are the only places
 * that touch that record.
 */
import { inspectToken } from '@pqid/jose';
import { accessTokenAlgOf, type Client } from '../../clients/clients.ts';
import type { ResourceServerConfig } from '../../config/index.ts';
import type { IdpContext } from '../../context.ts';
import { randomToken, tokenId } from '../../crypto/secrets.ts';
import { type Model, model, type Stored } from '../../storage/model.ts';
import { observeReference, signToken } from '../shared/signing.ts';

export interface AccessTokenRecord {
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

/** How an access token is constrained: its audience (RFC 8707) and its DPoP key (RFC 9449). */
export interface AccessTokenTarget {
  /** A configured resource server; absent: a token for this provider's userinfo. */
  resource?: ResourceServerConfig;
  /** Thumbprint of the DPoP key the token is bound to. */
  jkt?: string;
}

const now = () => Math.floor(Date.now() / 1000);

const accessTokens = (ctx: IdpContext): Model<AccessTokenRecord> =>
  model<AccessTokenRecord>(ctx.storage, 'AccessToken');

/** Bytes of the `Authorization: Bearer <token>` line, the figure `auto` compares to the budget. */
export function bearerLineBytes(jwt: string): number {
  return inspectToken(jwt).fits.authorizationHeader.bytes;
}

/** RFC 9068 §2.2 claims for a JWT access token; `cnf.jkt` when DPoP-bound (RFC 9449 §6.1). */
async function signAccessToken(
  ctx: IdpContext,
  client: Client,
  record: AccessTokenRecord,
  target: AccessTokenTarget,
): Promise<string> {
  const claims: Record<string, unknown> = {
    client_id: client.client_id,
    scope: record.scope,
    jti: randomToken(16),
  };
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

/** The token in the format the resource (or else the client) asks for: a JWT, or a random handle. */
async function mint(
  ctx: IdpContext,
  client: Client,
  record: AccessTokenRecord,
  target: AccessTokenTarget,
): Promise<{ token: string; format: 'jwt' | 'reference' }> {
  // A resource server says how it validates tokens; this provider's own tokens follow the client.
  const format = target.resource?.accessTokenFormat ?? client.access_token_format ?? 'reference';
  if (format !== 'reference') {
    const jwt = await signAccessToken(ctx, client, record, target);
    if (format === 'jwt' || bearerLineBytes(jwt) <= ctx.config.accessTokenHeaderBudget)
      return { token: jwt, format: 'jwt' };
  }
  const token = randomToken();
  observeReference(ctx, 'access_token', token);
  return { token, format: 'reference' };
}

/** A new access token for `input` (client, account, scope, grant), constrained to `target`. */
export async function issueAccessToken(
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
  const { token, format } = await mint(ctx, client, record, target);
  await recordAccessToken(ctx, token, { ...record, format });
  return token;
}

/** Where an issued access token is recorded. */
async function recordAccessToken(ctx: IdpContext, token: string, record: AccessTokenRecord): Promise<void> {
  await accessTokens(ctx).upsert(tokenId(token), record, ctx.config.ttl.accessToken);
}

/**
 * Where a presented access token is looked up (userinfo, introspection, revocation). A tampered
 * token, JWT or opaque, has another digest: it is simply unknown.
 */
export function findAccessToken(
  ctx: IdpContext,
  token: string,
): Promise<Stored<AccessTokenRecord> | undefined> {
  return accessTokens(ctx).find(tokenId(token));
}

/** Where one access token is revoked (RFC 7009); a whole grant goes with `Storage.revokeGrant`. */
export function revokeAccessToken(ctx: IdpContext, token: string): Promise<void> {
  return accessTokens(ctx).destroy(tokenId(token));
}
