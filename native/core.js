// Thin ESM layer over the flat N-API binding: addon loading, per-algorithm Scheme objects,
// the SecretKey wrapper and translation of native "ERR_CODE: message" errors to LiboqsError.
import { fileURLToPath } from 'node:url';
import { LiboqsError } from './errors.js';
import { loadNative, REBUILD } from './loader.js';
import { createSignQueue } from './sign-queue.js';

const dir = fileURLToPath(new URL('.', import.meta.url));

/**
 * Power-on self-test (src/selftest.rs): per ML-DSA parameter set and implementation, a
 * known-answer signature and a known-bad verification. An addon that fails it is not used: the
 * import throws ERR_NATIVE_UNAVAILABLE with the reason, so @pqid/jose falls back and reports why.
 * PQID_NATIVE_SELF_TEST_CORRUPT=1 corrupts the expected answer (to test that path).
 */
function selfTest(addon, binary) {
  // biome-ignore lint/style/noProcessEnv: a test switch read at load, before any call could set it
  const r = addon.selfTest(process.env.PQID_NATIVE_SELF_TEST_CORRUPT === '1');
  if (!r.ok) {
    throw new LiboqsError(
      'ERR_NATIVE_UNAVAILABLE',
      `@pqid/liboqs-node native addon failed its power-on self-test and is disabled: ${r.error}`,
      {
        fix: `this binary (${binary.file}) computes wrong ML-DSA results on this machine; do not use it: report it, and build from source with PQID_NATIVE_BUILD_FROM_SOURCE=1 ${REBUILD}`,
      },
    );
  }
  return { ok: true, checks: r.checks, milliseconds: Math.round(r.micros / 10) / 100 };
}

/** Where the loaded addon came from: the prebuilt per-platform package, or a source build. */
export const { addon: native, binary } = loadNative(dir);
export const selfTestResult = selfTest(native, binary);

const ALGORITHMS = ['ML-DSA-44', 'ML-DSA-65', 'ML-DSA-87'];
const CODE = /^(ERR_[A-Z0-9_]+): /;
const NAPI_ARG_CODES = new Set([
  'InvalidArg',
  'ObjectExpected',
  'StringExpected',
  'NumberExpected',
  'BooleanExpected',
]);

/** The typed error rethrow() would throw, as a value (for rejected promises). */
function rejection(e) {
  try {
    rethrow(e);
  } catch (typed) {
    return typed;
  }
}

/** Re-throw a native error as LiboqsError (code parsed from the "ERR_CODE: " prefix). */
export function rethrow(e) {
  if (e instanceof LiboqsError) throw e;
  const msg = typeof e?.message === 'string' ? e.message : '';
  const m = CODE.exec(msg);
  if (m) throw new LiboqsError(m[1], msg.slice(m[0].length));
  if (NAPI_ARG_CODES.has(e?.code)) throw new LiboqsError('ERR_INVALID_ARGUMENT', msg, { cause: e });
  throw e;
}

/** Uint8Array (incl. Buffer) check that also works across realms. */
function bytes(x, name, optional = false) {
  if (x === undefined && optional) return undefined;
  if (ArrayBuffer.isView(x) && x[Symbol.toStringTag] === 'Uint8Array') return x;
  throw new LiboqsError('ERR_INVALID_ARGUMENT', `${name} must be a Uint8Array`);
}

const signQueue = createSignQueue(native, rejection);

/** Tunes signAsync admission (see sign-queue.js); returns the settings and current load. */
export function configureAsyncSigning(options) {
  return signQueue.configure(options);
}

const TOKEN = Symbol('SecretKey');
/** @type {(sk: unknown) => any} */
export let handleOf;

/** @type {(sk: unknown) => string | undefined} */
let compositeIdOf;

