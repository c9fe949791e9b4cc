/**
 * Removing a user. The account record goes first, so that from then on neither its password nor
 * a passkey signs it in (both look the account up), and a code or refresh token issued to it is
 * refused at the token endpoint. Then what it holds is taken back, on every instance through the
 * shared store: each passkey with the sessions and grants it authenticated, every session the
 * account signed in with any factor and the grants issued in them (uses.ts), an unused enrolment
 * code; and its sign-in lockout is forgotten, so that a user added later under the same username
 * starts clean. That user gets a new random `sub`: nothing issued to the removed account names it.
 */
import type { Account } from '../accounts/accounts.ts';
import type { IdpContext } from '../context.ts';
import { passkeysOf } from './passkeys/credentials.ts';
import { Enrolments } from './passkeys/enrolment.ts';
import { NoSuchUser } from './password-change.ts';
import { accountUsesOf } from './uses.ts';

/** What a removal took back. */
export interface AccountRemoval {
  account: Account;
  /** Browser sessions ended. */
  sessions: number;
  /** Grants revoked (each a code with the refresh and access tokens redeemed from it). */
  grants: number;
  /** Passkeys removed. */
  passkeys: number;
}

type RemovalContext = Pick<IdpContext, 'accounts' | 'storage' | 'config' | 'loginLimiter' | 'sessionsEnded'>;

/** Remove `username`'s account and end everything it signed in. Throws NoSuchUser, having changed nothing. */
export async function removeAccount(ctx: RemovalContext, username: string): Promise<AccountRemoval> {
  const account = await ctx.accounts.findByUsername(username);
  if (!account) throw new NoSuchUser(username);
  await ctx.accounts.remove(account.sub);
  // Every sign-in is recorded under the account, a passkey's too (sign-in.ts), so the account's
  // record ends and counts each session and grant; the passkeys then find theirs gone.
  const { sessions, grants } = await accountUsesOf(ctx).revoke(account.sub);
  const { removed: passkeys } = await passkeysOf(ctx).removeAll(account.sub);
  await new Enrolments(ctx.storage.adapter('PasskeyEnrolment')).cancel(account.sub);
  await ctx.loginLimiter.clearAccount(username);
  return { account, sessions, grants, passkeys };
}
