/**
 * The account page, where a signed-in user manages their passkeys:
 *   GET  /account                     the page (signs in first when needed)
 *   POST /account/confirm             step up to manage passkeys (the passkey, after a password)
 *   POST /account/passkeys/options    WebAuthn creation options (JSON, for passkey.js)
 *   POST /account/passkeys            register the passkey the browser created
 *   POST /account/passkeys/remove     remove one
 * The page needs a recent sign-in (passkeys.manageMaxAge). Managing passkeys also needs, once the
 * account has one, a sign-in with it (acr mfa): a stolen password alone can neither add a
 * passkey an attacker holds nor remove the user's; such a session sees the list and a button to
 * confirm with the passkey. The first passkey of an account is protected by the password only, as
 * there is nothing stronger yet. The CSRF token is a digest of the session cookie, so only a page
 * served to this browser's session can post here.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Account } from '../accounts/accounts.ts';
import { endpoints, type IdpContext } from '../context.ts';
import { safeEqual, tokenId } from '../crypto/secrets.ts';
import { pageErrorHandler } from '../http/errors.ts';
import { redirect303, sendPage } from '../ui/html.ts';
import { ACR, type AuthContext, type SignInNeed, unmetBy } from './auth-context.ts';
import { accountPage } from './pages.ts';
import { passkeyAlgName } from './passkeys/config.ts';
import { credentialBodySchema, passkeyScript } from './routes.ts';
import { currentSession, SESSION_COOKIE } from './session.ts';
import type { SignIn } from './sign-in.ts';

const MESSAGES: Record<string, string> = {
  added: 'Your passkey was added.',
  removed: 'The passkey was removed.',
};

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

  /**
   * The session and account when the page may be shown (a recent sign-in), whether they may
   * manage passkeys, and the need that managing them takes; or only that need.
   */
  async function who(
    req: FastifyRequest,
  ): Promise<
    | { ok: true; auth: AuthContext; account: Account; csrf: string; manage: boolean; need: SignInNeed }
    | { ok: false; need: SignInNeed }
  > {
    const auth = await currentSession(ctx, req);
    const account = auth ? await ctx.accounts.find(auth.accountId) : undefined;
    const hasPasskey = account ? (await factor.passkeys.list(account.sub)).length > 0 : false;
    const maxAge = ctx.config.passkeys.manageMaxAge;
    const need: SignInNeed = { maxAge, acr: [hasPasskey ? ACR.multiFactor : ACR.oneFactor] };
    const cookie = req.cookies[SESSION_COOKIE];
    const now = Math.floor(Date.now() / 1000);
    if (!auth || !account || !cookie || unmetBy(auth, { maxAge }, now) !== undefined)
      return { ok: false, need };
    const manage = unmetBy(auth, need, now) === undefined;
    return { ok: true, auth, account, csrf: csrfFor(cookie), manage, need };
  }

  async function render(
    reply: FastifyReply,
    w: { account: Account; csrf: string; manage: boolean },
    status: number,
    notes: { message?: string; error?: string } = {},
  ) {
    const { account, csrf } = w;
    const passkeys = await factor.passkeys.list(account.sub);
    const html = accountPage({
      username: account.uid,
      csrf,
      passkeys: passkeys.map((p) => ({
        id: p.id,
        name: p.name,
        algorithm: passkeyAlgName(p.alg) ?? `COSE ${p.alg}`,
        synced: p.backupEligible,
        createdAt: p.createdAt,
        ...(p.lastUsedAt !== undefined ? { lastUsedAt: p.lastUsedAt } : {}),
        ...(p.counterRegressionAt !== undefined ? { counterRegressionAt: p.counterRegressionAt } : {}),
      })),
      ...(factor.enabled && w.manage
        ? {
            register: { options: `${home}/passkeys/options`, action: `${home}/passkeys`, script: script.src },
          }
        : {}),
      ...(w.manage ? { remove: `${home}/passkeys/remove` } : { confirm: `${home}/confirm` }),
      ...notes,
    });
    return factor.enabled && w.manage
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
      if (!w.ok || !w.manage) return reply.code(401).send({ error: 'login_required' });
      if (!safeEqual(req.body.csrf, w.csrf)) return reply.code(403).send({ error: 'csrf' });
      const result = await factor.registrationOptions(w.account, req.ip);
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
      if (!factor.enabled || !w.ok || !w.manage) return redirect303(reply, home);
      if (!safeEqual(req.body.csrf, w.csrf)) return redirect303(reply, home);
      const result = await factor.register(
        w.account,
        req.body.credential,
        { address: req.ip, ...(req.body.name !== undefined ? { name: req.body.name } : {}) },
        req.log,
      );
      if (result.ok) return redirect303(reply, `${home}?done=added`);
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
      if (removed) req.log.info('passkey removed');
      return redirect303(reply, removed ? `${home}?done=removed` : home);
    },
  );
}
