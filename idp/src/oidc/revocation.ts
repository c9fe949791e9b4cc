/**
 * Token revocation (RFC 7009). The client must authenticate; public clients may revoke their own
 * tokens. Revoking a refresh token ends its grant, with every access token issued under it; revoking
 * a stateless JWT access token denies its `jti` until it expires (storage/denylist.ts).
 */
import type { FastifyInstance } from 'fastify';
import type { Client } from '../clients/clients.ts';
import type { IdpContext } from '../context.ts';
import { revokeGrant } from '../storage/denylist.ts';
import { authenticateClient } from './shared/client-auth.ts';
import { jsonErrorHandler, OAuthError } from './shared/errors.ts';
import { noStore, requireForm } from './shared/http.ts';
import { type TokenBody, tokenBodySchema } from './shared/token-body.ts';
import { revokeAccessToken } from './tokens/access-tokens.ts';
import { findToken } from './tokens/lookup.ts';

async function revoke(ctx: IdpContext, client: Client, body: TokenBody): Promise<void> {
  const found = await findToken(ctx, body.token, body.token_type_hint);
  if (!found) return; // RFC 7009 §2.2: unknown tokens are "revoked" already.
  if (found.record.clientId !== client.client_id)
    throw new OAuthError('unauthorized_client', 'the token was not issued to this client');
  if (found.kind === 'refresh_token')
    await revokeGrant(ctx.storage, found.record.grantId, ctx.config.ttl.accessToken);
  else await revokeAccessToken(ctx, body.token, found.record);
}

export async function revocationRoutes(app: FastifyInstance, { ctx }: { ctx: IdpContext }): Promise<void> {
  app.setErrorHandler(jsonErrorHandler);
  app.post<{ Body: TokenBody }>('/revoke', { schema: { body: tokenBodySchema } }, async (req, reply) => {
    requireForm(req);
    const client = await authenticateClient(req, req.body, ctx, { allowPublic: true });
    await revoke(ctx, client, req.body);
    return noStore(reply).code(200).send();
  });
}
