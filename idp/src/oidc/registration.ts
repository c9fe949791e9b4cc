/**
 * Dynamic client registration (RFC 7591). Off unless `registration.mode` is `open` (anyone may
 * register) or `token` (an initial access token is needed). Metadata goes through exactly the
 * validation `pqid clients add` uses (clients/clients.ts): redirect URIs, algorithms from the
 * @pqid/jose registry, `jwks` (AKP keys for ML-DSA and composites) or `jwks_uri`,
 * DPoP/PAR/JAR/logout settings. The client then manages its registration with the registration
 * access token it gets here (registration-management.ts, RFC 7592). In open mode each client
 * address has a budget of requests (`registration.maxPerAddress` per `registration.window`):
 * anyone may register, but nobody may fill the store or keep the IdP validating metadata.
 */
import type { FastifyInstance } from 'fastify';
import { registerClient } from '../clients/register.ts';
import type { IdpContext } from '../context.ts';
import { hashGeneratedSecret, randomToken } from '../crypto/secrets.ts';
import { AddressBudget } from '../security/address-budget.ts';
import { initialAccessTokenCheck } from './registration/credentials.ts';
import { clientMetadata, jsonBody, refuseInOpenMode, refusingBadMetadata } from './registration/metadata.ts';
import { clientInformation } from './registration/response.ts';
import { jsonErrorHandler, OAuthError } from './shared/errors.ts';
import { noStore } from './shared/http.ts';

export async function registrationRoutes(app: FastifyInstance, { ctx }: { ctx: IdpContext }): Promise<void> {
  const { mode, initialAccessToken, maxPerAddress, window } = ctx.config.registration;
  if (mode === 'off') return;
  app.setErrorHandler(jsonErrorHandler);
  const authorize = initialAccessTokenCheck(initialAccessToken);
  const budget = new AddressBudget(ctx.storage.loginFailures, 'register', { max: maxPerAddress, window });

  app.post('/register', async (req, reply) => {
    authorize(req);
    // Before the metadata is looked at: a refused request costs one count and nothing else.
    const wait = mode === 'open' ? await budget.spend(req.ip) : 0;
    if (wait > 0)
      throw new OAuthError(
        'temporarily_unavailable',
        'too many registration requests from this address; retry later',
        429,
        {},
        { retryAfter: wait },
      );
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
