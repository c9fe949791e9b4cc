/**
 * Key custody: where the private half of a signing key lives, and the signer(s) that sign with
 * it. The key manager never signs with key material itself: every key it hands out is a
 * `@pqid/jose` delegated handle over the signer(s) its custody opens — the signer interface
 * `sign(request) → signature`, `publicJwk`, `capabilities` (external μ, maximum message size, …).
 *
 *   sealed    the private JWK sealed under the KEK in the key record (crypto/kek.ts); opened once
 *             per process and signed in-process through `localSigner` (the first custody).
 *   external  a key in a KMS or HSM, referred to by the record (`external`), signed by an
 *             external key provider (external.ts): the private half never enters the process.
 *             A composite's two halves may be two keys, even in two providers.
 */
import {
  type CompositeSigners,
  calculateThumbprint,
  createDelegatedKey,
  type DelegatedSigner,
  generateKeyPair,
  getAlgorithm,
  importJWK,
  type Jwk,
  type KeySigners,
  localSigner,
} from '@pqid/jose';
import { type Kek, open, type Sealed, seal } from '../crypto/kek.ts';
import { IdpError } from '../errors/index.ts';

/** One key in an external provider: the provider's name (config `keys.signers`) and its reference. */
export interface ExternalKeyRef {
  signer: string;
  /** Whatever the provider names keys by: a KMS key ARN, a PKCS#11 label, … Not a secret. */
  ref: string;
}

/** Where an external key is: one key, or a composite's two halves as two keys. */
export type ExternalRef = ExternalKeyRef | { mldsa: ExternalKeyRef; traditional: ExternalKeyRef };

export const isCompositeRef = (r: ExternalRef): r is { mldsa: ExternalKeyRef; traditional: ExternalKeyRef } =>
  'mldsa' in r && 'traditional' in r;

/** The custody part of a key record: exactly one of the two. */
export interface CustodyFields {
  privateJwk?: Sealed;
  external?: ExternalRef;
}

export interface CustodyRecord extends CustodyFields {
  kid: string;
  alg: string;
  publicJwk: Jwk;
}

/**
 * What a KMS/HSM adapter implements: a module named in `keys.signers` (external.ts) or a
 * built-in one (PKCS#11).
 */
export interface ExternalKeyProvider {
  /**
   * The signer of an existing key. Its `publicJwk` is read from the KMS/HSM, and must be the key
   * the record says (checked by thumbprint), so a mis-mapped reference cannot sign.
   */
  signer(ref: string, alg: string): Promise<DelegatedSigner>;
  /**
   * Create a key of `alg` in the KMS/HSM and return its reference. Optional: where keys are made
   * by other means (infrastructure as code), they are registered with `pqid keys import`.
   */
  generate?(alg: string): Promise<string>;
  /** Release sessions and connections. */
  close?(): Promise<void>;
}

export class CustodyError extends IdpError<'ERR_KEY_CUSTODY' | 'ERR_KEY_EXISTS'> {
  constructor(code: 'ERR_KEY_CUSTODY' | 'ERR_KEY_EXISTS', message: string, opts?: ErrorOptions) {
    super(code, message, opts);
  }
}

export interface NewKey extends CustodyFields {
  publicJwk: Jwk;
  /** The private JWK of a key generated here (sealed custody), so it needs no re-opening. */
  signers: KeySigners;
}

export interface KeyCustody {
  /** `sealed`, or the name of an external provider in `keys.signers`. */
  readonly name: string;
  /** In-process signing from a key opened here: no need to re-verify each signature. */
  readonly local: boolean;
  /** A new key of `alg`: its public JWK, what the record keeps, and its signer(s). */
  create(alg: string): Promise<NewKey>;
  /** The signer(s) of a stored key. */
  signers(rec: CustodyRecord): Promise<KeySigners>;
}

/** The first custody: private JWKs sealed under the KEK in the key record. */
export class SealedCustody implements KeyCustody {
  readonly name = 'sealed';
  readonly local = true;
  #kek: Kek;

  constructor(kek: Kek) {
    this.#kek = kek;
  }

  get kek(): Kek {
    return this.#kek;
  }

  /** A re-read KEK (the KEK file changed): opened handles stay, new ones use it. */
  set kek(kek: Kek) {
    this.#kek = kek;
  }

