/** Shapes shared by the JWE modules: registry entries for `alg` and `enc`. */
import type { HpkeSuite } from '../hpke/suite.ts';

export type { HpkeSuite };

/**
 * How an `alg` determines the content encryption key (RFC 7516 §2, plus Integrated Encryption
 * from draft-ietf-jose-hpke-encrypt): HPKE encrypts either the plaintext itself (`integrated`,
 * no `enc`, empty IV and tag) or a random CEK (`key-encryption`, `ek` header).
 */
export type KeyManagementMode =
  | 'integrated'
  | 'key-encryption'
  | 'key-agreement'
  | 'key-agreement-with-key-wrapping';

export type JweFamily = 'hpke' | 'classical';

/** A key type an `alg` accepts: the JWK `kty` and, for EC/OKP, the curve. */
export interface JweKeyType {
  kty: 'AKP' | 'EC' | 'OKP' | 'RSA';
  crv?: string;
}

/** One entry per JWE `alg`: everything that differs between key management algorithms. */
export interface JweAlgorithmEntry {
  readonly alg: string;
  readonly family: JweFamily;
  readonly mode: KeyManagementMode;
  /** Protected against a quantum adversary: ML-KEM alone or in a hybrid. */
  readonly pq: boolean;
  /** PQ/T hybrid: stays confidential while either ML-KEM or the elliptic curve holds. */
  readonly hybrid: boolean;
  /** Key types the algorithm accepts; the first one is what `generateEncryptionKeyPair` makes. */
  readonly keyTypes: readonly JweKeyType[];
  /** HPKE algorithms only. */
  readonly hpke?: HpkeSuite;
  /**
   * Bytes this algorithm adds to a JWE before base64url: the encapsulated secret (the JWE
   * Encrypted Key in Integrated Encryption, `ek` in Key Encryption) and the HPKE AEAD tag.
   * Classical entries: 0 for ECDH-ES (an `epk` JWK instead), the RSA modulus for RSA-OAEP.
   */
  readonly sizes: { publicKey: number; privateKey: number; encapsulatedSecret: number; aeadTag: number };
  /** The document and revision the identifier comes from. */
  readonly standard: string;
  readonly description: string;
}

/** One entry per JWE `enc` (RFC 7518 §5): key, IV and tag sizes in bytes. */
export interface ContentEncryptionEntry {
  readonly enc: string;
  readonly keyBytes: number;
  readonly ivBytes: number;
  readonly tagBytes: number;
}
