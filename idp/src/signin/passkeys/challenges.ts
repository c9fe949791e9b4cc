/**
 * WebAuthn challenges live in storage, so a ceremony started on one instance can finish on
 * another. There is one outstanding challenge per ceremony owner (a parked sign-in, or a
 * session registering a passkey): asking again replaces it, so repeated requests cannot fill the
 * store. Taking a challenge consumes it atomically (Adapter.consume): of any number of responses
 * carrying it, on any number of instances, exactly one proceeds, and only within `ttl` seconds.
 */
import { randomBytes } from 'node:crypto';
import { safeEqual } from '../../crypto/secrets.ts';
import type { Adapter } from '../../storage/adapter.ts';
import { type Model, typed } from '../../storage/model.ts';

export type CeremonyPurpose = 'authenticate' | 'register';

export interface CeremonyStart {
  purpose: CeremonyPurpose;
  /** The account the ceremony is for, when known before it starts (second factor, registration). */
  accountId?: string;
  /** Whether the authenticator had to verify the user (PIN or biometric). */
  userVerification: 'required' | 'preferred';
}

export interface ChallengeRecord extends CeremonyStart {
  challenge: string;
}

const key = (purpose: CeremonyPurpose, owner: string) => `${purpose}:${owner}`;

export class Challenges {
  readonly #store: Model<ChallengeRecord>;
  readonly #ttl: number;

  constructor(store: Adapter, ttlSeconds: number) {
    this.#store = typed<ChallengeRecord>(store);
    this.#ttl = ttlSeconds;
  }

  /** A fresh challenge (256 random bits, base64url) for `owner`, replacing any earlier one. */
  async issue(owner: string, record: CeremonyStart): Promise<string> {
    const challenge = randomBytes(32).toString('base64url');
    const stored: ChallengeRecord = { ...record, challenge };
    await this.#store.upsert(key(record.purpose, owner), stored, this.#ttl);
    return challenge;
  }

  /**
   * The record of `presented` if it is `owner`'s live, unused challenge for `purpose`; consumed
   * by this call. Undefined for an unknown, expired, replaced or already used challenge.
   */
  async take(
    owner: string,
    purpose: CeremonyPurpose,
    presented: string,
  ): Promise<ChallengeRecord | undefined> {
    const id = key(purpose, owner);
    const record = await this.#store.find(id);
    if (!record || record.consumed !== undefined || record.purpose !== purpose) return undefined;
    if (!safeEqual(record.challenge, presented)) return undefined;
    return (await this.#store.consume(id)) ? record : undefined;
  }
}
