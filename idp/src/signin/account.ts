/**
 * The account page, where a signed-in user manages their passkeys, one module per action in
 * account/:
 *   GET  /account                     the page (signs in first when needed)        (page.ts)
 *   POST /account/confirm             step up to manage passkeys (the passkey, after a password)
 *   POST /account/enrol               redeem an enrolment code for the first passkey
 *   POST /account/passkeys/options    WebAuthn creation options (JSON, for passkey.js)
 *   POST /account/passkeys            register the passkey the browser created     (register.ts)
 *   POST /account/passkeys/remove     remove one
 * Who may do what (a recent sign-in; a passkey sign-in to manage passkeys; an enrolment code for
 * the first one) is decided once, in access.ts.
 */
import type { FastifyInstance } from 'fastify';
import type { IdpContext } from '../context.ts';
import { pageErrorHandler } from '../http/errors.ts';
import { AccountSteps } from './account/access.ts';
import { confirmRoute } from './account/confirm.ts';
import { enrolRoute } from './account/enrol.ts';
import { accountPageRoute } from './account/page.ts';
import { registrationOptionsRoute, registrationRoute } from './account/register.ts';
import { removeRoute } from './account/remove.ts';
import type { SignIn } from './sign-in.ts';

export async function accountRoutes(
  app: FastifyInstance,
  { ctx, signIn }: { ctx: IdpContext; signIn: SignIn },
): Promise<void> {
  app.setErrorHandler(pageErrorHandler('account page failure'));
  const steps = new AccountSteps(ctx, signIn);
  accountPageRoute(app, steps);
  confirmRoute(app, steps);
  registrationOptionsRoute(app, steps);
  registrationRoute(app, steps);
  removeRoute(app, steps);
  enrolRoute(app, steps);
}
