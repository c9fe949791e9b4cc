/**
 * Signing through a delegated signer: a key held by something else (a KMS, an HSM, another
 * process, or the local sealed-key store) that signs bytes we hand it. The registry entries use
 * these helpers to turn a JWS signing input into the requests their algorithm needs, and to
 * check what comes back before anything is issued with it.
 */
import crypto from 'node:crypto';
import { MLDSA_PARAMS, type MlDsaAlg, SLHDSA_PARAMS, type SlhDsaAlg } from '../backends/params.ts';
import { PqidError, SignerFailed, SignerInvalidSignature, SignerUnsupported } from '../errors.ts';
import { concat, isBytes } from '../lib/encoding.ts';
import type { Jwk, Material } from './key-types.ts';

/** What a delegated signer can do. */
export interface SignerCapabilities {
  /** Signs a message itself (ML-DSA / SLH-DSA: pure, FIPS 204/205 external interface). */
  message: boolean;
  /** Message signing with a non-empty context string (composites sign their ML-DSA half with one). */
  context: boolean;
  /** ML-DSA: signs a caller-computed 64-byte μ (FIPS 204 external μ; AWS KMS `EXTERNAL_MU`). */
  externalMu: boolean;
  /** Largest message it signs (AWS KMS `RAW`: 4096 bytes); larger ones go through μ when it can. */
  maxMessageBytes?: number;
  /** ECDSA: the encoding it returns, X9.62 DER (KMSs; the default) or raw r‖s (PKCS#11). */
  ecdsaEncoding?: 'der' | 'raw';
  /**
   * Its ML-DSA / SLH-DSA signatures are deterministic (rnd = 0 / opt_rand = PK.seed). A
   * `deterministic: true` sign option is refused for a signer that does not say so.
   */
  deterministic?: boolean;
}

/**
 * - `message`: sign `message` (with `context`, always empty for JOSE's pure algorithms; for
 *   ECDSA/EdDSA/RSA the message is hashed by the signer as its algorithm says).
 * - `mu`: ML-DSA only, sign μ = H(tr ‖ M′) (FIPS 204 Algorithm 7 from line 7).
 */
export type SignRequest =
  | { kind: 'message'; message: Uint8Array; context: Uint8Array }
  | { kind: 'mu'; mu: Uint8Array };

/** One key whose signing happens elsewhere. */
export interface DelegatedSigner {
  /** The key's algorithm: ML-DSA-*, SLH-DSA-*, ES256, ES384, Ed25519 / EdDSA, Ed448, RS256, PS256. */
  readonly alg: string;
  /** The key's public JWK. */
  readonly publicJwk: Jwk;
  readonly capabilities: SignerCapabilities;
  sign(request: SignRequest): Promise<Uint8Array>;
}

/** A composite key's two halves, each possibly in its own signer (its own KMS key). */
export interface CompositeSigners {
  mldsa: DelegatedSigner;
  traditional: DelegatedSigner;
}
export type KeySigners = DelegatedSigner | CompositeSigners;

export const isCompositeSigners = (s: KeySigners): s is CompositeSigners =>
  typeof s === 'object' && s !== null && 'mldsa' in s && 'traditional' in s;

/** The material behind a delegated PrivateKey handle: the signer(s) and the public key material. */
export class DelegatedMaterial {
  readonly signers: KeySigners;
  readonly publicMaterial: Material;
  /** Verify every signature under the public key before returning it (default on). */
  readonly verify: boolean;
  /**
   * When the signers are `localSigner(k)` of an in-process key: k's own material, which signs
   * as k does (a composite whole in one native task, not as two halves with the traditional one
   * on the event loop). External signers never have it.
   */
  readonly local: Material | undefined;
  constructor(signers: KeySigners, publicMaterial: Material, verify: boolean, local?: Material) {
    this.signers = signers;
    this.publicMaterial = publicMaterial;
    this.verify = verify;
    this.local = local;
  }
  /** The single signer of a non-composite key. */
  get key(): DelegatedSigner {
    if (isCompositeSigners(this.signers)) throw new SignerUnsupported('a composite key has two signers');
    return this.signers;
  }
}

const EMPTY = new Uint8Array(0);
const shake256 = (...parts: Uint8Array[]) => {
  const h = crypto.createHash('shake256', { outputLength: 64 });
  for (const p of parts) h.update(p);
  return new Uint8Array(h.digest());
};

/**
 * FIPS 204 external μ: μ = H(tr ‖ M′, 64) with tr = H(pk, 64) and, for pure ML-DSA,
 * M′ = 0x00 ‖ |ctx| ‖ ctx ‖ M (Algorithm 2 line 10, Algorithm 7 lines 6–7). The signature over
 * μ is the signature over M: a signer only ever sees 64 bytes, whatever the message size.
 */
export function externalMu(
  publicKey: Uint8Array,
  message: Uint8Array,
  context: Uint8Array = EMPTY,
): Uint8Array {
  if (context.length > 255) throw new SignerUnsupported('context must be at most 255 bytes');
  return shake256(shake256(publicKey), Uint8Array.of(0, context.length), context, message);
}

/** Calls a signer; anything but a Uint8Array back is SignerFailed, its own typed errors pass. */
export async function callSigner(signer: DelegatedSigner, request: SignRequest): Promise<Uint8Array> {
  let sig: unknown;
  try {
    sig = await signer.sign(request);
  } catch (e) {
    if (e instanceof PqidError) throw e;
    throw new SignerFailed(`the ${signer.alg} signer failed: ${(e as Error)?.message ?? String(e)}`, {
      cause: e,
    });
  }
  if (!isBytes(sig))
    throw new SignerInvalidSignature(`the ${signer.alg} signer returned ${typeof sig}, not bytes`);
  return sig;
}

