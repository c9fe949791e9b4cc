/**
 * What a credential authenticated: the browser sessions it signed in, and the grants (a code and
 * the access and refresh tokens redeemed from it) issued on the strength of those sign-ins. Two
 * owners keep such a record: each passkey (removing it, or a signature counter that went
 * backwards, takes back what it signed in) and each account (a password change takes back every
 * sign-in of the account). Taking back deletes the session records and revokes the grants for
 * good (Storage.revokeGrant, and the denylist for stateless access tokens). Both live in the
 * shared store, so every instance stops honouring them at once.
 *
 * One record per use, its uid a digest of the owner, so recording never reads first: uses
 * recorded at the same moment on several instances are all kept. A use recorded while a passkey
 * is being removed is caught by the order of the two (passkeys/credentials.ts): the recorder
 * writes its use and then looks for the passkey, the remover deletes the passkey and then lists
 * its uses, so one of them always sees the other's write.
 */
import type { Config } from '../config/index.ts';
import { tokenId } from '../crypto/secrets.ts';
import type { Storage } from '../storage/adapter.ts';
import { revokeGrant } from '../storage/denylist.ts';
import { type Model, model } from '../storage/model.ts';

export type Use = { session: string } | { grant: string };

interface UseRecord {
  uid: string;
  session?: string;
  grant?: string;
}

export interface UseLifetimes {
  /** Seconds a session can live (ttl.session): a session use is not needed after that. */
  session: number;
  /** Seconds a grant can live, from its code to its last refresh token. */
  grant: number;
  /** Seconds an access token lives (ttl.accessToken): how long a revoked grant stays denied. */
  accessToken: number;
}

/** How long uses are kept, from the configured token and session lifetimes. */
export function useLifetimes({ ttl }: Pick<Config, 'ttl'>): UseLifetimes {
  return {
    session: ttl.session,
    // A grant lives from its code to the last refresh token redeemed from it.
    grant: ttl.authorizationCode + ttl.refreshToken,
    accessToken: ttl.accessToken,
  };
}

/** Whose uses a store keeps: the model that holds them, and a tag that keeps owners' digests apart. */
export interface UseOwner {
  model: 'PasskeyUse' | 'AccountUse';
  tag: string;
}

/** Uses by passkey credential ID. */
export const PASSKEY: UseOwner = { model: 'PasskeyUse', tag: 'passkey-use' };
/** Uses by account (`sub`). */
export const ACCOUNT: UseOwner = { model: 'AccountUse', tag: 'account-use' };

export class SignInUses {
  readonly #storage: Storage;
  readonly #uses: Model<UseRecord>;
  readonly #ttl: UseLifetimes;
  readonly #tag: string;

  constructor(storage: Storage, ttl: UseLifetimes, owner: UseOwner) {
    this.#storage = storage;
    this.#uses = model<UseRecord>(storage, owner.model);
    this.#ttl = ttl;
    this.#tag = owner.tag;
  }

  #ownerOf(key: string): string {
    return tokenId(`${this.#tag}\0${key}`);
  }

  /** Record that `owner` signed in the session stored under `use.session`, or backs `use.grant`. */
  async record(owner: string, use: Use): Promise<void> {
    const uid = this.#ownerOf(owner);
    const [kind, ref, ttl] =
      'session' in use ? ['s', use.session, this.#ttl.session] : ['g', use.grant, this.#ttl.grant];
    const record: UseRecord = { uid, ...use };
    await this.#uses.upsert(`${uid}:${kind}:${ref}`, record, ttl);
  }

  /** Undo one use at once: its session ends, or its grant is revoked. */
  async undo(use: Use): Promise<void> {
    if ('session' in use) await this.#storage.adapter('Session').destroy(use.session);
    else await revokeGrant(this.#storage, use.grant, this.#ttl.accessToken);
  }

  /** End every session and revoke every grant `owner` authenticated; how many of each. */
  async revoke(owner: string): Promise<{ sessions: number; grants: number }> {
    const store = this.#uses;
    const counts = { sessions: 0, grants: 0 };
    for (const { id, payload: r } of await store.listByUid(this.#ownerOf(owner))) {
      if (r.session !== undefined) {
        await this.undo({ session: r.session });
        counts.sessions++;
      } else if (r.grant !== undefined) {
        await this.undo({ grant: r.grant });
        counts.grants++;
      }
      await store.destroy(id);
    }
    return counts;
  }
}

/** The account's uses in a store: for the server (recording) and the CLI (a password change). */
export const accountUsesOf = (ctx: { storage: Storage; config: Pick<Config, 'ttl'> }): SignInUses =>
  new SignInUses(ctx.storage, useLifetimes(ctx.config), ACCOUNT);
