/**
 * The token endpoint (RFC 6749 §3.2). It authenticates the client, checks a DPoP proof (RFC 9449:
 * the access token is then bound to the proof's key, and so is a public client's refresh token)
 * and hands the request to the grant its `grant_type` names (grants/).
 */
import type { FastifyInstance } from 'fastify';
import { endpoints, type IdpContext } from '../context.ts';
import { GRANTS, type TokenParams } from './grants/index.ts';
import { authenticateClient } from './shared/client-auth.ts';
import type { Dpop } from './shared/dpop.ts';
import { recipientFor } from './shared/encryption.ts';
import { invalidRequest, jsonErrorHandler, OAuthError } from './shared/errors.ts';
import { noStore, RESOURCE_SCHEMA, requireForm } from './shared/http.ts';

/** Parameters of client authentication at this endpoint (shared/client-auth.ts). */
const CLIENT_AUTH = ['client_id', 'client_secret', 'client_assertion_type'];
/** Every parameter a grant reads, once each, bounded; unknown ones are ignored. */
const STRINGS = [
  ...new Set(['grant_type', ...[...GRANTS.values()].flatMap((g) => g.parameters), ...CLIENT_AUTH]),
].filter((p) => p !== 'resource');
const bodySchema = {
  type: 'object',
  required: ['grant_type'],
  properties: {
    ...Object.fromEntries(STRINGS.map((f) => [f, { type: 'string', maxLength: 4096 }])),
    // PQ-signed assertions are several KB (ML-DSA-87: a 4.6 KB signature alone).
    client_assertion: { type: 'string', maxLength: 32768 },
    resource: RESOURCE_SCHEMA,
  },
};

export async function tokenRoutes(
  app: FastifyInstance,
  { ctx, dpop }: { ctx: IdpContext; dpop: Dpop },
): Promise<void> {
  app.setErrorHandler(jsonErrorHandler);
  const htu = endpoints(ctx.config.issuer).token;

  app.post<{ Body: TokenParams }>('/token', { schema: { body: bodySchema } }, async (req, reply) => {
    requireForm(req, 'the token request');
    const params = req.body ?? {};
    // Before client authentication, so a nonce retry does not spend a one-time client assertion.
    const proof = await dpop.check(req, { htu, endpoint: 'token' });
    if (proof) dpop.addNonce(reply);
    const client = await authenticateClient(req, params, ctx);
    if (!proof && client.dpop_bound_access_tokens)
      throw invalidRequest('this client must send a DPoP proof (dpop_bound_access_tokens)');
    const grantType = params.grant_type as string;
    const grant = GRANTS.get(grantType);
    if (!grant) throw new OAuthError('unsupported_grant_type', `grant_type ${grantType} is not supported`);
    if (!client.grant_types.includes(grant.grantType))
      throw new OAuthError('unauthorized_client', `client may not use grant_type ${grantType}`);
    // A client that asked for encrypted ID tokens but has no usable key is told so before the
    // grant spends its code or refresh token (the key is cached for the ID token itself).
    if (grant.grantType !== 'client_credentials') await recipientFor(ctx, client, 'id_token');
    const response = await grant.handler(ctx, { client, params, ...(proof ? { jkt: proof.jkt } : {}) });
    return noStore(reply).send(response);
  });
}
