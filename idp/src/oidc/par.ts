/**
 * The pushed authorization request endpoint (PAR, RFC 9126). The client sends its
 * authorization request — plain parameters or a signed request object — on the back channel,
 * authenticated like at the token endpoint; the browser then carries only client_id and a
 * short-lived one-time request_uri. This is how a request object signed with ML-DSA (a 4–8 KB
 * authorization URL by value) reaches the provider through a URL of ~160 bytes.
 *
 * A DPoP proof sent here binds the authorization code to its key (RFC 9449 §10.1).
 */
import type { FastifyInstance } from 'fastify';
import type { Client } from '../clients/clients.ts';
import type { IdpContext } from '../context.ts';
import { type AuthorizeParams, validateAuthorizeRequest } from './authorization/request.ts';
import { RequestObjectError, verifyRequestObject } from './authorization/request-object.ts';
import { pushRequest } from './authorization/sources.ts';
import { authenticateClient } from './shared/client-auth.ts';
import type { Dpop } from './shared/dpop.ts';
import { invalidRequest, jsonErrorHandler, OAuthError } from './shared/errors.ts';
import { noStore, RESOURCE_SCHEMA, requireForm } from './shared/http.ts';

const bodySchema = {
  type: 'object',
  additionalProperties: { type: 'string', maxLength: 4096 },
  properties: {
    request: { type: 'string', maxLength: 32768 },
    client_assertion: { type: 'string', maxLength: 32768 },
    resource: RESOURCE_SCHEMA,
  },
} as const;

/** Client-authentication parameters: for the endpoint, not part of the authorization request. */
const AUTH_PARAMS = ['client_secret', 'client_assertion', 'client_assertion_type'];

/** The endpoint's public URL (discovery, DPoP `htu`). */
export const parUrl = (issuer: string) => `${issuer}/par`;

/** The pushed request's parameters: from its signed request object, or the body itself. */
async function pushedParams(
  ctx: IdpContext,
  client: Client,
  body: AuthorizeParams,
): Promise<{ params: AuthorizeParams; signed: boolean }> {
  if (body.request === undefined) {
    const params = Object.fromEntries(
      Object.entries(body).filter(([k]) => !AUTH_PARAMS.includes(k)),
    ) as AuthorizeParams;
    params.client_id = client.client_id;
    return { params, signed: false };
  }
  try {
    return { params: await verifyRequestObject(ctx, client, body.request), signed: true };
  } catch (e) {
    if (e instanceof RequestObjectError) throw new OAuthError(e.error, e.message);
    throw e;
  }
}

export async function parRoutes(
  app: FastifyInstance,
  { ctx, dpop }: { ctx: IdpContext; dpop: Dpop },
): Promise<void> {
  app.setErrorHandler(jsonErrorHandler);
  const htu = parUrl(ctx.config.issuer);

  app.post<{ Body: AuthorizeParams }>('/par', { schema: { body: bodySchema } }, async (req, reply) => {
    requireForm(req);
    const body = req.body ?? {};
    const proof = await dpop.check(req, { htu, endpoint: 'token' });
    if (proof) dpop.addNonce(reply);
    const client = await authenticateClient(req, body, ctx);
    if (body.request_uri !== undefined) throw invalidRequest('request_uri cannot be pushed (RFC 9126 §2.1)');
    const { params, signed } = await pushedParams(ctx, client, body);
    if (proof) {
      if (params.dpop_jkt !== undefined && params.dpop_jkt !== proof.jkt)
        throw invalidRequest('dpop_jkt does not match the DPoP proof sent with the request');
      params.dpop_jkt = proof.jkt;
    }
    const outcome = await validateAuthorizeRequest(params, ctx.clients, ctx.config, { pushed: true, signed });
    // At this endpoint every refusal is a JSON error to the client (RFC 9126 §2.3).
    if (outcome.kind !== 'ok') throw new OAuthError(outcome.error, outcome.description);
    const pushed = await pushRequest(ctx, client.client_id, params, signed);
    return noStore(reply).code(201).send(pushed);
  });
}
