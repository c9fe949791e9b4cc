/** GET /account: the page (signs in first when needed), with what the session may do on it. */
import type { FastifyInstance, FastifyReply } from 'fastify';
import { sendPage } from '../../ui/html.ts';
import { type AccountPasskey, accountPage } from '../pages/account.ts';
import { sendScripted } from '../passkey-script.ts';
import { passkeyAlgName } from '../passkeys/config.ts';
import type { Passkey } from '../passkeys/credentials.ts';
import { accountQuery } from '../schemas.ts';
import type { AccountAccess, AccountSteps } from './access.ts';

/** What `?done=` says after an action succeeded. */
const MESSAGES: Record<string, string> = {
  added: 'Your passkey was added.',
  removed: 'The passkey was removed.',
  enrolled: 'The code is accepted: add your passkey now.',
};

const listed = (p: Passkey): AccountPasskey => ({
  id: p.id,
  name: p.name,
  algorithm: passkeyAlgName(p.alg) ?? `COSE ${p.alg}`,
  synced: p.backupEligible,
  createdAt: p.createdAt,
  ...(p.lastUsedAt !== undefined ? { lastUsedAt: p.lastUsedAt } : {}),
  ...(p.counterRegressionAt !== undefined ? { counterRegressionAt: p.counterRegressionAt } : {}),
});

/** The account page as `w` may use it, with a note (an action's success) or an error. */
export function showAccount(
  steps: AccountSteps,
  reply: FastifyReply,
  w: AccountAccess,
  status: number,
  notes: { message?: string; error?: string } = {},
): FastifyReply {
  const { home, script, factor } = steps;
  const first = w.passkeys.length === 0;
  const register = steps.mayAdd(w);
  const html = accountPage({
    username: w.account.uid,
    csrf: w.csrf,
    passkeys: w.passkeys.map(listed),
    signOut: `${steps.ctx.config.issuer}/end_session`,
    landing: `${steps.ctx.config.issuer}/`,
    ...(register
      ? { register: { options: `${home}/passkeys/options`, action: `${home}/passkeys`, script: script.src } }
      : {}),
    ...(w.manage ? { remove: `${home}/passkeys/remove` } : {}),
    ...(!first && !w.manage ? { confirm: `${home}/confirm` } : {}),
    ...(first && !register && factor.enabled ? { enrol: `${home}/enrol` } : {}),
    ...notes,
  });
  return register ? sendScripted(reply, status, html, script) : sendPage(reply, status, html);
}

export function accountPageRoute(app: FastifyInstance, steps: AccountSteps): void {
  app.get<{ Querystring: { done?: string } }>(
    '/account',
    { schema: { querystring: accountQuery } },
    async (req, reply) => {
      const w = await steps.who(req);
      if (!w.ok) return steps.signInFor(req, reply, w.need);
      const message = req.query.done ? MESSAGES[req.query.done] : undefined;
      return showAccount(steps, reply, w, 200, message ? { message } : {});
    },
  );
}
