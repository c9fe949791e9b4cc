/**
 * Raw ML-DSA (FIPS 204, pure) on byte arrays, over whichever backend fits. Used by the JOSE
 * layer, by @pqid/xmldsig, and by tests that run the NIST vectors on every backend.
 */

import { externalMu } from './algorithms/delegate.ts';
import { MlDsaSecretKey } from './algorithms/mldsa-secret.ts';
import {
  isMlDsaAlg,
  MAX_CONTEXT_BYTES,
  MLDSA_PARAMS,
  type MlDsaAlg,
  RND_BYTES,
  SEED_BYTES,
} from './backends/params.ts';
import { backends, chooseBackend, preferredBackend } from './backends/select.ts';
import { countSeedExpansion, expansionStats } from './backends/stats.ts';
import type { BackendName } from './backends/types.ts';
import { InvalidArgument, KeyMismatch, UnsupportedAlgorithm } from './errors.ts';
import { PrivateKey } from './keys/handles.ts';
import { isBytes } from './lib/encoding.ts';
import { materialOf } from './lib/handles.ts';

export { MlDsaSecretKey } from './algorithms/mldsa-secret.ts';
export { MLDSA_PARAMS, type MlDsaAlg } from './backends/params.ts';
export { backends, preferredBackend } from './backends/select.ts';
export type { BackendName, BackendStatus } from './backends/types.ts';

export interface MlDsaSignOptions {
  /** FIPS 204 context string, 0–255 bytes. JOSE uses the empty context. */
  context?: Uint8Array;
  /** Sign with rnd = 32 zero bytes: the same signature every time, on every backend. */
  deterministic?: boolean;
  /** Caller-supplied 32-byte signing randomness (test vectors). */
  rnd?: Uint8Array;
  backend?: BackendName;
}

export interface MlDsaVerifyOptions {
  context?: Uint8Array;
  backend?: BackendName;
}

const EMPTY = new Uint8Array(0);
const ZERO_RND = new Uint8Array(RND_BYTES);

function checkAlg(alg: unknown): MlDsaAlg {
  if (!isMlDsaAlg(alg)) throw new UnsupportedAlgorithm(`not an ML-DSA parameter set: ${String(alg)}`);
  return alg;
}

function checkBytes(name: string, v: unknown, ...lengths: number[]): Uint8Array {
  if (!isBytes(v)) throw new InvalidArgument(`${name} must be a Uint8Array`);
  if (lengths.length && !lengths.includes(v.length)) {
    throw new InvalidArgument(`${name} must be ${lengths.join(' or ')} bytes, got ${v.length}`);
  }
  return v;
}

export function checkContext(context: unknown): Uint8Array {
  if (context === undefined) return EMPTY;
  const c = checkBytes('context', context);
  if (c.length > MAX_CONTEXT_BYTES)
    throw new InvalidArgument(`context must be at most 255 bytes, got ${c.length}`);
  return c;
}

/** Resolves sign options to the rnd the backend gets: zeros, the caller's bytes, or none (hedged). */
export function signingRnd(opts: Pick<MlDsaSignOptions, 'deterministic' | 'rnd'>): Uint8Array | undefined {
  if (opts.deterministic && opts.rnd) throw new InvalidArgument('pass either deterministic or rnd, not both');
  if (opts.rnd !== undefined) return checkBytes('rnd', opts.rnd, RND_BYTES);
  return opts.deterministic ? ZERO_RND : undefined;
}

/** A secret key as the raw API takes it: 32-byte seed, expanded key, or prepared. */
export type MlDsaSecretInput = Uint8Array | MlDsaSecretKey;

/**
 * The backend for a signature and the key's handle on it. A prepared key is prepared once per
 * backend; bytes are prepared (a seed: expanded) on every call, which prepareKey() avoids.
 */
