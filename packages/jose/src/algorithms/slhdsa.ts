/**
 * Pure SLH-DSA in JOSE (draft-ietf-cose-sphincs-plus): kty AKP, `pub` = PK.seed‖PK.root,
 * `priv` = SK.seed‖SK.prf‖PK.seed‖PK.root (FIPS 205 encodings, as in RFC 9909), empty context.
 */
import { SLHDSA_PARAMS, type SlhDsaAlg, slhDsaSeedBytes } from '../backends/params.ts';
import { chooseSlhDsa } from '../backends/select.ts';
import type { BackendName, SlhDsaOps } from '../backends/types.ts';
import { InvalidArgument, JwkInvalid } from '../errors.ts';
import { b64u, equalBytes } from '../lib/encoding.ts';
import { slhDsaViaSigner } from './delegate.ts';
import { akpMember } from './mldsa.ts';
import type { AlgorithmEntry } from './types.ts';

const EMPTY = new Uint8Array(0);

/** A FIPS 205 secret key plus the per-backend signing handles made from it. */
export class SlhDsaSecret {
  readonly alg: SlhDsaAlg;
  readonly #sk: Uint8Array;
  readonly #prepared = new Map<BackendName, unknown>();
  constructor(alg: SlhDsaAlg, sk: Uint8Array) {
    this.alg = alg;
    this.#sk = sk;
  }
  get bytes(): Uint8Array {
    return this.#sk;
  }
  /** PK.seed: FIPS 205 deterministic signing uses it as opt_rand. */
  get pkSeed(): Uint8Array {
    const n = SLHDSA_PARAMS[this.alg].n;
    return this.#sk.subarray(2 * n, 3 * n);
  }
  prepared(name: BackendName, ops: SlhDsaOps): unknown {
    let p = this.#prepared.get(name);
    if (p === undefined) {
      p = ops.prepareSecret(this.alg, this.#sk);
      this.#prepared.set(name, p);
    }
    return p;
  }
}

export interface SlhDsaSignParams {
  context: Uint8Array;
  /** opt_rand = PK.seed: the same signature every time, on every backend that can. */
  deterministic?: boolean;
  /** Caller-supplied opt_rand (n bytes), e.g. ACVP `additionalRandomness`. */
  rnd?: Uint8Array;
  backend?: BackendName;
}

function signArgs(secret: SlhDsaSecret, p: SlhDsaSignParams) {
  const rnd = p.rnd ?? (p.deterministic ? secret.pkSeed : undefined);
  const { name, ops } = chooseSlhDsa({ rnd: rnd !== undefined }, p.backend);
  return {
    ops,
    prepared: secret.prepared(name, ops),
    params: { context: p.context, ...(rnd ? { rnd } : {}) },
  };
}

export function slhDsaSign(
  secret: SlhDsaSecret,
  message: Uint8Array,
  p: SlhDsaSignParams,
): Promise<Uint8Array> {
  const { ops, prepared, params } = signArgs(secret, p);
  return ops.sign(secret.alg, prepared, message, params);
}

export function slhDsaSignSync(secret: SlhDsaSecret, message: Uint8Array, p: SlhDsaSignParams): Uint8Array {
  const { ops, prepared, params } = signArgs(secret, p);
  return ops.signSync(secret.alg, prepared, message, params);
}

/** False for anything that cannot verify, a wrong-length key or signature included. */
export async function slhDsaVerify(
  alg: SlhDsaAlg,
  publicKey: Uint8Array,
  message: Uint8Array,
  signature: Uint8Array,
  context: Uint8Array,
  backend?: BackendName,
): Promise<boolean> {
  const p = SLHDSA_PARAMS[alg];
  if (signature.length !== p.signature || publicKey.length !== p.publicKey) return false;
  return chooseSlhDsa({}, backend).ops.verify(alg, publicKey, message, signature, context);
}

export function slhDsaVerifySync(
  alg: SlhDsaAlg,
  publicKey: Uint8Array,
  message: Uint8Array,
  signature: Uint8Array,
  context: Uint8Array,
  backend?: BackendName,
): boolean {
  const p = SLHDSA_PARAMS[alg];
  if (signature.length !== p.signature || publicKey.length !== p.publicKey) return false;
  return chooseSlhDsa({}, backend).ops.verifySync(alg, publicKey, message, signature, context);
}

/** slh_keygen_internal(SK.seed, SK.prf, PK.seed) from their concatenation (3n bytes). */
export function slhDsaKeygen(alg: SlhDsaAlg, seed: Uint8Array, backend?: BackendName) {
  if (seed.length !== slhDsaSeedBytes(alg))
    throw new InvalidArgument(`${alg} seed must be ${slhDsaSeedBytes(alg)} bytes (SK.seed‖SK.prf‖PK.seed)`);
  const { ops } = chooseSlhDsa({ seededKeygen: true }, backend);
  return (ops.keygenFromSeed as NonNullable<SlhDsaOps['keygenFromSeed']>)(alg, seed);
}

/**
 * FIPS 205 §3.1 private-key checks, as draft-ietf-cose-sphincs-plus §6.2 asks when a key is
 * regenerated: lengths, the public half of `sk` equals `pk`, and PK.root recomputes from SK.seed
 * and PK.seed. The last costs one key generation, but a key that fails it would sign tokens
 * nobody can verify.
 */
export function checkSlhDsaKeyPair(alg: SlhDsaAlg, sk: Uint8Array, pk: Uint8Array): void {
  const p = SLHDSA_PARAMS[alg];
  if (sk.length !== p.secretKey || pk.length !== p.publicKey) throw new JwkInvalid(`${alg} key length`);
  if (!equalBytes(sk.subarray(2 * p.n), pk)) throw new JwkInvalid('JWK "pub" does not match "priv"');
  const regenerated = slhDsaKeygen(alg, sk.subarray(0, 3 * p.n));
  if (!equalBytes(regenerated.publicKey, pk))
    throw new JwkInvalid('JWK "priv" does not regenerate its PK.root (corrupted SK.seed or PK.root)');
}

const DRAFT = 'draft-ietf-cose-sphincs-plus-10';
const NOTES: Record<SlhDsaAlg, string> = {
  'SLH-DSA-SHA2-128s': DRAFT,
  'SLH-DSA-SHAKE-128s': DRAFT,
  // -07 registered it (COSE -53 requested); -08 onward dropped the fast variants.
  'SLH-DSA-SHA2-128f': 'draft-ietf-cose-sphincs-plus-07; not in -08..-10',
};

export function slhDsaEntry(alg: SlhDsaAlg): AlgorithmEntry {
  const p = SLHDSA_PARAMS[alg];
  return {
    alg,
    family: 'slh-dsa',
    pq: true,
    kty: 'AKP',
    sizes: { publicKey: p.publicKey, privateKey: p.secretKey, signature: p.signature },
    description: `${alg} (FIPS 205, ${NOTES[alg]})`,
    unavailable: () => undefined, // the noble backend always has it
    async generate({ seed, traditionalSecret }) {
      if (traditionalSecret) throw new InvalidArgument(`${alg} has no traditional component`);
      const { publicKey, secretKey } = seed
        ? slhDsaKeygen(alg, seed)
        : await chooseSlhDsa().ops.generate(alg);
      const publicJwk = { kty: 'AKP', alg, pub: b64u(publicKey) };
      return { publicJwk, privateJwk: { ...publicJwk, priv: b64u(secretKey) } };
    },
    async importPublic(jwk) {
      return akpMember(jwk, 'pub', p.publicKey);
    },
    async importPrivate(jwk) {
      const pub = akpMember(jwk, 'pub', p.publicKey);
      const priv = akpMember(jwk, 'priv', p.secretKey);
      checkSlhDsaKeyPair(alg, priv, pub);
      return {
        material: new SlhDsaSecret(alg, new Uint8Array(priv)),
        publicJwk: { kty: 'AKP', alg, pub: jwk.pub as string },
      };
    },
    plausibleSignature: (sig) => sig.length === p.signature,
    // Only these two options reach the primitive: JOSE signs with the empty context, always.
    sign: (m, input, o) =>
      slhDsaSign(m as SlhDsaSecret, input.bytes, {
        context: EMPTY,
        ...(o.deterministic ? { deterministic: true } : {}),
        ...(o.backend ? { backend: o.backend } : {}),
      }),
    verify: (m, input, sig) => slhDsaVerify(alg, m as Uint8Array, input.bytes, sig, EMPTY),
    signDelegated: (d, input) => slhDsaViaSigner(d.key, alg, input.bytes),
  };
}
