/**
 * The JWKS (`jwks_uri`): every published verification key, retired ones included until they are
 * removed. With `keys.signedJwks`, also the same set as a JWT signed by the cold-path root
 * (signed-jwks.ts), advertised as `signed_jwks_uri`.
 */
import type { FastifyInstance } from 'fastify';
import type { IdpContext } from '../context.ts';
import { jsonErrorHandler } from './shared/errors.ts';
import { SIGNED_JWKS_MEDIA_TYPE, SignedJwksCache } from './signed-jwks.ts';

export const signedJwksUrl = (issuer: string) => `${issuer}/jwks.jwt`;

export async function jwksRoutes(app: FastifyInstance, { ctx }: { ctx: IdpContext }): Promise<void> {
  app.setErrorHandler(jsonErrorHandler);
  if (ctx.config.keys.signedJwks) {
    const signed = new SignedJwksCache(ctx);
    // Signed before the first request asks (a slow cold-path signer should not meet a client).
    signed.get().catch((err) => app.log.warn({ err }, 'signing the JWKS statement failed; will retry'));
    app.get('/jwks.jwt', async (_req, reply) =>
      reply
        .header('content-type', SIGNED_JWKS_MEDIA_TYPE)
        .header('cache-control', 'public, max-age=300')
        .header('access-control-allow-origin', '*')
        .send(await signed.get()),
    );
  }
  app.get('/jwks', async (_req, reply) =>
    reply
      .header('content-type', 'application/jwk-set+json')
      .header('cache-control', 'public, max-age=300')
      .header('access-control-allow-origin', '*')
      .send(JSON.stringify(ctx.keys.jwks())),
  );
}
