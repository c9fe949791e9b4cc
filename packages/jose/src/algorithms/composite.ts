/**
 * Composite ML-DSA (draft-ietf-jose-pq-composite-sigs-05):
 *   M′ = "CompositeAlgorithmSignatures2025" ‖ Label ‖ 0x00 ‖ PH(signing input)
 *   signature = ML-DSA.Sign(sk, M′, ctx = Label) ‖ Trad.Sign(M′)
 * A composite verifies only when both halves verify. A backend with whole-composite support
 * (native) does all of it in one call, for the composites it `handles`; otherwise the ML-DSA half
 * goes to the backend and the traditional half to node:crypto on the thread pool (the JS path).
 */
import crypto from 'node:crypto';
import { MLDSA_PARAMS, type MlDsaAlg, SEED_BYTES } from '../backends/params.ts';
import { chooseBackend } from '../backends/select.ts';
import { countCompositeSign, countSeedExpansion } from '../backends/stats.ts';
import type { BackendName, CompositeOps, CompositeParams, MlDsaBackend } from '../backends/types.ts';
import { JwkInvalid, SignerInvalidSignature, SignerUnsupported } from '../errors.ts';
import { b64u, concat, equalBytes, utf8 } from '../lib/encoding.ts';
import {
  callSigner,
  type DelegatedMaterial,
  type DelegatedSigner,
  ecdsaFromSigner,
  isCompositeSigners,
  mldsaViaSigner,
} from './delegate.ts';
import { akpMember, mldsaPublicFromSeed, mldsaSign, mldsaVerify } from './mldsa.ts';
import { MlDsaSecretKey } from './mldsa-secret.ts';
import { TRADITIONAL, type Traditional, type TraditionalKey } from './traditional.ts';
import type { AlgorithmEntry, Jwk, SigningInput, SignOptions } from './types.ts';

const PREFIX = utf8('CompositeAlgorithmSignatures2025');

/** The backend's whole-composite operations, when it signs and verifies this composite whole. */
function whole(backend: MlDsaBackend, params: CompositeParams): CompositeOps | undefined {
  return backend.composite?.handles(params) ? backend.composite : undefined;
}
const ZERO_RND = new Uint8Array(32);

type PreHash = 'sha256' | 'sha512' | 'shake256';

export interface CompositeSpec {
  alg: string;
  mldsa: MlDsaAlg;
  trad: Traditional;
  label: string;
  ph: PreHash;
}

const PRE_HASH_IDS = { sha256: 'SHA256', sha512: 'SHA512', shake256: 'SHAKE256' } as const;

/**
 * A composite private key. Backends with whole-composite support (the native addon) get a
 * handle holding both halves, made once; the JS path (other backends) uses the ML-DSA key and
 * node:crypto keys made on first use.
 */
export class CompositeSecret {
  readonly mldsa: MlDsaSecretKey;
  readonly #seed: Uint8Array;
  readonly #trad: Uint8Array;
  readonly #spec: CompositeSpec;
  readonly #params: CompositeParams;
  readonly #handles = new Map<BackendName, unknown>();
  #tradKey: TraditionalKey | undefined;

  constructor(spec: CompositeSpec, params: CompositeParams, seed: Uint8Array, trad: Uint8Array) {
    this.#spec = spec;
    this.#params = params;
    this.#seed = new Uint8Array(seed);
    this.#trad = new Uint8Array(trad);
    this.mldsa = MlDsaSecretKey.from(spec.mldsa, seed);
  }

