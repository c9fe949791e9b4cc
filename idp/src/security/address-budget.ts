/**
 * A budget of requests per client address (IPv6: per /64) in a sliding window, counted in the
 * store every instance shares (Storage.loginFailures' table, under a key of its own). A request
 * is counted before it is let through, so requests racing on any number of instances never pass
 * more than the budget (see login-limiter.ts); one refused is taken back, so knocking on a closed
 * budget does not keep it closed.
 */
import type { FailureStore } from './failure-store.ts';
import { addressKey } from './login-limiter.ts';

export interface AddressBudgetLimits {
  /** Seconds the window spans. */
  window: number;
  /** Requests per address within it. */
  max: number;
}

export class AddressBudget {
  readonly #store: FailureStore;
  readonly #prefix: string;
  readonly #limits: AddressBudgetLimits;
  readonly #now: () => number;

  /** `name` keeps this budget's counts apart from others' in the shared store. */
  constructor(store: FailureStore, name: string, limits: AddressBudgetLimits, now: () => number = Date.now) {
    this.#store = store;
    this.#prefix = `${name}:`;
    this.#limits = limits;
    this.#now = now;
  }

  /** Spend one request of `address`: 0 when it may go on, else the seconds until it may. */
  async spend(address: string): Promise<number> {
    const key = this.#prefix + addressKey(address);
    const at = this.#now();
    const windowMs = this.#limits.window * 1000;
    await this.#store.add(key, at, windowMs);
    const recent = await this.#store.recent(key, at, windowMs);
    if (recent.length <= this.#limits.max) return 0;
    await this.#store.remove(key, at);
    // Open again when the oldest of the newest `max` leaves the window.
    const pivot = recent[recent.length - 1 - this.#limits.max] ?? at;
    return Math.max(1, Math.ceil((pivot + windowMs - at) / 1000));
  }
}
