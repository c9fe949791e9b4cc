/**
 * Enrolment of an account's first passkey. Until an account has a passkey its password is all
 * that protects it, so the password cannot be what lets a passkey in: whoever else holds it (a
 * phished or reused password) would register their own, and from then on every two-factor
 * sign-in and every passkey change would need the intruder's key, while the real user, who has
 * only the password, could neither remove it nor add theirs.
 *
 * So the first passkey needs, besides a recent sign-in, a one-time enrolment code that the
 * operator issues (`pqid passkeys enrol USER`) and hands to the user over a channel the operator
 * trusts — as a help desk issues a Temporary Access Pass (Microsoft Entra ID) or an activation
 * link (Okta). pqid has no mail service to confirm anything out of band itself, and whoever runs
 * the CLI can vouch for a user. Recovery goes the same way: the operator lists and removes the
 * account's passkeys (ending what they authenticated) and issues a new code.
 *
 * A code is 80 random bits written as 16 Crockford base32 characters, stored only as a digest,
 * single use (an atomic consume: one redemption wins on any number of instances), with the
 * lifetime chosen when it was issued; a new code for an account replaces its older ones.
 * Redeeming it on the account page lets that browser session — not the account — add one passkey
 * within `passkeys.manageMaxAge` seconds.
 */
import { randomBytes } from 'node:crypto';
import { tokenId } from '../../crypto/secrets.ts';
import type { Adapter } from '../../storage/adapter.ts';
import { type Model, typed as modelOf } from '../../storage/model.ts';

const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const CODE_CHARS = 16;

interface CodeRecord {
  /** The account the code is for. */
  uid: string;
  /** Epoch seconds. */
  expiresAt: number;
}

interface SessionGrant {
  accountId: string;
}

const codeKey = (code: string) => `code:${tokenId(`passkey-enrolment\0${code}`)}`;
const sessionKey = (session: string) => `session:${session}`;

function newCode(): string {
  const bytes = randomBytes((CODE_CHARS * 5) / 8);
  let bits = 0;
  let value = 0;
  let out = '';
  for (const b of bytes) {
    value = (value << 8) | b;
    bits += 8;
    while (bits >= 5) {
      out += ALPHABET[(value >> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  return out;
}

/** Groups of four for reading aloud: `7K2M-…`. */
export const formatCode = (code: string) => code.replace(/(.{4})(?=.)/g, '$1-');

/**
 * The code as typed, canonical: case, spaces and dashes ignored, and the letters Crockford's
 * base32 leaves out read as the digits they look like. Undefined when it cannot be a code.
 */
export function normaliseCode(typed: string): string | undefined {
  const c = typed
    .toUpperCase()
    .replace(/[\s-]+/g, '')
    .replace(/O/g, '0')
    .replace(/[IL]/g, '1');
  return c.length === CODE_CHARS && [...c].every((ch) => ALPHABET.includes(ch)) ? c : undefined;
}

export class Enrolments {
  /** One store, two kinds of record: codes under `code:…`, redeeming sessions under `session:…`. */
  readonly #codes: Model<CodeRecord>;
  readonly #grants: Model<SessionGrant>;

  constructor(store: Adapter) {
    this.#codes = modelOf<CodeRecord>(store);
    this.#grants = modelOf<SessionGrant>(store);
  }

  /** A new code for `accountId`, valid `ttl` seconds; the account's earlier codes stop working. */
  async issue(accountId: string, ttl: number): Promise<{ code: string; expiresAt: number }> {
    await this.cancel(accountId);
    const code = newCode();
    const expiresAt = Math.floor(Date.now() / 1000) + ttl;
    const record: CodeRecord = { uid: accountId, expiresAt };
    await this.#codes.upsert(codeKey(code), record, ttl);
    return { code: formatCode(code), expiresAt };
  }

  /** Expiry times of `accountId`'s unused codes (at most one, as issue replaces). */
  async pending(accountId: string): Promise<number[]> {
    return (await this.#codes.listByUid(accountId))
      .filter((r) => r.payload.consumed === undefined)
      .map((r) => r.payload.expiresAt);
  }

  /** Withdraw `accountId`'s unused codes; how many there were. */
  async cancel(accountId: string): Promise<number> {
    const codes = await this.#codes.listByUid(accountId);
    for (const c of codes) await this.#codes.destroy(c.id);
    return codes.filter((c) => c.payload.consumed === undefined).length;
  }

  /**
   * Spend `typed` for `accountId` in the session stored under `session`, which may then add one
   * passkey for `ttl` seconds. False for a code that is malformed, unknown, expired, used, or
   * another account's (which is left unused).
   */
  async redeem(accountId: string, typed: string, session: string, ttl: number): Promise<boolean> {
    const code = normaliseCode(typed);
    if (code === undefined) return false;
    const record = await this.#codes.find(codeKey(code));
    if (!record || record.consumed !== undefined || record.uid !== accountId) return false;
    if (!(await this.#codes.consume(codeKey(code)))) return false;
    const grant: SessionGrant = { accountId };
    await this.#grants.upsert(sessionKey(session), grant, ttl);
    return true;
  }

  /** Whether the session stored under `session` redeemed a code of `accountId` and may add a passkey. */
  async redeemed(accountId: string, session: string): Promise<boolean> {
    const grant = await this.#grants.find(sessionKey(session));
    return grant?.accountId === accountId;
  }

  /** The session added its passkey: the code's effect is spent. */
  async spent(session: string): Promise<void> {
    await this.#grants.destroy(sessionKey(session));
  }
}
