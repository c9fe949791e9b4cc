/**
 * A prepared ML-DSA secret key: the 32-byte seed (or a FIPS 204 expanded key) plus the signing
 * handle each backend made from it, made once per backend. Expanding a seed costs about as much
 * as a signature, so everything that signs more than once holds one of these: JOSE keys (their
 * material), the raw API's `mldsa.prepareKey`, @pqid/xmldsig, the IdP.
 */
import { type MlDsaAlg, SEED_BYTES } from '../backends/params.ts';
import { countSeedExpansion } from '../backends/stats.ts';
import type { BackendName, MlDsaBackend } from '../backends/types.ts';
import { Secret } from '../lib/secret.ts';

const TOKEN = Symbol('MlDsaSecretKey');

export class MlDsaSecretKey extends Secret {
  readonly alg: MlDsaAlg;
  readonly #secret: Uint8Array;
  readonly #prepared = new Map<BackendName, unknown>();
  #publicKey: Uint8Array | undefined;

  /** Use `MlDsaSecretKey.from` (or `mldsa.prepareKey`). */
  constructor(token: symbol, alg: MlDsaAlg, secret: Uint8Array) {
    super();
    if (token !== TOKEN) throw new TypeError('use mldsa.prepareKey() to make an MlDsaSecretKey');
    this.alg = alg;
    this.#secret = secret;
  }

  /**
   * Takes its own copy of `secret` (a seed or an expanded key); with a backend, prepares for it
   * now, which also gives the public key of a seed.
   */
  static from(alg: MlDsaAlg, secret: Uint8Array, backend?: MlDsaBackend): MlDsaSecretKey {
    const key = new MlDsaSecretKey(TOKEN, alg, new Uint8Array(secret));
    if (backend) key.prepared(backend);
    return key;
  }

  /** True when made from a 32-byte seed (the JOSE private key form). */
  get fromSeed(): boolean {
    return this.#secret.length === SEED_BYTES;
  }

  /** The FIPS 204 public key, once a backend has expanded the seed (undefined otherwise). */
  get publicKey(): Uint8Array | undefined {
    return this.#publicKey && new Uint8Array(this.#publicKey);
  }

  /** This backend's signing handle, made on first use. */
  prepared(backend: MlDsaBackend): unknown {
    let p = this.#prepared.get(backend.name);
    if (p === undefined) {
      p = backend.prepareSecret(this.alg, this.#secret);
      if (this.fromSeed) {
        countSeedExpansion();
        this.#publicKey ??= backend.publicKeyOf(this.alg, p);
      }
      this.#prepared.set(backend.name, p);
    }
    return p;
  }

  toString(): string {
    return `[MlDsaSecretKey ${this.alg}]`;
  }
}
