/**
 * The confirmation page of a logout request that does not vouch for the session it would end
 * (RP-Initiated Logout §2, §6): a third-party page cannot sign anyone out. The request waits in
 * the `Interaction` model under a random id kept in a cookie scoped to the endpoint, with a CSRF
 * token the page posts back; it is used once.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Client } from '../../clients/clients.ts';
import type { IdpContext } from '../../context.ts';
import { randomToken, safeEqual } from '../../crypto/secrets.ts';
import { cookieOptions } from '../../signin/session.ts';
import { type Model, model } from '../../storage/model.ts';
import { sendPage } from '../../ui/html.ts';
import { logoutConfirmPage } from '../../ui/pages.ts';
import type { LogoutTarget } from './request.ts';

const LOGOUT_COOKIE = 'pqid_logout';

interface PendingLogout extends LogoutTarget {
  csrf: string;
}

const pending = (ctx: IdpContext): Model<PendingLogout> => model<PendingLogout>(ctx.storage, 'Interaction');
const key = (uid: string) => `logout:${uid}`;

/** Park the request and ask the user; `path` is the endpoint's (the cookie's scope). */
export async function askToConfirm(
  ctx: IdpContext,
  reply: FastifyReply,
  path: string,
  target: LogoutTarget,
  client: Client | undefined,
): Promise<FastifyReply> {
  const uid = randomToken(16);
  const csrf = randomToken();
  await pending(ctx).upsert(key(uid), { ...target, csrf }, ctx.config.ttl.interaction);
  reply.setCookie(LOGOUT_COOKIE, uid, cookieOptions(ctx, path, ctx.config.ttl.interaction));
  const targets = target.postLogoutRedirectUri ? [new URL(target.postLogoutRedirectUri).origin] : [];
  return sendPage(
    reply,
    200,
    logoutConfirmPage({
      action: `${path}/confirm`,
      csrf,
      ...(client ? { clientName: client.client_name ?? client.client_id } : {}),
    }),
    targets,
  );
}

/** The parked request this answer confirms, spent; else why it cannot be (shown on a 403 page). */
export async function takeConfirmed(
  ctx: IdpContext,
  req: FastifyRequest,
  reply: FastifyReply,
  { csrf, path }: { csrf: string; path: string },
): Promise<{ ok: true; target: LogoutTarget } | { ok: false; description: string }> {
  const uid = req.cookies[LOGOUT_COOKIE];
  const store = pending(ctx);
  const record = uid ? await store.find(key(uid)) : undefined;
  if (!uid || !record || record.consumed !== undefined || !safeEqual(csrf, record.csrf))
    return { ok: false, description: 'This sign-out page has expired or could not be verified.' };
  if (!(await store.consume(key(uid))))
    return { ok: false, description: 'This sign-out page was already used.' };
  reply.clearCookie(LOGOUT_COOKIE, cookieOptions(ctx, path));
  const { csrf: _csrf, consumed: _c, ...target } = record;
  return { ok: true, target };
}
