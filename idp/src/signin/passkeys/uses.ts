/**
 * What each passkey authenticated: the browser sessions it signed in, and the grants (a code and
 * the access and refresh tokens redeemed from it) issued on the strength of those sign-ins.
 * Removing a passkey, or a signature counter that went backwards (a copied authenticator), ends
 * them all: the session records are deleted and the grants revoked for good
 * (Storage.revokeGrant). Both live in the shared store, so every instance stops honouring them at
 * once.
 *
 * One record per use, its uid a digest of the credential ID, so recording never reads first:
 * uses recorded at the same moment on several instances are all kept. A use recorded while the
 * passkey is being removed is caught by the order of the two (credentials.ts): the recorder
 * writes its use and then looks for the passkey, the remover deletes the passkey and then lists
 * its uses, so one of them always sees the other's write.
 */
import { tokenId } from '../../crypto/secrets.ts';
import type { Storage } from '../../storage/adapter.ts';
import { revokeGrant } from '../../storage/denylist.ts';
import { type Model, model } from '../../storage/model.ts';

type Use = { session: string } | { grant: string };

interface UseRecord {
  uid: string;
  session?: string;
  grant?: string;
}

const ownerOf = (credentialId: string) => tokenId(`passkey-use\0${credentialId}`);

export interface UseLifetimes {
  /** Seconds a session can live (ttl.session): a session use is not needed after that. */
  session: number;
  /** Seconds a grant can live, from its code to its last refresh token. */
  grant: number;
  /** Seconds an access token lives (ttl.accessToken): how long a revoked grant stays denied. */
  accessToken: number;
}

export class PasskeyUses {
  readonly #storage: Storage;
  readonly #uses: Model<UseRecord>;
  readonly #ttl: UseLifetimes;

  constructor(storage: Storage, ttl: UseLifetimes) {
    this.#storage = storage;
    this.#uses = model<UseRecord>(storage, 'PasskeyUse');
    this.#ttl = ttl;
  }

  /** Record that `credentialId` signed in the session stored under `use.session`, or backs `use.grant`. */
  async record(credentialId: string, use: Use): Promise<void> {
    const uid = ownerOf(credentialId);
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

  /** End every session and revoke every grant `credentialId` authenticated; how many of each. */
  async revoke(credentialId: string): Promise<{ sessions: number; grants: number }> {
    const store = this.#uses;
    const counts = { sessions: 0, grants: 0 };
    for (const { id, payload: r } of await store.listByUid(ownerOf(credentialId))) {
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
