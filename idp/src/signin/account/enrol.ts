/**
 * POST /account/enrol: redeem the operator's enrolment code, which lets this session add the
 * account's first passkey (passkeys/enrolment.ts).
 */
import type { FastifyInstance } from 'fastify';
import { safeEqual } from '../../crypto/secrets.ts';
import { LOCKED_LOGIN_ERROR } from '../../security/login-limiter.ts';
import { redirect303 } from '../../ui/html.ts';
import { enrolBodySchema } from '../schemas.ts';
import type { AccountSteps } from './access.ts';
import { showAccount } from './page.ts';

const BAD_CODE = 'That enrolment code is not valid. Check it, or ask for a new one.';

export function enrolRoute(app: FastifyInstance, steps: AccountSteps): void {
  const { ctx, factor, home } = steps;
  app.post<{ Body: { csrf: string; code: string } }>(
    '/account/enrol',
    { schema: { body: enrolBodySchema } },
    async (req, reply) => {
      const w = await steps.who(req);
      if (!w.ok || !factor.enabled || w.passkeys.length > 0 || !safeEqual(req.body.csrf, w.csrf))
        return redirect303(reply, home);
      // Codes are 80 random bits, but guessing still spends the address's budget.
      // Counted before the code is checked, so codes sent at once pass no more than the budget.
      const admitted = await ctx.loginLimiter.admit({ address: req.ip });
      if (!admitted.ok) {
        reply.header('retry-after', String(admitted.retryAfter));
        return showAccount(steps, reply, w, 429, { error: LOCKED_LOGIN_ERROR });
      }
      const ttl = ctx.config.passkeys.manageMaxAge;
      if (await factor.enrolments.redeem(w.account.sub, req.body.code, w.auth.session, ttl)) {
        await admitted.succeeded();
        req.log.info('passkey enrolment code redeemed');
        return redirect303(reply, `${home}?done=enrolled`);
      }
      req.log.info({ code: 'enrolment_code_invalid' }, 'passkey enrolment refused');
      return showAccount(steps, reply, w, 400, { error: BAD_CODE });
    },
  );
}
