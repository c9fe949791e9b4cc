/**
 * The custody side of the IdP's encryption keys (the `enc` set): made here with
 * `generateEncryptionKeyPair`, the private JWK sealed under the KEK in the record like a sealed
 * signing key, and opened once per process into a `@pqid/jose` `DecryptionKey` handle that
 * cannot be serialised. KMS/HSM custody is for signing keys only: a KMS that decapsulates
 * ML-KEM or X-Wing is not something the provider interface (custody.ts) describes yet.
 */
import {
  DecryptionKey,
  generateEncryptionKeyPair,
  importEncryptionKey,
  isJweAlgorithm,
  type Jwk,
} from '@pqid/jose';
import { type Kek, open, seal } from '../crypto/kek.ts';
import { CustodyError } from './custody.ts';
import { UnknownSigningAlgorithm } from './errors.ts';
import { Handles } from './handles.ts';
import type { Custodian, NewKey } from './operations.ts';
import type { KeyRecord } from './record.ts';

/** Refuses an `alg` the JWE registry does not have. */
export function checkEncryptionAlg(alg: string): void {
  if (!isJweAlgorithm(alg))
    throw new UnknownSigningAlgorithm(`encryption algorithm ${alg} is not in the JWE registry`);
}

export class EncryptionKeys implements Custodian {
  /** The KEK that seals new keys: the signing keys' (one KEK, re-read with it). */
  readonly #kek: () => Kek;
  /** Decryption handles by kid, opened on first need. */
  readonly #handles = new Handles<DecryptionKey>();

  constructor(kek: () => Kek) {
    this.#kek = kek;
  }

  check(alg: string): void {
    checkEncryptionAlg(alg);
  }

  async create(alg: string): Promise<NewKey> {
    checkEncryptionAlg(alg);
    const { privateJwk, publicJwk } = await generateEncryptionKeyPair(alg);
    const kid = String(publicJwk.kid);
    const sealed = seal(this.#kek(), JSON.stringify(privateJwk), kid);
    return {
      publicJwk: publicJwk as Jwk,
      custody: { privateJwk: sealed },
      open: () =>
        this.#handles.keep(kid, importEncryptionKey(privateJwk, { alg }).then(asDecryptionKey(kid))),
    };
  }

  /** The decryption handle of a stored key, opened once (a wrong KEK fails here). */
  open(rec: KeyRecord): Promise<DecryptionKey> {
    return this.#handles.get(rec.kid, async () => {
      if (!rec.privateJwk)
        throw new CustodyError('ERR_KEY_CUSTODY', `encryption key ${rec.kid} has no sealed private key`);
      const jwk = JSON.parse(open(this.#kek(), rec.privateJwk, rec.kid)) as Jwk;
      return asDecryptionKey(rec.kid)(await importEncryptionKey(jwk, { alg: rec.alg }));
    });
  }

  forget(kid: string): void {
    this.#handles.forget(kid);
  }

  retain(live: ReadonlySet<string>): void {
    this.#handles.retain(live);
  }
}

const asDecryptionKey =
  (kid: string) =>
  (k: unknown): DecryptionKey => {
    if (!(k instanceof DecryptionKey))
      throw new CustodyError('ERR_KEY_CUSTODY', `encryption key ${kid} is not private`);
    return k;
  };
