/**
 * Token introspection (RFC 7662). The client must authenticate, and public clients may not
 * introspect. An unknown token — tampered, expired, revoked, or one this client may not see — is
 * `active: false`, never an error (§2.2).
 *
 * JWT answers (RFC 9701): a client that sends `Accept: application/token-introspection+jwt` gets
 * the answer as a JWT signed with its `introspection_signed_response_alg` (else its ID-token
 * algorithm); one that registered `introspection_encrypted_response_alg` always gets that JWT,
 * encrypted to it (§5), never the answer in the clear.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { type Client, isDynamic } from '../clients/clients.ts';
import type { IdpContext } from '../context.ts';
import type { Stored } from '../storage/model.ts';
import { authenticateClient } from './shared/client-auth.ts';
import { encryptSignedJwt, recipientFor } from './shared/encryption.ts';
import { jsonErrorHandler } from './shared/errors.ts';
import { noStore, requireForm } from './shared/http.ts';
import { signToken } from './shared/signing.ts';
import { type TokenBody, tokenBodySchema } from './shared/token-body.ts';
import type { AccessTokenRecord } from './tokens/access-tokens.ts';
import { findToken } from './tokens/lookup.ts';
import type { RefreshTokenRecord } from './tokens/refresh-tokens.ts';

type Introspection = Record<string, unknown>;

const INACTIVE = { active: false } as const;

/** A refresh token is only shown to its own client, and a rotated-out one is dead. */
function refreshTokenAnswer(ctx: IdpContext, client: Client, r: Stored<RefreshTokenRecord>): Introspection {
  if (r.consumed !== undefined || r.clientId !== client.client_id) return INACTIVE;
  return {
    active: true,
    token_type: 'refresh_token',
    client_id: r.clientId,
    sub: r.accountId,
    scope: r.scope,
    exp: r.expiresAt,
    ...(r.iat !== undefined ? { iat: r.iat } : {}),
    iss: ctx.config.issuer,
    ...(r.jkt !== undefined ? { cnf: { jkt: r.jkt } } : {}),
  };
}

/**
 * Access tokens may be introspected by the confidential clients the operator registered (resource
 * servers). A dynamically registered one only sees its own: registering is not being authorised
 * to introspect (RFC 7662 §4), and active:false is the answer for a token it may not see (§2.2).
 */
function accessTokenAnswer(ctx: IdpContext, client: Client, r: AccessTokenRecord): Introspection {
  if (isDynamic(client) && r.clientId !== client.client_id) return INACTIVE;
  // A DPoP-bound token says so, with its key (RFC 9449 §6.2): the resource server checks the proof.
  return {
    active: true,
    token_type: r.jkt !== undefined ? 'DPoP' : 'Bearer',
    client_id: r.clientId,
    sub: r.accountId ?? r.clientId,
    scope: r.scope,
    ...(r.exp !== undefined ? { exp: r.exp } : {}),
    ...(r.iat !== undefined ? { iat: r.iat } : {}),
    ...(r.authTime !== undefined ? { auth_time: r.authTime } : {}),
    iss: ctx.config.issuer,
    aud: r.aud ?? ctx.config.issuer,
    ...(r.jkt !== undefined ? { cnf: { jkt: r.jkt } } : {}),
    ...(r.format ? { access_token_format: r.format } : {}),
  };
}

/** What this client may learn about the token. */
async function introspect(ctx: IdpContext, client: Client, body: TokenBody): Promise<Introspection> {
  const found = await findToken(ctx, body.token, body.token_type_hint);
  if (!found) return INACTIVE;
  return found.kind === 'refresh_token'
    ? refreshTokenAnswer(ctx, client, found.record)
    : accessTokenAnswer(ctx, client, found.record);
}

const JWT_TYPE = 'token-introspection+jwt';

/** Whether the client asked for a JWT answer (RFC 9701 §4). */
const wantsJwt = (req: FastifyRequest): boolean =>
  (req.headers.accept ?? '')
    .split(',')
    .some((t) => t.split(';')[0]?.trim().toLowerCase() === `application/${JWT_TYPE}`);

/**
 * Where the introspection response is sent, never cached (RFC 7662 §2.2): JSON, or the RFC 9701
 * JWT — `iss`, `aud`, `iat`, `token_introspection` — signed, then encrypted when the client
 * registered it.
 */
async function sendIntrospection(
  ctx: IdpContext,
  req: FastifyRequest,
  reply: FastifyReply,
  client: Client,
  answer: Introspection,
): Promise<FastifyReply> {
  const recipient = await recipientFor(ctx, client, 'introspection');
  if (!recipient && !wantsJwt(req)) return noStore(reply).send(answer);
  const alg = client.introspection_signed_response_alg ?? client.id_token_signed_response_alg;
  const jwt = await signToken(
    ctx,
    'introspection',
    alg,
    { token_introspection: answer },
    { issuer: ctx.config.issuer, audience: client.client_id, typ: JWT_TYPE },
    { encrypted: recipient !== undefined },
  );
  const body = recipient ? await encryptSignedJwt(ctx, 'introspection', jwt, recipient) : jwt;
  return noStore(reply).header('content-type', `application/${JWT_TYPE}`).send(body);
}

export async function introspectionRoutes(app: FastifyInstance, { ctx }: { ctx: IdpContext }): Promise<void> {
  app.setErrorHandler(jsonErrorHandler);
  app.post<{ Body: TokenBody }>('/introspect', { schema: { body: tokenBodySchema } }, async (req, reply) => {
    requireForm(req);
    const client = await authenticateClient(req, req.body, ctx, { allowPublic: false });
    return sendIntrospection(ctx, req, reply, client, await introspect(ctx, client, req.body));
  });
}
