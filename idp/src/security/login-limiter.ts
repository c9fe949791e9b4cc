/**
 * Brute-force protection for the login form: a sliding window of failures per submitted
 * username and per client address. The username counter runs whether or not the account
 * exists, so a lockout says nothing about which accounts exist; while locked the password is
 * not even checked, so guessing right during a lockout gains nothing.
 *
 * A success clears the username's counter but not the address's: otherwise an attacker could
 * reset their address budget by logging into an account of their own between guesses.
 *
 * A password attempt is counted before the password is checked and taken back if it was right:
 * attempts racing on any number of instances each see the ones written before them, so no more
 * than the budget are ever checked, however many arrive at once. Checking first and counting
 * after would let every attempt in flight pass the check before any was counted. The price: a
 * burst larger than what is left of the budget may be refused whole (each sees the others'
 * counts), and as refused attempts are taken back, it costs the account nothing either.
 *
 * Passkey ceremonies and enrolment codes are counted first the same way (`admit`) and spend the
 * address budget only (signin/passkey.ts): a passkey cannot be guessed, and the credential ID or
 * user handle an assertion names is no proof of anything, so charging that account would let
 * anyone lock its owner out. A locked address gets no challenge
 * and no verification; an account's password lockout does not stop its passkeys.
 */
import type { LoginLimitsConfig } from '../config/index.ts';
import { type FailureStore, MemoryFailureStore } from './failure-store.ts';

/** What the login form shows for a wrong username or password, whichever it was. */
export const GENERIC_LOGIN_ERROR = 'The username or password is incorrect.';
/** What it shows during a lockout, for existing and unknown usernames alike. */
export const LOCKED_LOGIN_ERROR = 'Too many failed sign-in attempts. Wait a few minutes and try again.';

/**
 * An attempt counted by `admit`: refused, or let through to be checked, counted as a failure
 * until `succeeded` (it was right) takes the count back and clears the username's.
 */
export type Admission = { ok: true; succeeded(): Promise<void> } | { ok: false; retryAfter: number };

export type LoginAttempt<A> =
  | { ok: true; account: A }
  | { ok: false; locked: boolean; message: string; retryAfter?: number };

/** Who tries: a username when one is known (a passkey may not name one yet), and an address. */
export interface Who {
  username?: string;
  address: string;
}

export interface LoginLimiterOptions {
  store?: FailureStore;
  /** Clock in ms (tests). */
  now?: () => number;
}

/** Usernames compare case- and form-insensitively, so `Alice` and `alice` share one budget. */
const accountKey = (username: string) => `acct:${username.normalize('NFKC').trim().toLowerCase()}`;

/** IPv6 clients usually hold a whole /64, so they are counted per /64 prefix. */
export function addressKey(address: string): string {
  const a = address.toLowerCase().replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/, '');
  if (!a.includes(':')) return `ip:${a}`;
  const [head = '', tail] = a.split('::') as [string, string | undefined];
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups =
    tail === undefined ? left : [...left, ...Array(8 - left.length - right.length).fill('0'), ...right];
  return `ip6:${groups
    .slice(0, 4)
    .map((g) => g.replace(/^0+(?=.)/, ''))
    .join(':')}::/64`;
}

export class LoginLimiter {
  readonly #store: FailureStore;
  readonly #limits: LoginLimitsConfig;
  readonly #now: () => number;

  constructor(limits: LoginLimitsConfig, opts: LoginLimiterOptions = {}) {
    this.#limits = limits;
    this.#store = opts.store ?? new MemoryFailureStore();
    this.#now = opts.now ?? Date.now;
  }

  /** Seconds until `key` drops below `limit` failures, or 0 when it is not locked. */
  async #lockedFor(key: string, limit: number): Promise<number> {
    const now = this.#now();
    const windowMs = this.#limits.window * 1000;
    const recent = await this.#store.recent(key, now, windowMs);
    if (recent.length < limit) return 0;
    // The lock ends when the failure that reached the limit leaves the window.
    const pivot = recent[recent.length - limit] as number;
    return Math.max(1, Math.ceil((pivot + windowMs - now) / 1000));
  }

  /** The counters `who` spends: its username's (when known) and its address's. */
  #keys(who: Who): Array<[string, number]> {
    const keys: Array<[string, number]> = [[addressKey(who.address), this.#limits.maxFailuresPerAddress]];
    if (who.username !== undefined)
      keys.unshift([accountKey(who.username), this.#limits.maxFailuresPerAccount]);
    return keys;
  }

  /** Seconds until `who` may try again, 0 when not locked (before work that spends no budget). */
  async lockedFor(who: Who): Promise<number> {
    const waits = await Promise.all(this.#keys(who).map(([k, limit]) => this.#lockedFor(k, limit)));
    return Math.max(0, ...waits);
  }

  /**
   * Count an attempt of `who` as a failure before it is checked: refused (and taken back) when
   * that takes a counter past its limit; otherwise it stays counted unless `succeeded` is called.
   * For checks that are not one call (passkey ceremonies, enrolment codes); `attempt` wraps it.
   */
  async admit(who: Who): Promise<Admission> {
    const at = this.#now();
    const keys = this.#keys(who);
    const windowMs = this.#limits.window * 1000;
    await Promise.all(keys.map(([k]) => this.#store.add(k, at, windowMs)));
    const counts = await Promise.all(keys.map(([k]) => this.#store.recent(k, at, windowMs)));
    if (keys.some(([, limit], i) => (counts[i]?.length ?? 0) > limit)) {
      // Refused unchecked, so not a failure: a lock is not prolonged by being knocked on.
      await this.#takeBack(keys, at);
      return { ok: false, retryAfter: Math.max(1, await this.lockedFor(who)) };
    }
    return {
      ok: true,
      succeeded: async () => {
        await this.#takeBack(keys, at);
        await this.succeed(who);
      },
    };
  }

  /** A success clears the username's counter (never the address's: see the module comment). */
  async succeed(who: Who): Promise<void> {
    if (who.username !== undefined) await this.clearAccount(who.username);
  }

  /** Forget the account's password failures (a new password: the lockout protected the old one). */
  async clearAccount(username: string): Promise<void> {
    await this.#store.clear(accountKey(username));
  }

  /**
   * Run `authenticate` unless locked: the attempt is counted first (as a failure), refused when
   * that takes a counter past its limit, and taken back when `authenticate` succeeds.
   */
  async attempt<A>(
    who: { username: string; address: string },
    authenticate: () => Promise<A | undefined>,
  ): Promise<LoginAttempt<A>> {
    const admitted = await this.admit(who);
    if (!admitted.ok)
      return { ok: false, locked: true, message: LOCKED_LOGIN_ERROR, retryAfter: admitted.retryAfter };
    const account = await authenticate();
    if (account === undefined) return { ok: false, locked: false, message: GENERIC_LOGIN_ERROR };
    await admitted.succeeded();
    return { ok: true, account };
  }

  async #takeBack(keys: Array<[string, number]>, at: number): Promise<void> {
    await Promise.all(keys.map(([k]) => this.#store.remove(k, at)));
  }
}
