/**
 * RP-initiated logout (OpenID Connect RP-Initiated Logout 1.0) at /end_session. The request is
 * checked (logout/request.ts: the `id_token_hint`, `client_id` and `post_logout_redirect_uri`),
 * else the user stays here. Only a hint naming the signed-in user and session (logout/hint.ts)
 * ends the session without a question; otherwise the user confirms on a CSRF-protected page
 * (logout/confirmation.ts), so a third-party page cannot sign anyone out, not even with an ID
 * token of its own. However it ends, the session's clients are told (logout/sign-out.ts).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { endpoints, type IdpContext } from '../context.ts';
import { pageErrorHandler } from '../http/errors.ts';
import { currentSession } from '../signin/session.ts';
import { sendPage } from '../ui/html.ts';
import { errorPage, messagePage } from '../ui/pages.ts';
import type { BackchannelLogout } from './logout/backchannel.ts';
import { askToConfirm, takeConfirmed } from './logout/confirmation.ts';
import { LogoutError, vouchesFor } from './logout/hint.ts';
import { checkLogoutRequest, type LogoutParams, type LogoutRequest } from './logout/request.ts';
import { signedOut, signOut } from './logout/sign-out.ts';
import { getAndPost } from './shared/http.ts';

const PARAMS = [
  'id_token_hint',
  'post_logout_redirect_uri',
  'state',
  'client_id',
  'logout_hint',
  'ui_locales',
];
const paramsSchema = {
  type: 'object',
  properties: {
    ...Object.fromEntries(PARAMS.map((n) => [n, { type: 'string', maxLength: 4096 }])),
    id_token_hint: { type: 'string', maxLength: 32768 },
  },
} as const;
const confirmSchema = {
  type: 'object',
  required: ['csrf', 'logout'],
  properties: { csrf: { type: 'string', maxLength: 256 }, logout: { type: 'string', enum: ['yes', 'no'] } },
} as const;

export async function endSessionRoutes(
  app: FastifyInstance,
  { ctx, backchannel }: { ctx: IdpContext; backchannel: BackchannelLogout },
): Promise<void> {
  const path = `${endpoints(ctx.config.issuer).prefix}/end_session`;

  app.setErrorHandler(
    pageErrorHandler({
      what: 'logout failure',
      title: 'Sign-out failed',
      malformed: 'The sign-out request is malformed.',
      clamp: true,
    }),
  );

  async function start(
    req: FastifyRequest,
    reply: FastifyReply,
    params: LogoutParams,
  ): Promise<FastifyReply> {
    let request: LogoutRequest;
    try {
      request = await checkLogoutRequest(ctx, params);
    } catch (e) {
      if (!(e instanceof LogoutError)) throw e;
      return sendPage(reply, 400, errorPage('Sign-out request refused', e.message, 'invalid_request'));
    }
    const session = await currentSession(ctx, req);
    if (vouchesFor(request.hint, session))
      return signedOut(ctx, reply, request.target, await signOut(ctx, backchannel, req, reply));
    return askToConfirm(ctx, reply, path, request.target, request.client);
  }

  getAndPost<LogoutParams>(app, '/end_session', paramsSchema, start);

  app.post<{ Body: { csrf: string; logout: 'yes' | 'no' } }>(
    '/end_session/confirm',
    { schema: { body: confirmSchema } },
    async (req, reply) => {
      const taken = await takeConfirmed(ctx, req, reply, { csrf: req.body.csrf, path });
      if (!taken.ok) return sendPage(reply, 403, errorPage('Sign-out refused', taken.description, 'csrf'));
      if (req.body.logout === 'no')
        return sendPage(reply, 200, messagePage('Still signed in', 'You are still signed in.'));
      return signedOut(ctx, reply, taken.target, await signOut(ctx, backchannel, req, reply));
    },
  );
}