  async create(alg: string): Promise<NewKey> {
    const { privateJwk, publicJwk } = await generateKeyPair(alg);
    const handle = await importJWK(privateJwk, { alg });
    if (handle.type !== 'private') throw new Error('generated key did not import as private');
    return {
      publicJwk,
      privateJwk: seal(this.#kek, JSON.stringify(privateJwk), String(publicJwk.kid)),
      signers: localSigner(handle),
    };
  }

  async signers(rec: CustodyRecord): Promise<KeySigners> {
    if (!rec.privateJwk)
      throw new CustodyError('ERR_KEY_CUSTODY', `key ${rec.kid} has no sealed private key`);
    const jwk = JSON.parse(open(this.#kek, rec.privateJwk, rec.kid)) as Jwk;
    const handle = await importJWK(jwk, { alg: rec.alg });
    if (handle.type !== 'private') throw new Error(`stored key ${rec.kid} is not a private key`);
    return localSigner(handle);
  }
}

/** Keys in external providers, by name. */
export class ExternalCustody implements KeyCustody {
  readonly local = false;
  readonly name: string;
  readonly #providers: ReadonlyMap<string, ExternalKeyProvider>;

  constructor(name: string, providers: ReadonlyMap<string, ExternalKeyProvider>) {
    this.name = name;
    this.#providers = providers;
  }

  #provider(name: string): ExternalKeyProvider {
    const p = this.#providers.get(name);
    if (!p)
      throw new CustodyError(
        'ERR_KEY_CUSTODY',
        `no external signer named ${JSON.stringify(name)} is configured (keys.signers)`,
      );
    return p;
  }

  async create(alg: string): Promise<NewKey> {
    const provider = this.#provider(this.name);
    if (!provider.generate)
      throw new CustodyError(
        'ERR_KEY_CUSTODY',
        `the external signer ${this.name} does not create keys: create one there and register it with \`pqid keys import\``,
      );
    const generate = provider.generate.bind(provider);
    const spec = getAlgorithm(alg);
    const ref: ExternalRef =
      spec.family === 'composite'
        ? {
            mldsa: { signer: this.name, ref: await generate(compositeHalves(alg).mldsa) },
            traditional: { signer: this.name, ref: await generate(compositeHalves(alg).traditional) },
          }
        : { signer: this.name, ref: await generate(alg) };
    const opened = await openExternal(this.#providers, ref, alg);
    return { publicJwk: opened.publicJwk, external: ref, signers: opened.signers };
  }

  async signers(rec: CustodyRecord): Promise<KeySigners> {
    if (!rec.external) throw new CustodyError('ERR_KEY_CUSTODY', `key ${rec.kid} has no external reference`);
    const opened = await openExternal(this.#providers, rec.external, rec.alg);
    if (opened.publicJwk.kid !== rec.kid)
      throw new CustodyError(
        'ERR_KEY_CUSTODY',
        `the external key ${describeRef(rec.external)} is not key ${rec.kid} (its public key has thumbprint ${opened.publicJwk.kid})`,
      );
    return opened.signers;
  }
}

/** The ML-DSA and traditional algorithms of a composite (the halves' signers). */
export function compositeHalves(alg: string): { mldsa: string; traditional: string } {
  const m = /^(ML-DSA-(?:44|65|87))-(.+)$/.exec(alg);
  if (!m) throw new CustodyError('ERR_KEY_CUSTODY', `${alg} is not a composite`);
  return { mldsa: m[1] as string, traditional: m[2] as string };
}

export const describeRef = (r: ExternalRef): string =>
  isCompositeRef(r)
    ? `${r.mldsa.signer}:${r.mldsa.ref} + ${r.traditional.signer}:${r.traditional.ref}`
    : `${r.signer}:${r.ref}`;

/**
 * The signer(s) of an external key and the key's public JWK (with its RFC 7638 kid), built the
 * way `createDelegatedKey` builds it, so imports and opens agree on the kid.
 */
export async function openExternal(
  providers: ReadonlyMap<string, ExternalKeyProvider>,
  ref: ExternalRef,
  alg: string,
): Promise<{ signers: KeySigners; publicJwk: Jwk }> {
  const get = (r: ExternalKeyRef, halfAlg: string) => {
    const p = providers.get(r.signer);
    if (!p)
      throw new CustodyError(
        'ERR_KEY_CUSTODY',
        `no external signer named ${JSON.stringify(r.signer)} is configured (keys.signers)`,
      );
    return p.signer(r.ref, halfAlg);
  };
  let signers: KeySigners;
  if (isCompositeRef(ref)) {
    const halves = compositeHalves(alg);
    signers = {
      mldsa: await get(ref.mldsa, halves.mldsa),
      traditional: await get(ref.traditional, halves.traditional),
    } satisfies CompositeSigners;
  } else {
    signers = await get(ref, alg);
  }
  const handle = await createDelegatedKey(signers, { alg });
  // The kid is the RFC 7638 thumbprint, whatever the provider calls the key.
  const { kid: _theirs, ...pub } = handle.publicKey.jwk as Jwk;
  return { signers, publicJwk: { ...pub, kid: calculateThumbprint(pub as Jwk) } as Jwk };
}