function keyOnBackend(
  a: MlDsaAlg,
  secretKey: MlDsaSecretInput,
  need: Omit<Parameters<typeof chooseBackend>[0], 'expandedKeys'>,
  backendName: BackendName | undefined,
) {
  const prepared = secretKey instanceof MlDsaSecretKey ? secretKey : undefined;
  if (prepared && prepared.alg !== a)
    throw new KeyMismatch(`the prepared key is for ${prepared.alg}, not ${a}`);
  const sk = prepared ? undefined : checkBytes('secretKey', secretKey, SEED_BYTES, MLDSA_PARAMS[a].secretKey);
  const fromSeed = prepared ? prepared.fromSeed : sk?.length === SEED_BYTES;
  const backend = chooseBackend({ ...need, expandedKeys: !fromSeed }, backendName);
  if (prepared) return { backend, handle: prepared.prepared(backend) };
  const handle = backend.prepareSecret(a, sk as Uint8Array);
  if (fromSeed) countSeedExpansion();
  return { backend, handle };
}

function signArgs(alg: MlDsaAlg, secretKey: MlDsaSecretInput, message: Uint8Array, opts: MlDsaSignOptions) {
  const a = checkAlg(alg);
  if (!(secretKey instanceof MlDsaSecretKey))
    checkBytes('secretKey', secretKey, SEED_BYTES, MLDSA_PARAMS[a].secretKey);
  const msg = checkBytes('message', message);
  const context = checkContext(opts.context);
  const rnd = signingRnd(opts);
  const { backend, handle } = keyOnBackend(
    a,
    secretKey,
    { rnd: rnd !== undefined, context: context.length > 0 },
    opts.backend,
  );
  return { a, backend, prepared: handle, msg, params: { context, ...(rnd ? { rnd } : {}) } };
}

/** Undefined when the inputs are well-formed, false when they cannot possibly verify. */
function verifyArgs(
  alg: MlDsaAlg,
  publicKey: Uint8Array,
  message: Uint8Array,
  signature: Uint8Array,
  opts: MlDsaVerifyOptions,
) {
  const a = checkAlg(alg);
  const pk = checkBytes('publicKey', publicKey, MLDSA_PARAMS[a].publicKey);
  const msg = checkBytes('message', message);
  const sig = checkBytes('signature', signature);
  const context = checkContext(opts.context);
  const backend = chooseBackend({ context: context.length > 0 }, opts.backend);
  return { a, pk, msg, sig, context, backend, plausible: sig.length === MLDSA_PARAMS[a].signature };
}

