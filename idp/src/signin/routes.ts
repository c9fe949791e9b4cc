/**
 * The sign-in pages of a parked interaction (sign-in.ts):
 *   GET  /interaction/:uid           the login form, or the consent question
 *   POST /interaction/:uid/login     the password factor
 *   POST /interaction/:uid/consent   allow or deny
 * Every post needs the interaction cookie and the page's CSRF token, and each interaction is
 * single use: a replayed post after success finds it consumed.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { endpoints, type IdpContext } from '../context.ts';
import { safeEqual } from '../crypto/secrets.ts';
import { pageErrorHandler } from '../ui/errors.ts';
import { redirect303, sendPage } from '../ui/html.ts';
import { errorPage } from '../ui/pages.ts';
import { consentPage, loginPage } from './pages.ts';
import { passwordFactor } from './password.ts';
import { cookieOptions, startSession } from './session.ts';
import { INTERACTION_COOKIE, type InteractionRecord, type SignIn } from './sign-in.ts';

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

const uidParams = {
  type: 'object',
  required: ['uid'],
  properties: { uid: { type: 'string', maxLength: 64 } },
} as const;

export interface SignInRoutesOptions {
  ctx: IdpContext;
  signIn: SignIn;
}

export async function signInRoutes(
  app: FastifyInstance,
  { ctx, signIn }: SignInRoutesOptions,
): Promise<void> {
  const ep = endpoints(ctx.config.issuer);
  const interactions = ctx.storage.adapter('Interaction');
  const interactionCookie = () => cookieOptions(ctx, `${ep.prefix}/interaction`);

  // A resumer continuing a protocol's request runs here too: its failures are pages, not redirects.
  app.setErrorHandler(pageErrorHandler('sign-in failure'));

  async function loadInteraction(req: FastifyRequest, uid: string): Promise<InteractionRecord | undefined> {
    const cookie = req.cookies[INTERACTION_COOKIE];
    if (!cookie || !safeEqual(cookie, uid)) return undefined;
    const record = (await interactions.find(uid)) as InteractionRecord | undefined;
    // A record without `next` predates this shape (an upgrade mid-login): start again.
    return record && record.consumed === undefined && record.next !== undefined ? record : undefined;
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

  function renderLogin(
    reply: FastifyReply,
    uid: string,
    record: InteractionRecord & { stage: 'login' },
    status: number,
    extra: { error?: string; username?: string } = {},
  ) {
    const username = extra.username ?? record.loginHint;
    const html = loginPage({
      action: `${ep.interaction(uid)}/login`,
      csrf: record.csrf,
      clientName: record.clientName,
      ...(username ? { username } : {}),
      ...(extra.error ? { error: extra.error } : {}),
    });
    return sendPage(reply, status, html, record.formTargets);
  }

  app.get<{ Params: { uid: string } }>(
    '/interaction/:uid',
    { schema: { params: uidParams } },
    async (req, reply) => {
      const record = await loadInteraction(req, req.params.uid);
      if (!record) return expired(reply);
      if (record.stage === 'login') return renderLogin(reply, req.params.uid, record, 200);
      const html = consentPage({
        action: `${ep.interaction(req.params.uid)}/consent`,
        csrf: record.csrf,
        clientName: record.clientName,
        scopes: record.scopes,
      });
      return sendPage(reply, 200, html, record.formTargets);
    },
  );

  app.post<{ Params: { uid: string }; Body: { csrf: string; username?: string; password?: string } }>(
    '/interaction/:uid/login',
    { schema: { params: uidParams, body: loginBodySchema } },
    async (req, reply) => {
      const { uid } = req.params;
      const record = await loadInteraction(req, uid);
      if (record?.stage !== 'login') return expired(reply);
      if (!safeEqual(req.body.csrf, record.csrf)) return csrfRefused(reply);
      const username = (req.body.username ?? '').trim();
      const result = await passwordFactor(ctx, {
        username,
        password: req.body.password ?? '',
        address: req.ip,
      });
      if (!result.ok) {
        if (result.retryAfter !== undefined) reply.header('retry-after', String(result.retryAfter));
        return renderLogin(reply, uid, record, result.status, { error: result.message, username });
      }
      // Single use: a replayed form post after success finds the interaction consumed.
      if (!(await interactions.consume(uid))) return expired(reply);
      const auth = await startSession(ctx, reply, result.accountId, result.amr);
      reply.clearCookie(INTERACTION_COOKIE, interactionCookie());
      const { next } = record;
      if ('returnTo' in next) return redirect303(reply, next.returnTo);
      const resumer = signIn.resumer(next.resume);
      if (!resumer) return expired(reply);
      return resumer.signedIn(reply, auth, next.state);
    },
  );

  app.post<{ Params: { uid: string }; Body: { csrf: string; decision: 'allow' | 'deny' } }>(
    '/interaction/:uid/consent',
    { schema: { params: uidParams, body: consentBodySchema } },
    async (req, reply) => {
      const { uid } = req.params;
      const record = await loadInteraction(req, uid);
      if (record?.stage !== 'consent') return expired(reply);
      if (!safeEqual(req.body.csrf, record.csrf)) return csrfRefused(reply);
      const resumer = signIn.resumer(record.next.resume);
      if (!resumer?.consented) return expired(reply);
      if (!(await interactions.consume(uid))) return expired(reply);
      reply.clearCookie(INTERACTION_COOKIE, interactionCookie());
      return resumer.consented(reply, req.body.decision === 'allow', record.auth, record.next.state);
    },
  );
}
