/**
 * Delegated keys: PrivateKey handles whose signing happens in a DelegatedSigner (a KMS or HSM
 * key, another process, or the local sealed-key store). They go everywhere a PrivateKey goes
 * (signCompact, signJwt, signGeneral, @pqid/xmldsig), and a composite's two halves may live in
 * two signers. `localSigner` is the first implementation: a local key behind the same interface,
 * which is also how a key manager treats its sealed keys and how the interface is tested.
 */
import { webcrypto } from 'node:crypto';
import { COMPOSITES, type CompositeSecret } from '../algorithms/composite.ts';
import {
  type CompositeSigners,
  DelegatedMaterial,
  type DelegatedSigner,
  isCompositeSigners,
  type KeySigners,
  type SignRequest,
} from '../algorithms/delegate.ts';
import { akpMember, mldsaSign } from '../algorithms/mldsa.ts';
import type { MlDsaSecretKey } from '../algorithms/mldsa-secret.ts';
import { keyServesAlg, lookup } from '../algorithms/registry.ts';
import { type SlhDsaSecret, slhDsaSign } from '../algorithms/slhdsa.ts';
import { MLDSA_PARAMS, RND_BYTES } from '../backends/params.ts';
import { chooseBackend } from '../backends/select.ts';
import { InvalidArgument, KeyMismatch, SignerUnsupported } from '../errors.ts';
import { b64u, concat } from '../lib/encoding.ts';
import { materialOf } from '../lib/handles.ts';
import { type Jwk, PRIVATE_MEMBERS } from '../lib/jwk.ts';
import { PrivateKey, type PublicKey } from './handles.ts';
import { importJWK } from './jwk.ts';

export interface DelegatedKeyOptions {
  /** The JOSE algorithm; required for a composite, else the signer's (Ed25519 keys may say EdDSA). */
  alg?: string;
  /** Default: the RFC 7638 thumbprint, or the signer's public JWK `kid`. */
  kid?: string;
  /**
   * Verify every signature under the public key before returning it (default true): a signer
   * that answers with another key's signature is caught before a token carries it.
   */
  verify?: boolean;
}

function checkSigner(s: unknown, what: string): DelegatedSigner {
  const d = s as DelegatedSigner;
  if (
    typeof d !== 'object' ||
    d === null ||
    typeof d.alg !== 'string' ||
    typeof d.sign !== 'function' ||
    typeof d.publicJwk !== 'object' ||
    d.publicJwk === null ||
    typeof d.capabilities !== 'object' ||
    d.capabilities === null
  )
    throw new InvalidArgument(`${what} must be a DelegatedSigner { alg, publicJwk, capabilities, sign }`);
  for (const m of PRIVATE_MEMBERS)
    if (m in d.publicJwk) throw new InvalidArgument(`${what}.publicJwk holds private member "${m}"`);
  return d;
}

