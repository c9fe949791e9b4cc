/**
 * After a factor succeeded (the password, or a passkey): a session with the methods used, then
 * on to the need's next step (a second factor, or "cannot meet") or back where the sign-in
 * started.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { redirect303 } from '../../ui/html.ts';
import type { AuthContext } from '../auth-context.ts';
import { startSession } from '../session.ts';
import type { Continuation, LoginInteraction, SecondFactorInteraction } from './record.ts';
import { expired, type InteractionSteps } from './steps.ts';

/** Who the factor signed in, by which methods (RFC 8176), and with which passkey if one. */
export interface FactorDone {
  accountId: string;
  amr: string[];
  passkey?: string | undefined;
}

export async function factorDone(
  steps: InteractionSteps,
  req: FastifyRequest,
  reply: FastifyReply,
  uid: string,
  record: LoginInteraction | SecondFactorInteraction,
  factor: FactorDone,
): Promise<FastifyReply> {
  const { ctx, signIn } = steps;
  // Single use: a replayed form post after success finds the interaction consumed.
  if (!(await steps.consume(uid))) return expired(reply);
  const auth = await startSession(ctx, req, reply, factor.accountId, factor.amr, factor.passkey);
  // Recorded so a password change or the passkey's removal ends it; a passkey removed while this
  // sign-in was under way ends it again at once.
  if (!(await signIn.bindSession(auth))) return expired(reply);
  const next = await signIn.afterFactor(auth, record.acr);
  if (next !== 'met') return signIn.continueWith(reply, record, next);
  steps.clearCookie(reply);
  return continueTo(steps, reply, record.next, auth);
}

/** Signed in: where the continuation says, in place or by redirect. */
async function continueTo(
  steps: InteractionSteps,
  reply: FastifyReply,
  next: Continuation,
  auth: AuthContext,
): Promise<FastifyReply> {
  if ('returnTo' in next) return redirect303(reply, next.returnTo);
  const resumer = steps.signIn.resumer(next.resume);
  if (!resumer) return expired(reply);
  return resumer.signedIn(reply, auth, next.state);
}
