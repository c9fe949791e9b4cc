import type { MlDsaAlg } from './params.ts';

/** `native-ref` (the native addon's portable C code) is only used when asked for by name. */
export type BackendName = 'native' | 'node' | 'noble' | 'native-ref';

/** What a backend reports about itself: whether it runs here, and if not, why. */
export interface BackendStatus {
  name: BackendName;
  available: boolean;
  /** Why it is unavailable, or a note on what it lacks. */
  reason?: string;
  /** The implementation actually chosen, e.g. `avx2`, `ref`, `OpenSSL 3.5.4`, `noble 0.7.1`. */
  implementation?: string;
  capabilities: BackendCapabilities;
}

export interface BackendCapabilities {
  /** Deterministic signing and caller-supplied `rnd` (needed for byte-exact vectors). */
  rnd: boolean;
  /** A non-empty ML-DSA context string (needed by the composites). */
  context: boolean;
  /** Secret keys in the FIPS 204 expanded encoding, not only 32-byte seeds. */
  expandedKeys: boolean;
}

export interface SignParams {
  context: Uint8Array;
  /** 32 bytes of signing randomness; all zeros is deterministic signing. Absent: hedged. */
  rnd?: Uint8Array;
}

/**
 * The one seam between pqid and an ML-DSA implementation. Secrets are prepared once per key
 * (expanding a seed costs as much as a signature) into whatever the backend signs with.
 */
export interface MlDsaBackend {
  readonly name: BackendName;
  status(): BackendStatus;
  /** FIPS 204 KeyGen from a 32-byte seed: the public key. */
  publicKeyFromSeed(alg: MlDsaAlg, seed: Uint8Array): Uint8Array;
  /** Turn a seed or an expanded secret key into this backend's signing handle. */
  prepareSecret(alg: MlDsaAlg, secret: Uint8Array): unknown;
  /** Off the event loop where the backend can (native, node); the hot path. */
  sign(alg: MlDsaAlg, prepared: unknown, message: Uint8Array, params: SignParams): Promise<Uint8Array>;
  /**
   * Synchronous forms, for callers that cannot await: xml-crypto's SignatureAlgorithm
   * interface (and so node-saml) signs and verifies synchronously.
   */
  signSync(alg: MlDsaAlg, prepared: unknown, message: Uint8Array, params: SignParams): Uint8Array;
  verifySync(
    alg: MlDsaAlg,
    publicKey: Uint8Array,
    message: Uint8Array,
    signature: Uint8Array,
    context: Uint8Array,
  ): boolean;
  verify(
    alg: MlDsaAlg,
    publicKey: Uint8Array,
    message: Uint8Array,
    signature: Uint8Array,
    context: Uint8Array,
  ): Promise<boolean>;
}
