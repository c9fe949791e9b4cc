/**
 * The token endpoint (RFC 6749 §3.2): authorization_code, refresh_token (rotated),
 * client_credentials. With a DPoP proof (RFC 9449) the access token is bound to the proof's key,
 * and so is a public client's refresh token; `resource` (RFC 8707) picks the audience.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Client } from '../clients/clients.ts';
import { endpoints, type IdpContext } from '../context.ts';
import { s256, tokenId } from '../crypto/secrets.ts';
import { authenticateClient } from './shared/client-auth.ts';
import type { Dpop } from './shared/dpop.ts';
import { invalidGrant, invalidRequest, jsonErrorHandler, OAuthError } from './shared/errors.ts';
import { pickClientResource, pickResource, resourceParam } from './shared/resources.ts';
import {
  type AuthorizationCodeRecord,
  issueClientCredentialsToken,
  issueUserTokens,
  type RefreshTokenRecord,
  scopeFor,
} from './tokens/issue.ts';

const FIELDS = [
  'grant_type',
  'code',
  'redirect_uri',
  'code_verifier',
  'refresh_token',
  'scope',
  'client_id',
  'client_secret',
  'client_assertion_type',
];
const bodySchema = {
  type: 'object',
  required: ['grant_type'],
  properties: {
    ...Object.fromEntries(FIELDS.map((f) => [f, { type: 'string', maxLength: 4096 }])),
    // PQ-signed assertions are several KB (ML-DSA-87: a 4.6 KB signature alone).
    client_assertion: { type: 'string', maxLength: 32768 },
    // RFC 8707: once or repeated.
    resource: {
      anyOf: [
        { type: 'string', maxLength: 2048 },
        { type: 'array', maxItems: 16, items: { type: 'string', maxLength: 2048 } },
      ],
    },
  },
} as const;

type TokenBody = Partial<Record<string, string>> & { resource?: string | string[] };

/** What the grant handlers need beyond the body: the DPoP key of this request, if any. */
interface Proof {
  jkt?: string;
}

const VERIFIER = /^[A-Za-z0-9._~-]{43,128}$/;

export async function tokenRoutes(
  app: FastifyInstance,
  { ctx, dpop }: { ctx: IdpContext; dpop: Dpop },
): Promise<void> {
  app.setErrorHandler(jsonErrorHandler);
  const htu = endpoints(ctx.config.issuer).token;

  // Only form bodies: RFC 6749 §3.2 requires application/x-www-form-urlencoded.
  app.post('/token', { schema: { body: bodySchema } }, async (req: FastifyRequest, reply: FastifyReply) => {
    if (!/^application\/x-www-form-urlencoded\b/i.test(req.headers['content-type'] ?? ''))
      throw invalidRequest('the token request must be application/x-www-form-urlencoded');
    const body = (req.body ?? {}) as TokenBody;
    // Before client authentication, so a nonce retry does not spend a one-time client assertion.
    const proof = await dpop.check(req, { htu, endpoint: 'token' });
    if (proof) dpop.addNonce(reply);
    const client = await authenticateClient(req, body as Partial<Record<string, string>>, ctx);
    if (!proof && client.dpop_bound_access_tokens)
      throw invalidRequest('this client must send a DPoP proof (dpop_bound_access_tokens)');
    const bound: Proof = proof ? { jkt: proof.jkt } : {};
    const grantType = body.grant_type as string;
    if (!['authorization_code', 'refresh_token', 'client_credentials'].includes(grantType)) {
      throw new OAuthError('unsupported_grant_type', `grant_type ${grantType} is not supported`);
    }
    if (!client.grant_types.includes(grantType as Client['grant_types'][number])) {
      throw new OAuthError('unauthorized_client', `client may not use grant_type ${grantType}`);
    }
    let response: object;
    if (grantType === 'authorization_code') response = await authorizationCode(ctx, client, body, bound);
    else if (grantType === 'refresh_token') response = await refreshToken(ctx, client, body, bound);
    else response = await clientCredentials(ctx, client, body, bound);
    return reply.headers({ 'cache-control': 'no-store', pragma: 'no-cache' }).send(response);
  });
}

