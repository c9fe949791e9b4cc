/**
 * Access tokens: an opaque handle or an RFC 9068 JWT, by the resource's or the client's
 * `access_token_format`. By default every access token, JWT or not, is recorded under its digest:
 * userinfo, introspection and revocation then treat both formats the same, and revoking a grant
 * also kills its JWTs. A JWT whose resource (or else client, or else the configuration) asks for
 * `accessTokenStorage: stateless` is recorded nowhere: it is verified where it is presented and
 * revoked through the denylist (stateless.ts). `recordAccessToken`, `findAccessToken` and
 * `revokeAccessToken` are the only places that choose between the two.
 */
import { inspectToken } from '@pqid/jose';
import { accessTokenAlgOf, type Client } from '../../clients/clients.ts';
import type { AccessTokenStorage, ResourceServerConfig } from '../../config/index.ts';
import type { IdpContext } from '../../context.ts';
import { randomToken, tokenId } from '../../crypto/secrets.ts';
import { deny } from '../../storage/denylist.ts';
import { type Model, model, type Stored } from '../../storage/model.ts';
import { observeReference, signToken } from '../shared/signing.ts';
import {
  isStatelessToken,
  statelessJti,
  type VerifiedAccessToken,
  verifyStatelessToken,
} from './stateless.ts';

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
  /** Set only on a stateless token as verification read it: its `jti`, what revoking it denies. */
  jti?: string;
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
    jti: storageOf(ctx, client, target) === 'stateless' ? statelessJti(record.grantId) : randomToken(16),
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

/** How a JWT for `target` is kept: as its resource says, else its client, else the configuration. */
function storageOf(ctx: IdpContext, client: Client, target: AccessTokenTarget): AccessTokenStorage {
  return target.resource?.accessTokenStorage ?? client.access_token_storage ?? ctx.config.accessTokenStorage;
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
  // A stateless JWT costs no write: the hot path is the signature alone.
  if (format === 'reference' || storageOf(ctx, client, target) === 'stored')
    await recordAccessToken(ctx, token, { ...record, format });
  return token;
}

/** Where an issued access token is recorded. */
async function recordAccessToken(ctx: IdpContext, token: string, record: AccessTokenRecord): Promise<void> {
  await accessTokens(ctx).upsert(tokenId(token), record, ctx.config.ttl.accessToken);
}

/** A verified stateless token as the record a stored one would have had. */
function asRecord(v: VerifiedAccessToken, issuer: string): AccessTokenRecord {
  const { jti, aud, ...rest } = v;
  // A token for this provider (userinfo) has no resource, like its stored twin.
  return { ...rest, format: 'jwt', jti, ...(aud !== issuer ? { aud } : {}) };
}

/** A stateless JWT is verified; any other token is looked up under its digest. */
async function lookUp(ctx: IdpContext, token: string): Promise<Stored<AccessTokenRecord> | undefined> {
  if (!isStatelessToken(token)) return accessTokens(ctx).find(tokenId(token));
  const verified = await verifyStatelessToken(ctx, token);
  return verified && asRecord(verified, ctx.config.issuer);
}

/**
 * Where a presented access token is found (userinfo, introspection, revocation). A tampered
 * token, JWT or opaque, is simply unknown; so is one whose client was removed (Clients.holderOf).
 */
export async function findAccessToken(
  ctx: IdpContext,
  token: string,
): Promise<Stored<AccessTokenRecord> | undefined> {
  const record = await lookUp(ctx, token);
  if (record === undefined) return undefined;
  return (await ctx.clients.holderOf(record.clientId, record.iat)) ? record : undefined;
}

/**
 * Where one access token is revoked (RFC 7009): a stored one loses its record, a stateless one's
 * `jti` is denied until it expires. A whole grant goes with `revokeGrant` (storage/denylist.ts).
 */
export function revokeAccessToken(ctx: IdpContext, token: string, found: AccessTokenRecord): Promise<void> {
  if (found.jti === undefined) return accessTokens(ctx).destroy(tokenId(token));
  return deny(ctx.storage, 'jti', found.jti, (found.exp ?? 0) - now());
}
