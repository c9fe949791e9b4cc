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
export type KeccakImplementation = 'avx512vl' | 'avx2' | 'portable';
export declare function keccakImplementations(): KeccakImplementation[];
export declare function onKeccak<T>(
  name: KeccakImplementation | undefined,
  fn: () => T | Promise<T>,
): Promise<{ result: T; ran: Record<KeccakImplementation, { x1: number; x4: number }> }>;
export declare function keccakShake(
  name: KeccakImplementation,
  rate: 136 | 168,
  input: Uint8Array,
  outlen: number,
  options?: { x4?: boolean; chunk?: number },
): Uint8Array;
