/**
 * A need the account cannot meet, and giving up on one:
 *   POST /interaction/:uid/cancel   back to the protocol, which answers its client with an error
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import { redirect303, sendPage } from '../../ui/html.ts';
import { unmetPage } from '../pages/unmet.ts';
import { csrfOnly, uidParams } from '../schemas.ts';
import type { UnmetInteraction } from './record.ts';
import { expired, type InteractionSteps, refused } from './steps.ts';

/** The "a passkey is required" page, which points to the account page. */
export function showUnmet(
  steps: InteractionSteps,
  reply: FastifyReply,
  uid: string,
  record: UnmetInteraction,
): FastifyReply {
  return sendPage(
    reply,
    200,
    unmetPage({
      csrf: record.csrf,
      clientName: record.clientName,
      cancel: steps.url(uid, 'cancel'),
      account: steps.accountPage,
    }),
    record.formTargets,
  );
}

/** The second factor or the unmet page, given up: the protocol hears that the need was not met. */
export function cancelRoute(app: FastifyInstance, steps: InteractionSteps): void {
  app.post<{ Params: { uid: string }; Body: { csrf: string } }>(
    '/interaction/:uid/cancel',
    { schema: { params: uidParams, body: csrfOnly } },
    async (req, reply) => {
      const { uid } = req.params;
      const record = await steps.posted(req, uid, req.body.csrf, ['second', 'unmet']);
      if (typeof record === 'string') return refused(reply, record);
      if (!(await steps.consume(uid))) return expired(reply);
      steps.clearCookie(reply);
      const { next } = record;
      // A protocol behind a path checks the session again and finds the need unmet.
      if ('returnTo' in next) return redirect303(reply, next.returnTo);
      const resumer = steps.signIn.resumer(next.resume);
      if (!resumer?.unmet) return expired(reply);
      return resumer.unmet(reply, next.state);
    },
  );
}
