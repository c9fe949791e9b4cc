/**
 * Where failed-login timestamps live. The IdP uses its storage's table (Storage.loginFailures:
 * SQLite or PostgreSQL, one row per failure), so instances behind a load balancer share one
 * count and an attacker cannot spread attempts across them. The in-memory store is for tests
 * and embedding.
 */
export interface FailureStore {
  /** Record a failure of `key` at `now` (ms); entries older than `windowMs` may be dropped. */
  add(key: string, now: number, windowMs: number): Promise<void>;
  /** Timestamps (ms, ascending) of failures of `key` newer than `now - windowMs`. */
  recent(key: string, now: number, windowMs: number): Promise<number[]>;
  /** Forget one failure of `key` recorded at `at` (an attempt counted before it was known to succeed). */
  remove(key: string, at: number): Promise<void>;
  clear(key: string): Promise<void>;
}

export interface MemoryFailureStoreOptions {
  /** Most keys tracked at once; the least recently failed are forgotten first (bounded memory). */
  maxKeys?: number;
  /** Most timestamps kept per key: only the newest `limit` matter for a sliding-window check. */
  maxPerKey?: number;
}

export class MemoryFailureStore implements FailureStore {
  readonly #entries = new Map<string, number[]>();
  readonly #maxKeys: number;
  readonly #maxPerKey: number;

  constructor(opts: MemoryFailureStoreOptions = {}) {
    this.#maxKeys = opts.maxKeys ?? 100_000;
    this.#maxPerKey = opts.maxPerKey ?? 1000;
  }

  async add(key: string, now: number, windowMs: number): Promise<void> {
    const list = this.#live(key, now, windowMs);
    list.push(now);
    if (list.length > this.#maxPerKey) list.splice(0, list.length - this.#maxPerKey);
    // Re-insert so Map order is least-recently-failed first, then evict from the front.
    this.#entries.delete(key);
    this.#entries.set(key, list);
    while (this.#entries.size > this.#maxKeys) {
      const oldest = this.#entries.keys().next().value as string;
      this.#entries.delete(oldest);
    }
  }

  async recent(key: string, now: number, windowMs: number): Promise<number[]> {
    return [...this.#live(key, now, windowMs)];
  }

  async remove(key: string, at: number): Promise<void> {
    const list = this.#entries.get(key);
    const i = list?.indexOf(at) ?? -1;
    if (i !== -1) list?.splice(i, 1);
  }

  async clear(key: string): Promise<void> {
    this.#entries.delete(key);
  }

  get size(): number {
    return this.#entries.size;
  }

  #live(key: string, now: number, windowMs: number): number[] {
    const list = this.#entries.get(key) ?? [];
    const first = list.findIndex((t) => t > now - windowMs);
    const live = first === -1 ? [] : list.slice(first);
    if (live.length === 0) this.#entries.delete(key);
    return live;
  }
}
