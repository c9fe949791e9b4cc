/**
 * The sign-in pages of a parked interaction (sign-in.ts), one module per step in interaction/:
 *   GET  /interaction/:uid                   the page of its stage: login, second factor, unmet, consent
 *   POST /interaction/:uid/login             the password factor                       (login.ts)
 *   POST /interaction/:uid/passkey/options   WebAuthn request options (JSON, for passkey.js)
 *   POST /interaction/:uid/passkey           the passkey factor (passwordless, or the second factor)
 *   POST /interaction/:uid/cancel            give up a need that cannot be met: back to the protocol
 *   POST /interaction/:uid/consent           allow or deny
 *   GET  /signin/passkey.js                  the pages' one script                     (passkey-script.ts)
 * Every post needs the interaction cookie and the page's CSRF token, and each interaction is
 * single use: a replayed post after success finds it consumed. A stage that builds on a session
 * (the second factor, the consent question) goes on only while that session is alive: after a
 * sign-out, or the removal of the passkey that signed it in, the page has expired (steps.ts).
 */
import type { FastifyInstance } from 'fastify';
import type { IdpContext } from '../context.ts';
import { pageErrorHandler } from '../http/errors.ts';
import { consentRoute } from './interaction/consent.ts';
import { loginRoute } from './interaction/login.ts';
import { interactionPageRoute } from './interaction/page.ts';
import { passkeyOptionsRoute, passkeyRoute } from './interaction/passkey.ts';
import { InteractionSteps } from './interaction/steps.ts';
import { cancelRoute } from './interaction/unmet.ts';
import { passkeyScriptRoute } from './passkey-script.ts';
import type { SignIn } from './sign-in.ts';

export interface SignInRoutesOptions {
  ctx: IdpContext;
  signIn: SignIn;
}

export async function signInRoutes(
  app: FastifyInstance,
  { ctx, signIn }: SignInRoutesOptions,
): Promise<void> {
  // A resumer continuing a protocol's request runs here too: its failures are pages, not redirects.
  app.setErrorHandler(pageErrorHandler('sign-in failure'));
  const steps = new InteractionSteps(ctx, signIn);
  passkeyScriptRoute(app);
  interactionPageRoute(app, steps);
  loginRoute(app, steps);
  passkeyOptionsRoute(app, steps);
  passkeyRoute(app, steps);
  cancelRoute(app, steps);
  consentRoute(app, steps);
}
