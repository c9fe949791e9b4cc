/**
 * The pushed authorization request endpoint (PAR, RFC 9126). The client sends its
 * authorization request — plain parameters or a signed request object — on the back channel,
 * authenticated like at the token endpoint; the browser then carries only client_id and a
 * short-lived one-time request_uri. This is how a request object signed with ML-DSA (a 4–8 KB
 * authorization URL by value) reaches the provider through a URL of ~160 bytes.
 *
 * A DPoP proof sent here binds the authorization code to its key (RFC 9449 §10.1).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { IdpContext } from '../context.ts';
import { type AuthorizeParams, validateAuthorizeRequest } from './authorization/request.ts';
import { RequestObjectError, verifyRequestObject } from './authorization/request-object.ts';
import { pushRequest } from './authorization/sources.ts';
import { authenticateClient } from './shared/client-auth.ts';
import type { Dpop } from './shared/dpop.ts';
import { invalidRequest, jsonErrorHandler, OAuthError } from './shared/errors.ts';

const bodySchema = {
  type: 'object',
  additionalProperties: { type: 'string', maxLength: 4096 },
  properties: {
    request: { type: 'string', maxLength: 32768 },
    client_assertion: { type: 'string', maxLength: 32768 },
    resource: {
      anyOf: [
        { type: 'string', maxLength: 2048 },
        { type: 'array', maxItems: 16, items: { type: 'string', maxLength: 2048 } },
      ],
    },
  },
} as const;

/** Client-authentication parameters: for the endpoint, not part of the authorization request. */
const AUTH_PARAMS = ['client_secret', 'client_assertion', 'client_assertion_type'];

/** The endpoint's public URL (discovery, DPoP `htu`). */
export const parUrl = (issuer: string) => `${issuer}/par`;

export async function parRoutes(
  app: FastifyInstance,
  { ctx, dpop }: { ctx: IdpContext; dpop: Dpop },
): Promise<void> {
  app.setErrorHandler(jsonErrorHandler);
  const htu = parUrl(ctx.config.issuer);

  app.post('/par', { schema: { body: bodySchema } }, async (req: FastifyRequest, reply: FastifyReply) => {
    if (!/^application\/x-www-form-urlencoded\b/i.test(req.headers['content-type'] ?? ''))
      throw invalidRequest('the request must be application/x-www-form-urlencoded');
    const body = (req.body ?? {}) as AuthorizeParams;
    const proof = await dpop.check(req, { htu, endpoint: 'token' });
    if (proof) dpop.addNonce(reply);
    const client = await authenticateClient(req, body as Partial<Record<string, string>>, ctx);
    if (body.request_uri !== undefined) throw invalidRequest('request_uri cannot be pushed (RFC 9126 §2.1)');

    let params: AuthorizeParams;
    let signed = false;
    if (body.request !== undefined) {
      try {
        params = await verifyRequestObject(ctx, client, body.request);
      } catch (e) {
        if (e instanceof RequestObjectError) throw new OAuthError(e.error, e.message);
        throw e;
      }
      signed = true;
    } else {
      params = Object.fromEntries(
        Object.entries(body).filter(([k]) => !AUTH_PARAMS.includes(k)),
      ) as AuthorizeParams;
      params.client_id = client.client_id;
    }
    if (proof) {
      if (params.dpop_jkt !== undefined && params.dpop_jkt !== proof.jkt)
        throw invalidRequest('dpop_jkt does not match the DPoP proof sent with the request');
      params.dpop_jkt = proof.jkt;
    }
    const outcome = await validateAuthorizeRequest(params, ctx.clients, ctx.config, { pushed: true, signed });
    // At this endpoint every refusal is a JSON error to the client (RFC 9126 §2.3).
    if (outcome.kind !== 'ok') throw new OAuthError(outcome.error, outcome.description);
    const pushed = await pushRequest(ctx, client.client_id, params, signed);
    return reply.code(201).headers({ 'cache-control': 'no-store', pragma: 'no-cache' }).send(pushed);
  });
}
