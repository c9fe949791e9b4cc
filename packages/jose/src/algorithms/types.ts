import type { BackendName } from '../backends/types.ts';
import type { DelegatedMaterial } from './delegate.ts';
import type { Jwk, Material } from './key-types.ts';

export type { Jwk, Material } from './key-types.ts';

export type Kty = 'AKP' | 'EC' | 'OKP' | 'RSA';
export type Family = 'ml-dsa' | 'composite' | 'slh-dsa' | 'classical';

/** What is being signed: the JWS signing input, with its parts for signers that need them (jose). */
export interface SigningInput {
  header: Record<string, unknown>;
  protectedB64: string;
  payload: Uint8Array;
  payloadB64: string;
  /** ASCII(BASE64URL(header) || '.' || BASE64URL(payload)) */
  bytes: Uint8Array;
}

export interface SignOptions {
  /**
   * Reproducible signatures (vectors, tests): ML-DSA components sign with rnd = 0, SLH-DSA with
   * opt_rand = PK.seed (the FIPS 205 deterministic variant).
   */
  deterministic?: boolean;
  backend?: BackendName;
}

/**
 * One registry entry per algorithm: everything that differs between algorithms lives here,
 * so that JWS/JWT/JWKS code is written once and a new algorithm is one more entry.
 */
export interface AlgorithmEntry {
  readonly alg: string;
  readonly family: Family;
  /** Contains a post-quantum component (ML-DSA alone or in a composite, or SLH-DSA). */
  readonly pq: boolean;
  readonly kty: Kty;
  /** Byte sizes of raw public key, private key and signature (ECDSA DER: the maximum). */
  readonly sizes: { publicKey: number; privateKey: number; signature: number };
  readonly description: string;
  /** Undefined when usable here, else why not (e.g. no Ed448 in this runtime). */
  unavailable(): string | undefined;
  /** A fresh key pair as JWKs (without `kid`: the caller adds the thumbprint). */
  generate(opts: {
    seed?: Uint8Array;
    traditionalSecret?: Uint8Array;
  }): Promise<{ publicJwk: Jwk; privateJwk: Jwk }>;
  /** Validates a JWK of this algorithm and returns the key material; throws JwkInvalid. */
  importPublic(jwk: Jwk): Promise<Material>;
  importPrivate(jwk: Jwk): Promise<{ material: Material; publicJwk: Jwk }>;
  /** Signature length check before any crypto: a wrong length can never verify. */
  plausibleSignature(sig: Uint8Array): boolean;
  sign(material: Material, input: SigningInput, opts: SignOptions): Promise<Uint8Array>;
  /**
   * Signs through delegated signer(s) (a KMS/HSM key, or the local sealed-key signer). The
   * result is checked by the caller (length, and a verification under the public key).
   */
  signDelegated(delegated: DelegatedMaterial, input: SigningInput): Promise<Uint8Array>;
  verify(material: Material, input: SigningInput, signature: Uint8Array): Promise<boolean>;
}
