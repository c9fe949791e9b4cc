/**
 * The passkey factor of a login or second-factor page:
 *   POST /interaction/:uid/passkey/options   WebAuthn request options (JSON, for passkey.js)
 *   POST /interaction/:uid/passkey           the assertion (passwordless, or the second factor)
 */
import type { FastifyInstance } from 'fastify';
import { combineAmr } from '../auth-context.ts';
import { credentialBodySchema, csrfOnly, uidParams } from '../schemas.ts';
import { showLogin } from './login.ts';
import { showSecondFactor } from './second-factor.ts';
import { factorDone } from './signed-in.ts';
import { type InteractionSteps, refused } from './steps.ts';

/** The stages a passkey may be used at: none when passkeys are off. */
const factorStages = (steps: InteractionSteps) =>
  steps.passkeys.enabled ? (['login', 'second'] as const) : ([] as const);

export function passkeyOptionsRoute(app: FastifyInstance, steps: InteractionSteps): void {
  const { passkeys } = steps;
  app.post<{ Params: { uid: string }; Body: { csrf: string } }>(
    '/interaction/:uid/passkey/options',
    { schema: { params: uidParams, body: csrfOnly } },
    async (req, reply) => {
      const record = await steps.posted(req, req.params.uid, req.body.csrf, factorStages(steps));
      if (record === 'expired') return reply.code(400).send({ error: 'interaction_expired' });
      if (record === 'csrf') return reply.code(403).send({ error: 'csrf' });
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
      const record = await steps.posted(req, uid, req.body.csrf, factorStages(steps));
      if (typeof record === 'string') return refused(reply, record);
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
