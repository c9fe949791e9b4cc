/**
 * The custody side of signing keys: where a new key of a set is made (config `keys.custody`:
 * sealed under the KEK, or in a KMS/HSM), and the signing handle of each stored key — a
 * `@pqid/jose` delegated key over the signer(s) its custody opens (custody.ts), opened once per
 * process. The rest of the IdP holds these handles and never key material.
 */
import { algorithms, createDelegatedKey, type Jwk, type PrivateKey, signCompact } from '@pqid/jose';
import { type Kek, kekId } from '../crypto/kek.ts';
import type { KeySet } from '../policy/key-sets.ts';
import {
  type CustodyFields,
  ExternalCustody,
  type ExternalKeyProvider,
  type ExternalRef,
  type KeyCustody,
  openExternal,
  SealedCustody,
} from './custody.ts';
import { UnknownSigningAlgorithm } from './errors.ts';
import { Handles } from './handles.ts';
import type { Custodian } from './operations.ts';
import type { KeyRecord } from './record.ts';

export interface SigningKeysOptions {
  /** External key providers (KMS/HSM) by name (config `keys.signers`). */
  providers?: ReadonlyMap<string, ExternalKeyProvider> | undefined;
  /** Where each set's new keys are made: `sealed` (default) or a provider's name. */
  custody?: Partial<Record<KeySet, string>> | undefined;
}

/**
 * A key made or registered here, not yet in use: what its record keeps, and `open`, which makes
 * its handle (and keeps it). A made key's record is stored before it is opened; an imported one
 * is opened — it signs once — before its record is stored.
 */
export interface NewSigningKey {
  publicJwk: Jwk;
  custody: CustodyFields;
  open(): Promise<PrivateKey>;
}

/** Refuses an algorithm the registry does not have here. */
export function checkSigningAlg(alg: string): void {
  if (!algorithms().includes(alg))
    throw new UnknownSigningAlgorithm(
      `signing algorithm ${alg} is not available here; choose one of ${algorithms().join(', ')}`,
    );
}

export class SigningKeys implements Custodian {
  readonly #sealed: SealedCustody;
  readonly #providers: ReadonlyMap<string, ExternalKeyProvider>;
  readonly #custody: Partial<Record<KeySet, string>>;
  /** Signing handles by kid, opened on first need. */
  readonly #handles = new Handles<PrivateKey>();

  constructor(kek: Kek, opts: SigningKeysOptions = {}) {
    this.#sealed = new SealedCustody(kek);
    this.#providers = opts.providers ?? new Map();
    this.#custody = opts.custody ?? {};
  }

  /** The KEK that seals new keys (re-read from a KEK file: opened handles stay). */
  get kek(): Kek {
    return this.#sealed.kek;
  }

  set kek(kek: Kek) {
    this.#sealed.kek = kek;
  }

  /** Its public id, safe to show. */
  get kekId(): string {
    return kekId(this.#sealed.kek.key);
  }

  check(alg: string): void {
    checkSigningAlg(alg);
  }

  #custodyOf(rec: KeyRecord): KeyCustody {
    if (!rec.external) return this.#sealed;
    return new ExternalCustody('external', this.#providers);
  }

  /** Where new keys of `set` are made (config `keys.custody`). */
  #custodyFor(set: KeySet): KeyCustody {
    const name = this.#custody[set] ?? 'sealed';
    if (name === 'sealed') return this.#sealed;
    return new ExternalCustody(name, this.#providers);
  }

  /** The handle of a stored key, opened once. */
  open(rec: KeyRecord): Promise<PrivateKey> {
    return this.#handles.get(rec.kid, async () => {
      const custody = this.#custodyOf(rec);
      const signers = await custody.signers(rec);
      // A local signer's answers need no re-verification; an external one's always get it.
      return createDelegatedKey(signers, { alg: rec.alg, kid: rec.kid, verify: !custody.local });
    });
  }

  /** A new key of `alg`, made where `set`'s keys are made. */
  async create(alg: string, set: KeySet): Promise<NewSigningKey> {
    checkSigningAlg(alg);
    const custody = this.#custodyFor(set);
    const made = await custody.create(alg);
    const kid = String(made.publicJwk.kid);
    return {
      publicJwk: made.publicJwk,
      custody: {
        ...(made.privateJwk ? { privateJwk: made.privateJwk } : {}),
        ...(made.external ? { external: made.external } : {}),
      },
      open: () =>
        this.#handles.keep(kid, createDelegatedKey(made.signers, { alg, kid, verify: !custody.local })),
    };
  }

  /** A key in a KMS/HSM (`pqid keys import`), its public key read through its provider. */
  async external(ref: ExternalRef, alg: string): Promise<NewSigningKey> {
    const { signers, publicJwk } = await openExternal(this.#providers, ref, alg);
    const kid = String(publicJwk.kid);
    const open = async () => {
      const handle = await createDelegatedKey(signers, { alg, kid, verify: true });
      // Sign once before anything is published: a key that cannot sign must not be staged.
      await signCompact('pqid key import check', handle);
      return handle;
    };
    return { publicJwk, custody: { external: ref }, open: () => this.#handles.keep(kid, open()) };
  }

  /** Forget the handle of a key no record holds any more. */
  forget(kid: string): void {
    this.#handles.forget(kid);
  }

  /** Forget every handle whose key is not in `live`. */
  retain(live: ReadonlySet<string>): void {
    this.#handles.retain(live);
  }

  /** Close the external providers' sessions (server shutdown, end of a CLI command). */
  async close(): Promise<void> {
    for (const p of this.#providers.values()) await p.close?.();
  }
}
