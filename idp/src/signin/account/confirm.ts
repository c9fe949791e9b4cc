/**
 * POST /account/confirm: step up to manage passkeys, by signing in with one (after a password
 * sign-in, the second factor).
 */
import type { FastifyInstance } from 'fastify';
import { safeEqual } from '../../crypto/secrets.ts';
import { redirect303 } from '../../ui/html.ts';
import { csrfOnly } from '../schemas.ts';
import type { AccountSteps } from './access.ts';

export function confirmRoute(app: FastifyInstance, steps: AccountSteps): void {
  app.post<{ Body: { csrf: string } }>(
    '/account/confirm',
    { schema: { body: csrfOnly } },
    async (req, reply) => {
      const w = await steps.who(req);
      if (w.ok && !safeEqual(req.body.csrf, w.csrf)) return redirect303(reply, steps.home);
      if (w.ok && w.manage) return redirect303(reply, steps.home);
      return steps.signInFor(req, reply, w.need);
    },
  );
}