  /** Both halves prepared by this backend; the composite public key they derive, the first time. */
  handle(backend: MlDsaBackend): { handle: unknown; publicKey?: Uint8Array } {
    const h = this.#handles.get(backend.name);
    if (h !== undefined) return { handle: h };
    const made = (whole(backend, this.#params) as CompositeOps).prepareSecret(
      this.#params,
      this.#seed,
      this.#trad,
    );
    countSeedExpansion();
    this.#handles.set(backend.name, made.handle);
    return made;
  }

  tradKey(): TraditionalKey {
    this.#tradKey ??= this.#spec.trad.fromRawPrivate(this.#trad);
    return this.#tradKey;
  }
}

/** A composite public key: node:crypto checked it at import; backends parse their own once. */
class CompositePublic {
  readonly mldsa: Uint8Array;
  readonly trad: TraditionalKey;
  readonly #bytes: Uint8Array;
  readonly #prepared = new Map<BackendName, unknown>();
  constructor(bytes: Uint8Array, mldsa: Uint8Array, trad: TraditionalKey) {
    this.#bytes = bytes;
    this.mldsa = mldsa;
    this.trad = trad;
  }
  prepared(backend: MlDsaBackend, params: CompositeParams): unknown {
    let p = this.#prepared.get(backend.name);
    if (p === undefined) {
      p = (whole(backend, params) as CompositeOps).preparePublic(params, this.#bytes);
      this.#prepared.set(backend.name, p);
    }
    return p;
  }
}

const preHash = (ph: PreHash, m: Uint8Array) =>
  new Uint8Array(
    crypto
      .createHash(ph, ph === 'shake256' ? { outputLength: 64 } : {})
      .update(m)
      .digest(),
  );

/** The message representative both components sign (empty JOSE context → length byte 0). */
export function messageRepresentative(
  spec: Pick<CompositeSpec, 'label' | 'ph'>,
  signingInput: Uint8Array,
): Uint8Array {
  return concat(PREFIX, utf8(spec.label), Uint8Array.of(0), preHash(spec.ph, signingInput));
}

/** What a backend needs to know of a composite (no JOSE names). */
export function compositeParams(spec: CompositeSpec): CompositeParams {
  return {
    mldsa: spec.mldsa,
    traditional: spec.trad.id,
    label: utf8(spec.label),
    preHash: PRE_HASH_IDS[spec.ph],
  };
}

/** Whether `backend` signs and verifies this composite whole (one native task) or split. */
export function signsWhole(backend: MlDsaBackend, spec: CompositeSpec): boolean {
  return whole(backend, compositeParams(spec)) !== undefined;
}

const splitAt = (bytes: Uint8Array, at: number) => [bytes.subarray(0, at), bytes.subarray(at)] as const;

function compositeEntry(spec: CompositeSpec): AlgorithmEntry {
  const mp = MLDSA_PARAMS[spec.mldsa];
  const { trad } = spec;
  const params = compositeParams(spec);
  return {
    alg: spec.alg,
    family: 'composite',
    pq: true,
    kty: 'AKP',
    sizes: {
      publicKey: mp.publicKey + trad.publicKeyBytes,
      privateKey: SEED_BYTES + trad.privateKeyBytes,
      signature: mp.signature + trad.maxSignatureBytes,
    },
    description: `${spec.mldsa} + ${trad.name} composite (draft-ietf-jose-pq-composite-sigs-05)`,
    unavailable: () => trad.unavailable(),
    async generate({ seed, traditionalSecret }) {
      const s = seed ?? crypto.getRandomValues(new Uint8Array(SEED_BYTES));
      if (s.length !== SEED_BYTES) throw new JwkInvalid(`${spec.alg} ML-DSA seed must be 32 bytes`);
      const t = trad.generate(traditionalSecret);
      const pub = concat(mldsaPublicFromSeed(spec.mldsa, s), t.publicBytes);
      const publicJwk = { kty: 'AKP', alg: spec.alg, pub: b64u(pub) };
      return { publicJwk, privateJwk: { ...publicJwk, priv: b64u(concat(s, t.privateBytes)) } };
    },
    async importPublic(jwk): Promise<CompositePublic> {
      const bytes = akpMember(jwk, 'pub', mp.publicKey + trad.publicKeyBytes);
      const [m, t] = splitAt(bytes, mp.publicKey);
      return new CompositePublic(bytes, m, trad.importPublic(t));
    },
    importPrivate: (jwk) => importCompositePrivate(spec, params, jwk),
    plausibleSignature: (sig) =>
      sig.length > mp.signature && sig.length <= mp.signature + trad.maxSignatureBytes,
    sign: (m, input, opts) => signComposite(spec, params, m as CompositeSecret, input, opts),
    signDelegated: (d, input) => signCompositeDelegated(spec, d, input),
    verify: (m, input, sig) => verifyComposite(spec, params, m as CompositePublic, input, sig),
  };
}

async function importCompositePrivate(spec: CompositeSpec, params: CompositeParams, jwk: Jwk) {
  const { trad } = spec;
  const mp = MLDSA_PARAMS[spec.mldsa];
  const pub = akpMember(jwk, 'pub', mp.publicKey + trad.publicKeyBytes);
  const priv = akpMember(jwk, 'priv', SEED_BYTES + trad.privateKeyBytes);
  const [seed, tsk] = splitAt(priv, SEED_BYTES);
  const material = new CompositeSecret(spec, params, seed, trad.rawPrivate(tsk));
  priv.fill(0); // the key holds its own copies
  // Derive the public key once, with the backend that will sign, and compare it with "pub".
  const backend = chooseBackend({ context: true });
  let derived: Uint8Array | undefined;
  if (whole(backend, params)) {
    try {
      derived = material.handle(backend).publicKey;
    } catch {
      throw new JwkInvalid(`invalid ${trad.name} component in "priv"`);
    }
  } else {
    material.mldsa.prepared(backend);
    derived = concat(
      material.mldsa.publicKey ?? mldsaPublicFromSeed(spec.mldsa, seed),
      material.tradKey().publicBytes,
    );
  }
  if (!derived || !equalBytes(derived, pub)) throw new JwkInvalid('JWK "pub" does not match "priv"');
  return { material, publicJwk: { kty: 'AKP', alg: spec.alg, pub: jwk.pub as string } };
}

async function signComposite(
  spec: CompositeSpec,
  params: CompositeParams,
  k: CompositeSecret,
  input: SigningInput,
  opts: SignOptions,
): Promise<Uint8Array> {
  const backend = chooseBackend({ context: true, rnd: !!opts.deterministic }, opts.backend);
  const ops = whole(backend, params);
  if (ops) {
    // One backend call (one pool task natively) for both halves, M′ included.
    const { handle } = k.handle(backend);
    countCompositeSign('whole');
    return ops.sign(params, handle, input.bytes, opts.deterministic ? { rnd: ZERO_RND } : {});
  }
  countCompositeSign('split');
  const mPrime = messageRepresentative(spec, input.bytes);
  const [mldsaSig, tradSig] = await Promise.all([
    mldsaSign(k.mldsa, mPrime, {
      context: params.label,
      ...(opts.deterministic ? { deterministic: true } : {}),
      backend: backend.name,
    }),
    spec.trad.signAsync(k.tradKey(), mPrime),
  ]);
  return concat(mldsaSig, tradSig);
}

async function signCompositeDelegated(
  spec: CompositeSpec,
  d: DelegatedMaterial,
  input: SigningInput,
): Promise<Uint8Array> {
  if (!isCompositeSigners(d.signers))
    throw new SignerUnsupported(`${spec.alg} needs an ML-DSA and a traditional signer`);
  const { mldsa: ms, traditional: ts } = d.signers;
  const pub = d.publicMaterial as CompositePublic;
  countCompositeSign('delegated');
  const mPrime = messageRepresentative(spec, input.bytes);
  const [mldsaSig, tradSig] = await Promise.all([
    mldsaViaSigner(ms, spec.mldsa, pub.mldsa, mPrime, utf8(spec.label)),
    tradViaSigner(ts, spec.trad, mPrime),
  ]);
  return concat(mldsaSig, tradSig);
}

async function verifyComposite(
  spec: CompositeSpec,
  params: CompositeParams,
  k: CompositePublic,
  input: SigningInput,
  sig: Uint8Array,
): Promise<boolean> {
  const backend = chooseBackend({ context: true });
  const ops = whole(backend, params);
  if (ops) return ops.verify(params, k.prepared(backend, params), input.bytes, sig);
  const [mldsaSig, tradSig] = splitAt(sig, MLDSA_PARAMS[spec.mldsa].signature);
  const mPrime = messageRepresentative(spec, input.bytes);
  // Both halves are always checked: no early exit that would time which one failed.
  const [a, b] = await Promise.all([
    mldsaVerify(spec.mldsa, k.mldsa, mPrime, mldsaSig, params.label),
    spec.trad.verifyAsync(k.trad, mPrime, tradSig),
  ]);
  return a && b;
}

/** The traditional half through its own signer: ECDSA as -05's DER, EdDSA raw. */
async function tradViaSigner(
  signer: DelegatedSigner,
  trad: Traditional,
  message: Uint8Array,
): Promise<Uint8Array> {
  if (!trad.joseAlgs.includes(signer.alg))
    throw new SignerUnsupported(`a ${signer.alg} signer cannot sign the ${trad.name} half`);
  if (!signer.capabilities.message)
    throw new SignerUnsupported(`the ${signer.alg} signer does not sign messages`);
  const sig = await callSigner(signer, { kind: 'message', message, context: new Uint8Array(0) });
  if (trad.ecdsaBytes) return ecdsaFromSigner(signer, sig, trad.ecdsaBytes, 'der');
  if (sig.length !== trad.maxSignatureBytes)
    throw new SignerInvalidSignature(
      `the ${signer.alg} signer returned ${sig.length} bytes, expected ${trad.maxSignatureBytes}`,
    );
  return sig;
}

export const COMPOSITES: readonly CompositeSpec[] = [
  {
    alg: 'ML-DSA-44-Ed25519',
    mldsa: 'ML-DSA-44',
    trad: TRADITIONAL.Ed25519,
    label: 'COMPSIG-MLDSA44-Ed25519-SHA512',
    ph: 'sha512',
  },
  {
    alg: 'ML-DSA-65-Ed25519',
    mldsa: 'ML-DSA-65',
    trad: TRADITIONAL.Ed25519,
    label: 'COMPSIG-MLDSA65-Ed25519-SHA512',
    ph: 'sha512',
  },
  {
    alg: 'ML-DSA-44-ES256',
    mldsa: 'ML-DSA-44',
    trad: TRADITIONAL['ECDSA-P256'],
    label: 'COMPSIG-MLDSA44-ECDSA-P256-SHA256',
    ph: 'sha256',
  },
  {
    alg: 'ML-DSA-65-ES256',
    mldsa: 'ML-DSA-65',
    trad: TRADITIONAL['ECDSA-P256'],
    label: 'COMPSIG-MLDSA65-ECDSA-P256-SHA512',
    ph: 'sha512',
  },
  {
    alg: 'ML-DSA-87-ES384',
    mldsa: 'ML-DSA-87',
    trad: TRADITIONAL['ECDSA-P384'],
    label: 'COMPSIG-MLDSA87-ECDSA-P384-SHA512',
    ph: 'sha512',
  },
  {
    alg: 'ML-DSA-87-Ed448',
    mldsa: 'ML-DSA-87',
    trad: TRADITIONAL.Ed448,
    label: 'COMPSIG-MLDSA87-Ed448-SHAKE256',
    ph: 'shake256',
  },
];

export const compositeEntries = (): AlgorithmEntry[] => COMPOSITES.map(compositeEntry);