/** Opaque secret key: the bytes stay in Rust memory and are zeroised on free()/GC. */
export class SecretKey {
  #h;
  #alg;
  /** For a composite key, the id of its scheme (ML-DSA set, traditional half, Label, pre-hash). */
  #composite;
  constructor(token, handle, algorithm, composite) {
    if (token !== TOKEN)
      throw new TypeError('SecretKey cannot be constructed directly; use keygen/importSecretKey');
    this.#h = handle;
    this.#alg = algorithm;
    this.#composite = composite;
  }
  get algorithm() {
    return this.#alg;
  }
  get freed() {
    return this.#h.freed;
  }
  free() {
    this.#h.free();
  }
  toJSON() {
    throw new LiboqsError('ERR_SECRET_SERIALIZATION', 'SecretKey cannot be serialised');
  }
  toString() {
    return `[SecretKey ${this.#alg}]`;
  }
  [Symbol.for('nodejs.util.inspect.custom')]() {
    return `SecretKey { algorithm: '${this.#alg}', freed: ${this.freed} }`;
  }
  static {
    handleOf = (sk) => {
      if (sk === null || typeof sk !== 'object' || !(#h in sk)) {
        throw new LiboqsError('ERR_INVALID_ARGUMENT', 'secret key must be a SecretKey');
      }
      return sk.#h;
    };
    compositeIdOf = (sk) => sk.#composite;
  }
}
Object.freeze(SecretKey.prototype);

function signArgs(options) {
  if (options === undefined || options === null) return [undefined, undefined, false];
  return [
    bytes(options.context, 'options.context', true),
    bytes(options.rnd, 'options.rnd', true),
    options.deterministic === true,
  ];
}

class NativeScheme {
  #id;
  #ref;
  constructor(id, forceRef) {
    const i = native.schemeInfo(id, forceRef);
    this.#id = id;
    this.#ref = forceRef;
    this.algorithm = ALGORITHMS[id];
    this.publicKeyBytes = i.publicKeyBytes;
    this.secretKeyBytes = i.secretKeyBytes;
    this.signatureBytes = i.signatureBytes;
    this.implementation = i.implementation;
    Object.freeze(this);
  }

