/**
 * POST /saml/slo/confirm/:uid: the user's answer to a LogoutRequest that was not bound to the
 * session, accepted only from the browser that was asked (the session cookie's digest) with the
 * page's CSRF token, once. The SP hears the answer.
 */
import type { FastifyInstance } from 'fastify';
import { safeEqual, tokenId } from '../../crypto/secrets.ts';
import { SESSION_COOKIE } from '../../signin/session.ts';
import { sendPage } from '../../ui/html.ts';
import { errorPage } from '../../ui/pages.ts';
import { SamlRequestError } from '../bindings.ts';
import { STATUS } from '../constants.ts';
import type { SamlDeps } from '../deps.ts';
import { pendingLogoutKey, pendingLogoutOf } from '../parked.ts';
import { endSessionForSaml, type LogoutAnswer, sendLogoutResponse } from '../slo.ts';

const confirmSchema = {
  params: { type: 'object', properties: { uid: { type: 'string', maxLength: 64 } } },
  body: {
    type: 'object',
    required: ['csrf', 'logout'],
    properties: { csrf: { type: 'string', maxLength: 256 }, logout: { type: 'string', enum: ['yes', 'no'] } },
  },
} as const;

export function sloConfirmRoute(app: FastifyInstance, deps: SamlDeps): void {
  const pending = pendingLogoutOf(deps.ctx);
  app.post<{ Params: { uid: string }; Body: { csrf: string; logout: 'yes' | 'no' } }>(
    '/saml/slo/confirm/:uid',
    { schema: confirmSchema },
    async (req, reply) => {
      const key = pendingLogoutKey(req.params.uid);
      const record = await pending.find(key);
      const cookie = req.cookies[SESSION_COOKIE];
      const refused = (why: string) => sendPage(reply, 403, errorPage('Sign-out refused', why, 'csrf'));
      if (
        !record ||
        record.consumed !== undefined ||
        !safeEqual(req.body.csrf, record.csrf) ||
        !cookie ||
        !safeEqual(tokenId(cookie), record.session)
      )
        return refused('This sign-out page has expired or could not be verified.');
      if (!(await pending.consume(key))) return refused('This sign-out page was already used.');
      const sp = await deps.sps.find(record.spEntityId);
      if (!sp?.sloUrl) throw new SamlRequestError('The application is no longer registered.', 'unknown_sp');
      const answer: LogoutAnswer = {
        sp,
        sloUrl: sp.sloUrl,
        inResponseTo: record.requestId,
        relayState: record.relayState,
      };
      if (req.body.logout === 'no')
        return sendLogoutResponse(deps, req, reply, answer, STATUS.requester, STATUS.requestDenied);
      await endSessionForSaml(deps.ctx, req, reply);
      return sendLogoutResponse(deps, req, reply, answer, STATUS.success);
    },
  );
}
