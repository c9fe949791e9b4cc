/**
 * Key handles. A PrivateKey keeps its material out of reach: not enumerable, not JSON, not in
 * `util.inspect` — exporting it takes an explicit `exportJWK(key)`. A delegated PrivateKey
 * (createDelegatedKey) has no secret here at all: its signer holds it.
 */
import { inspect } from 'node:util';
import { DelegatedMaterial } from '../algorithms/delegate.ts';
import type { AlgorithmEntry, Jwk, Material } from '../algorithms/types.ts';
import { SecretSerialization } from '../errors.ts';

const materials = new WeakMap<object, Material>();
const privateJwks = new WeakMap<PrivateKey, Jwk>();

/** Internal: the material behind a handle (not exported from the package). */
export const materialOf = (key: PublicKey | PrivateKey): Material => materials.get(key);
export const privateJwkOf = (key: PrivateKey): Jwk | undefined => privateJwks.get(key);

export class PublicKey {
  readonly type = 'public' as const;
  readonly alg: string;
  readonly kid: string;
  readonly entry: AlgorithmEntry;
  /** The public JWK, with `alg` and `kid`. */
  readonly jwk: Readonly<Jwk>;

  constructor(entry: AlgorithmEntry, jwk: Jwk, material: Material) {
    this.entry = entry;
    this.alg = entry.alg;
    this.kid = jwk.kid as string;
    this.jwk = Object.freeze({ ...jwk });
    materials.set(this, material);
  }

  get pq(): boolean {
    return this.entry.pq;
  }

  toJSON(): Jwk {
    return { ...this.jwk };
  }
}

export class PrivateKey {
  readonly type = 'private' as const;
  readonly alg: string;
  readonly kid: string;
  readonly entry: AlgorithmEntry;
  readonly publicKey: PublicKey;

  /** `privateJwk` is undefined for a delegated key (its material is a DelegatedMaterial). */
  constructor(entry: AlgorithmEntry, privateJwk: Jwk | undefined, material: Material, publicKey: PublicKey) {
    this.entry = entry;
    this.alg = entry.alg;
    this.kid = publicKey.kid;
    this.publicKey = publicKey;
    materials.set(this, material);
    if (privateJwk) privateJwks.set(this, Object.freeze({ ...privateJwk, kid: publicKey.kid }));
  }

  get pq(): boolean {
    return this.entry.pq;
  }

  /** Signing is delegated to a signer (KMS, HSM, sealed-key store); no secret is in this process. */
  get delegated(): boolean {
    return materials.get(this) instanceof DelegatedMaterial;
  }

  toJSON(): never {
    throw new SecretSerialization('refusing to serialize a private key; use exportJWK(key) deliberately');
  }

  toString(): string {
    return `[PrivateKey ${this.alg} ${this.kid}${this.delegated ? ' delegated' : ''}]`;
  }

  [inspect.custom](): string {
    return this.toString();
  }
}

export type KeyHandle = PublicKey | PrivateKey;
