/**
 * RP-initiated logout (OpenID Connect RP-Initiated Logout 1.0). An `id_token_hint` must be an
 * ID token this provider issued (any published key, retired ones included; expired ones too) to
 * one registered client, and a `client_id` sent with it must be that client; a
 * `post_logout_redirect_uri` must exactly match one the client registered, else the user stays
 * here. Only a hint naming the signed-in user and session (`sub`, and `sid`) ends the session
 * without a question; otherwise the user confirms on a CSRF-protected page, so a third-party
 * page cannot sign anyone out, not even with an ID token of its own. However it ends, the
 * session's clients are told: on the back channel (backchannel-logout.ts) and, in the page the
 * user sees, on the front channel (frontchannel-logout.ts).
 */

import { algorithms, createLocalJWKSet, type JwtClaims, verifyJwt } from '@pqid/jose';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Client } from '../clients/clients.ts';
import { endpoints, type IdpContext } from '../context.ts';
import { randomToken, safeEqual } from '../crypto/secrets.ts';
import { pageErrorHandler } from '../http/errors.ts';
import type { AuthContext } from '../signin/auth-context.ts';
import { cookieOptions, currentSession, endSession } from '../signin/session.ts';
import { redirect303, sendPage } from '../ui/html.ts';
import { errorPage, logoutConfirmPage, messagePage } from '../ui/pages.ts';
import type { BackchannelLogout } from './logout/backchannel.ts';
import { sendFrontchannelLogout } from './logout/frontchannel.ts';
import { takeLoggedInClients } from './logout/session-clients.ts';
import { OAuthError } from './shared/errors.ts';
import { redirectWith } from './shared/http.ts';

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

class LogoutError extends OAuthError {
  constructor(message: string) {
    super('invalid_request', message);
  }
}

/** A session just ended: its public id and the clients that got a code in it. */
interface Ended {
  sid: string;
  clients: Client[];
}

/** What a verified `id_token_hint` says: the user, the client it was issued to, the session. */
interface Hint {
  sub: string;
  aud: string;
  sid?: string;
}

export async function logoutRoutes(
  app: FastifyInstance,
  { ctx, backchannel }: { ctx: IdpContext; backchannel: BackchannelLogout },
): Promise<void> {
  const ep = endpoints(ctx.config.issuer);
  const path = `${ep.prefix}/end_session`;
  const pending = ctx.storage.adapter('Interaction');

  app.setErrorHandler(
    pageErrorHandler({
      what: 'logout failure',
      title: 'Sign-out failed',
      malformed: 'The sign-out request is malformed.',
      clamp: true,
    }),
  );

  /**
   * The hint's claims, if it is one of our ID tokens. The same keys sign RFC 9068 access tokens
   * (`at+jwt`), logout tokens (`logout+jwt`) and signed userinfo responses, which name a user and
   * a client too: the `typ` and the claims every ID token of ours carries (OIDC Core §2, plus
   * `auth_time`) tell them apart, and a logout token's `events` is refused (Back-Channel
   * Logout §2.4). An expired hint still identifies (RP-Initiated Logout §2).
   */
  async function verifyHint(hint: string): Promise<Hint> {
    const invalid = new LogoutError('The id_token_hint is not a valid ID token from this provider.');
    let claims: JwtClaims;
    try {
      ({ claims } = await verifyJwt(hint, await createLocalJWKSet(ctx.keys.jwks()), {
        algorithms: algorithms(),
        issuer: ctx.config.issuer,
        typ: 'JWT',
        // No session outlives ttl.session, so an older hint cannot name a live one.
        clockTolerance: ctx.config.ttl.session,
        requiredClaims: ['iss', 'sub', 'aud', 'exp', 'iat', 'auth_time'],
      }));
    } catch {
      throw invalid;
    }
    // Ours always have exactly one audience: the client the ID token was issued to.
    const aud: unknown[] =
      typeof claims.aud === 'string' ? [claims.aud] : Array.isArray(claims.aud) ? claims.aud : [];
    const [client] = aud;
    if (aud.length !== 1 || typeof client !== 'string' || typeof claims.sub !== 'string') throw invalid;
    if (claims.events !== undefined || (claims.sid !== undefined && typeof claims.sid !== 'string'))
      throw invalid;
    return { sub: claims.sub, aud: client, ...(typeof claims.sid === 'string' ? { sid: claims.sid } : {}) };
  }

  /**
   * Whether the hint vouches for ending `session` without asking: it names that session's user
   * and, when both carry one, its `sid`. A hint for someone else, or for the same user's other
   * session, makes the request suspect (§2, §6): the user decides.
   */
  function vouchesFor(hint: Hint | undefined, session: AuthContext | undefined): boolean {
    if (!hint) return false;
    if (!session) return true; // nobody to sign out: only the redirect is left, checked above
    if (session.accountId !== hint.sub) return false;
    return hint.sid === undefined || session.sid === undefined || hint.sid === session.sid;
  }

  /**
   * End the browser session. Its clients, read once, hear of it on the back channel (their
   * notices are in the outbox before this answers, and are POSTed behind it) and on the front
   * channel in this answer: returned for `done` to render.
   */
  async function signOut(req: FastifyRequest, reply: FastifyReply): Promise<Ended | undefined> {
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

  function done(reply: FastifyReply, record: LogoutTarget, ended?: Ended): FastifyReply {
    const continueTo = record.postLogoutRedirectUri
      ? redirectWith(record.postLogoutRedirectUri, { state: record.state })
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

  async function start(req: FastifyRequest, reply: FastifyReply, params: Params): Promise<FastifyReply> {
    let client: Client | undefined;
    let hint: Hint | undefined;
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
    if (vouchesFor(hint, session)) return done(reply, record, await signOut(req, reply));
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
      const ended = await signOut(req, reply);
      const { csrf: _csrf, consumed: _c, ...rest } = record;
      return done(reply, rest, ended);
    },
  );
}