  keygen(seed) {
    try {
      const h = native.keygen(this.#id, this.#ref, bytes(seed, 'seed', true));
      const publicKey = h.takePublicKey();
      return { publicKey, secretKey: new SecretKey(TOKEN, h, this.algorithm) };
    } catch (e) {
      rethrow(e);
    }
  }

  importSecretKey(expanded) {
    try {
      return new SecretKey(
        TOKEN,
        native.importSecretKey(this.#id, bytes(expanded, 'secret key')),
        this.algorithm,
      );
    } catch (e) {
      rethrow(e);
    }
  }

  sign(sk, message, options) {
    const h = handleOf(sk);
    const [ctx, rnd, det] = signArgs(options);
    try {
      return native.sign(this.#id, this.#ref, h, bytes(message, 'message'), ctx, rnd, det);
    } catch (e) {
      rethrow(e);
    }
  }

  verify(publicKey, message, signature, context) {
    try {
      return native.verify(
        this.#id,
        this.#ref,
        bytes(publicKey, 'public key'),
        bytes(message, 'message'),
        bytes(signature, 'signature'),
        bytes(context, 'context', true),
      );
    } catch (e) {
      rethrow(e);
    }
  }

  // Not an async function: on the hot path one promise reaction is cheaper than an async frame,
  // and every main-thread microsecond is taken from the pool threads on a 2-core machine.
  signAsync(sk, message, options) {
    let pending;
    try {
      const h = handleOf(sk);
      const [ctx, rnd, det] = signArgs(options);
      pending = signQueue.sign(this.#id, this.#ref, h, bytes(message, 'message'), ctx, rnd, det);
    } catch (e) {
      return Promise.reject(rejection(e));
    }
    return pending;
  }

  async verifyAsync(publicKey, message, signature, context) {
    try {
      return await native.verifyAsync(
        this.#id,
        this.#ref,
        bytes(publicKey, 'public key'),
        bytes(message, 'message'),
        bytes(signature, 'signature'),
        bytes(context, 'context', true),
      );
    } catch (e) {
      rethrow(e);
    }
  }

  /** FIPS 204 signing from a 64-byte external μ; options as for sign (no context). */
  signMu(sk, mu, options) {
    const h = handleOf(sk);
    const [, rnd, det] = signArgs(options);
    try {
      return native.mldsaSignMu(this.#id, this.#ref, h, bytes(mu, 'mu'), rnd, det);
    } catch (e) {
      rethrow(e);
    }
  }

  signMuAsync(sk, mu, options) {
    try {
      const h = handleOf(sk);
      const [, rnd, det] = signArgs(options);
      return native.mldsaSignMuAsync(this.#id, this.#ref, h, bytes(mu, 'mu'), rnd, det).catch((e) => {
        throw rejection(e);
      });
    } catch (e) {
      return Promise.reject(rejection(e));
    }
  }

  /** ACVP internal interface (M′ given directly); exported only via internal.js. */
  _signInternal(sk, mPrime, options) {
    const h = handleOf(sk);
    const [, rnd, det] = signArgs(options);
    try {
      return native.mldsaSignInternal(this.#id, this.#ref, h, bytes(mPrime, 'message'), rnd, det);
    } catch (e) {
      rethrow(e);
    }
  }

  _verifyInternal(publicKey, mPrime, signature, externalMu = false) {
    try {
      return native.mldsaVerifyInternal(this.#id, this.#ref, publicKey, mPrime, signature, externalMu);
    } catch (e) {
      rethrow(e);
    }
  }
}

const TRADITIONAL = ['Ed25519', 'ECDSA-P256', 'ECDSA-P384', 'Ed448'];
const PRE_HASH = ['SHA256', 'SHA512', 'SHAKE256'];
const COMPOSITE = 3;

/** @type {(pk: unknown, schemeId: string) => any} */
let publicHandleOf;
const cache = new Map();

/** Opaque, checked composite public key: parse once, verify many times. */
export class CompositePublicKey {
  #h;
  #scheme;
  constructor(token, handle, schemeId) {
    if (token !== TOKEN) throw new TypeError('use CompositeScheme.publicKey(bytes)');
    this.#h = handle;
    this.#scheme = schemeId;
  }
  static {
    publicHandleOf = (pk, schemeId) => {
      if (pk === null || typeof pk !== 'object' || !(#h in pk)) return undefined;
      if (pk.#scheme !== schemeId)
        throw new LiboqsError(
          'ERR_KEY_ALGORITHM_MISMATCH',
          'the public key belongs to a different composite algorithm',
        );
      return pk.#h;
    };
  }
}
Object.freeze(CompositePublicKey.prototype);

/**
 * Composite ML-DSA (draft-ietf-lamps-pq-composite-sigs): the ML-DSA half and the traditional
 * half (Ed25519, ECDSA P-256/P-384, Ed448: AWS-LC or RustCrypto, see src/trad.rs) are signed, or verified, together in one
 * native call, so signAsync / verifyAsync cost one pool task per composite signature.
 */
class NativeCompositeScheme {
  #native;
  #id;
  #ref;
  #label;
  constructor(spec, forceRef) {
    this.#native = new native.CompositeScheme(
      ALGORITHMS.indexOf(spec.mldsa),
      TRADITIONAL.indexOf(spec.traditional),
      spec.label,
      PRE_HASH.indexOf(spec.preHash),
    );
    this.#id = spec.id;
    this.#ref = forceRef;
    this.#label = new Uint8Array(spec.label);
    this.algorithm = `${spec.mldsa}+${spec.traditional}`;
    this.mldsa = spec.mldsa;
    this.traditional = spec.traditional;
    this.preHash = spec.preHash;
    this.publicKeyBytes = this.#native.publicKeyBytes;
    this.traditionalSecretKeyBytes = this.#native.traditionalSecretKeyBytes;
    this.minSignatureBytes = this.#native.minSignatureBytes;
    this.maxSignatureBytes = this.#native.maxSignatureBytes;
    this.implementation = native.schemeInfo(ALGORITHMS.indexOf(spec.mldsa), forceRef).implementation;
    Object.freeze(this);
  }

  /** The Label (a copy): the ML-DSA half's context and part of M′. */
  get label() {
    return new Uint8Array(this.#label);
  }

  keygen(seed, traditionalSecretKey) {
    try {
      const h = this.#native.keygen(
        this.#ref,
        bytes(seed, 'seed'),
        bytes(traditionalSecretKey, 'traditional secret key'),
      );
      const publicKey = h.takePublicKey();
      return { publicKey, secretKey: new SecretKey(TOKEN, h, this.algorithm, this.#id) };
    } catch (e) {
      rethrow(e);
    }
  }

  publicKey(publicKey) {
    try {
      return new CompositePublicKey(TOKEN, this.#native.publicKey(bytes(publicKey, 'public key')), this.#id);
    } catch (e) {
      rethrow(e);
    }
  }

  #key(sk) {
    const h = handleOf(sk);
    if (compositeIdOf(sk) !== this.#id)
      throw new LiboqsError(
        'ERR_KEY_ALGORITHM_MISMATCH',
        `secret key is not a ${this.algorithm} key of this scheme`,
      );
    return h;
  }

  #public(pk) {
    return publicHandleOf(pk, this.#id) ?? this.#native.publicKey(bytes(pk, 'public key'));
  }

  sign(sk, message, options) {
    const h = this.#key(sk);
    const [ctx, rnd, det] = signArgs(options);
    try {
      return native.sign(COMPOSITE, this.#ref, h, bytes(message, 'message'), ctx, rnd, det);
    } catch (e) {
      rethrow(e);
    }
  }

  signAsync(sk, message, options) {
    try {
      const h = this.#key(sk);
      const [ctx, rnd, det] = signArgs(options);
      return signQueue.sign(COMPOSITE, this.#ref, h, bytes(message, 'message'), ctx, rnd, det);
    } catch (e) {
      return Promise.reject(rejection(e));
    }
  }

  verify(publicKey, message, signature, context) {
    try {
      return native.compositeVerify(
        this.#ref,
        this.#public(publicKey),
        bytes(message, 'message'),
        bytes(signature, 'signature'),
        bytes(context, 'context', true),
      );
    } catch (e) {
      rethrow(e);
    }
  }

  verifyAsync(publicKey, message, signature, context) {
    try {
      return native
        .compositeVerifyAsync(
          this.#ref,
          this.#public(publicKey),
          bytes(message, 'message'),
          bytes(signature, 'signature'),
          bytes(context, 'context', true),
        )
        .catch((e) => {
          throw rejection(e);
        });
    } catch (e) {
      return Promise.reject(rejection(e));
    }
  }
}

/** A composite scheme, cached per parameters and implementation. */
export function composite(params) {
  if (params === null || typeof params !== 'object')
    throw new LiboqsError('ERR_INVALID_ARGUMENT', 'composite() takes { mldsa, traditional, label, preHash }');
  const { mldsa, traditional, preHash } = params;
  if (!ALGORITHMS.includes(mldsa))
    throw new LiboqsError('ERR_INVALID_ALGORITHM', `not an ML-DSA parameter set: ${String(mldsa)}`);
  if (!TRADITIONAL.includes(traditional))
    throw new LiboqsError(
      'ERR_INVALID_ALGORITHM',
      `traditional must be one of ${TRADITIONAL.join(', ')}, got ${String(traditional)}`,
    );
  if (!PRE_HASH.includes(preHash))
    throw new LiboqsError(
      'ERR_INVALID_ARGUMENT',
      `preHash must be one of ${PRE_HASH.join(', ')}, got ${String(preHash)}`,
    );
  const label = bytes(params.label, 'label');
  const impl = params.implementation ?? 'auto';
  if (impl !== 'auto' && impl !== 'ref') {
    throw new LiboqsError(
      'ERR_INVALID_ARGUMENT',
      `implementation must be 'auto' or 'ref', got ${String(impl)}`,
    );
  }
  const id = `${mldsa}+${traditional}/${preHash}/${Buffer.from(label).toString('hex')}`;
  const key = `composite:${id}:${impl}`;
  let s = cache.get(key);
  if (!s) {
    try {
      s = new NativeCompositeScheme({ id, mldsa, traditional, label, preHash }, impl === 'ref');
    } catch (e) {
      rethrow(e);
    }
    cache.set(key, s);
  }
  return s;
}

export function scheme(alg, options) {
  const id = ALGORITHMS.indexOf(alg);
  if (id < 0) throw new LiboqsError('ERR_INVALID_ALGORITHM', `unknown algorithm ${String(alg)}`);
  const impl = options?.implementation ?? 'auto';
  if (impl !== 'auto' && impl !== 'ref') {
    throw new LiboqsError(
      'ERR_INVALID_ARGUMENT',
      `implementation must be 'auto' or 'ref', got ${String(impl)}`,
    );
  }
  const key = `${id}:${impl}`;
  let s = cache.get(key);
  if (!s) {
    try {
      s = new NativeScheme(id, impl === 'ref');
    } catch (e) {
      rethrow(e);
    }
    cache.set(key, s);
  }
  return s;
}

/** Process-wide counters: `seedExpansions` = ML-DSA keys derived from a seed (keygen) so far. */
export function stats() {
  return { seedExpansions: native.stats().seedExpansions };
}

export function info() {
  const n = native.nativeInfo();
  const cpu = { avx2: n.cpu.avx2, popcnt: n.cpu.popcnt, bmi2: n.cpu.bmi2, aesni: n.cpu.aesni };
  if (n.cpu.avx512vl !== undefined && n.cpu.avx512vl !== null) cpu.avx512vl = n.cpu.avx512vl;
  if (n.cpu.neon !== undefined && n.cpu.neon !== null) cpu.neon = n.cpu.neon;
  const implementations = {};
  for (const a of ALGORITHMS) implementations[a] = scheme(a).implementation;
  return {
    mldsaNative: n.mldsaNative,
    sha3: n.sha3,
    keccak: n.keccak,
    build: n.build,
    compiled: [...n.compiled],
    cpu,
    implementations,
    selfTest: selfTestResult,
    binary: { ...binary },
  };
}