function expectLength(signer: DelegatedSigner, sig: Uint8Array, length: number): Uint8Array {
  if (sig.length !== length)
    throw new SignerInvalidSignature(
      `the ${signer.alg} signer returned ${sig.length} bytes, expected ${length}`,
    );
  return sig;
}

function checkAlg(signer: DelegatedSigner, ...algs: string[]): void {
  if (!algs.includes(signer.alg))
    throw new SignerUnsupported(`a ${signer.alg} signer cannot sign for ${algs.join(' / ')}`);
}

/**
 * Pure ML-DSA through a signer: the message itself when the signer takes it (size and context
 * permitting), else μ when it has external μ. Both give the same signature.
 */
export async function mldsaViaSigner(
  signer: DelegatedSigner,
  alg: MlDsaAlg,
  publicKey: Uint8Array,
  message: Uint8Array,
  context: Uint8Array,
): Promise<Uint8Array> {
  checkAlg(signer, alg);
  const c = signer.capabilities;
  const messageFits =
    c.message && (context.length === 0 || c.context) && message.length <= (c.maxMessageBytes ?? Infinity);
  let sig: Uint8Array;
  if (messageFits) sig = await callSigner(signer, { kind: 'message', message, context });
  else if (c.externalMu)
    sig = await callSigner(signer, { kind: 'mu', mu: externalMu(publicKey, message, context) });
  else
    throw new SignerUnsupported(
      `the ${alg} signer cannot sign this: ${message.length}-byte message${context.length ? ' with a context' : ''} and no external μ`,
    );
  return expectLength(signer, sig, MLDSA_PARAMS[alg].signature);
}

/** Pure SLH-DSA through a signer (FIPS 205 has no μ: the message goes to the signer). */
export async function slhDsaViaSigner(
  signer: DelegatedSigner,
  alg: SlhDsaAlg,
  message: Uint8Array,
): Promise<Uint8Array> {
  checkAlg(signer, alg);
  const c = signer.capabilities;
  if (!c.message || message.length > (c.maxMessageBytes ?? Infinity))
    throw new SignerUnsupported(`the ${alg} signer cannot sign a ${message.length}-byte message`);
  return expectLength(
    signer,
    await callSigner(signer, { kind: 'message', message, context: EMPTY }),
    SLHDSA_PARAMS[alg].signature,
  );
}

// ---- ECDSA encodings -------------------------------------------------------------------------

function int(v: Uint8Array): Uint8Array {
  let i = 0;
  while (i < v.length - 1 && v[i] === 0) i++;
  const m = v.subarray(i);
  return (m[0] as number) & 0x80
    ? concat(Uint8Array.of(0x02, m.length + 1, 0), m)
    : concat(Uint8Array.of(0x02, m.length), m);
}

/** Raw r‖s (each n bytes) → minimal DER Ecdsa-Sig-Value. */
export function rawToDer(raw: Uint8Array): Uint8Array {
  const n = raw.length / 2;
  const body = concat(int(raw.subarray(0, n)), int(raw.subarray(n)));
  return concat(
    body.length < 0x80 ? Uint8Array.of(0x30, body.length) : Uint8Array.of(0x30, 0x81, body.length),
    body,
  );
}

/** Strict DER → raw r‖s; undefined when it is not minimal DER of two integers below 2^(8n). */
export function derToRaw(der: Uint8Array, n: number): Uint8Array | undefined {
  let off = 2;
  if (der[0] !== 0x30) return undefined;
  let total = der[1] as number;
  if (total === 0x81) {
    total = der[2] as number;
    off = 3;
    if (total < 0x80) return undefined;
  } else if (total >= 0x80) return undefined;
  if (off + total !== der.length) return undefined;
  const out = new Uint8Array(2 * n);
  for (let i = 0; i < 2; i++) {
    if (der[off] !== 0x02) return undefined;
    const len = der[off + 1] as number;
    const v = der.subarray(off + 2, off + 2 + len);
    if (len === 0 || len >= 0x80 || v.length !== len) return undefined;
    if ((v[0] as number) & 0x80) return undefined;
    if (v[0] === 0 && (len === 1 || !((v[1] as number) & 0x80))) return undefined;
    const mag = v[0] === 0 ? v.subarray(1) : v;
    if (mag.length > n) return undefined;
    out.set(mag, (i + 1) * n - mag.length);
    off += 2 + len;
  }
  return off === der.length ? out : undefined;
}

/** An ECDSA signature from a signer in the encoding asked for, or SignerInvalidSignature. */
export function ecdsaFromSigner(
  signer: DelegatedSigner,
  sig: Uint8Array,
  n: number,
  want: 'der' | 'raw',
): Uint8Array {
  const raw =
    (signer.capabilities.ecdsaEncoding ?? 'der') === 'raw'
      ? sig.length === 2 * n
        ? sig
        : undefined
      : derToRaw(sig, n);
  if (!raw)
    throw new SignerInvalidSignature(
      `the ${signer.alg} signer returned a malformed ${signer.capabilities.ecdsaEncoding ?? 'der'} ECDSA signature`,
    );
  return want === 'raw' ? raw : rawToDer(raw);
}
