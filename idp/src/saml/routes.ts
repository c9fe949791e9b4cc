/**
 * The SAML IdP endpoints, next to the OIDC ones and sharing their users and browser session, one
 * module per endpoint in routes/:
 *   GET  /saml/metadata            signed EntityDescriptor                         (metadata.ts)
 *   GET|POST /saml/sso             AuthnRequest (HTTP-Redirect | HTTP-POST)        (sso.ts)
 *   GET  /saml/continue/:uid       back from the shared login page                 (continue.ts)
 *   GET|POST /saml/slo             LogoutRequest (HTTP-Redirect | HTTP-POST)       (slo.ts)
 *   POST /saml/slo/confirm/:uid    the user's answer when a LogoutRequest was not authenticated
 * Until the issuer and the ACS URL are verified against the registration, every problem is an
 * error page: nothing is ever redirected or posted to a URL taken from an unverified request.
 */
import type { FastifyInstance } from 'fastify';
import type { IdpContext } from '../context.ts';
import { pageErrorHandler } from '../http/errors.ts';
import type { SignIn } from '../signin/sign-in.ts';
import { samlAlgs, samlDeps } from './deps.ts';
import { continueRoute } from './routes/continue.ts';
import { metadataRoute } from './routes/metadata.ts';
import { sloRoutes } from './routes/slo.ts';
import { sloConfirmRoute } from './routes/slo-confirm.ts';
import { ssoRoutes } from './routes/sso.ts';

export async function samlRoutes(
  app: FastifyInstance,
  { ctx, signIn }: { ctx: IdpContext; signIn: SignIn },
): Promise<void> {
  if (!ctx.config.saml.enabled) return;
  const deps = samlDeps(ctx, signIn);
  // Keys exist before the first request: generating one (RSA especially) is no job for a login.
  await ctx.keys.ensure([ctx.keys.coldAlg()], 'root');
  await ctx.keys.ensure(await samlAlgs(deps), 'saml');

  // A refused request (SamlRequestError) is shown with its reason, never redirected: the
  // destination is not trusted yet.
  app.setErrorHandler(
    pageErrorHandler({
      what: 'saml endpoint failure',
      malformed: 'The SAML request is malformed.',
      clamp: true,
      refused: 'This sign-in request cannot be processed',
    }),
  );

  metadataRoute(app, deps);
  ssoRoutes(app, deps);
  continueRoute(app, deps);
  sloConfirmRoute(app, deps);
  sloRoutes(app, deps);
}
