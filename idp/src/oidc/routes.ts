/**
 * The OpenID Provider's endpoints, one module each, registered in one place. Each module is an
 * encapsulated fastify plugin with its own error handling (JSON for the back channel, pages for
 * the browser).
 */
import type { FastifyInstance } from 'fastify';
import type { IdpContext } from '../context.ts';
import type { SignIn } from '../signin/sign-in.ts';
import { authorizeRoutes } from './authorize.ts';
import { discoveryRoutes } from './discovery.ts';
import { endSessionRoutes } from './end-session.ts';
import { introspectionRoutes } from './introspection.ts';
import { jwksRoutes } from './jwks.ts';
import type { BackchannelLogout } from './logout/backchannel.ts';
import { parRoutes } from './par.ts';
import { registrationRoutes } from './registration.ts';
import { registrationManagementRoutes } from './registration-management.ts';
import { revocationRoutes } from './revocation.ts';
import type { Dpop } from './shared/dpop.ts';
import { tokenRoutes } from './token.ts';
import { userinfoRoutes } from './userinfo.ts';

export interface OidcServices {
  ctx: IdpContext;
  /** Where /authorize sends the browser to sign in. */
  signIn: SignIn;
  /** DPoP proofs at the token, PAR and userinfo endpoints. */
  dpop: Dpop;
  /** Back-channel logout deliveries, fed by /end_session. */
  backchannel: BackchannelLogout;
}

export async function oidcRoutes(app: FastifyInstance, { ctx, signIn, dpop, backchannel }: OidcServices) {
  await app.register(discoveryRoutes, { ctx });
  await app.register(jwksRoutes, { ctx });
  await app.register(authorizeRoutes, { ctx, signIn });
  await app.register(tokenRoutes, { ctx, dpop });
  await app.register(parRoutes, { ctx, dpop });
  await app.register(registrationRoutes, { ctx });
  await app.register(registrationManagementRoutes, { ctx });
  await app.register(userinfoRoutes, { ctx, dpop });
  await app.register(introspectionRoutes, { ctx });
  await app.register(revocationRoutes, { ctx });
  await app.register(endSessionRoutes, { ctx, backchannel });
}
