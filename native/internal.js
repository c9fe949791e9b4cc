// Test/benchmark hooks, not part of the public API: FIPS 204 Sign_internal/Verify_internal
// on M′ directly (ACVP "internal interface" groups), the raw binding, and the choice of Keccak
// implementation with counters of what ran.
import { handleOf, native, rethrow, scheme } from './core.js';

export { native };

export function signInternal(alg, sk, mPrime, options) {
  return scheme(
    alg,
    options?.implementation ? { implementation: options.implementation } : undefined,
  )._signInternal(sk, mPrime, options);
}

/** Verify_internal on M′, or with `externalMu` from a 64-byte μ (ACVP's external-μ groups). */
export function verifyInternal(alg, publicKey, mPrime, signature, options) {
  return scheme(
    alg,
    options?.implementation ? { implementation: options.implementation } : undefined,
  )._verifyInternal(publicKey, mPrime, signature, options?.externalMu === true);
}

const TRADITIONAL = ['Ed25519', 'ECDSA-P256', 'ECDSA-P384', 'Ed448'];

/**
 * One traditional half verified alone over `message`, by the binding's verifier (`'binding'`:
 * AWS-LC for ECDSA, ed25519-dalek, ed448-goldilocks) or by RustCrypto's ECDSA (`'rustcrypto'`).
 * Throws LiboqsError (ERR_INVALID_KEY, ERR_INVALID_KEY_LENGTH, …) for a refused public key.
 */
export function traditionalVerify(traditional, verifier, publicKey, message, signature) {
  const id = TRADITIONAL.indexOf(traditional);
  if (id < 0 || (verifier !== 'binding' && verifier !== 'rustcrypto'))
    throw new TypeError('traditionalVerify(traditional, "binding" | "rustcrypto", pk, msg, sig)');
  try {
    return native.traditionalVerify(id, verifier === 'rustcrypto', publicKey, message, signature);
  } catch (e) {
    rethrow(e);
  }
}

/** Constant-time check in Rust that `sk` holds exactly `expected` (secret bytes never reach JS). */
export function secretKeyEquals(sk, expected) {
  return native.secretKeyEquals(handleOf(sk), expected);
}

/** The Keccak implementations (csrc/keccak.c) this binary has and this CPU runs, fastest first. */
export function keccakImplementations() {
  return native.keccakAvailable();
}

function keccakCounts() {
  const counts = {};
  for (const c of native.keccakCount(true)) counts[c.implementation] = { x1: c.x1, x4: c.x4 };
  return counts;
}

/**
 * Runs `fn` with every new hash on Keccak implementation `name` (undefined: the one the addon
 * picked; process-wide: for tests and benchmarks that do one thing at a time) and resolves to
 * its result with the permutations each implementation ran meanwhile:
 * `{ result, ran: { avx512vl: { x1, x4 }, ... } }`.
 */
export async function onKeccak(name, fn) {
  if (name !== undefined && !native.keccakUse(name)) {
    throw new Error(`Keccak implementation ${name} is not available here`);
  }
  const before = keccakCounts();
  try {
    const result = await fn();
    const after = keccakCounts();
    const ran = {};
    for (const [k, v] of Object.entries(after)) {
      ran[k] = { x1: v.x1 - (before[k]?.x1 ?? 0), x4: v.x4 - (before[k]?.x4 ?? 0) };
    }
    return { result, ran };
  } finally {
    native.keccakCount(false);
    native.keccakUse(undefined);
  }
}

/**
 * SHAKE128 (`rate` 168) or SHAKE256 (136) on Keccak implementation `name`: of `input`,
 * absorbed and squeezed `chunk` bytes per call (0: at once), `outlen` bytes; with `x4`, four
 * instances over the four quarters of `input`, `outlen / 4` bytes each (whole blocks).
 */
export function keccakShake(name, rate, input, outlen, options) {
  return native.keccakShake(name, rate, options?.x4 === true, input, outlen, options?.chunk ?? 0);
}
