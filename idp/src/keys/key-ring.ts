/**
 * The key records this process knows, and their live states. The store is the single source of
 * truth: the ring is replaced by every load (loading.ts), and every write goes to the store first
 * and then here, so a reader never sees a key the store does not have.
 */
import { recordId } from '../policy/key-sets.ts';
import type { Model } from '../storage/model.ts';
import { type KeyState, keyStates } from './lifecycle.ts';
import type { KeyRecord, PersistedKeyRecord } from './record.ts';
import { type Retention, retentionOf } from './sets.ts';

export const idOf = (rec: { set: string; kid: string }): string => recordId(rec.set, rec.kid);

export class KeyRing {
  readonly #store: Model<PersistedKeyRecord>;
  readonly #now: () => number;
  readonly #retention: Retention;
  #records: KeyRecord[] = [];
  /** The last states() answer: every token asks, and it changes only with the second or the records. */
  #memo: { records: KeyRecord[]; length: number; now: number; states: Map<string, KeyState> } | undefined;

  constructor(store: Model<PersistedKeyRecord>, now: () => number, retention: Retention) {
    this.#store = store;
    this.#now = now;
    this.#retention = retention;
  }

  get store(): Model<PersistedKeyRecord> {
    return this.#store;
  }

  now(): number {
    return this.#now();
  }

  get records(): readonly KeyRecord[] {
    return this.#records;
  }

  /** After a load: the store's records, as key-set records. */
  replace(records: KeyRecord[]): void {
    this.#records = records;
  }

  states(): Map<string, KeyState> {
    const now = this.#now();
    const m = this.#memo;
    // Records are replaced (a new array) or appended to, never edited in place.
    if (m && m.records === this.#records && m.length === this.#records.length && m.now === now)
      return m.states;
    const states = keyStates(this.#records, now, (_alg, set) => retentionOf(set, this.#retention));
    this.#memo = { records: this.#records, length: this.#records.length, now, states };
    return states;
  }

  stateOf(rec: KeyRecord, states = this.states()): KeyState | undefined {
    return states.get(idOf(rec));
  }

  /** The record of `set` and `alg` in `status` now (the newest one for `active`: there is one). */
  find(set: string, alg: string, status: KeyState['status'], states = this.states()): KeyRecord | undefined {
    return this.#records.find(
      (r) => r.set === set && r.alg === alg && this.stateOf(r, states)?.status === status,
    );
  }

  /**
   * Write a new or replaced record: to the store, then here. `beforeVisible` runs in between (a
   * new key's handle is made once it is stored, and before a request here can pick it).
   */
  async put(rec: KeyRecord, beforeVisible?: () => Promise<unknown>): Promise<void> {
    const id = idOf(rec);
    await this.#store.upsert(id, rec);
    await beforeVisible?.();
    const at = this.#records.findIndex((r) => idOf(r) === id);
    if (at < 0) this.#records.push(rec);
    else this.#records = this.#records.map((r, i) => (i === at ? rec : r));
  }

  /** Delete records: from the store (`each` after every one), then here. */
  async drop(recs: readonly KeyRecord[], each?: (rec: KeyRecord) => void): Promise<void> {
    for (const r of recs) {
      await this.#store.destroy(idOf(r));
      each?.(r);
    }
    this.#records = this.#records.filter((r) => !recs.includes(r));
  }

  /** Whether any record (of any set) holds this kid: its handle is still needed. */
  holds(kid: string): boolean {
    return this.#records.some((r) => r.kid === kid);
  }
}
