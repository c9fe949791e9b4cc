/**
 * The password factor, behind the login limiter: while a username or address is locked out the
 * password is not even checked, and every failure counts on every instance
 * (security/login-limiter.ts). Each factor answers the same way, so the routes treat them alike.
 */
import type { IdpContext } from '../context.ts';
import { AMR } from './auth-context.ts';

export type FactorResult =
  /** `amr`: the methods this factor used (RFC 8176); `passkey`: the credential ID, if one was used. */
  | { ok: true; accountId: string; amr: string[]; passkey?: string }
  /** `code`: why, for logs and tests (passkeys/errors.ts codes); `message`: what the page shows. */
  | { ok: false; status: 401 | 429; message: string; code?: string; retryAfter?: number };

export async function passwordFactor(
  ctx: IdpContext,
  input: { username: string; password: string; address: string },
): Promise<FactorResult> {
  const attempt = await ctx.loginLimiter.attempt({ username: input.username, address: input.address }, () =>
    ctx.accounts.authenticate(input.username, input.password),
  );
  if (attempt.ok) return { ok: true, accountId: attempt.account.sub, amr: [AMR.password] };
  return {
    ok: false,
    status: attempt.locked ? 429 : 401,
    code: attempt.locked ? 'locked' : 'invalid_credentials',
    message: attempt.message,
    ...(attempt.retryAfter !== undefined ? { retryAfter: attempt.retryAfter } : {}),
  };
}