/** Public clients' refresh tokens are bound to the DPoP key; confidential clients' are not (RFC 9449 §5). */
const refreshBinding = (client: Client, jkt: string | undefined) =>
  client.token_endpoint_auth_method === 'none' ? jkt : undefined;

async function authorizationCode(ctx: IdpContext, client: Client, body: TokenBody, proof: Proof) {
  if (!body.code) throw invalidRequest('code is required');
  if (!body.redirect_uri) throw invalidRequest('redirect_uri is required');
  const codes = ctx.storage.adapter('AuthorizationCode');
  const id = tokenId(body.code);
  const record = (await codes.find(id)) as (AuthorizationCodeRecord & { consumed?: number }) | undefined;
  if (!record) throw invalidGrant('authorization code is invalid or expired');
  // A replayed code means it leaked: revoke everything issued from it (RFC 6749 §4.1.2).
  if (record.consumed !== undefined) {
    await ctx.storage.revokeGrant(record.grantId);
    throw invalidGrant('authorization code has already been used');
  }
  // Everything the redemption can fail on is checked before the code is spent, as at a refresh:
  // someone who has only seen the code (a referrer, a log, the browser history) but not the
  // client's credentials, its redirect_uri, the PKCE verifier or the DPoP key cannot spend it
  // and so make the real redemption fail. The record never changes after it is written, so
  // checking the copy read above is checking the code.
  if (record.clientId !== client.client_id)
    throw invalidGrant('authorization code was issued to another client');
  if (record.redirectUri !== body.redirect_uri)
    throw invalidGrant('redirect_uri does not match the authorization request');
  if (record.codeChallenge !== undefined) {
    if (!body.code_verifier) throw invalidGrant('code_verifier is required');
    if (!VERIFIER.test(body.code_verifier) || s256(body.code_verifier) !== record.codeChallenge)
      throw invalidGrant('PKCE verification failed');
  } else if (body.code_verifier !== undefined) {
    // A verifier without a challenge is a downgrade attempt (RFC 9700 §2.1.1).
    throw invalidGrant('code_verifier sent but no code_challenge was used');
  }
  // dpop_jkt at the authorization request: only that key may redeem the code (RFC 9449 §10).
  if (record.dpopJkt !== undefined && record.dpopJkt !== proof.jkt)
    throw invalidGrant('the authorization code is bound to another DPoP key (dpop_jkt)');
  // A resource the grant does not cover is the client's mistake to correct (RFC 8707 §2.2).
  const resource = pickResource(ctx.config, resourceParam(body.resource), record.resources);
  // Spent atomically in the shared store: of concurrent redemptions, on any number of
  // instances, one wins; the others are replays.
  if (!(await codes.consume(id))) {
    await ctx.storage.revokeGrant(record.grantId);
    throw invalidGrant('authorization code has already been used');
  }
  return issueUserTokens(
    ctx,
    client,
    {
      accountId: record.accountId,
      scope: record.scope,
      grantId: record.grantId,
      authTime: record.authTime,
      ...(record.amr !== undefined ? { amr: record.amr } : {}),
      ...(record.acr !== undefined ? { acr: record.acr } : {}),
      ...(record.nonce !== undefined ? { nonce: record.nonce } : {}),
      ...(record.sid !== undefined ? { sid: record.sid } : {}),
      ...(record.resources ? { resources: record.resources } : {}),
      ...bindRefresh(refreshBinding(client, proof.jkt)),
    },
    { ...(resource ? { resource } : {}), ...(proof.jkt !== undefined ? { jkt: proof.jkt } : {}) },
  );
}

const bindRefresh = (jkt: string | undefined) => (jkt !== undefined ? { refreshJkt: jkt } : {});

