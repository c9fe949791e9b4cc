import type { MlDsaAlg, SlhDsaAlg } from './params.ts';

/**
 * Every backend, in the order automatic selection tries them. `native-ref` (the native addon's
 * portable C code) is only used when asked for by name.
 */
export const BACKEND_NAMES = ['native', 'node', 'noble', 'native-ref'] as const;
export type BackendName = (typeof BACKEND_NAMES)[number];

/** What a backend reports about itself: whether it runs here, and if not, why. */
export interface BackendStatus {
  name: BackendName;
  available: boolean;
  /** Why it is unavailable, or a note on what it lacks. */
  reason?: string;
  /** When unavailable and it can be fixed: what to do, in words (e.g. which tools to install). */
  fix?: string;
  /** The power-on self-test, for a backend that runs one (native); it does not load if it fails. */
  selfTest?: { ok: boolean; checks: number; milliseconds: number };
  /** The implementation actually chosen, e.g. `x86_64-avx2`, `ref`, `OpenSSL 3.5.4`, `noble 0.7.1`. */
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
  /** ML-DSA signing of a caller-computed μ (FIPS 204 Algorithm 7 from line 6; ExternalMu-ML-DSA). */
  externalMu?: boolean;
  /** SLH-DSA (FIPS 205); `rnd`: deterministic signing and caller-supplied opt_rand. Absent: no SLH-DSA. */
  slhDsa?: { rnd: boolean };
}

export interface SignParams {
  context: Uint8Array;
  /**
   * ML-DSA: 32 bytes of signing randomness, all zeros being deterministic signing.
   * SLH-DSA: opt_rand (n bytes), PK.seed being deterministic signing (FIPS 205 §10.2.1).
   * Absent: hedged, from the backend's own randomness.
   */
  rnd?: Uint8Array;
}

/** One composite ML-DSA algorithm, as draft-ietf-jose-pq-composite-sigs-05 defines it. */
export interface CompositeParams {
  mldsa: MlDsaAlg;
  traditional: 'Ed25519' | 'ECDSA-P256' | 'ECDSA-P384' | 'Ed448';
  /** The Label: the ML-DSA half's context and part of M′. */
  label: Uint8Array;
  preHash: 'SHA256' | 'SHA512' | 'SHAKE256';
}

/**
 * Composite signatures done whole by the backend (both halves, M′ and the pre-hash), so that one
 * composite costs the event loop what one ML-DSA signature does. Backends without it leave the
 * composite to the JS path (ML-DSA half on the backend, traditional half through node:crypto).
 */
export interface CompositeOps {
  /**
   * Whether this composite is signed and verified whole here; false leaves it to the JS path
   * (native: where the split path costs less CPU per token, see docs/BENCHMARKS.md).
   */
  handles(p: CompositeParams): boolean;
  /**
   * Both halves from the ML-DSA seed and the raw traditional key (EdDSA seed or ECDSA d): the
   * signing handle and the composite public key derived from them.
   */
  prepareSecret(
    p: CompositeParams,
    seed: Uint8Array,
    traditional: Uint8Array,
  ): { handle: unknown; publicKey: Uint8Array };
  /** A checked public key (throws for an ECDSA point off the curve). */
  preparePublic(p: CompositeParams, publicKey: Uint8Array): unknown;
  /** Signs the JWS signing input itself (the backend builds M′). `rnd` as for ML-DSA. */
  sign(
    p: CompositeParams,
    handle: unknown,
    message: Uint8Array,
    params: { rnd?: Uint8Array },
  ): Promise<Uint8Array>;
  signSync(
    p: CompositeParams,
    handle: unknown,
    message: Uint8Array,
    params: { rnd?: Uint8Array },
  ): Uint8Array;
  /** False for every invalid signature, whatever is wrong with it. */
  verify(
    p: CompositeParams,
    publicKey: unknown,
    message: Uint8Array,
    signature: Uint8Array,
  ): Promise<boolean>;
  verifySync(p: CompositeParams, publicKey: unknown, message: Uint8Array, signature: Uint8Array): boolean;
}

/**
 * The one seam between pqid and an ML-DSA implementation. Secrets are prepared once per key
 * (expanding a seed costs as much as a signature) into whatever the backend signs with.
 */
export interface MlDsaBackend {
  readonly name: BackendName;
  /** SLH-DSA on this backend, when it has it (see BackendCapabilities.slhDsa). */
  readonly slhDsa?: SlhDsaOps;
  /**
   * Signs μ = H(tr ‖ M′) computed by the caller (external μ), when capabilities.externalMu.
   * The signature is the one sign() gives for the message μ was computed from.
   */
  signMu?(
    alg: MlDsaAlg,
    prepared: unknown,
    mu: Uint8Array,
    params: { rnd?: Uint8Array },
  ): Promise<Uint8Array>;
  status(): BackendStatus;
  /** FIPS 204 KeyGen from a 32-byte seed: the public key. */
  publicKeyFromSeed(alg: MlDsaAlg, seed: Uint8Array): Uint8Array;
  /** Turn a seed or an expanded secret key into this backend's signing handle. */
  prepareSecret(alg: MlDsaAlg, secret: Uint8Array): unknown;
  /** The public key of a handle prepared from a seed (so importing a key expands it once). */
  publicKeyOf(alg: MlDsaAlg, prepared: unknown): Uint8Array | undefined;
  /** Whole composites in one backend call; absent where the backend has no such path. */
  readonly composite?: CompositeOps;
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

/**
 * SLH-DSA (FIPS 205, pure, with a context string) on one backend. Secret keys are the 4n-byte
 * FIPS 205 encoding, public keys 2n bytes; `prepareSecret` turns a secret key into whatever the
 * backend signs with (a KeyObject for node:crypto).
 */
export interface SlhDsaOps {
  /** slh_keygen_internal from SK.seed‖SK.prf‖PK.seed (3n bytes); absent when the backend cannot. */
  keygenFromSeed?(alg: SlhDsaAlg, seed: Uint8Array): { publicKey: Uint8Array; secretKey: Uint8Array };
  /** A fresh key pair from the backend's own randomness. */
  generate(alg: SlhDsaAlg): Promise<{ publicKey: Uint8Array; secretKey: Uint8Array }>;
  prepareSecret(alg: SlhDsaAlg, secretKey: Uint8Array): unknown;
  sign(alg: SlhDsaAlg, prepared: unknown, message: Uint8Array, params: SignParams): Promise<Uint8Array>;
  signSync(alg: SlhDsaAlg, prepared: unknown, message: Uint8Array, params: SignParams): Uint8Array;
  verify(
    alg: SlhDsaAlg,
    publicKey: Uint8Array,
    message: Uint8Array,
    signature: Uint8Array,
    context: Uint8Array,
  ): Promise<boolean>;
  verifySync(
    alg: SlhDsaAlg,
    publicKey: Uint8Array,
    message: Uint8Array,
    signature: Uint8Array,
    context: Uint8Array,
  ): boolean;
}
