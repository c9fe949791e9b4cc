/**
 * The account page, where a signed-in user manages their passkeys:
 *   GET  /account                     the page (signs in first when needed)
 *   POST /account/confirm             step up to manage passkeys (the passkey, after a password)
 *   POST /account/enrol               redeem an enrolment code for the first passkey
 *   POST /account/passkeys/options    WebAuthn creation options (JSON, for passkey.js)
 *   POST /account/passkeys            register the passkey the browser created
 *   POST /account/passkeys/remove     remove one
 * The page needs a recent sign-in (passkeys.manageMaxAge). Once the account has a passkey,
 * managing passkeys also needs a sign-in with one (acr mfa): a stolen password alone can neither
 * add a passkey an attacker holds nor remove the user's; such a session sees the list and a
 * button to confirm with the passkey. The first passkey needs more than the password too: an
 * enrolment code from the operator, redeemed in this session (passkeys/enrolment.ts). The CSRF
 * token is a digest of the session cookie, so only a page served to this browser's session can
 * post here, and a registration's challenge belongs to the session that asked for it.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Account } from '../accounts/accounts.ts';
import { endpoints, type IdpContext } from '../context.ts';
import { safeEqual, tokenId } from '../crypto/secrets.ts';
import { pageErrorHandler } from '../http/errors.ts';
import { LOCKED_LOGIN_ERROR } from '../security/login-limiter.ts';
import { redirect303, sendPage } from '../ui/html.ts';
import { ACR, type AuthContext, type SignInNeed, unmetBy } from './auth-context.ts';
import { accountPage } from './pages.ts';
import { passkeyAlgName } from './passkeys/config.ts';
import type { Passkey } from './passkeys/credentials.ts';
import { credentialBodySchema, passkeyScript } from './routes.ts';
import { currentSession, SESSION_COOKIE } from './session.ts';
import type { SignIn } from './sign-in.ts';

const MESSAGES: Record<string, string> = {
  added: 'Your passkey was added.',
  removed: 'The passkey was removed.',
  enrolled: 'The code is accepted: add your passkey now.',
};

const BAD_CODE = 'That enrolment code is not valid. Check it, or ask for a new one.';

const ERRORS: Record<string, string> = {
  challenge_invalid: 'The request expired. Try again.',
  already_registered: 'That passkey is registered already.',
  unsupported_algorithm: 'This authenticator uses a key type pqid does not accept.',
  invalid_key: 'The authenticator sent a key that cannot be used.',
};

const csrfFor = (cookie: string) => tokenId(`pqid-account-csrf\0${cookie}`);

export async function accountRoutes(
  app: FastifyInstance,
  { ctx, signIn }: { ctx: IdpContext; signIn: SignIn },
): Promise<void> {
  const { prefix } = endpoints(ctx.config.issuer);
  const home = `${prefix}/account`;
  const script = passkeyScript(ctx.config.issuer);
  const factor = signIn.passkeys;
  app.setErrorHandler(pageErrorHandler('account page failure'));

  /** What the page's session may do, and the need that signing in for the page takes. */
  interface Allowed {
    ok: true;
    auth: AuthContext & { session: string };
    account: Account;
    passkeys: Passkey[];
    csrf: string;
    /** Add and remove passkeys: a sign-in with one of the account's passkeys. */
    manage: boolean;
    /** Add the first passkey: the session redeemed an enrolment code. */
    enrolled: boolean;
    need: SignInNeed;
  }

  /** The session and account when the page may be shown (a recent sign-in); or only the need. */
  async function who(req: FastifyRequest): Promise<Allowed | { ok: false; need: SignInNeed }> {
    const auth = await currentSession(ctx, req);
    const account = auth ? await ctx.accounts.find(auth.accountId) : undefined;
    const passkeys = account ? await factor.passkeys.list(account.sub) : [];
    const maxAge = ctx.config.passkeys.manageMaxAge;
    const need: SignInNeed = { maxAge, acr: [passkeys.length ? ACR.multiFactor : ACR.oneFactor] };
    const cookie = req.cookies[SESSION_COOKIE];
    const now = Math.floor(Date.now() / 1000);
    if (!auth?.session || !account || !cookie || unmetBy(auth, { maxAge }, now) !== undefined)
      return { ok: false, need };
    const session = auth.session;
    const manage = passkeys.length > 0 && unmetBy(auth, need, now) === undefined;
    const enrolled = passkeys.length === 0 && (await factor.enrolments.redeemed(account.sub, session));
    return {
      ok: true,
      auth: { ...auth, session },
      account,
      passkeys,
      csrf: csrfFor(cookie),
      manage,
      enrolled,
      need,
    };
  }

  /** May this session add a passkey now: a manager, or a first passkey after an enrolment code. */
  const mayAdd = (w: Allowed) => factor.enabled && (w.manage || w.enrolled);

  async function render(
    reply: FastifyReply,
    w: Allowed,
    status: number,
    notes: { message?: string; error?: string } = {},
  ) {
    const { passkeys } = w;
    const first = passkeys.length === 0;
    const register = mayAdd(w);
    const html = accountPage({
      username: w.account.uid,
      csrf: w.csrf,
      passkeys: passkeys.map((p) => ({
        id: p.id,
        name: p.name,
        algorithm: passkeyAlgName(p.alg) ?? `COSE ${p.alg}`,
        synced: p.backupEligible,
        createdAt: p.createdAt,
        ...(p.lastUsedAt !== undefined ? { lastUsedAt: p.lastUsedAt } : {}),
        ...(p.counterRegressionAt !== undefined ? { counterRegressionAt: p.counterRegressionAt } : {}),
      })),
      ...(register
        ? {
            register: { options: `${home}/passkeys/options`, action: `${home}/passkeys`, script: script.src },
          }
        : {}),
      ...(w.manage ? { remove: `${home}/passkeys/remove` } : {}),
      ...(!first && !w.manage ? { confirm: `${home}/confirm` } : {}),
      ...(first && !register && factor.enabled ? { enrol: `${home}/enrol` } : {}),
      ...notes,
    });
    return register
      ? sendPage(reply, status, html, [], [script.csp], ["'self'"])
      : sendPage(reply, status, html);
  }

  app.get<{ Querystring: { done?: string } }>(
    '/account',
    { schema: { querystring: { type: 'object', properties: { done: { type: 'string', maxLength: 16 } } } } },
    async (req, reply) => {
      const w = await who(req);
      if (!w.ok)
        return signIn.begin(req, reply, {
          next: { returnTo: home },
          clientName: 'your pqid account',
          need: w.need,
        });
      const message = req.query.done ? MESSAGES[req.query.done] : undefined;
      return render(reply, w, 200, message ? { message } : {});
    },
  );

  app.post<{ Body: { csrf: string } }>(
    '/account/confirm',
    {
      schema: {
        body: {
          type: 'object',
          required: ['csrf'],
          properties: { csrf: { type: 'string', maxLength: 256 } },
        },
      },
    },
    async (req, reply) => {
      const w = await who(req);
      if (w.ok && !safeEqual(req.body.csrf, w.csrf)) return redirect303(reply, home);
      if (w.ok && w.manage) return redirect303(reply, home);
      return signIn.begin(req, reply, {
        next: { returnTo: home },
        clientName: 'your pqid account',
        need: w.need,
      });
    },
  );

  app.post<{ Body: { csrf: string } }>(
    '/account/passkeys/options',
    {
      schema: {
        body: {
          type: 'object',
          required: ['csrf'],
          properties: { csrf: { type: 'string', maxLength: 256 } },
        },
      },
    },
    async (req, reply) => {
      const w = await who(req);
      if (!factor.enabled) return reply.code(404).send({ error: 'not_found' });
      if (!w.ok || (w.passkeys.length > 0 && !w.manage))
        return reply.code(401).send({ error: 'login_required' });
      if (!safeEqual(req.body.csrf, w.csrf)) return reply.code(403).send({ error: 'csrf' });
      if (!mayAdd(w)) return reply.code(403).send({ error: 'enrolment_required' });
      const result = await factor.registrationOptions(w.account, w.auth.session, req.ip);
      if (!result.ok)
        return reply.code(429).header('retry-after', String(result.retryAfter)).send({ error: 'locked' });
      return reply.header('cache-control', 'no-store').send(result.options);
    },
  );

  app.post<{ Body: { csrf: string; credential: string; name?: string } }>(
    '/account/passkeys',
    { schema: { body: credentialBodySchema } },
    async (req, reply) => {
      const w = await who(req);
      if (!w.ok || !mayAdd(w)) {
        if (w.ok && factor.enabled)
          req.log.info({ code: 'enrolment_required' }, 'passkey registration refused');
        return redirect303(reply, home);
      }
      if (!safeEqual(req.body.csrf, w.csrf)) return redirect303(reply, home);
      const result = await factor.register(
        w.account,
        w.auth.session,
        req.body.credential,
        { address: req.ip, ...(req.body.name !== undefined ? { name: req.body.name } : {}) },
        req.log,
      );
      if (result.ok) {
        // One code, one passkey: a further one needs a sign-in with this one.
        if (w.enrolled) await factor.enrolments.spent(w.auth.session);
        return redirect303(reply, `${home}?done=added`);
      }
      return render(reply, w, 400, {
        error: ERRORS[result.code] ?? 'The passkey could not be added. Try again.',
      });
    },
  );

  app.post<{ Body: { csrf: string; id: string } }>(
    '/account/passkeys/remove',
    {
      schema: {
        body: {
          type: 'object',
          required: ['csrf', 'id'],
          properties: { csrf: { type: 'string', maxLength: 256 }, id: { type: 'string', maxLength: 1400 } },
        },
      },
    },
    async (req, reply) => {
      const w = await who(req);
      if (!w.ok || !w.manage || !safeEqual(req.body.csrf, w.csrf)) return redirect303(reply, home);
      const removed = await factor.passkeys.remove(w.account.sub, req.body.id);
      if (removed) req.log.info({ ...removed }, 'passkey removed; its sessions and grants are revoked');
      // Removing the passkey this session signed in with ends this session too: the page then
      // asks for a sign-in again.
      return redirect303(reply, removed ? `${home}?done=removed` : home);
    },
  );

  app.post<{ Body: { csrf: string; code: string } }>(
    '/account/enrol',
    {
      schema: {
        body: {
          type: 'object',
          required: ['csrf', 'code'],
          properties: { csrf: { type: 'string', maxLength: 256 }, code: { type: 'string', maxLength: 64 } },
        },
      },
    },
    async (req, reply) => {
      const w = await who(req);
      if (!w.ok || !factor.enabled || w.passkeys.length > 0 || !safeEqual(req.body.csrf, w.csrf))
        return redirect303(reply, home);
      // Codes are 80 random bits, but guessing still spends the address's budget.
      const limiter = ctx.loginLimiter;
      const wait = await limiter.lockedFor({ address: req.ip });
      if (wait > 0) {
        reply.header('retry-after', String(wait));
        return render(reply, w, 429, { error: LOCKED_LOGIN_ERROR });
      }
      const ttl = ctx.config.passkeys.manageMaxAge;
      if (await factor.enrolments.redeem(w.account.sub, req.body.code, w.auth.session, ttl)) {
        req.log.info('passkey enrolment code redeemed');
        return redirect303(reply, `${home}?done=enrolled`);
      }
      await limiter.fail({ address: req.ip });
      req.log.info({ code: 'enrolment_code_invalid' }, 'passkey enrolment refused');
      return render(reply, w, 400, { error: BAD_CODE });
    },
  );
}
