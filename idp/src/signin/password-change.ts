/**
 * Changing a user's password, and taking back what the old one may have opened: every browser
 * session the account signed in ends and every grant issued in them (refresh tokens, stored and
 * stateless access tokens) is revoked, through the record of the account's sign-ins (uses.ts) in
 * the shared store, so every instance stops honouring them at once. The account's password
 * lockout is cleared: the lockout protected the old password. The ended sessions' relying
 * parties get back-channel logout notices (uses.ts). Passkeys stay: the old password
 * could not have added one without a passkey or an operator's enrolment code.
 */
import type { Account } from '../accounts/accounts.ts';
import { checkPassword } from '../accounts/password-policy.ts';
import type { IdpContext } from '../context.ts';
import { IdpError } from '../errors/index.ts';
import { passkeysOf } from './passkeys/credentials.ts';
import { accountUsesOf } from './uses.ts';

/** The username names no account. */
export class NoSuchUser extends IdpError<'ERR_NO_SUCH_USER'> {
  constructor(username: string) {
    super('ERR_NO_SUCH_USER', `no user ${JSON.stringify(username)}`, { status: 404, expose: true });
  }
}

/** What a change took back, and what it left. */
export interface PasswordChange {
  account: Account;
  /** Browser sessions ended. */
  sessions: number;
  /** Grants revoked (each a code with the refresh and access tokens redeemed from it). */
  grants: number;
  /** Passkeys the account keeps. */
  passkeys: number;
}

type ChangeContext = Pick<IdpContext, 'accounts' | 'storage' | 'config' | 'loginLimiter' | 'sessionsEnded'>;

/**
 * Set `username`'s password (after the policy, accounts/password-policy.ts) and end what the old
 * one opened. Throws NoSuchUser or PasswordPolicyError, having changed nothing.
 */
export async function changePassword(
  ctx: ChangeContext,
  username: string,
  password: string,
): Promise<PasswordChange> {
  checkPassword(password, username);
  // The hash first: a sign-in with the old password is refused from here on, so what the
  // revocation below misses can only be a sign-in already past its password check.
  const account = await ctx.accounts.setPassword(username, password);
  if (!account) throw new NoSuchUser(username);
  const { sessions, grants } = await accountUsesOf(ctx).revoke(account.sub);
  await ctx.loginLimiter.clearAccount(username);
  const passkeys = (await passkeysOf(ctx).list(account.sub)).length;
  return { account, sessions, grants, passkeys };
}
