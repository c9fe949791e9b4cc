/**
 * Raw SLH-DSA (FIPS 205, pure, with a context string) on byte arrays, over whichever backend
 * fits: the SLH-DSA counterpart of `mldsa`, used by @pqid/xmldsig and the vector tests.
 * Secret keys are the 4n-byte FIPS 205 encoding (the JWK "priv"), public keys 2n bytes.
 */
import {
  SlhDsaSecret,
  slhDsaKeygen,
  slhDsaSign,
  slhDsaSignSync,
  slhDsaVerify,
  slhDsaVerifySync,
} from './algorithms/slhdsa.ts';
import { isSlhDsaAlg, SLHDSA_PARAMS, type SlhDsaAlg } from './backends/params.ts';
import { chooseSlhDsa } from './backends/select.ts';
import type { BackendName } from './backends/types.ts';
import { InvalidArgument, UnsupportedAlgorithm } from './errors.ts';
import { isBytes } from './lib/encoding.ts';
import { checkContext } from './mldsa.ts';

export { SLHDSA_PARAMS, type SlhDsaAlg } from './backends/params.ts';

export interface SlhDsaSignOptions {
  /** FIPS 205 context string, 0–255 bytes. JOSE and X.509 use the empty context. */
  context?: Uint8Array;
  /** opt_rand = PK.seed: the FIPS 205 deterministic variant, the same signature every time. */
  deterministic?: boolean;
  /** Caller-supplied opt_rand, n bytes (test vectors). */
  rnd?: Uint8Array;
  backend?: BackendName;
}

export interface SlhDsaVerifyOptions {
  context?: Uint8Array;
  backend?: BackendName;
}

function checkAlg(alg: unknown): SlhDsaAlg {
  if (!isSlhDsaAlg(alg)) throw new UnsupportedAlgorithm(`not an SLH-DSA parameter set: ${String(alg)}`);
  return alg;
}

function checkBytes(name: string, v: unknown, length?: number): Uint8Array {
  if (!isBytes(v)) throw new InvalidArgument(`${name} must be a Uint8Array`);
  if (length !== undefined && v.length !== length)
    throw new InvalidArgument(`${name} must be ${length} bytes, got ${v.length}`);
  return v;
}

function signArgs(alg: SlhDsaAlg, secretKey: Uint8Array, message: Uint8Array, opts: SlhDsaSignOptions) {
  const a = checkAlg(alg);
  const p = SLHDSA_PARAMS[a];
  if (opts.deterministic && opts.rnd) throw new InvalidArgument('pass either deterministic or rnd, not both');
  return {
    secret: new SlhDsaSecret(a, checkBytes('secretKey', secretKey, p.secretKey)),
    msg: checkBytes('message', message),
    params: {
      context: checkContext(opts.context),
      ...(opts.deterministic ? { deterministic: true } : {}),
      ...(opts.rnd !== undefined ? { rnd: checkBytes('rnd', opts.rnd, p.n) } : {}),
      ...(opts.backend ? { backend: opts.backend } : {}),
    },
  };
}

function verifyArgs(
  alg: SlhDsaAlg,
  publicKey: Uint8Array,
  message: Uint8Array,
  signature: Uint8Array,
  opts: SlhDsaVerifyOptions,
) {
  const a = checkAlg(alg);
  return {
    a,
    pk: checkBytes('publicKey', publicKey, SLHDSA_PARAMS[a].publicKey),
    msg: checkBytes('message', message),
    sig: checkBytes('signature', signature),
    context: checkContext(opts.context),
  };
}

export const slhdsa = {
  /** slh_keygen_internal from SK.seed‖SK.prf‖PK.seed (3n bytes); secretKey is the JWK "priv". */
  async keygen(alg: SlhDsaAlg, seed: Uint8Array, opts: { backend?: BackendName } = {}) {
    return slhDsaKeygen(checkAlg(alg), checkBytes('seed', seed), opts.backend);
  },

  /** A fresh key pair from the backend's randomness (node:crypto when it has SLH-DSA). */
  async generate(alg: SlhDsaAlg, opts: { backend?: BackendName } = {}) {
    return chooseSlhDsa({}, opts.backend).ops.generate(checkAlg(alg));
  },

  async sign(alg: SlhDsaAlg, secretKey: Uint8Array, message: Uint8Array, opts: SlhDsaSignOptions = {}) {
    const { secret, msg, params } = signArgs(alg, secretKey, message, opts);
    return slhDsaSign(secret, msg, params);
  },

  /** False for any signature that does not verify, including one of the wrong length. */
  async verify(
    alg: SlhDsaAlg,
    publicKey: Uint8Array,
    message: Uint8Array,
    signature: Uint8Array,
    opts: SlhDsaVerifyOptions = {},
  ) {
    const v = verifyArgs(alg, publicKey, message, signature, opts);
    return slhDsaVerify(v.a, v.pk, v.msg, v.sig, v.context, opts.backend);
  },

  /** Blocking forms, for synchronous callers such as xml-crypto's SignatureAlgorithm. */
  signSync(alg: SlhDsaAlg, secretKey: Uint8Array, message: Uint8Array, opts: SlhDsaSignOptions = {}) {
    const { secret, msg, params } = signArgs(alg, secretKey, message, opts);
    return slhDsaSignSync(secret, msg, params);
  },

  verifySync(
    alg: SlhDsaAlg,
    publicKey: Uint8Array,
    message: Uint8Array,
    signature: Uint8Array,
    opts: SlhDsaVerifyOptions = {},
  ): boolean {
    const v = verifyArgs(alg, publicKey, message, signature, opts);
    return slhDsaVerifySync(v.a, v.pk, v.msg, v.sig, v.context, opts.backend);
  },
};
