import type { Algorithm, SecretKey, TraditionalAlgorithm } from './index.js';
export declare const native: typeof import('./binding.js');
export declare function signInternal(
  alg: Algorithm,
  sk: SecretKey,
  mPrime: Uint8Array,
  options?: { rnd?: Uint8Array; deterministic?: boolean; implementation?: 'auto' | 'ref' },
): Uint8Array;
export declare function verifyInternal(
  alg: Algorithm,
  publicKey: Uint8Array,
  mPrime: Uint8Array,
  signature: Uint8Array,
  options?: { externalMu?: boolean; implementation?: 'auto' | 'ref' },
): boolean;
export declare function secretKeyEquals(sk: SecretKey, expected: Uint8Array): boolean;
export declare function traditionalVerify(
  traditional: TraditionalAlgorithm,
  verifier: 'binding' | 'rustcrypto',
  publicKey: Uint8Array,
  message: Uint8Array,
  signature: Uint8Array,
): boolean;
