/**
 * Token introspection (RFC 7662) and revocation (RFC 7009). Both need client authentication;
 * public clients may revoke their own tokens but not introspect. Tokens are looked up by digest,
 * so a tampered token (JWT or opaque) is simply unknown: `active: false`, never an error.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { type Client, isDynamic } from '../clients/clients.ts';
import type { IdpContext } from '../context.ts';
import { tokenId } from '../crypto/secrets.ts';
import { authenticateClient } from './shared/client-auth.ts';
import { invalidRequest, jsonErrorHandler, OAuthError } from './shared/errors.ts';
import type { AccessTokenRecord, RefreshTokenRecord } from './tokens/issue.ts';

const bodySchema = {
  type: 'object',
  required: ['token'],
  properties: {
    // A JWT access token signed with ML-DSA-87 or a composite is ~7–10 KB.
    token: { type: 'string', maxLength: 32768 },
    token_type_hint: { type: 'string', maxLength: 64 },
    client_id: { type: 'string', maxLength: 4096 },
    client_secret: { type: 'string', maxLength: 4096 },
    client_assertion_type: { type: 'string', maxLength: 4096 },
    client_assertion: { type: 'string', maxLength: 32768 },
  },
} as const;

type Body = Partial<Record<string, string>>;

type Found =
  | { kind: 'access_token'; id: string; record: AccessTokenRecord }
  | { kind: 'refresh_token'; id: string; record: RefreshTokenRecord & { consumed?: number } };

/** Look in both stores; the hint only orders the lookups (RFC 7009 §2.1). */
async function findToken(
  ctx: IdpContext,
  token: string,
  hint: string | undefined,
): Promise<Found | undefined> {
  const id = tokenId(token);
  const order: Array<Found['kind']> =
    hint === 'refresh_token' ? ['refresh_token', 'access_token'] : ['access_token', 'refresh_token'];
  for (const kind of order) {
    const record = await ctx.storage
      .adapter(kind === 'access_token' ? 'AccessToken' : 'RefreshToken')
      .find(id);
    if (record) return { kind, id, record } as Found;
  }
  return undefined;
}

function formOnly(req: FastifyRequest): void {
  if (!/^application\/x-www-form-urlencoded\b/i.test(req.headers['content-type'] ?? ''))
    throw invalidRequest('the request must be application/x-www-form-urlencoded');
}

const INACTIVE = { active: false } as const;

async function introspect(ctx: IdpContext, client: Client, body: Body): Promise<Record<string, unknown>> {
  const found = await findToken(ctx, body.token as string, body.token_type_hint);
  if (!found) return INACTIVE;
  if (found.kind === 'refresh_token') {
    const r = found.record;
    // A rotated-out refresh token is dead; refresh tokens are only shown to their own client.
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
  // Access tokens may be introspected by the confidential clients the operator registered (resource
  // servers). A dynamically registered one only sees its own: registering is not being authorised
  // to introspect (RFC 7662 §4), and active:false is the answer for a token it may not see (§2.2).
  const r = found.record;
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

async function revoke(ctx: IdpContext, client: Client, body: Body): Promise<void> {
  const found = await findToken(ctx, body.token as string, body.token_type_hint);
  if (!found) return; // RFC 7009 §2.2: unknown tokens are "revoked" already.
  if (found.record.clientId !== client.client_id)
    throw new OAuthError('unauthorized_client', 'the token was not issued to this client');
  // Revoking a refresh token ends the grant, with every access token issued under it.
  if (found.kind === 'refresh_token') await ctx.storage.revokeGrant(found.record.grantId);
  else await ctx.storage.adapter('AccessToken').destroy(found.id);
}

export async function introspectionRoutes(app: FastifyInstance, { ctx }: { ctx: IdpContext }): Promise<void> {
  app.setErrorHandler(jsonErrorHandler);
  const noStore = (reply: FastifyReply) => reply.headers({ 'cache-control': 'no-store', pragma: 'no-cache' });

  app.post('/introspect', { schema: { body: bodySchema } }, async (req, reply) => {
    formOnly(req);
    const body = (req.body ?? {}) as Body;
    const client = await authenticateClient(req, body, ctx, { allowPublic: false });
    return noStore(reply).send(await introspect(ctx, client, body));
  });

  app.post('/revoke', { schema: { body: bodySchema } }, async (req, reply) => {
    formOnly(req);
    const body = (req.body ?? {}) as Body;
    const client = await authenticateClient(req, body, ctx, { allowPublic: true });
    await revoke(ctx, client, body);
    return noStore(reply).code(200).send();
  });
}
