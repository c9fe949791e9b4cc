import { type MlDsaAlg, SEED_BYTES } from './params.ts';
import type { BackendStatus, MlDsaBackend } from './types.ts';

/**
 * @pqid/liboqs-node: liboqs with AVX2 and runtime CPU dispatch, signing on the libuv pool.
 * It is an optional dependency: when its build was impossible, this backend reports why and
 * the selector falls back. Only the surface used here is typed, to keep the seam thin.
 */
interface NativeSecretKey {
  free(): void;
}
interface NativeScheme {
  readonly implementation: string;
  keygen(seed: Uint8Array): { publicKey: Uint8Array; secretKey: NativeSecretKey };
  importSecretKey(expanded: Uint8Array): NativeSecretKey;
  sign(
    sk: NativeSecretKey,
    message: Uint8Array,
    options?: { context?: Uint8Array; rnd?: Uint8Array },
  ): Uint8Array;
  verify(pk: Uint8Array, message: Uint8Array, signature: Uint8Array, context?: Uint8Array): boolean;
  signAsync(
    sk: NativeSecretKey,
    message: Uint8Array,
    options?: { context?: Uint8Array; rnd?: Uint8Array },
  ): Promise<Uint8Array>;
  verifyAsync(
    pk: Uint8Array,
    message: Uint8Array,
    signature: Uint8Array,
    context?: Uint8Array,
  ): Promise<boolean>;
}
interface NativeModule {
  scheme(alg: MlDsaAlg): NativeScheme;
  info(): { liboqsVersion: string; build: string; implementations: Record<string, string> };
}

let mod: NativeModule | undefined;
let loadError: string | undefined;
try {
  mod = (await import('@pqid/liboqs-node' as string)) as NativeModule;
  mod.info();
} catch (e) {
  mod = undefined;
  loadError = (e as Error).message.split('\n')[0];
}

// Keys are freed (zeroised) when their JS handle is collected, not only when the process exits.
const finalizer = new FinalizationRegistry<NativeSecretKey>((sk) => sk.free());

let status: BackendStatus | undefined;
function computeStatus(): BackendStatus {
  if (!mod) {
    return {
      name: 'native',
      available: false,
      reason: `@pqid/liboqs-node is not loadable: ${loadError ?? 'unknown error'}`,
      capabilities: { rnd: false, context: false, expandedKeys: false },
    };
  }
  const i = mod.info();
  return {
    name: 'native',
    available: true,
    implementation: `liboqs ${i.liboqsVersion} ${i.implementations['ML-DSA-65'] ?? ''} (${i.build})`.trim(),
    capabilities: { rnd: true, context: true, expandedKeys: true },
  };
}

export const nativeBackend: MlDsaBackend = {
  name: 'native',
  // Cached: the choice of backend happens on every signature, info() crosses into native code.
  status: () => (status ??= computeStatus()),
  publicKeyFromSeed(alg, seed) {
    const { publicKey, secretKey } = (mod as NativeModule).scheme(alg).keygen(seed);
    secretKey.free();
    return publicKey;
  },
  prepareSecret(alg, secret) {
    const s = (mod as NativeModule).scheme(alg);
    const sk = secret.length === SEED_BYTES ? s.keygen(secret).secretKey : s.importSecretKey(secret);
    const holder = { sk };
    finalizer.register(holder, sk);
    return holder;
  },
  sign(alg, prepared, message, { context, rnd }) {
    const { sk } = prepared as { sk: NativeSecretKey };
    return (mod as NativeModule).scheme(alg).signAsync(sk, message, { context, ...(rnd ? { rnd } : {}) });
  },
  signSync(alg, prepared, message, { context, rnd }) {
    const { sk } = prepared as { sk: NativeSecretKey };
    return (mod as NativeModule).scheme(alg).sign(sk, message, { context, ...(rnd ? { rnd } : {}) });
  },
  verifySync(alg, publicKey, message, signature, context) {
    try {
      return (mod as NativeModule).scheme(alg).verify(publicKey, message, signature, context);
    } catch {
      return false;
    }
  },
  async verify(alg, publicKey, message, signature, context) {
    try {
      return await (mod as NativeModule).scheme(alg).verifyAsync(publicKey, message, signature, context);
    } catch {
      return false;
    }
  },
};
