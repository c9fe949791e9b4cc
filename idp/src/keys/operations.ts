/**
 * What the lifecycle operations (rotate, import, remove, purge, first keys) work with, and the
 * locks that keep instances sharing one store from deciding on the same stale view: operator
 * actions hold one lock across every instance, and a first key of a (set, algorithm) is made by
 * one instance only.
 */
import type { Jwk } from '@pqid/jose';
import { type KeySet, recordId } from '../policy/key-sets.ts';
import type { Adapter } from '../storage/adapter.ts';
import { type LockOptions, withLock } from '../storage/lock.ts';
import type { AuditTrail } from './audit.ts';
import type { CustodyFields } from './custody.ts';
import type { KeyRing } from './key-ring.ts';
import type { KeyRecord } from './record.ts';

/** A key made by a custodian, not yet in use (signing-keys.ts `NewSigningKey`). */
export interface NewKey {
  publicJwk: Jwk;
  custody: CustodyFields;
  /** Makes its handle and keeps it: after its record is stored (made keys). */
  open(): Promise<unknown>;
}

/** The custody side of one key use (sets.ts `KeyUse`): signing-keys.ts for `sig`. */
export interface Custodian {
  /** Refuses an algorithm this use cannot have here. */
  check(alg: string): void;
  /** A new key of `alg`, made where `set`'s keys are made (config `keys.custody`). */
  create(alg: string, set: KeySet): Promise<NewKey>;
  /** The handle of a stored key of this use, opened once (a wrong KEK fails here). */
  open(rec: KeyRecord): Promise<unknown>;
  /** Drops the handle of a key no record holds any more. */
  forget(kid: string): void;
  /** Drops every handle whose key is not in `live`. */
  retain(live: ReadonlySet<string>): void;
}

export interface KeyOps {
  ring: KeyRing;
  audit: AuditTrail;
  /** The custodian of `set`'s keys (by the set's use). */
  custodian(set: KeySet): Custodian;
  /** Seconds between a rotation and the new key's first signature. */
  prepublish: number;
}

/** The one lock every operator action takes (rotate, remove, import, rekey). */
const LIFECYCLE_LOCK = 'keys:lifecycle';

export class KeyLocks {
  readonly #locks: Adapter | undefined;
  readonly #options: LockOptions;
  readonly #reread: () => Promise<void>;

  /** `locks`: the store's `Lock` model when instances share it; `reread` reloads the records. */
  constructor(locks: Adapter | undefined, options: LockOptions, reread: () => Promise<void>) {
    this.#locks = locks;
    this.#options = options;
    this.#reread = reread;
  }

  /** An operator action: under the lifecycle lock when the store is shared, after re-reading it. */
  operation<T>(fn: () => Promise<T>): Promise<T> {
    const run = async () => {
      await this.#reread();
      return fn();
    };
    return this.#locks ? withLock(this.#locks, LIFECYCLE_LOCK, run, this.#options) : run();
  }

  /**
   * The first key of `alg` in `set`: with a shared store, under a lock and after a re-read, so
   * instances starting together on an empty database (or meeting a new algorithm together) end
   * up with one key, not one each. Without one, `fn` runs at once.
   */
  firstKey<T>(set: KeySet, alg: string, fn: (reread: boolean) => Promise<T>): Promise<T> {
    if (!this.#locks) return fn(false);
    // OIDC keeps the lock name it always had (instances of the previous version agree with it).
    return withLock(
      this.#locks,
      `signing-key:${recordId(set, alg)}`,
      async () => {
        await this.#reread();
        return fn(true);
      },
      this.#options,
    );
  }
}
