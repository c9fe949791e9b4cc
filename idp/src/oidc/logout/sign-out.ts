/**
 * Ending the browser session at the end-session endpoint, and the page that says so. However it
 * ends, the session's clients are told: on the back channel (backchannel.ts) and, in the page
 * the user sees, on the front channel (frontchannel.ts).
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Client } from '../../clients/clients.ts';
import type { IdpContext } from '../../context.ts';
import { endSession } from '../../signin/session.ts';
import { redirect303, sendPage } from '../../ui/html.ts';
import { messagePage } from '../../ui/pages.ts';
import { redirectWith } from '../shared/http.ts';
import type { BackchannelLogout } from './backchannel.ts';
import { sendFrontchannelLogout } from './frontchannel.ts';
import type { LogoutTarget } from './request.ts';
import { takeLoggedInClients } from './session-clients.ts';

/** A session just ended: its public id and the clients that got a code in it. */
export interface Ended {
  sid: string;
  clients: Client[];
}

/**
 * End the browser session. Its clients, read once, hear of it on the back channel (their
 * notices are in the outbox before this answers, and are POSTed behind it) and on the front
 * channel in the answer: returned for `signedOut` to render.
 */
export async function signOut(
  ctx: IdpContext,
  backchannel: BackchannelLogout,
  req: FastifyRequest,
  reply: FastifyReply,
): Promise<Ended | undefined> {
  const ended = await endSession(ctx, req, reply);
  if (ended?.sid === undefined) return undefined;
  let clients: Client[];
  try {
    clients = await takeLoggedInClients(ctx, ended.sid);
  } catch (err) {
    // The user is signed out all the same; only the applications' notices are lost.
    req.log.error({ err }, 'logout: could not read the session clients');
    return undefined;
  }
  await backchannel.sessionEnded({ sid: ended.sid, accountId: ended.accountId, clients });
  return { sid: ended.sid, clients };
}

/** The answer once signed out: the front-channel frames, else the redirect back, else a page. */
export function signedOut(
  ctx: IdpContext,
  reply: FastifyReply,
  target: LogoutTarget,
  ended?: Ended,
): FastifyReply {
  const continueTo = target.postLogoutRedirectUri
    ? redirectWith(target.postLogoutRedirectUri, { state: target.state })
    : undefined;
  const frames = ended
    ? sendFrontchannelLogout(reply, {
        issuer: ctx.config.issuer,
        sid: ended.sid,
        clients: ended.clients,
        ...(continueTo !== undefined ? { continueTo } : {}),
      })
    : undefined;
  if (frames) return frames;
  if (continueTo !== undefined) return redirect303(reply, continueTo);
  return sendPage(reply, 200, messagePage('Signed out', 'You are signed out. You can close this page.'));
}
