/**
 * The sign-in pages of a parked interaction (sign-in.ts):
 *   GET  /interaction/:uid                   the page of its stage: login, second factor, unmet, consent
 *   POST /interaction/:uid/login             the password factor
 *   POST /interaction/:uid/passkey/options   WebAuthn request options (JSON, for passkey.js)
 *   POST /interaction/:uid/passkey           the passkey factor (passwordless, or the second factor)
 *   POST /interaction/:uid/cancel            give up a need that cannot be met: back to the protocol
 *   POST /interaction/:uid/consent           allow or deny
 *   GET  /signin/passkey.js                  the pages' one script
 * Every post needs the interaction cookie and the page's CSRF token, and each interaction is
 * single use: a replayed post after success finds it consumed. A stage that builds on a session
 * (the second factor, the consent question) goes on only while that session is alive: after a
 * sign-out, or the removal of the passkey that signed it in, the page has expired.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { endpoints, type IdpContext } from '../context.ts';
import { safeEqual } from '../crypto/secrets.ts';
import { pageErrorHandler } from '../http/errors.ts';
import { redirect303, sendPage } from '../ui/html.ts';
import { errorPage } from '../ui/pages.ts';
import { ACR, type AuthContext, acrAtLeast, combineAmr, weakestKnown } from './auth-context.ts';
import { consentPage, loginPage, type PasskeyForm, secondFactorPage, unmetPage } from './pages.ts';
import { PASSKEY_SCRIPT } from './passkey-script.ts';
import { passwordFactor } from './password.ts';
import { cookieOptions, startSession } from './session.ts';
import {
  type Continuation,
  INTERACTION_COOKIE,
  type InteractionRecord,
  type LoginInteraction,
  type SecondFactorInteraction,
  type SignIn,
} from './sign-in.ts';

const csrfOnly = {
  type: 'object',
  required: ['csrf'],
  properties: { csrf: { type: 'string', maxLength: 256 } },
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

/** An ML-DSA-87 assertion is ~6.3 KB of JSON, an attestation ~10.5 KB. */
export const credentialBodySchema = {
  type: 'object',
  required: ['csrf', 'credential'],
  properties: {
    csrf: { type: 'string', maxLength: 256 },
    credential: { type: 'string', maxLength: 32768 },
    name: { type: 'string', maxLength: 256 },
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

/** passkey.js as the pages reference it, and the CSP source that allows exactly that file. */
export function passkeyScript(issuer: string): { src: string; csp: string } {
  const { prefix } = endpoints(issuer);
  const path = `${prefix}${PASSKEY_SCRIPT.path}`;
  return { src: `${path}?v=${PASSKEY_SCRIPT.version}`, csp: `${new URL(issuer).origin}${path}` };
}

export async function signInRoutes(
  app: FastifyInstance,
  { ctx, signIn }: SignInRoutesOptions,
): Promise<void> {
  const ep = endpoints(ctx.config.issuer);
  const interactions = ctx.storage.adapter('Interaction');
  const interactionCookie = () => cookieOptions(ctx, `${ep.prefix}/interaction`);
  const script = passkeyScript(ctx.config.issuer);
  const passkeys = signIn.passkeys;

  // A resumer continuing a protocol's request runs here too: its failures are pages, not redirects.
  app.setErrorHandler(pageErrorHandler('sign-in failure'));

  app.get(PASSKEY_SCRIPT.path, async (_req, reply) =>
    reply
      .header('content-type', 'text/javascript; charset=utf-8')
      // Versioned URL: a new script gets a new URL, so this one may be cached for long.
      .header('cache-control', 'public, max-age=31536000, immutable')
      .send(PASSKEY_SCRIPT.source),
  );

  async function loadInteraction(req: FastifyRequest, uid: string): Promise<InteractionRecord | undefined> {
    const cookie = req.cookies[INTERACTION_COOKIE];
    if (!cookie || !safeEqual(cookie, uid)) return undefined;
    const record = (await interactions.find(uid)) as InteractionRecord | undefined;
    // A record without `next` predates this shape (an upgrade mid-login): start again.
    if (!record || record.consumed !== undefined || record.next === undefined) return undefined;
    // The stages built on a session die with it.
    if (record.stage === 'second' && !(await signIn.sessionOf(req, record.session))) return undefined;
    if (record.stage === 'consent' && !(await signIn.sessionOf(req, record.auth.session))) return undefined;
    return record;
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

  const passkeyForm = (uid: string): PasskeyForm => ({
    options: `${ep.interaction(uid)}/passkey/options`,
    action: `${ep.interaction(uid)}/passkey`,
    script: script.src,
  });

  /** Send a page that may run passkey.js (and fetch its options). */
  const sendScripted = (reply: FastifyReply, status: number, html: string, formTargets: string[]) =>
    sendPage(reply, status, html, formTargets, [script.csp], ["'self'"]);

  function renderLogin(
    reply: FastifyReply,
    uid: string,
    record: LoginInteraction,
    status: number,
    extra: { error?: string; username?: string } = {},
  ) {
    const username = extra.username ?? record.loginHint;
    const floor = record.acr ? weakestKnown(record.acr) : undefined;
    const html = loginPage({
      action: `${ep.interaction(uid)}/login`,
      csrf: record.csrf,
      clientName: record.clientName,
      ...(username ? { username } : {}),
      ...(extra.error ? { error: extra.error } : {}),
      ...(passkeys.enabled ? { passkey: passkeyForm(uid) } : {}),
      needsMfa: floor !== undefined && acrAtLeast(floor, ACR.multiFactor),
    });
    return passkeys.enabled
      ? sendScripted(reply, status, html, record.formTargets)
      : sendPage(reply, status, html, record.formTargets);
  }

  function renderSecond(
    reply: FastifyReply,
    uid: string,
    record: SecondFactorInteraction,
    status: number,
    error?: string,
  ) {
    const html = secondFactorPage({
      csrf: record.csrf,
      clientName: record.clientName,
      username: record.username,
      passkey: passkeyForm(uid),
      cancel: `${ep.interaction(uid)}/cancel`,
      ...(error ? { error } : {}),
    });
    return sendScripted(reply, status, html, record.formTargets);
  }

  /** Signed in: where the continuation says, in place or by redirect. */
  async function continueTo(reply: FastifyReply, next: Continuation, auth: AuthContext) {
    if ('returnTo' in next) return redirect303(reply, next.returnTo);
    const resumer = signIn.resumer(next.resume);
    if (!resumer) return expired(reply);
    return resumer.signedIn(reply, auth, next.state);
  }

  /** A factor succeeded: a session with its methods, then on to the need's next step or back. */
  async function factorDone(
    req: FastifyRequest,
    reply: FastifyReply,
    uid: string,
    record: LoginInteraction | SecondFactorInteraction,
    accountId: string,
    amr: string[],
    passkey?: string,
  ) {
    // Single use: a replayed form post after success finds the interaction consumed.
    if (!(await interactions.consume(uid))) return expired(reply);
    const auth = await startSession(ctx, req, reply, accountId, amr, passkey);
    // Removed while this sign-in was under way: the session just made is ended again.
    if (!(await passkeys.bindSession(auth))) return expired(reply);
    const next = await signIn.afterFactor(auth, record.acr);
    if (next !== 'met') return signIn.continueWith(reply, record, next);
    reply.clearCookie(INTERACTION_COOKIE, interactionCookie());
    return continueTo(reply, record.next, auth);
  }

  app.get<{ Params: { uid: string } }>(
    '/interaction/:uid',
    { schema: { params: uidParams } },
    async (req, reply) => {
      const { uid } = req.params;
      const record = await loadInteraction(req, uid);
      if (!record) return expired(reply);
      switch (record.stage) {
        case 'login':
          return renderLogin(reply, uid, record, 200);
        case 'second':
          return renderSecond(reply, uid, record, 200);
        case 'unmet':
          return sendPage(
            reply,
            200,
            unmetPage({
              csrf: record.csrf,
              clientName: record.clientName,
              cancel: `${ep.interaction(uid)}/cancel`,
              account: `${ep.prefix}/account`,
            }),
            record.formTargets,
          );
        case 'consent':
          return sendPage(
            reply,
            200,
            consentPage({
              action: `${ep.interaction(uid)}/consent`,
              csrf: record.csrf,
              clientName: record.clientName,
              scopes: record.scopes,
              ...(record.resources ? { resources: record.resources } : {}),
            }),
            record.formTargets,
          );
      }
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
      return factorDone(req, reply, uid, record, result.accountId, result.amr);
    },
  );

  app.post<{ Params: { uid: string }; Body: { csrf: string } }>(
    '/interaction/:uid/passkey/options',
    { schema: { params: uidParams, body: csrfOnly } },
    async (req, reply) => {
      const record = await loadInteraction(req, req.params.uid);
      if (!passkeys.enabled || (record?.stage !== 'login' && record?.stage !== 'second'))
        return reply.code(400).send({ error: 'interaction_expired' });
      if (!safeEqual(req.body.csrf, record.csrf)) return reply.code(403).send({ error: 'csrf' });
      const result = await passkeys.signInOptions(
        req.params.uid,
        req.ip,
        record.stage === 'second'
          ? { accountId: record.accountId, passwordFirst: record.firstAmr.includes('pwd') }
          : undefined,
      );
      if (!result.ok)
        return reply.code(429).header('retry-after', String(result.retryAfter)).send({ error: 'locked' });
      return reply.header('cache-control', 'no-store').send(result.options);
    },
  );

  app.post<{ Params: { uid: string }; Body: { csrf: string; credential: string } }>(
    '/interaction/:uid/passkey',
    { schema: { params: uidParams, body: credentialBodySchema } },
    async (req, reply) => {
      const { uid } = req.params;
      const record = await loadInteraction(req, uid);
      if (!passkeys.enabled || (record?.stage !== 'login' && record?.stage !== 'second'))
        return expired(reply);
      if (!safeEqual(req.body.csrf, record.csrf)) return csrfRefused(reply);
      const result = await passkeys.signIn(uid, req.body.credential, req.ip, req.log);
      if (!result.ok) {
        if (result.retryAfter !== undefined) reply.header('retry-after', String(result.retryAfter));
        return record.stage === 'login'
          ? renderLogin(reply, uid, record, result.status, { error: result.message })
          : renderSecond(reply, uid, record, result.status, result.message);
      }
      // The challenge named the account in the second stage, so the passkey is that account's.
      const amr = record.stage === 'second' ? combineAmr(record.firstAmr, result.amr) : result.amr;
      return factorDone(req, reply, uid, record, result.accountId, amr, result.passkey);
    },
  );

  app.post<{ Params: { uid: string }; Body: { csrf: string } }>(
    '/interaction/:uid/cancel',
    { schema: { params: uidParams, body: csrfOnly } },
    async (req, reply) => {
      const { uid } = req.params;
      const record = await loadInteraction(req, uid);
      if (record?.stage !== 'second' && record?.stage !== 'unmet') return expired(reply);
      if (!safeEqual(req.body.csrf, record.csrf)) return csrfRefused(reply);
      if (!(await interactions.consume(uid))) return expired(reply);
      reply.clearCookie(INTERACTION_COOKIE, interactionCookie());
      const { next } = record;
      // A protocol behind a path checks the session again and finds the need unmet.
      if ('returnTo' in next) return redirect303(reply, next.returnTo);
      const resumer = signIn.resumer(next.resume);
      if (!resumer?.unmet) return expired(reply);
      return resumer.unmet(reply, next.state);
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
      // The session the question was asked in, read again: still alive (loadInteraction) and as
      // it is now.
      const auth = await signIn.sessionOf(req, record.auth.session);
      if (!resumer?.consented || !auth) return expired(reply);
      if (!(await interactions.consume(uid))) return expired(reply);
      reply.clearCookie(INTERACTION_COOKIE, interactionCookie());
      return resumer.consented(reply, req.body.decision === 'allow', auth, record.next.state);
    },
  );
}
