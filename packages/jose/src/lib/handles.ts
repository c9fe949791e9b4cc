/**
 * The key handles' common part, for signing (PublicKey, PrivateKey) and for encryption
 * (EncryptionKey, DecryptionKey): the registry entry a key serves, its `alg` and `kid`. A public
 * handle carries its JWK. A private one keeps its JWK and material out of reach (not enumerable,
 * not JSON, not in util.inspect): its package's export function is the one way to the JWK.
 */
import type { Jwk, PrivateJwk, PublicJwk } from './jwk.ts';
import { Secret } from './secret.ts';

interface Entry {
  readonly alg: string;
}

const materials = new WeakMap<object, unknown>();
const privateJwks = new WeakMap<object, Readonly<Jwk>>();

export abstract class PublicHandle<E extends Entry> {
  readonly type = 'public' as const;
  readonly alg: string;
  readonly kid: string;
  readonly entry: E;
  /** The public JWK, with `alg` and `kid`. */
  readonly jwk: Readonly<PublicJwk>;

  /** `jwk` carries its `kid`. */
  constructor(entry: E, jwk: Jwk, material: unknown) {
    this.entry = entry;
    this.alg = entry.alg;
    this.kid = jwk.kid as string;
    this.jwk = Object.freeze({ ...jwk }) as PublicJwk;
    materials.set(this, material);
  }

  toJSON(): PublicJwk {
    return { ...this.jwk };
  }
}

export abstract class PrivateHandle<E extends Entry, P extends PublicHandle<E>> extends Secret {
  readonly type = 'private' as const;
  readonly alg: string;
  readonly kid: string;
  readonly entry: E;
  readonly publicKey: P;

  /** `privateJwk` is undefined for a key whose secret is elsewhere (a delegated signing key). */
  constructor(publicKey: P, material: unknown, privateJwk?: Jwk) {
    super();
    this.entry = publicKey.entry;
    this.alg = publicKey.alg;
    this.kid = publicKey.kid;
    this.publicKey = publicKey;
    materials.set(this, material);
    if (privateJwk) privateJwks.set(this, Object.freeze({ ...privateJwk, kid: publicKey.kid }));
  }
}

type Handle = PublicHandle<Entry> | PrivateHandle<Entry, PublicHandle<Entry>>;

/** Internal (not exported from the package): the key material behind a handle. */
export const materialOf = (key: Handle): unknown => materials.get(key);

/** Internal: a copy of a private handle's JWK; undefined when its secret is elsewhere. */
export function privateJwkOf(key: Handle): PrivateJwk | undefined {
  const jwk = privateJwks.get(key);
  return jwk && ({ ...jwk } as PrivateJwk);
}
