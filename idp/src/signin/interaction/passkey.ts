/**
 * The passkey factor of a login or second-factor page:
 *   POST /interaction/:uid/passkey/options   WebAuthn request options (JSON, for passkey.js)
 *   POST /interaction/:uid/passkey           the assertion (passwordless, or the second factor)
 */
import type { FastifyInstance } from 'fastify';
import { safeEqual } from '../../crypto/secrets.ts';
import { combineAmr } from '../auth-context.ts';
import { credentialBodySchema, csrfOnly, uidParams } from '../schemas.ts';
import { showLogin } from './login.ts';
import { showSecondFactor } from './second-factor.ts';
import { factorDone } from './signed-in.ts';
import { csrfRefused, expired, type InteractionSteps } from './steps.ts';

export function passkeyOptionsRoute(app: FastifyInstance, steps: InteractionSteps): void {
  const { passkeys } = steps;
  app.post<{ Params: { uid: string }; Body: { csrf: string } }>(
    '/interaction/:uid/passkey/options',
    { schema: { params: uidParams, body: csrfOnly } },
    async (req, reply) => {
      const record = await steps.load(req, req.params.uid);
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
}

export function passkeyRoute(app: FastifyInstance, steps: InteractionSteps): void {
  const { passkeys } = steps;
  app.post<{ Params: { uid: string }; Body: { csrf: string; credential: string } }>(
    '/interaction/:uid/passkey',
    { schema: { params: uidParams, body: credentialBodySchema } },
    async (req, reply) => {
      const { uid } = req.params;
      const record = await steps.load(req, uid);
      if (!passkeys.enabled || (record?.stage !== 'login' && record?.stage !== 'second'))
        return expired(reply);
      if (!safeEqual(req.body.csrf, record.csrf)) return csrfRefused(reply);
      const result = await passkeys.signIn(uid, req.body.credential, req.ip, req.log);
      if (!result.ok) {
        if (result.retryAfter !== undefined) reply.header('retry-after', String(result.retryAfter));
        return record.stage === 'login'
          ? showLogin(steps, reply, uid, record, result.status, { error: result.message })
          : showSecondFactor(steps, reply, uid, record, result.status, result.message);
      }
      // The challenge named the account in the second stage, so the passkey is that account's.
      const amr = record.stage === 'second' ? combineAmr(record.firstAmr, result.amr) : result.amr;
      return factorDone(steps, req, reply, uid, record, { ...result, amr });
    },
  );
}
