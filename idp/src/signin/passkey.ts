/**
 * The passkey factor: sign-in (passwordless with a discoverable credential, or as the second
 * factor of a known account) and registration, over the ceremonies in passkeys/.
 *
 * Abuse limits: a passkey cannot be guessed, so its failures say nothing about the account, only
 * about who sends them. They count against the sending address alone (a locked address gets no
 * challenge and no verification), never against the account named by the credential ID or the
 * user handle: both are public enough that charging the account would let anyone lock its owner
 * out with a few forged assertions. For the same reason the account's password-failure lockout
 * does not stop its passkeys.
 *
 * What a passkey signs in is recorded (uses.ts), so removing it, or a counter that went
 * backwards, takes those sessions and grants back.
 */
import type {
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
} from '@simplewebauthn/server';
import type { FastifyBaseLogger } from 'fastify';
import type { Account } from '../accounts/accounts.ts';
import type { IdpContext } from '../context.ts';
import { randomToken, tokenId } from '../crypto/secrets.ts';
import { LOCKED_LOGIN_ERROR } from '../security/login-limiter.ts';
import { AMR, type AuthContext } from './auth-context.ts';
import {
  authenticationOptions,
  parseAssertion,
  parseAttestation,
  presentedChallenge,
  type RelyingParty,
  registrationOptions,
  relyingParty,
  userHandleOf,
  verifyAssertion,
  verifyRegistration,
} from './passkeys/ceremony.ts';
import { Challenges } from './passkeys/challenges.ts';
import { passkeyAlgName } from './passkeys/config.ts';
import { type Passkey, type Passkeys, passkeysOf } from './passkeys/credentials.ts';
import { Enrolments } from './passkeys/enrolment.ts';
import { PasskeyError, type PasskeyErrorCode } from './passkeys/errors.ts';
import type { FactorResult } from './password.ts';

/** What the login page shows for a refused passkey, whatever the reason (the code is logged). */
export const PASSKEY_ERROR = 'The passkey could not be used to sign in. Try again, or use your password.';
const EXPIRED = 'The passkey request expired. Try again.';

/** Ceremony options, or the lockout that withholds them. */
export type OptionsResult<T> = { ok: true; options: T } | { ok: false; status: 429; retryAfter: number };

/** The amr of a verified assertion: which kind of key, and `mfa` when the user was verified. */
export function passkeyAmr(passkey: Pick<Passkey, 'backupEligible'>, userVerified: boolean): string[] {
  const key = passkey.backupEligible ? AMR.softwareKey : AMR.hardwareKey;
  return userVerified ? [key, AMR.multiFactor] : [key];
}

export class PasskeyFactor {
  readonly #ctx: IdpContext;
  #rp: RelyingParty | undefined;
  readonly passkeys: Passkeys;
  readonly enrolments: Enrolments;
  readonly #challenges: Challenges;

