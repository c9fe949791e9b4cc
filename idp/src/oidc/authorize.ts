/**
 * The authorization endpoint and the login interaction behind it. A request that needs a login
 * is parked as an Interaction (its validated parameters plus a CSRF token) and the browser is
 * sent to the login page; the interaction cookie binds the form post to this browser.
 */

import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { endpoints, type IdpContext } from '../context.ts';
import { randomToken, safeEqual } from '../crypto/secrets.ts';
import { sendPage } from '../ui/html.ts';
import { consentPage, errorPage, loginPage } from '../ui/pages.ts';
import { type AuthorizeParams, type AuthRequest, validateAuthorizeRequest } from './authorize-request.ts';
import { needsConsent, rememberConsent } from './consent.ts';
import { outagePage } from './errors.ts';
import { issueCode } from './issue.ts';
import { redirect303, respond } from './respond.ts';
import {
  cookieOptions,
  currentSession,
  INTERACTION_COOKIE,
  type SessionRecord,
  startSession,
} from './session.ts';

const PARAM_NAMES = [
  'client_id',
  'redirect_uri',
  'response_type',
  'response_mode',
  'scope',
  'state',
  'nonce',
  'code_challenge',
  'code_challenge_method',
  'prompt',
  'max_age',
  'login_hint',
  'request',
  'request_uri',
];
// Each parameter at most once and of bounded size (RFC 6749 §3.1); unknown ones are ignored.
const paramsSchema = {
  type: 'object',
  properties: Object.fromEntries(PARAM_NAMES.map((n) => [n, { type: 'string', maxLength: 4096 }])),
} as const;

const loginBodySchema = {
  type: 'object',
  required: ['csrf'],
  properties: {
    csrf: { type: 'string', maxLength: 256 },
    username: { type: 'string', maxLength: 256 },
    password: { type: 'string', maxLength: 1024 },
  },
} as const;

const consentBodySchema = {
  type: 'object',
  required: ['csrf', 'decision'],
  properties: {
    csrf: { type: 'string', maxLength: 256 },
    decision: { type: 'string', enum: ['allow', 'deny'] },
  },
} as const;

/** A parked request: first `login`, then (if needed) `consent` for the account that signed in. */
interface InteractionRecord {
  [member: string]: unknown;
  /** Absent for a login parked by another protocol: then `external` says where to continue. */
  request?: AuthRequest;
  external?: ExternalLogin;
  csrf: string;
  stage?: 'login' | 'consent';
  accountId?: string;
  authTime?: number;
}

export interface AuthorizeOptions {
  ctx: IdpContext;
}

/** A login requested by another protocol (SAML SSO): same page, same session, then `returnTo`. */
export interface ExternalLogin {
  /** A path on this IdP where the browser continues once signed in. */
  returnTo: string;
  clientName: string;
}

/**
 * Send the browser through the login page on behalf of another protocol; after sign-in it is
 * redirected to `login.returnTo`. Only same-origin paths, so this cannot become an open redirect.
 */
export async function parkExternalLogin(
  ctx: IdpContext,
  reply: FastifyReply,
  login: ExternalLogin,
): Promise<FastifyReply> {
  if (!login.returnTo.startsWith('/') || login.returnTo.startsWith('//'))
    throw new Error('returnTo must be a path on this IdP');
  const ep = endpoints(ctx.config.issuer);
  const uid = randomToken(16);
  const record: InteractionRecord = { external: login, csrf: randomToken(), stage: 'login' };
  await ctx.storage.adapter('Interaction').upsert(uid, record, ctx.config.ttl.interaction);
  reply.setCookie(
    INTERACTION_COOKIE,
    uid,
    cookieOptions(ctx, `${ep.prefix}/interaction`, ctx.config.ttl.interaction),
  );
  return redirect303(reply, ep.interaction(uid));
}