export const mldsa = {
  backends,
  preferredBackend,

  /**
   * A secret key prepared for signing: a 32-byte seed is expanded (FIPS 204 KeyGen) once here
   * instead of on every `sign`. Also takes an expanded key, or a JOSE `PrivateKey` of this
   * algorithm (whose own prepared key is returned, shared with JOSE signing).
   */
  prepareKey(alg: MlDsaAlg, secretKey: Uint8Array | PrivateKey, opts: { backend?: BackendName } = {}) {
    const a = checkAlg(alg);
    if (secretKey instanceof PrivateKey) {
      const m = materialOf(secretKey);
      if (secretKey.alg !== a || !(m instanceof MlDsaSecretKey))
        throw new KeyMismatch(`the key is for ${secretKey.alg}, not ${a}`);
      return m;
    }
    const sk = checkBytes('secretKey', secretKey, SEED_BYTES, MLDSA_PARAMS[a].secretKey);
    return MlDsaSecretKey.from(
      a,
      sk,
      chooseBackend({ expandedKeys: sk.length !== SEED_BYTES }, opts.backend),
    );
  },

  /**
   * Process-wide counters: `seedExpansions` is how many times a seed was expanded into a key by
   * any backend (key imports, prepareKey, and each `sign` given seed bytes); `compositeSigns`
   * how composite signatures were made (`whole` / `split` / `delegated`, see backends/stats.ts).
   */
  stats: expansionStats,

  /** FIPS 204 ML-DSA.KeyGen_internal from a 32-byte seed. The seed is the JOSE private key. */
  async keygen(alg: MlDsaAlg, seed: Uint8Array, opts: { backend?: BackendName } = {}) {
    const a = checkAlg(alg);
    const s = checkBytes('seed', seed, SEED_BYTES);
    return { publicKey: chooseBackend({}, opts.backend).publicKeyFromSeed(a, s), secretKey: s };
  },

  /**
   * Sign with a prepared key (`prepareKey`), a 32-byte seed or a FIPS 204 expanded secret key;
   * off the event loop where the backend can. Bytes are prepared again on every call.
   */
  async sign(alg: MlDsaAlg, secretKey: MlDsaSecretInput, message: Uint8Array, opts: MlDsaSignOptions = {}) {
    const { a, backend, prepared, msg, params } = signArgs(alg, secretKey, message, opts);
    return backend.sign(a, prepared, msg, params);
  },

  /** False for any signature that does not verify, including one of the wrong length. */
  async verify(
    alg: MlDsaAlg,
    publicKey: Uint8Array,
    message: Uint8Array,
    signature: Uint8Array,
    opts: MlDsaVerifyOptions = {},
  ) {
    const v = verifyArgs(alg, publicKey, message, signature, opts);
    return v.plausible && v.backend.verify(v.a, v.pk, v.msg, v.sig, v.context);
  },

  /**
   * FIPS 204 external μ = H(H(pk, 64) ‖ 0x00 ‖ |ctx| ‖ ctx ‖ M, 64): what a signer with external μ
   * (AWS KMS `EXTERNAL_MU`, signMu) signs instead of the message. 64 bytes.
   */
  mu(
    alg: MlDsaAlg,
    publicKey: Uint8Array,
    message: Uint8Array,
    opts: { context?: Uint8Array } = {},
  ): Uint8Array {
    const a = checkAlg(alg);
    return externalMu(
      checkBytes('publicKey', publicKey, MLDSA_PARAMS[a].publicKey),
      checkBytes('message', message),
      checkContext(opts.context),
    );
  },

  /** Signs a 64-byte μ (FIPS 204 Algorithm 7 from line 7); the signature is the message's. */
  async signMu(
    alg: MlDsaAlg,
    secretKey: MlDsaSecretInput,
    mu: Uint8Array,
    opts: Pick<MlDsaSignOptions, 'deterministic' | 'rnd' | 'backend'> = {},
  ): Promise<Uint8Array> {
    const a = checkAlg(alg);
    if (!(secretKey instanceof MlDsaSecretKey))
      checkBytes('secretKey', secretKey, SEED_BYTES, MLDSA_PARAMS[a].secretKey);
    const m = checkBytes('mu', mu, 64);
    const rnd = signingRnd(opts);
    const { backend, handle } = keyOnBackend(
      a,
      secretKey,
      { externalMu: true, rnd: rnd !== undefined },
      opts.backend,
    );
    return (backend.signMu as NonNullable<typeof backend.signMu>)(a, handle, m, rnd ? { rnd } : {});
  },

  /** Blocking forms, for synchronous callers such as xml-crypto's SignatureAlgorithm. */
  signSync(
    alg: MlDsaAlg,
    secretKey: MlDsaSecretInput,
    message: Uint8Array,
    opts: MlDsaSignOptions = {},
  ): Uint8Array {
    const { a, backend, prepared, msg, params } = signArgs(alg, secretKey, message, opts);
    return backend.signSync(a, prepared, msg, params);
  },

  verifySync(
    alg: MlDsaAlg,
    publicKey: Uint8Array,
    message: Uint8Array,
    signature: Uint8Array,
    opts: MlDsaVerifyOptions = {},
  ): boolean {
    const v = verifyArgs(alg, publicKey, message, signature, opts);
    return v.plausible && v.backend.verifySync(v.a, v.pk, v.msg, v.sig, v.context);
  },
};