  constructor(ctx: IdpContext) {
    this.#ctx = ctx;
    this.passkeys = passkeysOf(ctx);
    this.enrolments = new Enrolments(ctx.storage.adapter('PasskeyEnrolment'));
    this.#challenges = new Challenges(
      ctx.storage.adapter('WebAuthnChallenge'),
      ctx.config.passkeys.challengeTtl,
    );
  }

  /**
   * Worked out at the first passkey page, not at start: whether ML-DSA is offered depends on a
   * WebCrypto probe that Node still marks experimental, and a server that never shows a passkey
   * page need not make it.
   */
  get rp(): RelyingParty {
    this.#rp ??= relyingParty(this.#ctx.config);
    return this.#rp;
  }

  get enabled(): boolean {
    return this.#ctx.config.passkeys.enabled && this.rp.algorithms.length > 0;
  }

  /**
   * Request options for the sign-in parked as `owner`. Without `account` any discoverable
   * passkey may answer and must verify the user (passwordless); with one, only its passkeys,
   * and user verification is required unless a password was the first factor.
   */
  async signInOptions(
    owner: string,
    address: string,
    account?: { accountId: string; passwordFirst: boolean },
  ): Promise<OptionsResult<PublicKeyCredentialRequestOptionsJSON>> {
    const retryAfter = await this.#ctx.loginLimiter.lockedFor({ address });
    if (retryAfter > 0) return { ok: false, status: 429, retryAfter };
    const userVerification = account?.passwordFirst ? ('preferred' as const) : ('required' as const);
    const challenge = await this.#challenges.issue(owner, {
      purpose: 'authenticate',
      userVerification,
      ...(account ? { accountId: account.accountId } : {}),
    });
    const allow = account ? await this.passkeys.list(account.accountId) : undefined;
    return {
      ok: true,
      options: await authenticationOptions(this.rp, challenge, {
        userVerification,
        ...(allow ? { allow } : {}),
      }),
    };
  }

  /** Verify the assertion `json` posted for the sign-in parked as `owner`. */
  async signIn(owner: string, json: string, address: string, log: FastifyBaseLogger): Promise<FactorResult> {
    // Counted first, against the address only, whatever the assertion names (see the module
    // comment); a refusal leaves it counted, a sign-in takes it back.
    const admitted = await this.#ctx.loginLimiter.admit({ address });
    if (!admitted.ok)
      return {
        ok: false,
        status: 429,
        code: 'locked',
        message: LOCKED_LOGIN_ERROR,
        retryAfter: admitted.retryAfter,
      };
    const refuse = async (code: PasskeyErrorCode, detail?: string): Promise<FactorResult> => {
      log.info({ code, ...(detail ? { detail } : {}) }, 'passkey sign-in refused');
      return {
        ok: false,
        status: 401,
        code,
        message: code === 'challenge_invalid' ? EXPIRED : PASSKEY_ERROR,
      };
    };
    try {
      const response = parseAssertion(json);
      const record = await this.#challenges.take(
        owner,
        'authenticate',
        presentedChallenge(response.response.clientDataJSON),
      );
      if (!record) return refuse('challenge_invalid');
      const passkey = await this.passkeys.find(response.id);
      if (!passkey) return refuse('unknown_credential');
      if (record.accountId !== undefined && passkey.accountId !== record.accountId)
        return refuse('wrong_account');
      const account = await this.#ctx.accounts.find(passkey.accountId);
      if (!account) return refuse('unknown_credential');
      // WebAuthn §7.2 step 6: the user handle must name the credential's owner; when the account
      // was not identified before the ceremony (passwordless) it must be present.
      const handle = response.response.userHandle;
      if (handle !== undefined ? handle !== userHandleOf(account.sub) : record.accountId === undefined)
        return refuse('wrong_account', 'user handle');

      const verified = await verifyAssertion(this.rp, response, passkey, {
        challenge: record.challenge,
        requireUserVerification: record.userVerification === 'required',
      });
      const now = Math.floor(Date.now() / 1000);
      if ((await this.passkeys.claimCounter(passkey, verified.counter)) === 'regressed') {
        const revoked = await this.passkeys.markCounterRegression(passkey, now);
        log.warn(
          {
            credential: tokenId(passkey.id).slice(0, 16),
            stored: passkey.counter,
            presented: verified.counter,
            ...revoked,
          },
          'passkey signature counter did not grow: possible cloned authenticator; its sessions and grants are revoked',
        );
        return refuse('counter_regression');
      }
      await this.passkeys.recordUse(passkey, {
        counter: verified.counter,
        backedUp: verified.backedUp,
        at: now,
      });
      await admitted.succeeded();
      return {
        ok: true,
        accountId: account.sub,
        amr: passkeyAmr(passkey, verified.userVerified),
        passkey: passkey.id,
      };
    } catch (e) {
      if (e instanceof PasskeyError) return refuse(e.code, e.message);
      throw e;
    }
  }

  /**
   * A session a passkey just signed in (`auth.session`, `auth.passkey`): recorded, so removing the
   * passkey ends it. False when the passkey was removed meanwhile; the session is then ended.
   */
  async bindSession(auth: AuthContext): Promise<boolean> {
    if (auth.passkey === undefined || auth.session === undefined) return true;
    return this.passkeys.bind(auth.passkey, { session: auth.session });
  }

  /**
   * A grant id for tokens issued on the strength of `auth`: fresh, and recorded against the
   * passkey the sign-in used, so removing it revokes the grant. Undefined when that passkey was
   * removed meanwhile.
   */
  async newGrant(auth: AuthContext): Promise<string | undefined> {
    const grant = randomToken(16);
    if (auth.passkey === undefined) return grant;
    return (await this.passkeys.bind(auth.passkey, { grant })) ? grant : undefined;
  }

  /**
   * Creation options for `account` to register a new passkey from the session stored under
   * `session` (its other passkeys are excluded). The challenge belongs to that session: another
   * session of the same account cannot finish the ceremony.
   */
  async registrationOptions(
    account: Account,
    session: string,
    address: string,
  ): Promise<OptionsResult<PublicKeyCredentialCreationOptionsJSON>> {
    const retryAfter = await this.#ctx.loginLimiter.lockedFor({ address });
    if (retryAfter > 0) return { ok: false, status: 429, retryAfter };
    const challenge = await this.#challenges.issue(session, {
      purpose: 'register',
      accountId: account.sub,
      userVerification: 'preferred',
    });
    const existing = await this.passkeys.list(account.sub);
    return { ok: true, options: await registrationOptions(this.rp, account, existing, challenge) };
  }

  /** Verify and store the passkey `json` that `account` created in `session`; the stored passkey, or why not. */
  async register(
    account: Account,
    session: string,
    json: string,
    input: { name?: string; address: string },
    log: FastifyBaseLogger,
  ): Promise<{ ok: true; passkey: Passkey } | { ok: false; code: PasskeyErrorCode; retryAfter?: number }> {
    // Counted first like a sign-in; a refusal leaves it counted, a registration takes it back.
    const admitted = await this.#ctx.loginLimiter.admit({ address: input.address });
    if (!admitted.ok) return { ok: false as const, code: 'locked' as const, retryAfter: admitted.retryAfter };
    const refuse = async (code: PasskeyErrorCode, detail?: string) => {
      log.info({ code, ...(detail ? { detail } : {}) }, 'passkey registration refused');
      return { ok: false as const, code };
    };
    try {
      const response = parseAttestation(json);
      const record = await this.#challenges.take(
        session,
        'register',
        presentedChallenge(response.response.clientDataJSON),
      );
      if (!record || record.accountId !== account.sub) return refuse('challenge_invalid');
      const now = Math.floor(Date.now() / 1000);
      const passkey = await verifyRegistration(this.rp, response, {
        challenge: record.challenge,
        accountId: account.sub,
        name: '',
        now,
      });
      passkey.name = cleanName(input.name) ?? defaultName(passkey.alg, now);
      if (!(await this.passkeys.add(passkey))) return refuse('already_registered');
      await admitted.succeeded();
      log.info(
        { alg: passkeyAlgName(passkey.alg), fmt: passkey.fmt, backupEligible: passkey.backupEligible },
        'passkey registered',
      );
      return { ok: true, passkey };
    } catch (e) {
      if (e instanceof PasskeyError) return refuse(e.code, e.message);
      throw e;
    }
  }
}

function cleanName(name: string | undefined): string | undefined {
  const n = (name ?? '')
    .replace(/\p{Cc}/gu, '')
    .trim()
    .slice(0, 64);
  return n === '' ? undefined : n;
}

const defaultName = (alg: number, now: number) =>
  `${passkeyAlgName(alg) ?? 'Passkey'} passkey, added ${new Date(now * 1000).toISOString().slice(0, 10)}`;
