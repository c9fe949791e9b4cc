/** GET /interaction/:uid: the page of the interaction's stage. */
import type { FastifyInstance } from 'fastify';
import { uidParams } from '../schemas.ts';
import { showConsent } from './consent.ts';
import { showLogin } from './login.ts';
import { showSecondFactor } from './second-factor.ts';
import { expired, type InteractionSteps } from './steps.ts';
import { showUnmet } from './unmet.ts';

export function interactionPageRoute(app: FastifyInstance, steps: InteractionSteps): void {
  app.get<{ Params: { uid: string } }>(
    '/interaction/:uid',
    { schema: { params: uidParams } },
    async (req, reply) => {
      const { uid } = req.params;
      const record = await steps.load(req, uid);
      if (!record) return expired(reply);
      switch (record.stage) {
        case 'login':
          return showLogin(steps, reply, uid, record, 200);
        case 'second':
          return showSecondFactor(steps, reply, uid, record, 200);
        case 'unmet':
          return showUnmet(steps, reply, uid, record);
        case 'consent':
          return showConsent(steps, reply, uid, record);
      }
    },
  );
}
