/**
 * Registered passkeys, through the storage layer: one record per credential ID (so an assertion
 * finds its credential, and its owner, in one read), with the owner's account as the record's
 * uid (so an account's passkeys list with Adapter.listByUid).
 *
 * Signature counters (WebAuthn §6.1.1): an authenticator that keeps one must present a larger
 * value every time. A value that does not grow means two copies of the key may exist (a cloned
 * authenticator): the assertion is refused, the refusal counted and logged, and the passkey
 * marked so the account page shows the warning; the user decides whether to remove it. Most
 * passkeys (synced ones especially) always send 0 and are not checked. Two assertions racing on
 * several instances cannot both claim one counter value: each claims it with an atomic
 * insert-if-absent first.
 *
 * Removal is for good: it leaves a tombstone before deleting, and a use recorded concurrently on
 * another instance (read, then write) deletes its own write again when it finds the tombstone.
 * It also takes back what the passkey authenticated (../uses.ts): the sessions it signed in end and
 * the grants issued in them are revoked, as they are when its counter goes backwards.
 */
import type { Config } from '../../config/index.ts';
import { tokenId } from '../../crypto/secrets.ts';
import type { Adapter } from '../../storage/adapter.ts';
import { type Model, type Stored, typed } from '../../storage/model.ts';
import { PASSKEY, SignInUses, type UsesContext, useLifetimes } from '../uses.ts';

export interface Passkey {
  /** Credential ID, base64url. */
  id: string;
  accountId: string;
  /** COSE_Key of the credential public key, base64url. */
  publicKey: string;
  /** COSE algorithm identifier of the key. */
  alg: number;
  /** Last signature counter seen (0: the authenticator keeps none). */
  counter: number;
  /** Transport hints the browser reported at registration (usb, nfc, ble, internal, hybrid…). */
  transports: string[];
  /** BE: the credential may be synced to other devices; fixed for the credential's lifetime. */
  backupEligible: boolean;
  /** BS: the credential is currently backed up; may change. */
  backedUp: boolean;
  /** The authenticator model's AAGUID (all zeros when not disclosed). */
  aaguid: string;
  /** Attestation statement format at registration (`none`, `packed`, …). */
  fmt: string;
  /** A label the user chose, or one derived from the algorithm and date. */
  name: string;
  createdAt: number;
  lastUsedAt?: number;
  /** Epoch seconds of the last refused assertion whose counter did not grow. */
  counterRegressionAt?: number;
}

/** What storage holds: the passkey under its credential ID, its owner as the record's uid. */
interface PasskeyRecord extends Omit<Passkey, 'id' | 'accountId'> {
  uid: string;
}

const toPasskey = (id: string, r: Stored<PasskeyRecord>): Passkey => {
  const { uid, consumed: _c, ...rest } = r;
  return { id, accountId: uid, ...rest };
};

const toRecord = ({ id: _id, accountId, ...rest }: Passkey): PasskeyRecord => ({ uid: accountId, ...rest });

export type CounterCheck = 'ok' | 'regressed';

const removedKey = (id: string) => `webauthn-removed:${tokenId(id)}`;

/** What removing passkeys took back: how many passkeys, and the sessions and grants they authenticated. */
export interface Removal {
  removed: number;
  sessions: number;
  grants: number;
}

export class Passkeys {
  readonly #store: Model<PasskeyRecord>;
  readonly #locks: Adapter;
  readonly #claimTtl: number;
  readonly uses: SignInUses;

  /** `claimTtl`: how long a claimed counter value is remembered (at least a ceremony's lifetime). */
  constructor(store: Adapter, locks: Adapter, claimTtl: number, uses: SignInUses) {
    this.#store = typed<PasskeyRecord>(store);
    this.#locks = locks;
    this.#claimTtl = claimTtl;
    this.uses = uses;
  }

  async find(id: string): Promise<Passkey | undefined> {
    const r = await this.#store.find(id);
    return r ? toPasskey(id, r) : undefined;
  }

