/**
 * POST /account/passkeys/remove: remove one of the account's passkeys, which ends the sessions
 * and revokes the grants it authenticated (../uses.ts).
 */
import type { FastifyInstance } from 'fastify';
import { safeEqual } from '../../crypto/secrets.ts';
import { redirect303 } from '../../ui/html.ts';
import { removeBodySchema } from '../schemas.ts';
import type { AccountSteps } from './access.ts';

export function removeRoute(app: FastifyInstance, steps: AccountSteps): void {
  const { factor, home } = steps;
  app.post<{ Body: { csrf: string; id: string } }>(
    '/account/passkeys/remove',
    { schema: { body: removeBodySchema } },
    async (req, reply) => {
      const w = await steps.who(req);
      if (!w.ok || !w.manage || !safeEqual(req.body.csrf, w.csrf)) return redirect303(reply, home);
      const removed = await factor.passkeys.remove(w.account.sub, req.body.id);
      if (removed) req.log.info({ ...removed }, 'passkey removed; its sessions and grants are revoked');
      // Removing the passkey this session signed in with ends this session too: the page then
      // asks for a sign-in again.
      return redirect303(reply, removed ? `${home}?done=removed` : home);
    },
  );
}
