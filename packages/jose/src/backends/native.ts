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
  scheme(alg: MlDsaAlg, options?: { implementation: 'auto' | 'ref' }): NativeScheme;
  info(): {
    liboqsVersion: string;
    build: string;
    implementations: Record<string, string>;
    selfTest: { ok: boolean; checks: number; milliseconds: number };
    /** Absent in builds before the prebuilt packages. */
    binary?: { source: 'prebuilt' | 'source'; package?: string };
  };
}

let mod: NativeModule | undefined;
let loadError: string | undefined;
let loadFix: string | undefined;
try {
  mod = (await import('@pqid/liboqs-node' as string)) as NativeModule;
  mod.info();
} catch (e) {
  mod = undefined;
  loadError = (e as Error).message.split('\n')[0];
  const fix = (e as { fix?: unknown }).fix;
  // Not installed at all: the optional dependency was omitted or is not published for this platform.
  loadFix =
    typeof fix === 'string'
      ? fix
      : (e as { code?: string }).code === 'ERR_MODULE_NOT_FOUND'
        ? 'install @pqid/liboqs-node (an optional dependency of @pqid/jose: was it omitted?)'
        : undefined;
}

// Keys are freed (zeroised) when their JS handle is collected, not only when the process exits.
const finalizer = new FinalizationRegistry<NativeSecretKey>((sk) => sk.free());

/**
 * `native` uses the implementation liboqs would pick (AVX2 where the CPU has it); `native-ref`
 * forces the portable C code of the same addon. native-ref is never chosen automatically:
 * it is there to compare the two code paths (differential tests, benchmarks).
 */
function nativeBackend_(name: 'native' | 'native-ref', implementation: 'auto' | 'ref'): MlDsaBackend {
  const scheme = (alg: MlDsaAlg) => (mod as NativeModule).scheme(alg, { implementation });
  let status: BackendStatus | undefined;
  const computeStatus = (): BackendStatus => {
    if (!mod) {
      return {
        name,
        available: false,
        reason: `@pqid/liboqs-node is not loadable: ${loadError ?? 'unknown error'}`,
        ...(loadFix ? { fix: loadFix } : {}),
        capabilities: { rnd: false, context: false, expandedKeys: false },
      };
    }
    const i = mod.info();
    const from = i.binary ? `, ${i.binary.source === 'prebuilt' ? 'prebuilt' : 'source build'}` : '';
    return {
      name,
      available: true,
      implementation: `liboqs ${i.liboqsVersion} ${scheme('ML-DSA-65').implementation} (${i.build}${from})`,
      selfTest: { ok: i.selfTest.ok, checks: i.selfTest.checks, milliseconds: i.selfTest.milliseconds },
      capabilities: { rnd: true, context: true, expandedKeys: true },
    };
  };
  return {
    name,
    // Cached: the choice of backend happens on every signature, info() crosses into native code.
    status: () => (status ??= computeStatus()),
    publicKeyFromSeed(alg, seed) {
      const { publicKey, secretKey } = scheme(alg).keygen(seed);
      secretKey.free();
      return publicKey;
    },
    prepareSecret(alg, secret) {
      const s = scheme(alg);
      const sk = secret.length === SEED_BYTES ? s.keygen(secret).secretKey : s.importSecretKey(secret);
      const holder = { sk };
      finalizer.register(holder, sk);
      return holder;
    },
    sign(alg, prepared, message, { context, rnd }) {
      const { sk } = prepared as { sk: NativeSecretKey };
      return scheme(alg).signAsync(sk, message, { context, ...(rnd ? { rnd } : {}) });
    },
    signSync(alg, prepared, message, { context, rnd }) {
      const { sk } = prepared as { sk: NativeSecretKey };
      return scheme(alg).sign(sk, message, { context, ...(rnd ? { rnd } : {}) });
    },
    verifySync(alg, publicKey, message, signature, context) {
      try {
        return scheme(alg).verify(publicKey, message, signature, context);
      } catch {
        return false;
      }
    },
    async verify(alg, publicKey, message, signature, context) {
      try {
        return await scheme(alg).verifyAsync(publicKey, message, signature, context);
      } catch {
        return false;
      }
    },
  };
}

export const nativeBackend = nativeBackend_('native', 'auto');
export const nativeRefBackend = nativeBackend_('native-ref', 'ref');