  async list(accountId: string): Promise<Passkey[]> {
    return (await this.#store.listByUid(accountId)).map((r) => toPasskey(r.id, r.payload));
  }

  /** Store a new passkey; false when its credential ID is registered already (to anyone). */
  async add(passkey: Passkey): Promise<boolean> {
    return this.#store.insertIfAbsent(passkey.id, toRecord(passkey));
  }

  /**
   * Remove `id` if `accountId` owns it, and end what it authenticated. Undefined when it is not
   * `accountId`'s.
   */
  async remove(accountId: string, id: string): Promise<Removal | undefined> {
    const p = await this.find(id);
    if (!p || p.accountId !== accountId) return undefined;
    // Tombstone first: see recordUse.
    await this.#locks.insertIfAbsent(removedKey(id), {});
    await this.#store.destroy(id);
    // After the delete: a use recorded from now on finds the passkey gone (bind) and undoes itself.
    return { removed: 1, ...(await this.uses.revoke(id)) };
  }

  /** Remove every passkey of `accountId` (an operator's recovery), with what they authenticated. */
  async removeAll(accountId: string): Promise<Removal> {
    const total: Removal = { removed: 0, sessions: 0, grants: 0 };
    for (const p of await this.list(accountId)) {
      const r = await this.remove(accountId, p.id);
      if (!r) continue;
      total.removed += r.removed;
      total.sessions += r.sessions;
      total.grants += r.grants;
    }
    return total;
  }

  /**
   * Record that the passkey `id` authenticated a session or backs a grant. False when it was
   * removed meanwhile: the use is then undone at once (the session ends, the grant is revoked).
   */
  async bind(id: string, use: { session: string } | { grant: string }): Promise<boolean> {
    await this.uses.record(id, use);
    // Written first, looked up second: the mirror image of remove (see ../uses.ts).
    if (await this.find(id)) return true;
    await this.uses.undo(use);
    return false;
  }

  /**
   * Check a verified assertion's counter against the stored one and claim it. `regressed` for a
   * counter that did not grow (also when another assertion claimed the same value first).
   */
  async claimCounter(passkey: Passkey, counter: number): Promise<CounterCheck> {
    if (counter === 0 && passkey.counter === 0) return 'ok';
    if (counter <= passkey.counter) return 'regressed';
    const claim = `webauthn-counter:${tokenId(passkey.id)}:${counter}`;
    return (await this.#locks.insertIfAbsent(claim, {}, this.#claimTtl)) ? 'ok' : 'regressed';
  }

  /** Record a successful use: the new counter (never lowered), backup state, time. */
  async recordUse(passkey: Passkey, use: { counter: number; backedUp: boolean; at: number }): Promise<void> {
    // Re-read: the user may have removed it meanwhile, and a removed passkey stays removed.
    const current = await this.find(passkey.id);
    if (!current) return;
    await this.#store.upsert(
      passkey.id,
      toRecord({
        ...current,
        counter: Math.max(current.counter, use.counter),
        backedUp: use.backedUp,
        lastUsedAt: use.at,
      }),
    );
    // Removed between the read and the write: the write must not bring it back.
    if (await this.#locks.find(removedKey(passkey.id))) await this.#store.destroy(passkey.id);
  }

  /**
   * A verified assertion whose counter went backwards: two copies of the key may exist, and
   * nothing says which one signed in before. The passkey is marked for the account page, and
   * every session and grant it authenticated is taken back.
   */
  async markCounterRegression(passkey: Passkey, at: number): Promise<{ sessions: number; grants: number }> {
    const current = await this.find(passkey.id);
    if (current) {
      await this.#store.upsert(passkey.id, toRecord({ ...current, counterRegressionAt: at }));
      if (await this.#locks.find(removedKey(passkey.id))) await this.#store.destroy(passkey.id);
    }
    return this.uses.revoke(passkey.id);
  }
}

/** The passkeys of a store, with what they authenticated: for the server and the CLI alike. */
export function passkeysOf(ctx: UsesContext & { config: Pick<Config, 'passkeys'> }): Passkeys {
  const { passkeys } = ctx.config;
  // Read when a revocation ends sessions, not now: the server installs its own after start-up.
  const uses = new SignInUses(ctx.storage, useLifetimes(ctx.config), PASSKEY, (s) => ctx.sessionsEnded(s));
  return new Passkeys(
    ctx.storage.adapter('WebAuthnCredential'),
    ctx.storage.adapter('Lock'),
    passkeys.challengeTtl,
    uses,
  );
}
