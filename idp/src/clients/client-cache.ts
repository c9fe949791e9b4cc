/**
 * Client records by client_id, reused for a few seconds so that a token request does not read
 * and parse the client from storage each time (a read transaction and a JSON parse per token).
 *
 * Only the record is cached, never the outcome of authenticating with it: the secret digest or
 * the client assertion is checked on every request. Writes through this instance invalidate
 * the entry at once; other instances on the same store (and `pqid clients`) see a change when
 * their entry expires, `clientCacheTtl` seconds at most. Unknown ids are not cached, so a flood
 * of made-up client_ids cannot fill the cache, and a client registered elsewhere is found at once.
 */
/** Past this many clients the oldest entry goes: a bound, not a working set (clients are few). */
const MAX_ENTRIES = 10_000;

/** `T`: the client record (clients.ts). */
export class ClientCache<T> {
  readonly #ttlMs: number;
  readonly #entries = new Map<string, { client: T; until: number }>();
  /** Bumped by every write: a read that began before a write must not store what it read. */
  #generation = 0;

  constructor(ttlSeconds: number) {
    this.#ttlMs = ttlSeconds * 1000;
  }

  get enabled(): boolean {
    return this.#ttlMs > 0;
  }

  get generation(): number {
    return this.#generation;
  }

  get(clientId: string): T | undefined {
    const e = this.#entries.get(clientId);
    if (e === undefined) return undefined;
    if (performance.now() < e.until) return e.client;
    this.#entries.delete(clientId);
    return undefined;
  }

  /** Keep `client` (frozen: callers share it) unless a write happened since `generation`. */
  set(clientId: string, client: T, generation: number): T {
    const frozen = deepFreeze(client);
    if (generation !== this.#generation) return frozen;
    if (this.#entries.size >= MAX_ENTRIES) {
      const oldest = this.#entries.keys().next().value;
      if (oldest !== undefined) this.#entries.delete(oldest);
    }
    // The monotonic clock: a wall-clock step back must not stretch the TTL.
    this.#entries.set(clientId, { client: frozen, until: performance.now() + this.#ttlMs });
    return frozen;
  }

  /** After a write of `clientId` through this instance: the next read goes to storage. */
  invalidate(clientId: string): void {
    this.#generation++;
    this.#entries.delete(clientId);
  }
}

/** Frozen all the way down, so no caller can change the record another request will see. */
function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}
