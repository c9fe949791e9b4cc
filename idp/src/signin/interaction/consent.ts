/**
 * The consent question of a signed-in user:
 *   POST /interaction/:uid/consent   allow or deny, answered to the protocol that asked
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import { sendPage } from '../../ui/html.ts';
import { consentPage } from '../pages/consent.ts';
import { consentBodySchema, uidParams } from '../schemas.ts';
import type { ConsentInteraction } from './record.ts';
import { expired, type InteractionSteps, refused } from './steps.ts';

export function showConsent(
  steps: InteractionSteps,
  reply: FastifyReply,
  uid: string,
  record: ConsentInteraction,
): FastifyReply {
  return sendPage(
    reply,
    200,
    consentPage({
      action: steps.url(uid, 'consent'),
      csrf: record.csrf,
      clientName: record.clientName,
      scopes: record.scopes,
      keepAccessSeconds: steps.ctx.config.ttl.refreshToken,
      accessSeconds: steps.ctx.config.ttl.accessToken,
      ...(record.resources ? { resources: record.resources } : {}),
    }),
    record.formTargets,
  );
}

export function consentRoute(app: FastifyInstance, steps: InteractionSteps): void {
  app.post<{ Params: { uid: string }; Body: { csrf: string; decision: 'allow' | 'deny' } }>(
    '/interaction/:uid/consent',
    { schema: { params: uidParams, body: consentBodySchema } },
    async (req, reply) => {
      const { uid } = req.params;
      const record = await steps.posted(req, uid, req.body.csrf, ['consent']);
      if (typeof record === 'string') return refused(reply, record);
      const resumer = steps.signIn.resumer(record.next.resume);
      // The session the question was asked in, read again: still alive (steps.posted) and as it
      // is now.
      const auth = await steps.signIn.sessionOf(req, record.auth.session);
      if (!resumer?.consented || !auth) return expired(reply);
      if (!(await steps.consume(uid))) return expired(reply);
      steps.clearCookie(reply);
      return resumer.consented(reply, req.body.decision === 'allow', auth, record.next.state);
    },
  );
}
