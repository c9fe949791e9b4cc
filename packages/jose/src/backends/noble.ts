import { ml_dsa44, ml_dsa65, ml_dsa87 } from '@noble/post-quantum/ml-dsa.js';
import { slh_dsa_sha2_128f, slh_dsa_sha2_128s, slh_dsa_shake_128s } from '@noble/post-quantum/slh-dsa.js';
import { type MlDsaAlg, SEED_BYTES, type SlhDsaAlg, slhDsaSeedBytes } from './params.ts';
import type { BackendStatus, MlDsaBackend, SlhDsaOps } from './types.ts';

/** @noble/post-quantum: pure JS, runs everywhere, slowest. Synchronous, so it blocks the loop. */
const impl = { 'ML-DSA-44': ml_dsa44, 'ML-DSA-65': ml_dsa65, 'ML-DSA-87': ml_dsa87 } as const;
const slh = {
  'SLH-DSA-SHA2-128s': slh_dsa_sha2_128s,
  'SLH-DSA-SHA2-128f': slh_dsa_sha2_128f,
  'SLH-DSA-SHAKE-128s': slh_dsa_shake_128s,
} as const satisfies Record<SlhDsaAlg, unknown>;

class NobleSecret {
  readonly #sk: Uint8Array;
  readonly publicKey: Uint8Array | undefined;
  constructor(sk: Uint8Array, publicKey?: Uint8Array) {
    this.#sk = sk;
    this.publicKey = publicKey;
  }
  get bytes(): Uint8Array {
    return this.#sk;
  }
}

const slhDsa: SlhDsaOps = {
  keygenFromSeed: (alg, seed) => {
    if (seed.length !== slhDsaSeedBytes(alg)) throw new RangeError('SLH-DSA seed length');
    return slh[alg].keygen(seed);
  },
  generate: async (alg) => slh[alg].keygen(),
  prepareSecret: (_alg, sk) => new NobleSecret(sk),
  signSync(alg, prepared, message, { context, rnd }) {
    return slh[alg].sign(message, (prepared as NobleSecret).bytes, {
      context,
      ...(rnd ? { extraEntropy: rnd } : {}),
    });
  },
  async sign(alg, prepared, message, params) {
    return this.signSync(alg, prepared, message, params);
  },
  verifySync(alg, publicKey, message, signature, context) {
    try {
      return slh[alg].verify(signature, message, publicKey, { context });
    } catch {
      return false;
    }
  },
  async verify(alg, publicKey, message, signature, context) {
    return this.verifySync(alg, publicKey, message, signature, context);
  },
};

export const nobleBackend: MlDsaBackend = {
  name: 'noble',
  slhDsa,
  status(): BackendStatus {
    return {
      name: 'noble',
      available: true,
      implementation: '@noble/post-quantum (pure JS)',
      capabilities: { rnd: true, context: true, expandedKeys: true, externalMu: true, slhDsa: { rnd: true } },
    };
  },
  publicKeyFromSeed(alg: MlDsaAlg, seed: Uint8Array) {
    return impl[alg].keygen(seed).publicKey;
  },
  prepareSecret(alg: MlDsaAlg, secret: Uint8Array) {
    if (secret.length !== SEED_BYTES) return new NobleSecret(secret);
    const k = impl[alg].keygen(secret);
    return new NobleSecret(k.secretKey, k.publicKey);
  },
  publicKeyOf: (_alg, prepared) => (prepared as NobleSecret).publicKey,
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
  async signMu(alg, prepared, mu, { rnd }) {
    // noble's internal interface with externalMu starts FIPS 204 Algorithm 7 at line 7.
    return impl[alg].internal.sign(mu, (prepared as NobleSecret).bytes, {
      externalMu: true,
      ...(rnd ? { extraEntropy: rnd } : {}),
    });
  },
  async verify(alg, publicKey, message, signature, context) {
    return this.verifySync(alg, publicKey, message, signature, context);
  },
};
