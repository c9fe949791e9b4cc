/**
 * Who may do what on the account page. The page needs a recent sign-in
 * (passkeys.manageMaxAge). Once the account has a passkey, managing passkeys also needs a sign-in
 * with one (acr mfa): a stolen password alone can neither add a passkey an attacker holds nor
 * remove the user's. The first passkey needs an enrolment code from the operator, redeemed in
 * this session (passkeys/enrolment.ts). The CSRF token is a digest of the session cookie, so only
 * a page served to this browser's session can post here.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Account } from '../../accounts/accounts.ts';
import { endpoints, type IdpContext } from '../../context.ts';
import { tokenId } from '../../crypto/secrets.ts';
import { ACR, type AuthContext, type SignInNeed, unmetBy } from '../auth-context.ts';
import type { PasskeyFactor } from '../passkey.ts';
import { passkeyScript, type ScriptRef } from '../passkey-script.ts';
import type { Passkey } from '../passkeys/credentials.ts';
import { currentSession, SESSION_COOKIE } from '../session.ts';
import type { SignIn } from '../sign-in.ts';

/** What the page's session may do, and the need that signing in for the page takes. */
export interface AccountAccess {
  ok: true;
  auth: AuthContext & { session: string };
  account: Account;
  passkeys: Passkey[];
  csrf: string;
  /** Add and remove passkeys: a sign-in with one of the account's passkeys. */
  manage: boolean;
  /** Add the first passkey: the session redeemed an enrolment code. */
  enrolled: boolean;
  need: SignInNeed;
}

/** The page may be shown, or only the need a sign-in for it must meet. */
export type Access = AccountAccess | { ok: false; need: SignInNeed };

const csrfFor = (cookie: string) => tokenId(`pqid-account-csrf\0${cookie}`);

export class AccountSteps {
  readonly ctx: IdpContext;
  readonly signIn: SignIn;
  /** The account page's path; its actions post below it. */
  readonly home: string;
  readonly script: ScriptRef;

  constructor(ctx: IdpContext, signIn: SignIn) {
    this.ctx = ctx;
    this.signIn = signIn;
    this.home = `${endpoints(ctx.config.issuer).prefix}/account`;
    this.script = passkeyScript(ctx.config.issuer);
  }

  get factor(): PasskeyFactor {
    return this.signIn.passkeys;
  }

  /** The session and account when the page may be shown (a recent sign-in); or only the need. */
  async who(req: FastifyRequest): Promise<Access> {
    const { ctx, factor } = this;
    const auth = await currentSession(ctx, req);
    const account = auth ? await ctx.accounts.find(auth.accountId) : undefined;
    const passkeys = account ? await factor.passkeys.list(account.sub) : [];
    const maxAge = ctx.config.passkeys.manageMaxAge;
    const need: SignInNeed = { maxAge, acr: [passkeys.length ? ACR.multiFactor : ACR.oneFactor] };
    const cookie = req.cookies[SESSION_COOKIE];
    const now = Math.floor(Date.now() / 1000);
    if (!auth?.session || !account || !cookie || unmetBy(auth, { maxAge }, now) !== undefined)
      return { ok: false, need };
    const session = auth.session;
    const manage = passkeys.length > 0 && unmetBy(auth, need, now) === undefined;
    const enrolled = passkeys.length === 0 && (await factor.enrolments.redeemed(account.sub, session));
    return {
      ok: true,
      auth: { ...auth, session },
      account,
      passkeys,
      csrf: csrfFor(cookie),
      manage,
      enrolled,
      need,
    };
  }

  /** May this session add a passkey now: a manager, or a first passkey after an enrolment code. */
  mayAdd(w: AccountAccess): boolean {
    return this.factor.enabled && (w.manage || w.enrolled);
  }

  /** Sign in (again) as `need` says, then come back to the page. */
  signInFor(req: FastifyRequest, reply: FastifyReply, need: SignInNeed): Promise<FastifyReply> {
    return this.signIn.begin(req, reply, {
      next: { returnTo: this.home },
      clientName: 'your pqid account',
      need,
    });
  }
}
