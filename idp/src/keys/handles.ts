/**
 * The handles of stored keys, by kid: opened once per process on first need, kept while a record
 * holds the key, forgotten with it. Signing and decryption handles alike (signing-keys.ts,
 * encryption-keys.ts).
 */
export class Handles<H> {
  readonly #byKid = new Map<string, Promise<H>>();

  /** The handle of `kid`, made by `open` the first time; a failed open is not kept. */
  get(kid: string, open: () => Promise<H>): Promise<H> {
    let h = this.#byKid.get(kid);
    if (!h) {
      h = open();
      this.#byKid.set(kid, h);
      h.catch(() => this.#byKid.delete(kid));
    }
    return h;
  }

  /** Keep a handle made now (a new key's), once it opened. */
  async keep(kid: string, handle: Promise<H>): Promise<H> {
    const h = await handle;
    this.#byKid.set(kid, Promise.resolve(h));
    return h;
  }

  forget(kid: string): void {
    this.#byKid.delete(kid);
  }

  /** Forget every handle whose key is not in `live`. */
  retain(live: ReadonlySet<string>): void {
    for (const kid of this.#byKid.keys()) if (!live.has(kid)) this.#byKid.delete(kid);
  }
}
