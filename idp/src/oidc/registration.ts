/**
 * Dynamic client registration (RFC 7591). Off unless `registration.mode` is `open` (anyone may
 * register) or `token` (an initial access token is needed). Metadata goes through exactly the
 * validation `pqid clients add` uses (clients/clients.ts): redirect URIs, algorithms from the
 * @pqid/jose registry, `jwks` (AKP keys for ML-DSA and composites) or `jwks_uri`,
 * DPoP/PAR/JAR/logout settings. The client then manages its registration with the registration
 * access token it gets here (registration-management.ts, RFC 7592).
 */
import type { FastifyInstance } from 'fastify';
import { registerClient } from '../clients/register.ts';
import type { IdpContext } from '../context.ts';
import { hashGeneratedSecret, randomToken } from '../crypto/secrets.ts';
import { initialAccessTokenCheck } from './registration/credentials.ts';
import { clientMetadata, jsonBody, refuseInOpenMode, refusingBadMetadata } from './registration/metadata.ts';
import { clientInformation } from './registration/response.ts';
import { jsonErrorHandler } from './shared/errors.ts';
import { noStore } from './shared/http.ts';

export async function registrationRoutes(app: FastifyInstance, { ctx }: { ctx: IdpContext }): Promise<void> {
  const { mode, initialAccessToken } = ctx.config.registration;
  if (mode === 'off') return;
  app.setErrorHandler(jsonErrorHandler);
  const authorize = initialAccessTokenCheck(initialAccessToken);

  app.post('/register', async (req, reply) => {
    authorize(req);
    const body = jsonBody(req);
    if (mode === 'open') refuseInOpenMode(body);
    const registrationAccessToken = randomToken();
    const { client, clientSecret } = await refusingBadMetadata(() =>
      registerClient(ctx, clientMetadata(body), {
        registration_access_token_hash: hashGeneratedSecret(registrationAccessToken),
        client_id_issued_at: Math.floor(Date.now() / 1000),
      }),
    );
    req.log.info({ clientId: client.client_id }, 'client registered dynamically');
    return noStore(reply)
      .code(201)
      .send(
        clientInformation(ctx.config.issuer, client, {
          registrationAccessToken,
          ...(clientSecret !== undefined ? { clientSecret } : {}),
        }),
      );
  });
}