async function refreshToken(ctx: IdpContext, client: Client, body: TokenBody, proof: Proof) {
  if (!body.refresh_token) throw invalidRequest('refresh_token is required');
  const tokens = ctx.storage.adapter('RefreshToken');
  const id = tokenId(body.refresh_token);
  const record = (await tokens.find(id)) as (RefreshTokenRecord & { consumed?: number }) | undefined;
  if (!record) throw invalidGrant('refresh token is invalid or expired');
  if (record.clientId !== client.client_id) throw invalidGrant('refresh token was issued to another client');
  // Before consuming it: a thief without the key must not be able to spend (and so revoke) it.
  if (record.jkt !== undefined && record.jkt !== proof.jkt)
    throw invalidGrant('the refresh token is bound to a DPoP key: send a proof signed with it');
  // Also before: a resource or scope the grant does not cover must not cost the client its grant.
  const resource = pickResource(ctx.config, resourceParam(body.resource), record.resources);
  // A narrower scope is for this access token only: the refresh token keeps the grant's (RFC 6749 §6).
  let tokenScope: string | undefined;
  if (body.scope !== undefined) {
    const granted = new Set(record.scope.split(' '));
    const asked = body.scope.split(' ').filter(Boolean);
    if (asked.some((s) => !granted.has(s)))
      throw new OAuthError('invalid_scope', 'scope exceeds the original grant');
    tokenScope = asked.join(' ');
  }
  // Rotation with reuse detection: presenting a rotated-out token revokes the whole grant.
  if (record.consumed !== undefined || !(await tokens.consume(id))) {
    await ctx.storage.revokeGrant(record.grantId);
    throw invalidGrant('refresh token has already been used');
  }
  const account = await ctx.accounts.find(record.accountId);
  if (!account) {
    await ctx.storage.revokeGrant(record.grantId);
    throw invalidGrant('the account no longer exists');
  }
  return issueUserTokens(
    ctx,
    client,
    {
      accountId: record.accountId,
      scope: record.scope,
      ...(tokenScope !== undefined ? { tokenScope } : {}),
      grantId: record.grantId,
      authTime: record.authTime,
      ...(record.amr !== undefined ? { amr: record.amr } : {}),
      ...(record.acr !== undefined ? { acr: record.acr } : {}),
      grantExpiresAt: record.expiresAt,
      ...(record.sid !== undefined ? { sid: record.sid } : {}),
      ...(record.resources ? { resources: record.resources } : {}),
      // Once bound, always bound: a proof with the same key was required above.
      ...bindRefresh(record.jkt ?? refreshBinding(client, proof.jkt)),
    },
    { ...(resource ? { resource } : {}), ...(proof.jkt !== undefined ? { jkt: proof.jkt } : {}) },
  );
}

async function clientCredentials(ctx: IdpContext, client: Client, body: TokenBody, proof: Proof) {
  if (client.token_endpoint_auth_method === 'none')
    throw new OAuthError('unauthorized_client', 'public clients cannot use client_credentials');
  const allowed = new Set(client.scope.split(' '));
  // openid and offline_access mean nothing without an end-user.
  const noUser = (s: string) => s && s !== 'openid' && s !== 'offline_access';
  const asked = (body.scope ?? '').split(' ').filter(noUser);
  if (asked.some((s) => !allowed.has(s)))
    throw new OAuthError('invalid_scope', 'requested scope is not allowed for this client');
  const resource = pickClientResource(ctx.config, resourceParam(body.resource));
  // For a resource without a scope parameter: every scope of the client that resource accepts.
  const scope =
    resource && body.scope === undefined
      ? scopeFor([...allowed].filter(noUser).join(' '), resource)
      : scopeFor(asked.join(' '), resource);
  return issueClientCredentialsToken(ctx, client, scope, {
    ...(resource ? { resource } : {}),
    ...(proof.jkt !== undefined ? { jkt: proof.jkt } : {}),
  });
}
