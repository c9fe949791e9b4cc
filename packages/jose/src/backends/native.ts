import { settings, whenConfigured } from '../configure.ts';
import { type MlDsaAlg, SEED_BYTES } from './params.ts';
import type { BackendStatus, CompositeOps, CompositeParams, MlDsaBackend } from './types.ts';

/**
 * @pqid/liboqs-node: mldsa-native with its AVX2/NEON assembly chosen at run time, signing on the
 * libuv pool.
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
  /** Absent in an addon built before liboqs patch 0004. */
  signMuAsync?(sk: NativeSecretKey, mu: Uint8Array, options?: { rnd?: Uint8Array }): Promise<Uint8Array>;
  verifyAsync(
    pk: Uint8Array,
    message: Uint8Array,
    signature: Uint8Array,
    context?: Uint8Array,
  ): Promise<boolean>;
}
type SignOptions = { context?: Uint8Array; rnd?: Uint8Array };
interface NativeCompositeScheme {
  keygen(seed: Uint8Array, traditional: Uint8Array): { publicKey: Uint8Array; secretKey: NativeSecretKey };
  publicKey(bytes: Uint8Array): object;
  sign(sk: NativeSecretKey, message: Uint8Array, options?: SignOptions): Uint8Array;
  signAsync(sk: NativeSecretKey, message: Uint8Array, options?: SignOptions): Promise<Uint8Array>;
  verify(pk: object, message: Uint8Array, signature: Uint8Array): boolean;
  verifyAsync(pk: object, message: Uint8Array, signature: Uint8Array): Promise<boolean>;
}
interface NativeModule {
  scheme(alg: MlDsaAlg, options?: { implementation: 'auto' | 'ref' }): NativeScheme;
  /** Absent in an addon built before composites were native (then the JS path signs them). */
  composite?(params: CompositeParams & { implementation: 'auto' | 'ref' }): NativeCompositeScheme;
  /** The sign queue's admission; returns what is in force. Absent in addons before the queue. */
  configureAsyncSigning?(options?: { slots?: number; maxBatch?: number }): {
    slots: number;
    maxBatch: number;
  };
  info(): {
    /** Where its mldsa-native comes from, e.g. `aws-lc-sys 0.47.0`. */
    mldsaNative: string;
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

// configure({ nativeSigning }) tunes the addon's sign queue; what it leaves out keeps the
// addon's own default, read once here.
const configureQueue = mod?.configureAsyncSigning?.bind(mod);
if (configureQueue) {
  const { slots, maxBatch } = configureQueue();
  whenConfigured((s) => configureQueue({ slots, maxBatch, ...s.nativeSigning }));
}

// Keys are freed (zeroised) when their JS handle is collected, not only when the process exits.
const finalizer = new FinalizationRegistry<NativeSecretKey>((sk) => sk.free());

/** A native signing handle, freed (zeroised) when the holder is collected. */
function hold(sk: NativeSecretKey, publicKey?: Uint8Array): { sk: NativeSecretKey; publicKey?: Uint8Array } {
  const holder = { sk, publicKey };
  finalizer.register(holder, sk);
  return holder;
}

/**
 * The composites this backend leaves to the split path by default: measured side by side
 * (`npm run bench`, docs/BENCHMARKS.md), their split path costs less CPU per token. Ed448: the
 * only Rust Ed448 (`ed448-goldilocks`; AWS-LC has none) costs about twice OpenSSL's, which the
 * split path runs on the thread pool next to the native ML-DSA half.
 */
const SPLIT_BY_DEFAULT: ReadonlySet<CompositeParams['traditional']> = new Set(['Ed448']);

/**
 * `configure({ compositeMode })`, read per use: `split` splits every composite, `whole` signs
 * every one whole, `auto` (the default) takes the cheaper path per algorithm.
 */
export function nativeCompositeWhole(p: CompositeParams): boolean {
  const mode = settings().compositeMode;
  if (mode === 'split') return false;
  if (mode === 'whole') return true;
  return !SPLIT_BY_DEFAULT.has(p.traditional);
}

/**
 * Both halves of a composite in one native call: one pool task per signature, M′ and the
 * pre-hash built in Rust, the traditional half through AWS-LC or RustCrypto (native/README.md).
 */
function compositeOps(implementation: 'auto' | 'ref'): CompositeOps | undefined {
  if (typeof mod?.composite !== 'function') return undefined;
  const native = mod as Required<NativeModule>;
  // The params objects are the registry's constants: one native scheme each.
  const schemes = new WeakMap<CompositeParams, NativeCompositeScheme>();
  const scheme = (p: CompositeParams) => {
    let s = schemes.get(p);
    if (!s) {
      s = native.composite({ ...p, implementation });
      schemes.set(p, s);
    }
    return s;
  };
  const opts = (rnd?: Uint8Array) => (rnd ? { rnd } : undefined);
  return {
    handles: nativeCompositeWhole,
    prepareSecret(p, seed, traditional) {
      const { publicKey, secretKey } = scheme(p).keygen(seed, traditional);
      return { handle: hold(secretKey), publicKey };
    },
    preparePublic: (p, publicKey) => scheme(p).publicKey(publicKey),
    sign: (p, handle, message, { rnd }) =>
      scheme(p).signAsync((handle as { sk: NativeSecretKey }).sk, message, opts(rnd)),
    signSync: (p, handle, message, { rnd }) =>
      scheme(p).sign((handle as { sk: NativeSecretKey }).sk, message, opts(rnd)),
    verify(p, publicKey, message, signature) {
      return scheme(p)
        .verifyAsync(publicKey as object, message, signature)
        .catch(() => false);
    },
    verifySync(p, publicKey, message, signature) {
      try {
        return scheme(p).verify(publicKey as object, message, signature);
      } catch {
        return false;
      }
    },
  };
}

/**
 * `native` uses the implementation the addon picks for this CPU (x86_64-avx2, aarch64-neon); `native-ref`
 * forces the portable C code of the same addon. native-ref is never chosen automatically:
 * it is there to compare the two code paths (differential tests, benchmarks).
 */
function nativeBackend_(name: 'native' | 'native-ref', implementation: 'auto' | 'ref'): MlDsaBackend {
  const scheme = (alg: MlDsaAlg) => (mod as NativeModule).scheme(alg, { implementation });
  const composite = compositeOps(implementation);
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
      implementation: `mldsa-native ${scheme('ML-DSA-65').implementation} (${i.build}${from})`,
      selfTest: { ok: i.selfTest.ok, checks: i.selfTest.checks, milliseconds: i.selfTest.milliseconds },
      capabilities: {
        rnd: true,
        context: true,
        expandedKeys: true,
        externalMu: typeof scheme('ML-DSA-65').signMuAsync === 'function',
      },
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
      if (secret.length !== SEED_BYTES) return hold(s.importSecretKey(secret));
      const { publicKey, secretKey } = s.keygen(secret);
      return hold(secretKey, publicKey);
    },
    publicKeyOf: (_alg, prepared) => (prepared as { publicKey?: Uint8Array }).publicKey,
    /** Which composites it signs whole: `handles`, see nativeCompositeWhole. */
    composite,
    /** External μ (liboqs patch 0004): FIPS 204 signing from line 7 of Algorithm 7, on the pool. */
    signMu(alg, prepared, mu, { rnd }) {
      const { sk } = prepared as { sk: NativeSecretKey };
      const s = scheme(alg);
      if (!s.signMuAsync) return Promise.reject(new Error('this addon has no external μ'));
      return s.signMuAsync(sk, mu, rnd ? { rnd } : undefined);
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
