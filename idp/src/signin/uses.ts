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
 *
 * The sessions a revocation ends are announced to the clients that got a code in them
 * (back-channel logout, through `IdpContext.sessionsEnded`), as a sign-out would be.
 */
import type { Config } from '../config/index.ts';
import type { EndedSession, IdpContext } from '../context.ts';
import { tokenId } from '../crypto/secrets.ts';
import type { Storage } from '../storage/adapter.ts';
import { revokeGrant } from '../storage/denylist.ts';
import { type Model, model } from '../storage/model.ts';

export type Use = { session: string } | { grant: string };

/** What a session record says of whose it was (signin/session.ts). */
interface SessionIdentity {
  accountId: string;
  sid?: string;
}

/** Told of the sessions a revocation ended (IdpContext.sessionsEnded). */
export type SessionsEnded = (sessions: readonly EndedSession[]) => Promise<void>;

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
  readonly #ended: SessionsEnded;

  constructor(storage: Storage, ttl: UseLifetimes, owner: UseOwner, ended: SessionsEnded = async () => {}) {
    this.#storage = storage;
    this.#ended = ended;
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

  /** Undo one use at once: its session ends (returned when it has a public id), or its grant is revoked. */
  async undo(use: Use): Promise<EndedSession | undefined> {
    if ('grant' in use) {
      await revokeGrant(this.#storage, use.grant, this.#ttl.accessToken);
      return undefined;
    }
    return (await this.#endSession(use.session)).ended;
  }

  /** End the session stored under `key`: whether it was still there, and its public id if it has one. */
  async #endSession(key: string): Promise<{ existed: boolean; ended?: EndedSession }> {
    const sessions = model<SessionIdentity>(this.#storage, 'Session');
    const session = await sessions.find(key);
    if (session === undefined) return { existed: false };
    await sessions.destroy(key);
    return session.sid !== undefined
      ? { existed: true, ended: { sid: session.sid, accountId: session.accountId } }
      : { existed: true };
  }

  /**
   * End every session and revoke every grant `owner` authenticated; how many of each were still
   * open (a session signed out or ended before, a grant revoked before or whose tokens have all
   * expired, is not counted). The ended sessions' clients are then told.
   */
  async revoke(owner: string): Promise<{ sessions: number; grants: number }> {
    const store = this.#uses;
    const counts = { sessions: 0, grants: 0 };
    const ended: EndedSession[] = [];
    for (const { id, payload: r } of await store.listByUid(this.#ownerOf(owner))) {
      if (r.session !== undefined) {
        const { existed, ended: session } = await this.#endSession(r.session);
        if (session !== undefined) ended.push(session);
        if (existed) counts.sessions++;
      } else if (r.grant !== undefined) {
        if (await revokeGrant(this.#storage, r.grant, this.#ttl.accessToken)) counts.grants++;
      }
      await store.destroy(id);
    }
    if (ended.length > 0) await this.#ended(ended);
    return counts;
  }
}

/** The account's uses in a store: for the server (recording) and the CLI (a password change). */
export const accountUsesOf = (ctx: UsesContext): SignInUses =>
  new SignInUses(ctx.storage, useLifetimes(ctx.config), ACCOUNT, (s) => ctx.sessionsEnded(s));

/** What a store of uses needs of the context. */
export type UsesContext = Pick<IdpContext, 'storage' | 'sessionsEnded'> & { config: Pick<Config, 'ttl'> };
