/**
 * RP-initiated logout (OpenID Connect RP-Initiated Logout 1.0). An `id_token_hint` must be one
 * of our ID tokens (any published key, retired ones included); a `post_logout_redirect_uri` must
 * exactly match one the client registered, else the user stays here. Without a valid hint for
 * the signed-in user, the user confirms on a CSRF-protected page, so a third-party page cannot
 * sign anyone out.
 */

import { algorithms, createLocalJWKSet, verifyJwt } from '@pqid/jose';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Client } from '../clients/clients.ts';
import { endpoints, type IdpContext } from '../context.ts';
import { randomToken, safeEqual } from '../crypto/secrets.ts';
import { cookieOptions, currentSession, endSession } from '../signin/session.ts';
import { outagePage } from '../ui/errors.ts';
import { redirect303, sendPage } from '../ui/html.ts';
import { errorPage, logoutConfirmPage, messagePage } from '../ui/pages.ts';
import { redirectWith } from './authorize-request.ts';
import type { BackchannelLogout } from './backchannel-logout.ts';

const LOGOUT_COOKIE = 'pqid_logout';
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

type Params = Partial<Record<string, string>>;

interface LogoutTarget {
  clientId?: string;
  postLogoutRedirectUri?: string;
  state?: string;
}

interface LogoutRecord extends LogoutTarget {
  [member: string]: unknown;
  csrf: string;
}

class LogoutError extends Error {}

export async function logoutRoutes(
  app: FastifyInstance,
  { ctx, backchannel }: { ctx: IdpContext; backchannel: BackchannelLogout },
): Promise<void> {
  const ep = endpoints(ctx.config.issuer);
  const path = `${ep.prefix}/end_session`;
  const pending = ctx.storage.adapter('Interaction');

  app.setErrorHandler((err, req, reply) => {
    const outage = outagePage(err, req, reply);
    if (outage) return outage;
    const status = (err as { statusCode?: number }).statusCode ?? 500;
    if (status >= 500) req.log.error({ err }, 'logout failure');
    return sendPage(
      reply,
      status >= 500 ? 500 : 400,
      errorPage('Sign-out failed', 'The sign-out request is malformed.', 'invalid_request'),
    );
  });

  /** The hint's claims, verified against every key we publish; an expired hint still identifies. */
  async function verifyHint(hint: string): Promise<{ sub: string; aud: string }> {
    try {
      const { claims } = await verifyJwt(hint, await createLocalJWKSet(ctx.keys.jwks()), {
        algorithms: algorithms(),
        issuer: ctx.config.issuer,
        // No session outlives ttl.session, so an older hint cannot name a live one.
        clockTolerance: ctx.config.ttl.session,
        requiredClaims: ['sub', 'aud'],
      });
      const aud = Array.isArray(claims.aud) ? claims.aud[0] : claims.aud;
      if (typeof claims.sub !== 'string' || typeof aud !== 'string') throw new Error('claims');
      return { sub: claims.sub, aud };
    } catch {
      throw new LogoutError('The id_token_hint is not a valid ID token from this provider.');
    }
  }

  /** End the browser session; its clients hear of it on the back channel, after this answer. */
  async function signOut(req: FastifyRequest, reply: FastifyReply): Promise<void> {
    const ended = await endSession(ctx, req, reply);
    if (ended?.sid !== undefined) backchannel.sessionEnded({ sid: ended.sid, accountId: ended.accountId });
  }

  function done(reply: FastifyReply, record: LogoutTarget): FastifyReply {
    if (record.postLogoutRedirectUri)
      return redirect303(reply, redirectWith(record.postLogoutRedirectUri, { state: record.state }));
    return sendPage(reply, 200, messagePage('Signed out', 'You are signed out. You can close this page.'));
  }

  async function start(req: FastifyRequest, reply: FastifyReply, params: Params): Promise<FastifyReply> {
    let client: Client | undefined;
    let hint: { sub: string; aud: string } | undefined;
    try {
      if (params.id_token_hint) hint = await verifyHint(params.id_token_hint);
      if (hint && params.client_id && params.client_id !== hint.aud)
        throw new LogoutError('client_id does not match the id_token_hint.');
      const clientId = hint?.aud ?? params.client_id;
      if (clientId) {
        client = await ctx.clients.find(clientId);
        if (!client) throw new LogoutError('The application is not registered with this provider.');
      }
      const target = params.post_logout_redirect_uri;
      if (target !== undefined) {
        // Exact match against the registered list, as for redirect_uri (no open redirector).
        if (!client) throw new LogoutError('post_logout_redirect_uri needs an id_token_hint or client_id.');
        if (!(client.post_logout_redirect_uris ?? []).includes(target))
          throw new LogoutError('The post_logout_redirect_uri is not registered for this application.');
      }
    } catch (e) {
      if (!(e instanceof LogoutError)) throw e;
      return sendPage(reply, 400, errorPage('Sign-out request refused', e.message, 'invalid_request'));
    }
    const record: LogoutTarget = {
      ...(client ? { clientId: client.client_id } : {}),
      ...(params.post_logout_redirect_uri ? { postLogoutRedirectUri: params.post_logout_redirect_uri } : {}),
      ...(params.state !== undefined ? { state: params.state } : {}),
    };
    const session = await currentSession(ctx, req);
    // A verified hint for the signed-in user (or nobody signed in): no question to ask.
    if (hint && (!session || session.accountId === hint.sub)) {
      await signOut(req, reply);
      return done(reply, record);
    }
    const uid = randomToken(16);
    const csrf = randomToken();
    await pending.upsert(`logout:${uid}`, { ...record, csrf }, ctx.config.ttl.interaction);
    reply.setCookie(LOGOUT_COOKIE, uid, cookieOptions(ctx, path, ctx.config.ttl.interaction));
    const targets = record.postLogoutRedirectUri ? [new URL(record.postLogoutRedirectUri).origin] : [];
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

  app.get('/end_session', { schema: { querystring: paramsSchema } }, (req, reply) =>
    start(req, reply, req.query as Params),
  );
  app.post('/end_session', { schema: { body: paramsSchema } }, (req, reply) =>
    start(req, reply, (req.body ?? {}) as Params),
  );

  app.post<{ Body: { csrf: string; logout: 'yes' | 'no' } }>(
    '/end_session/confirm',
    { schema: { body: confirmSchema } },
    async (req, reply) => {
      const uid = req.cookies[LOGOUT_COOKIE];
      const record = uid ? ((await pending.find(`logout:${uid}`)) as LogoutRecord | undefined) : undefined;
      if (!uid || !record || record.consumed !== undefined || !safeEqual(req.body.csrf, record.csrf))
        return sendPage(
          reply,
          403,
          errorPage('Sign-out refused', 'This sign-out page has expired or could not be verified.', 'csrf'),
        );
      if (!(await pending.consume(`logout:${uid}`)))
        return sendPage(
          reply,
          403,
          errorPage('Sign-out refused', 'This sign-out page was already used.', 'csrf'),
        );
      reply.clearCookie(LOGOUT_COOKIE, cookieOptions(ctx, path));
      if (req.body.logout === 'no')
        return sendPage(reply, 200, messagePage('Still signed in', 'You are still signed in.'));
      await signOut(req, reply);
      const { csrf: _csrf, consumed: _c, ...rest } = record;
      return done(reply, rest);
    },
  );
}
