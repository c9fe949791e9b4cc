/**
 * GET /saml/continue/:uid: back from the shared sign-in pages. The parked AuthnRequest is spent
 * once, the SP's registration checked again, and the session must meet what the SP asked.
 */
import type { FastifyInstance } from 'fastify';
import { requiredClassFor } from '../authn-context.ts';
import { SamlRequestError } from '../bindings.ts';
import { STATUS } from '../constants.ts';
import type { SamlDeps } from '../deps.ts';
import { pendingSsoKey, pendingSsoOf } from '../parked.ts';
import { sendLoginResponse, sendStatusResponse } from '../sso-answers.ts';

const continueSchema = {
  params: { type: 'object', properties: { uid: { type: 'string', maxLength: 64 } } },
} as const;

export function continueRoute(app: FastifyInstance, deps: SamlDeps): void {
  const pending = pendingSsoOf(deps.ctx);
  app.get<{ Params: { uid: string } }>(
    '/saml/continue/:uid',
    { schema: continueSchema },
    async (req, reply) => {
      const key = pendingSsoKey(req.params.uid);
      const record = await pending.find(key);
      const sp = record && (await deps.sps.find(record.spEntityId));
      const acr = requiredClassFor(record?.requestedAuthnContext, sp?.minimumAuthnContext);
      const session = await deps.signIn.check(req, {
        ...(record?.forceAuthn ? { authenticatedSince: record.createdAt } : {}),
        ...(acr !== undefined && acr !== 'impossible' ? { acr: [acr] } : {}),
      });
      if (!record || (!session.ok && session.unmet === 'session') || !(await pending.consume(key)))
        throw new SamlRequestError(
          'This sign-in has expired. Go back to the application and start again.',
          'expired',
        );
      // Re-checked: the registration may have changed while the user was signing in.
      if (!sp?.acsUrls.includes(record.acsUrl))
        throw new SamlRequestError('The application is no longer registered.', 'unknown_sp');
      // The user could not reach the class the SP asked for: the SP hears it, as SAML says.
      if (!session.ok && session.unmet === 'acr')
        return sendStatusResponse(
          deps,
          reply,
          sp,
          record,
          STATUS.noAuthnContext,
          'The requested authentication context was not met.',
        );
      if (!session.ok) throw new SamlRequestError('A fresh sign-in was required.', 'login_required');
      return sendLoginResponse(deps, req, reply, sp, record, session.auth);
    },
  );
}
