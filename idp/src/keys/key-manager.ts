/**
 * Signing keys, generated through `@pqid/jose` and stored type-agnostic (public JWK + metadata +
 * the private JWK sealed under the KEK), so a new algorithm needs no code here. Decrypted keys
 * live only as `PrivateKey` handles in memory.
 *
 * Rotation and retirement are derived from timestamps (see lifecycle.ts); placement (which alg
 * signs which object) from configuration (see placement.ts). The store is the single source of
 * truth: `load()` re-reads it, so a rotation made by the CLI reaches a running server.
 */
import { algorithms, exportJWK, generateKeyPair, importJWK, type Jwk, type PrivateKey } from '@pqid/jose';
import { type Kek, open, type Sealed, seal } from '../crypto/kek.ts';
import type { Adapter } from '../storage/adapter.ts';
import { type KeyState, type KeyStatus, keyStates } from './lifecycle.ts';
import { fixedAlgs, type Placement, resolveAlg, type SigningPurpose } from './placement.ts';

export type { KeyStatus } from './lifecycle.ts';
export type { Placement, SigningPurpose } from './placement.ts';

export interface KeyRecord {
  [member: string]: unknown;
  kid: string;
  alg: string;
  kty: string;
  use: 'sig';
  /** The state when written (informative); the live state is computed from the times. */
  status: KeyStatus;
  createdAt: number;
  /** Epoch seconds from which it signs; absent on older records (= createdAt). */
  activateAt?: number;
  /** Creation order, breaking ties between keys activated in the same second. */
  serial?: number;
  publicJwk: Jwk;
  privateJwk: Sealed;
}

export interface KeyInfo extends KeyState {
  kty: string;
  createdAt: number;
}

export interface KeyManagerOptions {
  placement?: Placement;
  /** Algorithm for `client` placements when the caller passes none. */
  defaultAlg?: string;
  /**
   * How long a retired key stays published, in seconds: `tokens` is the longest lifetime of a
   * token (ID, access, userinfo); `cold` that of cold-path objects, applied to the cold alg.
   */
  retention?: { tokens: number; cold: number };
  /** Seconds between `rotate()` and the new key's first signature (JWKS caches refresh meanwhile). */
  prepublish?: number;
  /** Clock in epoch seconds (tests). */
  now?: () => number;
}

export class UnknownSigningAlgorithm extends Error {
  override name = 'UnknownSigningAlgorithm';
}

export class RotationPending extends Error {
  override name = 'RotationPending';
}

const DEFAULT_PLACEMENT: Placement = {
  idToken: 'client',
  accessToken: 'client',
  userinfo: 'client',
  cold: 'ML-DSA-65',
};

export class KeyManager {
  readonly #store: Adapter;
  readonly #kek: Kek;
  readonly #placement: Placement;
  readonly #defaultAlg: string;
  readonly #retention: { tokens: number; cold: number };
  readonly #prepublish: number;
  readonly #now: () => number;
  /** Decrypted handles by kid, imported on first need. */
  readonly #handles = new Map<string, Promise<PrivateKey>>();
  /** One generation per algorithm even when many requests race for it. */
  readonly #pending = new Map<string, Promise<PrivateKey>>();
  #records: KeyRecord[] = [];

  constructor(store: Adapter, kek: Kek, opts: KeyManagerOptions = {}) {
    this.#store = store;
    this.#kek = kek;
    this.#placement = opts.placement ?? DEFAULT_PLACEMENT;
    this.#defaultAlg = opts.defaultAlg ?? 'ML-DSA-65';
    this.#retention = opts.retention ?? { tokens: 3600, cold: 3600 };
    this.#prepublish = opts.prepublish ?? 3600;
    this.#now = opts.now ?? (() => Math.floor(Date.now() / 1000));
  }

  get placement(): Readonly<Placement> {
    return this.#placement;
  }

