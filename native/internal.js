// Test/benchmark hooks, not part of the public API: FIPS 204 Sign_internal/Verify_internal
// on M′ directly (ACVP "internal interface" groups) and the raw binding.
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
