/**
 * Registering a passkey from the account page:
 *   POST /account/passkeys/options   WebAuthn creation options (JSON, for passkey.js)
 *   POST /account/passkeys           register the passkey the browser created
 * A registration's challenge belongs to the session that asked for it.
 */
import type { FastifyInstance } from 'fastify';
import { safeEqual } from '../../crypto/secrets.ts';
import { LOCKED_LOGIN_ERROR } from '../../security/login-limiter.ts';
import { redirect303 } from '../../ui/html.ts';
import { credentialBodySchema, csrfOnly } from '../schemas.ts';
import type { AccountSteps } from './access.ts';
import { showAccount } from './page.ts';

/** What the page says for a refused registration, by PasskeyErrorCode. */
const ERRORS: Record<string, string> = {
  challenge_invalid: 'The request expired. Try again.',
  already_registered: 'That passkey is registered already.',
  unsupported_algorithm: 'This authenticator uses a key type pqid does not accept.',
  invalid_key: 'The authenticator sent a key that cannot be used.',
};

export function registrationOptionsRoute(app: FastifyInstance, steps: AccountSteps): void {
  const { factor } = steps;
  app.post<{ Body: { csrf: string } }>(
    '/account/passkeys/options',
    { schema: { body: csrfOnly } },
    async (req, reply) => {
      const w = await steps.who(req);
      if (!factor.enabled) return reply.code(404).send({ error: 'not_found' });
      if (!w.ok || (w.passkeys.length > 0 && !w.manage))
        return reply.code(401).send({ error: 'login_required' });
      if (!safeEqual(req.body.csrf, w.csrf)) return reply.code(403).send({ error: 'csrf' });
      if (!steps.mayAdd(w)) return reply.code(403).send({ error: 'enrolment_required' });
      const result = await factor.registrationOptions(w.account, w.auth.session, req.ip);
      if (!result.ok)
        return reply.code(429).header('retry-after', String(result.retryAfter)).send({ error: 'locked' });
      return reply.header('cache-control', 'no-store').send(result.options);
    },
  );
}

export function registrationRoute(app: FastifyInstance, steps: AccountSteps): void {
  const { factor, home } = steps;
  app.post<{ Body: { csrf: string; credential: string; name?: string } }>(
    '/account/passkeys',
    { schema: { body: credentialBodySchema } },
    async (req, reply) => {
      const w = await steps.who(req);
      if (!w.ok || !steps.mayAdd(w)) {
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
      if (result.retryAfter !== undefined) {
        reply.header('retry-after', String(result.retryAfter));
        return showAccount(steps, reply, w, 429, { error: LOCKED_LOGIN_ERROR });
      }
      return showAccount(steps, reply, w, 400, {
        error: ERRORS[result.code] ?? 'The passkey could not be added. Try again.',
      });
    },
  );
}