  #retentionOf = (alg: string): number =>
    alg === this.#placement.cold
      ? Math.max(this.#retention.tokens, this.#retention.cold)
      : this.#retention.tokens;

  #states(): Map<string, KeyState> {
    return keyStates(this.#records, this.#now(), this.#retentionOf);
  }

  /**
   * (Re)load stored keys, drop keys past their removal time, and decrypt the ones that sign or
   * will sign (so a wrong KEK fails at start, not at first login).
   */
  async load(): Promise<void> {
    const rows = await this.#store.list();
    this.#records = rows.map((r) => r.payload as KeyRecord);
    await this.purge();
    const states = this.#states();
    const live = new Set(this.#records.map((r) => r.kid));
    for (const kid of this.#handles.keys()) if (!live.has(kid)) this.#handles.delete(kid);
    for (const rec of this.#records) {
      if (states.get(rec.kid)?.status !== 'retired') await this.#handle(rec);
    }
  }

  /** Only the metadata, no decryption (CLI `keys list` without the KEK). */
  async loadPublic(): Promise<void> {
    this.#records = (await this.#store.list()).map((r) => r.payload as KeyRecord);
  }

  /** Delete retired keys whose tokens have all expired; returns their kids. */
  async purge(): Promise<string[]> {
    const now = this.#now();
    const states = this.#states();
    const gone = this.#records.filter((r) => {
      const removeAt = states.get(r.kid)?.removeAt;
      return removeAt !== undefined && removeAt <= now;
    });
    for (const r of gone) {
      await this.#store.destroy(r.kid);
      this.#handles.delete(r.kid);
    }
    this.#records = this.#records.filter((r) => !gone.includes(r));
    return gone.map((r) => r.kid);
  }

  /** Re-read the store every `seconds` (a rotation by the CLI); returns the stop function. */
  autoRefresh(seconds: number, onError: (e: unknown) => void): () => void {
    const timer = setInterval(() => this.load().catch(onError), seconds * 1000);
    timer.unref();
    return () => clearInterval(timer);
  }

  #handle(rec: KeyRecord): Promise<PrivateKey> {
    let h = this.#handles.get(rec.kid);
    if (!h) {
      h = (async () => {
        const jwk = JSON.parse(open(this.#kek, rec.privateJwk, rec.kid)) as Jwk;
        const handle = await importJWK(jwk, { alg: rec.alg });
        if (handle.type !== 'private') throw new Error(`stored key ${rec.kid} is not a private key`);
        return handle;
      })();
      this.#handles.set(rec.kid, h);
      h.catch(() => this.#handles.delete(rec.kid));
    }
    return h;
  }

  #activeRecord(alg: string): KeyRecord | undefined {
    const states = this.#states();
    return this.#records.find((r) => r.alg === alg && states.get(r.kid)?.status === 'active');
  }

  /** Make sure each algorithm has an active key; returns the kids created now. */
  async ensure(algs: Iterable<string>): Promise<string[]> {
    const created: string[] = [];
    for (const alg of new Set(algs)) {
      if (this.#activeRecord(alg)) continue;
      const key = await this.signingKey(alg);
      created.push(key.kid);
    }
    return created;
  }

  /** Algorithms that placement pins, which need keys before the first request. */
  placementAlgs(): string[] {
    return fixedAlgs(this.#placement);
  }

  /** The active private key for an algorithm, generated and stored on first use. */
  async signingKey(alg: string): Promise<PrivateKey> {
    const rec = this.#activeRecord(alg);
    if (rec) return this.#handle(rec);
    let pending = this.#pending.get(alg);
    if (!pending) {
      pending = this.#generate(alg, this.#now()).finally(() => this.#pending.delete(alg));
      this.#pending.set(alg, pending);
    }
    return pending;
  }

  /**
   * The key that signs `purpose`. `alg` is the client's registered algorithm; placement may
   * override it with a fixed one (always for `cold`).
   */
  async signerFor(purpose: SigningPurpose, alg?: string): Promise<PrivateKey> {
    return this.signingKey(resolveAlg(this.#placement, purpose, alg, this.#defaultAlg));
  }

  /**
   * Start a rotation: a new key, published now, signing from `now + prepublish` (or at once with
   * `immediate`, e.g. after a compromise). The current key retires when the new one activates.
   * With no `alg`, every algorithm that has an active key rotates.
   */
  async rotate(alg?: string, opts: { immediate?: boolean } = {}): Promise<KeyInfo[]> {
    const states = this.#states();
    const algs =
      alg !== undefined
        ? [alg]
        : [...new Set(this.#records.filter((r) => states.get(r.kid)?.status === 'active').map((r) => r.alg))];
    const now = this.#now();
    const touched: string[] = [];
    for (const a of algs) {
      const pending = this.#records.find((r) => r.alg === a && states.get(r.kid)?.status === 'next');
      if (pending) {
        if (!opts.immediate)
          throw new RotationPending(
            `${a}: key ${pending.kid} is already published and activates at ${new Date((pending.activateAt ?? 0) * 1000).toISOString()}; use --now to activate it at once`,
          );
        const rec: KeyRecord = { ...pending, activateAt: now, status: 'active' };
        await this.#store.upsert(rec.kid, rec);
        this.#records = this.#records.map((r) => (r.kid === rec.kid ? rec : r));
        touched.push(rec.kid);
        continue;
      }
      // Nothing to roll over from: a first key signs at once (nobody can hold an older one).
      const activateAt = opts.immediate || !this.#activeRecord(a) ? now : now + this.#prepublish;
      touched.push((await this.#generate(a, activateAt)).kid);
    }
    return this.list().filter((k) => touched.includes(k.kid));
  }

  async #generate(alg: string, activateAt: number): Promise<PrivateKey> {
    if (!algorithms().includes(alg))
      throw new UnknownSigningAlgorithm(`signing algorithm ${alg} is not available here`);
    const { privateJwk, publicJwk } = await generateKeyPair(alg);
    const kid = publicJwk.kid as string;
    const now = this.#now();
    const record: KeyRecord = {
      kid,
      alg,
      kty: publicJwk.kty,
      use: 'sig',
      status: activateAt > now ? 'next' : 'active',
      createdAt: now,
      activateAt,
      serial: Math.max(0, ...this.#records.map((r) => r.serial ?? 0)) + 1,
      publicJwk: { ...publicJwk, use: 'sig' },
      privateJwk: seal(this.#kek, JSON.stringify(privateJwk), kid),
    };
    await this.#store.upsert(kid, record);
    const handle = await importJWK(privateJwk, { alg });
    if (handle.type !== 'private') throw new Error('generated key did not import as private');
    this.#records.push(record);
    this.#handles.set(kid, Promise.resolve(handle));
    return handle;
  }

  /** Public JWKs of every published key: next, active and retired (until removal). */
  jwks(): { keys: Jwk[] } {
    const now = this.#now();
    const states = this.#states();
    return {
      keys: this.#records
        .filter((r) => {
          const removeAt = states.get(r.kid)?.removeAt;
          return removeAt === undefined || removeAt > now;
        })
        .map((r) => ({ ...r.publicJwk })),
    };
  }

  /** Metadata without key material (CLI, health), with the live state. */
  list(): KeyInfo[] {
    const states = this.#states();
    return this.#records.map((r) => {
      const s = states.get(r.kid) as KeyState;
      return { ...s, kty: r.kty, createdAt: r.createdAt };
    });
  }

  /** The public JWK of a signer (used in tests to check published keys match signers). */
  publicJwkOf(key: PrivateKey): Jwk {
    return exportJWK(key.publicKey);
  }
}