/** A PrivateKey handle whose signatures come from `signers`. */
export async function createDelegatedKey(
  signers: KeySigners,
  opts: DelegatedKeyOptions = {},
): Promise<PrivateKey> {
  let pub: PublicKey;
  if (isCompositeSigners(signers)) {
    const spec = COMPOSITES.find((c) => c.alg === opts.alg);
    if (!spec)
      throw new InvalidArgument(
        `two signers make a composite key: opts.alg must name one, got ${String(opts.alg)}`,
      );
    const ms = checkSigner(signers.mldsa, 'signers.mldsa');
    const ts = checkSigner(signers.traditional, 'signers.traditional');
    if (ms.alg !== spec.mldsa)
      throw new InvalidArgument(`${spec.alg} needs a ${spec.mldsa} signer, got ${ms.alg}`);
    if (!spec.trad.joseAlgs.includes(ts.alg))
      throw new InvalidArgument(`${spec.alg} needs a ${spec.trad.joseAlgs.join('/')} signer, got ${ts.alg}`);
    const m = akpMember({ ...ms.publicJwk, alg: ms.alg }, 'pub', MLDSA_PARAMS[spec.mldsa].publicKey);
    const t = spec.trad.publicBytesOfJwk(ts.publicJwk);
    pub = await importJWK(
      { kty: 'AKP', alg: spec.alg, pub: b64u(concat(m, t)), ...(opts.kid ? { kid: opts.kid } : {}) },
      { alg: spec.alg },
    );
  } else {
    const s = checkSigner(signers, 'signer');
    const alg = opts.alg ?? s.alg;
    if (!keyServesAlg(s.alg, alg)) throw new InvalidArgument(`a ${s.alg} signer cannot make a ${alg} key`);
    if (lookup(alg).family === 'composite')
      throw new InvalidArgument(`${alg} is a composite: pass { mldsa, traditional } signers`);
    const kid = opts.kid ?? (typeof s.publicJwk.kid === 'string' ? s.publicJwk.kid : undefined);
    const { kid: _ignored, ...jwk } = s.publicJwk;
    if (typeof jwk.alg === 'string' && !keyServesAlg(jwk.alg, alg))
      throw new KeyMismatch(`the ${s.alg} signer's public JWK is for ${jwk.alg}`);
    pub = (await importJWK({ ...jwk, alg, ...(kid ? { kid } : {}) }, { alg })) as PublicKey;
  }
  // The local signers of a key of this very algorithm sign through that key's own path.
  const origin = localOrigins.get(signers);
  const local = origin && origin.entry === pub.entry ? materialOf(origin) : undefined;
  const material = new DelegatedMaterial(signers, materialOf(pub), opts.verify ?? true, local);
  return new PrivateKey(pub, material);
}

/**
 * Signers made by `localSigner` (default options), and the key behind them. A delegated handle
 * over exactly these signers signs with the key itself: the key manager keeps every key behind
 * the signer interface, and a local composite must still be one native task, not two halves.
 */
const localOrigins = new WeakMap<object, PrivateKey>();

export interface LocalSignerOptions {
  /** Deterministic signatures (ML-DSA rnd = 0, SLH-DSA opt_rand = PK.seed): for tests and vectors. */
  deterministic?: boolean;
}

const ZERO_RND = new Uint8Array(RND_BYTES);

function mldsaSigner(
  alg: string,
  secret: MlDsaSecretKey,
  publicJwk: Jwk,
  o: LocalSignerOptions,
): DelegatedSigner {
  return {
    alg,
    publicJwk,
    capabilities: {
      message: true,
      context: true,
      externalMu: chooseBackendOrNone({ externalMu: true, rnd: !!o.deterministic }),
      deterministic: !!o.deterministic,
    },
    async sign(req: SignRequest) {
      if (req.kind === 'message')
        return mldsaSign(secret, req.message, {
          context: req.context,
          ...(o.deterministic ? { deterministic: true } : {}),
        });
      const b = chooseBackend({ externalMu: true, rnd: !!o.deterministic });
      if (!b.signMu) throw new SignerUnsupported(`backend ${b.name} has no external μ`);
      return b.signMu(secret.alg, secret.prepared(b), req.mu, o.deterministic ? { rnd: ZERO_RND } : {});
    },
  };
}

function chooseBackendOrNone(need: Parameters<typeof chooseBackend>[0]): boolean {
  try {
    return !!chooseBackend(need).signMu;
  } catch {
    return false;
  }
}

/** WebCrypto sign parameters of each classical JOSE algorithm (the local signer of a handle). */
const WEBCRYPTO_SIGN: Record<
  string,
  webcrypto.AlgorithmIdentifier | webcrypto.EcdsaParams | webcrypto.RsaPssParams
> = {
  ES256: { name: 'ECDSA', hash: 'SHA-256' },
  ES384: { name: 'ECDSA', hash: 'SHA-384' },
  RS256: { name: 'RSASSA-PKCS1-v1_5' },
  PS256: { name: 'RSA-PSS', saltLength: 32 },
  EdDSA: { name: 'Ed25519' },
  Ed25519: { name: 'Ed25519' },
};

/** node:crypto's digest for each classical JOSE algorithm (null: EdDSA hashes internally). */
export const NODE_HASH: Record<string, string | null> = {
  ES256: 'sha256',
  ES384: 'sha384',
  RS256: 'sha256',
  PS256: 'sha256',
  EdDSA: null,
  Ed25519: null,
};

