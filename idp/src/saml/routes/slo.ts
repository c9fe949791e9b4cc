/**
 * GET|POST /saml/slo: a LogoutRequest (HTTP-Redirect | HTTP-POST). It ends the session at once
 * only when it is bound to it (../slo.ts); otherwise the user is asked, on a page whose answer
 * goes to /saml/slo/confirm/:uid (slo-confirm.ts).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { randomToken, tokenId } from '../../crypto/secrets.ts';
import { currentSession, SESSION_COOKIE } from '../../signin/session.ts';
import { sendPage } from '../../ui/html.ts';
import { logoutConfirmPage } from '../../ui/pages.ts';
import { SamlRequestError } from '../bindings.ts';
import { STATUS } from '../constants.ts';
import type { SamlDeps } from '../deps.ts';
import { type PendingLogout, pendingLogoutKey, pendingLogoutOf } from '../parked.ts';
import { acceptSpRequest, type IncomingMessage } from '../requests.ts';
import {
  boundToSession,
  endSessionForSaml,
  type LogoutAnswer,
  readLogoutRequest,
  sendLogoutResponse,
} from '../slo.ts';
import { messageRoutes } from './message.ts';

export function sloRoutes(app: FastifyInstance, deps: SamlDeps): void {
  messageRoutes(app, '/saml/slo', (req, reply, msg) => slo(deps, req, reply, msg));
}

async function slo(
  deps: SamlDeps,
  req: FastifyRequest,
  reply: FastifyReply,
  msg: IncomingMessage,
): Promise<FastifyReply> {
  const { ctx } = deps;
  const accepted = await acceptSpRequest(ctx, deps.sps, msg, 'LogoutRequest', deps.ep.slo);
  const { sp } = accepted;
  if (!sp.sloUrl)
    throw new SamlRequestError('This application has no single logout URL registered.', 'slo_not_registered');
  const info = readLogoutRequest(accepted);
  const answer: LogoutAnswer = {
    sp,
    sloUrl: sp.sloUrl,
    inResponseTo: info.id,
    relayState: accepted.relayState,
  };
  const session = await currentSession(ctx, req);
  // Nobody signed in here: nothing to end, and nothing to learn from the answer.
  if (!session) return sendLogoutResponse(deps, req, reply, answer, STATUS.success);
  const account = await ctx.accounts.find(session.accountId);
  if (!account || (await boundToSession(deps, req, accepted, info, session, account))) {
    await endSessionForSaml(ctx, req, reply);
    return sendLogoutResponse(deps, req, reply, answer, STATUS.success);
  }
  // Not bound to this session: anyone could have sent it, or an SP that has no part in it. Ask;
  // never end the session on it.
  req.log.info(
    { sp: sp.entityId, signed: accepted.signatureVerified },
    'saml logout request not bound to this session; asking the user',
  );
  return askUser(deps, req, reply, answer);
}

/** Park the request and ask this browser's user whether to sign out. */
async function askUser(
  deps: SamlDeps,
  req: FastifyRequest,
  reply: FastifyReply,
  answer: LogoutAnswer,
): Promise<FastifyReply> {
  const { ctx } = deps;
  const { sp } = answer;
  const uid = randomToken(16);
  const csrf = randomToken();
  const record: PendingLogout = {
    spEntityId: sp.entityId,
    requestId: answer.inResponseTo,
    ...(answer.relayState !== undefined ? { relayState: answer.relayState } : {}),
    csrf,
    session: tokenId(req.cookies[SESSION_COOKIE] ?? ''),
  };
  await pendingLogoutOf(ctx).upsert(pendingLogoutKey(uid), record, ctx.config.ttl.interaction);
  return sendPage(
    reply,
    200,
    logoutConfirmPage({
      action: `${deps.prefix}/saml/slo/confirm/${uid}`,
      csrf,
      clientName: sp.name ?? sp.entityId,
    }),
  );
}
