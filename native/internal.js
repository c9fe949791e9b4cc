// Test/benchmark hooks, not part of the public API: FIPS 204 Sign_internal/Verify_internal
// on M′ directly (ACVP "internal interface" groups) and the raw binding.
import { handleOf, native, scheme } from './core.js';

export { native };

export function signInternal(alg, sk, mPrime, options) {
  return scheme(
    alg,
    options?.implementation ? { implementation: options.implementation } : undefined,
  )._signInternal(sk, mPrime, options);
}

export function verifyInternal(alg, publicKey, mPrime, signature) {
  return scheme(alg)._verifyInternal(publicKey, mPrime, signature);
}

/** Constant-time check in Rust that `sk` holds exactly `expected` (secret bytes never reach JS). */
export function secretKeyEquals(sk, expected) {
  return native.secretKeyEquals(handleOf(sk), expected);
}