function messageOnly(req: SignRequest, alg: string): Uint8Array {
  if (req.kind !== 'message') throw new SignerUnsupported(`a ${alg} signer has no external μ`);
  if (req.context.length) throw new SignerUnsupported(`a ${alg} signer takes no context`);
  return req.message;
}

/**
 * The signer(s) behind a local key: one for ML-DSA, SLH-DSA and classical keys, the two halves
 * for a composite. `createDelegatedKey(localSigner(k))` signs exactly like `k`.
 */
export function localSigner(key: PrivateKey, opts: LocalSignerOptions = {}): KeySigners {
  if (!(key instanceof PrivateKey)) throw new InvalidArgument('localSigner needs a PrivateKey handle');
  const m = materialOf(key);
  if (m instanceof DelegatedMaterial) return m.signers;
  const signers = signersOf(key, m, opts);
  // Deterministic signers differ from the key's own path (rnd = 0 on the ML-DSA half only).
  if (!opts.deterministic) localOrigins.set(signers, key);
  return signers;
}

function signersOf(key: PrivateKey, m: unknown, opts: LocalSignerOptions): KeySigners {
  const publicJwk = { ...key.publicKey.jwk } as Jwk;
  switch (key.entry.family) {
    case 'ml-dsa':
      return mldsaSigner(key.alg, m as MlDsaSecretKey, publicJwk, opts);
    case 'slh-dsa': {
      const secret = m as SlhDsaSecret;
      return {
        alg: key.alg,
        publicJwk,
        capabilities: {
          message: true,
          context: true,
          externalMu: false,
          deterministic: !!opts.deterministic,
        },
        async sign(req) {
          if (req.kind !== 'message') throw new SignerUnsupported('SLH-DSA has no external μ');
          return slhDsaSign(secret, req.message, {
            context: req.context,
            ...(opts.deterministic ? { deterministic: true } : {}),
          });
        },
      };
    }
    case 'composite': {
      const spec = COMPOSITES.find((c) => c.alg === key.alg);
      if (!spec) throw new InvalidArgument(`unknown composite ${key.alg}`);
      const k = m as CompositeSecret;
      const tradKey = k.tradKey();
      const pub = akpMember(publicJwk, 'pub', MLDSA_PARAMS[spec.mldsa].publicKey + spec.trad.publicKeyBytes);
      const mldsa = mldsaSigner(
        spec.mldsa,
        k.mldsa,
        { kty: 'AKP', alg: spec.mldsa, pub: b64u(pub.subarray(0, MLDSA_PARAMS[spec.mldsa].publicKey)) },
        opts,
      );
      const tradAlg = spec.trad.joseAlgs[0] as string;
      const traditional: DelegatedSigner = {
        alg: tradAlg,
        publicJwk: { ...(tradKey.publicKey.export({ format: 'jwk' }) as Jwk), alg: tradAlg },
        capabilities: { message: true, context: false, externalMu: false, ecdsaEncoding: 'der' },
        async sign(req) {
          return spec.trad.sign(tradKey, messageOnly(req, tradAlg));
        },
      };
      return { mldsa, traditional } satisfies CompositeSigners;
    }
    case 'classical': {
      const params = WEBCRYPTO_SIGN[key.alg];
      if (!params) throw new InvalidArgument(`no local signer for ${key.alg}`);
      // The handle's material is a non-extractable CryptoKey: WebCrypto signs with it directly
      // (on the libuv pool), where KeyObject.from() would need an extractable one (DEP0204).
      const cryptoKey = m as webcrypto.CryptoKey;
      return {
        alg: key.alg,
        publicJwk,
        // WebCrypto's ECDSA answers in IEEE P1363 form, i.e. raw r‖s.
        capabilities: { message: true, context: false, externalMu: false, ecdsaEncoding: 'raw' },
        async sign(req) {
          const message = messageOnly(req, key.alg);
          return new Uint8Array(await webcrypto.subtle.sign(params, cryptoKey, message));
        },
      };
    }
  }
}
