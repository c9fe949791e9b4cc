/**
 * Dynamic client registration management (RFC 7592): read, update and delete a registration at
 * its `registration_client_uri`, with the registration access token it was issued. Served
 * whenever registration is on (`registration.mode` `open` or `token`).
 */
import type { FastifyInstance } from 'fastify';
import { replaceClient } from '../clients/register.ts';
import type { IdpContext } from '../context.ts';
import { managedClient } from './registration/credentials.ts';
import { clientMetadata, jsonBody, refuseInOpenMode, refusingBadMetadata } from './registration/metadata.ts';
import { clientInformation } from './registration/response.ts';
import { jsonErrorHandler, OAuthError } from './shared/errors.ts';
import { noStore } from './shared/http.ts';

const params = {
  type: 'object',
  required: ['clientId'],
  properties: { clientId: { type: 'string', maxLength: 256 } },
} as const;

type Route = { Params: { clientId: string } };

export async function registrationManagementRoutes(
  app: FastifyInstance,
  { ctx }: { ctx: IdpContext },
): Promise<void> {
  const { mode } = ctx.config.registration;
  if (mode === 'off') return;
  app.setErrorHandler(jsonErrorHandler);
  const issuer = ctx.config.issuer;

  app.get<Route>('/register/:clientId', { schema: { params } }, async (req, reply) =>
    noStore(reply).send(clientInformation(issuer, await managedClient(ctx, req, req.params.clientId))),
  );

  app.put<Route>('/register/:clientId', { schema: { params } }, async (req, reply) => {
    const existing = await managedClient(ctx, req, req.params.clientId);
    const body = jsonBody(req);
    if (mode === 'open') refuseInOpenMode(body);
    // RFC 7592 §2.2: the body carries the client_id, and it must be this one.
    if (body.client_id !== existing.client_id)
      throw new OAuthError('invalid_client_metadata', 'client_id must be present and match the client');
    const { client, clientSecret } = await refusingBadMetadata(() =>
      replaceClient(ctx, existing, clientMetadata(body, ['client_secret'])),
    );
    req.log.info({ clientId: existing.client_id }, 'client metadata replaced');
    return noStore(reply).send(
      clientInformation(issuer, client, clientSecret !== undefined ? { clientSecret } : {}),
    );
  });

  app.delete<Route>('/register/:clientId', { schema: { params } }, async (req, reply) => {
    const client = await managedClient(ctx, req, req.params.clientId);
    await ctx.clients.remove(client.client_id);
    req.log.info({ clientId: client.client_id }, 'client deregistered');
    return noStore(reply).code(204).send();
  });
}
