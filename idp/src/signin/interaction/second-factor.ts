/** The second-factor page: the account's passkey on top of the first factor, or back. */
import type { FastifyReply } from 'fastify';
import { secondFactorPage } from '../pages/second-factor.ts';
import { sendScripted } from '../passkey-script.ts';
import type { SecondFactorInteraction } from './record.ts';
import type { InteractionSteps } from './steps.ts';

export function showSecondFactor(
  steps: InteractionSteps,
  reply: FastifyReply,
  uid: string,
  record: SecondFactorInteraction,
  status: number,
  error?: string,
): FastifyReply {
  const html = secondFactorPage({
    csrf: record.csrf,
    clientName: record.clientName,
    username: record.username,
    passkey: steps.passkeyForm(uid),
    cancel: steps.url(uid, 'cancel'),
    ...(error ? { error } : {}),
  });
  return sendScripted(reply, status, html, steps.script, record.formTargets);
}