export async function authorizeRoutes(app: FastifyInstance, { ctx }: AuthorizeOptions): Promise<void> {
  const ep = endpoints(ctx.config.issuer);
  const interactions = ctx.storage.adapter('Interaction');

  // Nothing on these routes may redirect on bad input before the redirect_uri is verified.
  app.setErrorHandler((err, req, reply) => {
    const outage = outagePage(err, req, reply);
    if (outage) return outage;
    const status =
      typeof (err as { statusCode?: number }).statusCode === 'number'
        ? (err as { statusCode: number }).statusCode
        : 500;
    if (status >= 500) req.log.error({ err }, 'authorization endpoint failure');
    const clientStatus = Math.min(status, 500);
    const message =
      clientStatus === 500
        ? 'Something went wrong on our side. Please try again.'
        : 'The request is malformed.';
    return sendPage(
      reply,
      clientStatus,
      errorPage('Invalid request', message, clientStatus === 500 ? 'server_error' : 'invalid_request'),
    );
  });

  const redirect = redirect303;
  const answer = (reply: FastifyReply, request: AuthRequest, params: Record<string, string | undefined>) =>
    // `iss` in every response (RFC 9207) defends clients against mix-up attacks.
    respond(reply, request.redirectUri, request.responseMode, {
      ...params,
      state: request.state,
      iss: ctx.config.issuer,
    });

  async function park(reply: FastifyReply, record: InteractionRecord): Promise<FastifyReply> {
    const uid = randomToken(16);
    await interactions.upsert(uid, record, ctx.config.ttl.interaction);
    reply.setCookie(
      INTERACTION_COOKIE,
      uid,
      cookieOptions(ctx, `${ep.prefix}/interaction`, ctx.config.ttl.interaction),
    );
    return redirect(reply, ep.interaction(uid));
  }

  /** Signed in: ask for consent when needed, else issue the code. */
  async function afterLogin(
    reply: FastifyReply,
    request: AuthRequest,
    session: SessionRecord,
  ): Promise<FastifyReply> {
    if (await needsConsent(ctx, request, session.accountId)) {
      if (request.prompt.includes('none'))
        return answer(reply, request, {
          error: 'consent_required',
          error_description: 'the end-user has not consented',
        });
      return park(reply, {
        request,
        csrf: randomToken(),
        stage: 'consent',
        accountId: session.accountId,
        authTime: session.authTime,
      });
    }
    return finish(reply, request, session);
  }

  async function finish(
    reply: FastifyReply,
    request: AuthRequest,
    session: SessionRecord,
  ): Promise<FastifyReply> {
    const code = await issueCode(ctx, {
      clientId: request.clientId,
      accountId: session.accountId,
      redirectUri: request.redirectUri,
      scope: request.scope,
      authTime: session.authTime,
      ...(request.nonce !== undefined ? { nonce: request.nonce } : {}),
      ...(request.codeChallenge !== undefined ? { codeChallenge: request.codeChallenge } : {}),
    });
    return answer(reply, request, { code });
  }

  async function authorize(
    req: FastifyRequest,
    reply: FastifyReply,
    params: AuthorizeParams,
  ): Promise<FastifyReply> {
    const outcome = await validateAuthorizeRequest(params, ctx.clients);
    if (outcome.kind === 'page') {
      return sendPage(
        reply,
        400,
        errorPage('This sign-in request cannot be processed', outcome.description, outcome.error),
      );
    }
    if (outcome.kind === 'redirect') {
      return respond(reply, outcome.redirectUri, outcome.responseMode, {
        error: outcome.error,
        error_description: outcome.description,
        state: outcome.state,
        iss: ctx.config.issuer,
      });
    }
    const { request } = outcome;
    const session = await currentSession(ctx, req);
    const fresh =
      session !== undefined &&
      !request.prompt.includes('login') &&
      (request.maxAge === undefined || Math.floor(Date.now() / 1000) - session.authTime <= request.maxAge);
    if (fresh && session) return afterLogin(reply, request, session);
    if (request.prompt.includes('none')) {
      return answer(reply, request, {
        error: 'login_required',
        error_description: 'end-user is not signed in',
      });
    }
    return park(reply, { request, csrf: randomToken(), stage: 'login' });
  }

  app.get('/authorize', { schema: { querystring: paramsSchema } }, (req, reply) =>
    authorize(req, reply, req.query as AuthorizeParams),
  );
  app.post('/authorize', { schema: { body: paramsSchema } }, (req, reply) =>
    authorize(req, reply, (req.body ?? {}) as AuthorizeParams),
  );

  async function loadInteraction(req: FastifyRequest, uid: string): Promise<InteractionRecord | undefined> {
    const cookie = req.cookies[INTERACTION_COOKIE];
    if (!cookie || !safeEqual(cookie, uid)) return undefined;
    const record = (await interactions.find(uid)) as InteractionRecord | undefined;
    return record && record.consumed === undefined ? record : undefined;
  }

  const expired = (reply: FastifyReply) =>
    sendPage(
      reply,
      400,
      errorPage(
        'Sign-in expired',
        'This sign-in page has expired. Go back to the application and start again.',
        'interaction_expired',
      ),
    );

  async function renderLogin(
    reply: FastifyReply,
    uid: string,
    record: InteractionRecord,
    status: number,
    extra: { error?: string; username?: string } = {},
  ) {
    if (!record.request) {
      const html = loginPage({
        action: `${ep.interaction(uid)}/login`,
        csrf: record.csrf,
        clientName: record.external?.clientName ?? 'an application',
        ...(extra.username ? { username: extra.username } : {}),
        ...(extra.error ? { error: extra.error } : {}),
      });
      return sendPage(reply, status, html);
    }
    const client = await ctx.clients.find(record.request.clientId);
    const html = loginPage({
      action: `${ep.interaction(uid)}/login`,
      csrf: record.csrf,
      clientName: client?.client_name ?? record.request.clientId,
      ...((extra.username ?? record.request.loginHint)
        ? { username: extra.username ?? record.request.loginHint }
        : {}),
      ...(extra.error ? { error: extra.error } : {}),
    });
    return sendPage(reply, status, html, [new URL(record.request.redirectUri).origin]);
  }

  async function renderConsent(reply: FastifyReply, uid: string, record: InteractionRecord) {
    if (!record.request) return expired(reply);
    const client = await ctx.clients.find(record.request.clientId);
    const html = consentPage({
      action: `${ep.interaction(uid)}/consent`,
      csrf: record.csrf,
      clientName: client?.client_name ?? record.request.clientId,
      scopes: record.request.scope.split(' ').filter(Boolean),
    });
    return sendPage(reply, 200, html, [new URL(record.request.redirectUri).origin]);
  }

  const csrfRefused = (reply: FastifyReply) =>
    sendPage(
      reply,
      403,
      errorPage(
        'Request refused',
        'The form could not be verified. Go back to the application and start again.',
        'csrf',
      ),
    );

  const uidParams = {
    type: 'object',
    required: ['uid'],
    properties: { uid: { type: 'string', maxLength: 64 } },
  } as const;

  app.get<{ Params: { uid: string } }>(
    '/interaction/:uid',
    { schema: { params: uidParams } },
    async (req, reply) => {
      const record = await loadInteraction(req, req.params.uid);
      if (!record) return expired(reply);
      if (record.stage === 'consent') return renderConsent(reply, req.params.uid, record);
      return renderLogin(reply, req.params.uid, record, 200);
    },
  );

  app.post<{ Params: { uid: string }; Body: { csrf: string; username?: string; password?: string } }>(
    '/interaction/:uid/login',
    { schema: { params: uidParams, body: loginBodySchema } },
    async (req, reply) => {
      const { uid } = req.params;
      const record = await loadInteraction(req, uid);
      if (!record || record.stage === 'consent') return expired(reply);
      if (!safeEqual(req.body.csrf, record.csrf)) return csrfRefused(reply);
      const username = (req.body.username ?? '').trim();
      const attempt = await ctx.loginLimiter.attempt({ username, address: req.ip }, () =>
        ctx.accounts.authenticate(username, req.body.password ?? ''),
      );
      if (!attempt.ok) {
        if (attempt.retryAfter !== undefined) reply.header('retry-after', String(attempt.retryAfter));
        return renderLogin(reply, uid, record, attempt.locked ? 429 : 401, {
          error: attempt.message,
          username,
        });
      }
      const { account } = attempt;
      // Single use: a replayed form post after success finds the interaction consumed.
      if (!(await interactions.consume(uid))) return expired(reply);
      const session = await startSession(ctx, reply, ep.prefix, account.sub);
      reply.clearCookie(INTERACTION_COOKIE, cookieOptions(ctx, `${ep.prefix}/interaction`));
      if (record.external) return redirect(reply, record.external.returnTo);
      if (!record.request) return expired(reply);
      return afterLogin(reply, record.request, session);
    },
  );

  app.post<{ Params: { uid: string }; Body: { csrf: string; decision: 'allow' | 'deny' } }>(
    '/interaction/:uid/consent',
    { schema: { params: uidParams, body: consentBodySchema } },
    async (req, reply) => {
      const { uid } = req.params;
      const record = await loadInteraction(req, uid);
      if (record?.stage !== 'consent' || !record.accountId || !record.request) return expired(reply);
      if (!safeEqual(req.body.csrf, record.csrf)) return csrfRefused(reply);
      if (!(await interactions.consume(uid))) return expired(reply);
      reply.clearCookie(INTERACTION_COOKIE, cookieOptions(ctx, `${ep.prefix}/interaction`));
      if (req.body.decision === 'deny')
        return answer(reply, record.request, {
          error: 'access_denied',
          error_description: 'the end-user denied the request',
        });
      await rememberConsent(ctx, record.accountId, record.request.clientId, record.request.scope);
      return finish(reply, record.request, {
        accountId: record.accountId,
        authTime: record.authTime ?? Math.floor(Date.now() / 1000),
      });
    },
  );
}
