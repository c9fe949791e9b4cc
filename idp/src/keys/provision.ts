/**
 * First keys, made on demand: the first signature of an algorithm in a set makes its key, once
 * per (set, algorithm) even when many requests race for it, and — with a shared store — once
 * across instances (operations.ts `firstKey`).
 */
import type { KeySet } from '../policy/key-sets.ts';
import { createKey } from './new-keys.ts';
import type { KeyLocks, KeyOps } from './operations.ts';
import type { KeyRecord } from './record.ts';

export class FirstKeys {
  readonly #ops: KeyOps;
  readonly #locks: KeyLocks;
  /** One generation per (set, algorithm) even when many requests race for it. */
  readonly #pending = new Map<string, Promise<KeyRecord>>();
  /** Kids made by this process (not loaded). */
  readonly #madeHere = new Set<string>();

  constructor(ops: KeyOps, locks: KeyLocks) {
    this.#ops = ops;
    this.#locks = locks;
  }

  /** Whether this process made the key (ensure() reports only those as created). */
  madeHere(kid: string): boolean {
    return this.#madeHere.has(kid);
  }

  /** The active record of `alg` in `set`, made now if there is none. */
  active(alg: string, set: KeySet): KeyRecord | Promise<KeyRecord> {
    const rec = this.#ops.ring.find(set, alg, 'active');
    if (rec) return rec;
    const job = `${set}\0${alg}`;
    let pending = this.#pending.get(job);
    if (!pending) {
      pending = this.#first(alg, set).finally(() => this.#pending.delete(job));
      this.#pending.set(job, pending);
    }
    return pending;
  }

  /** No active key of `alg` here: take one another instance made meanwhile, else make it. */
  #first(alg: string, set: KeySet): Promise<KeyRecord> {
    return this.#locks.firstKey(set, alg, async (reread) => {
      const rec = reread ? this.#ops.ring.find(set, alg, 'active') : undefined;
      if (rec) return rec;
      const made = await createKey(this.#ops, alg, set, this.#ops.ring.now());
      this.#madeHere.add(made.kid);
      return made;
    });
  }
}
