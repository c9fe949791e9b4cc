/**
 * The login page and its password form:
 *   POST /interaction/:uid/login   the password factor (behind the login limiter)
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import { sendPage } from '../../ui/html.ts';
import { ACR, acrAtLeast, weakestKnown } from '../auth-context.ts';
import { loginPage } from '../pages/login.ts';
import { sendScripted } from '../passkey-script.ts';
import { passwordFactor } from '../password.ts';
import { loginBodySchema, uidParams } from '../schemas.ts';
import type { LoginInteraction } from './record.ts';
import { factorDone } from './signed-in.ts';
import { type InteractionSteps, refused } from './steps.ts';

/** The login page of interaction `uid`, with a refusal and the username typed when there was one. */
export function showLogin(
  steps: InteractionSteps,
  reply: FastifyReply,
  uid: string,
  record: LoginInteraction,
  status: number,
  extra: { error?: string; username?: string } = {},
): FastifyReply {
  const { passkeys } = steps;
  const username = extra.username ?? record.loginHint;
  const floor = record.acr ? weakestKnown(record.acr) : undefined;
  const html = loginPage({
    action: steps.url(uid, 'login'),
    csrf: record.csrf,
    clientName: record.clientName,
    ...(username ? { username } : {}),
    ...(extra.error ? { error: extra.error } : {}),
    ...(passkeys.enabled ? { passkey: steps.passkeyForm(uid) } : {}),
    needsMfa: floor !== undefined && acrAtLeast(floor, ACR.multiFactor),
  });
  return passkeys.enabled
    ? sendScripted(reply, status, html, steps.script, record.formTargets)
    : sendPage(reply, status, html, record.formTargets);
}

export function loginRoute(app: FastifyInstance, steps: InteractionSteps): void {
  app.post<{ Params: { uid: string }; Body: { csrf: string; username?: string; password?: string } }>(
    '/interaction/:uid/login',
    { schema: { params: uidParams, body: loginBodySchema } },
    async (req, reply) => {
      const { uid } = req.params;
      const record = await steps.posted(req, uid, req.body.csrf, ['login']);
      if (typeof record === 'string') return refused(reply, record);
      const username = (req.body.username ?? '').trim();
      const result = await passwordFactor(steps.ctx, {
        username,
        password: req.body.password ?? '',
        address: req.ip,
      });
      if (!result.ok) {
        if (result.retryAfter !== undefined) reply.header('retry-after', String(result.retryAfter));
        return showLogin(steps, reply, uid, record, result.status, { error: result.message, username });
      }
      return factorDone(steps, req, reply, uid, record, result);
    },
  );
}
