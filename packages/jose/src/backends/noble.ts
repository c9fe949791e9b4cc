import { ml_dsa44, ml_dsa65, ml_dsa87 } from '@noble/post-quantum/ml-dsa.js';
import { type MlDsaAlg, SEED_BYTES } from './params.ts';
import type { BackendStatus, MlDsaBackend } from './types.ts';

/** @noble/post-quantum: pure JS, runs everywhere, slowest. Synchronous, so it blocks the loop. */
const impl = { 'ML-DSA-44': ml_dsa44, 'ML-DSA-65': ml_dsa65, 'ML-DSA-87': ml_dsa87 } as const;

class NobleSecret {
  readonly #sk: Uint8Array;
  constructor(sk: Uint8Array) {
    this.#sk = sk;
  }
  get bytes(): Uint8Array {
    return this.#sk;
  }
}

export const nobleBackend: MlDsaBackend = {
  name: 'noble',
  status(): BackendStatus {
    return {
      name: 'noble',
      available: true,
      implementation: '@noble/post-quantum (pure JS)',
      capabilities: { rnd: true, context: true, expandedKeys: true },
    };
  },
  publicKeyFromSeed(alg: MlDsaAlg, seed: Uint8Array) {
    return impl[alg].keygen(seed).publicKey;
  },
  prepareSecret(alg: MlDsaAlg, secret: Uint8Array) {
    return new NobleSecret(secret.length === SEED_BYTES ? impl[alg].keygen(secret).secretKey : secret);
  },
  signSync(alg, prepared, message, { context, rnd }) {
    return impl[alg].sign(message, (prepared as NobleSecret).bytes, {
      context,
      ...(rnd ? { extraEntropy: rnd } : {}),
    });
  },
  verifySync(alg, publicKey, message, signature, context) {
    try {
      return impl[alg].verify(signature, message, publicKey, { context });
    } catch {
      return false;
    }
  },
  async sign(alg, prepared, message, params) {
    return this.signSync(alg, prepared, message, params);
  },
  async verify(alg, publicKey, message, signature, context) {
    return this.verifySync(alg, publicKey, message, signature, context);
  },
};
