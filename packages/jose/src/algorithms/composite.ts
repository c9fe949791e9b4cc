/**
 * Composite ML-DSA (draft-ietf-jose-pq-composite-sigs-05):
 *   M′ = "CompositeAlgorithmSignatures2025" ‖ Label ‖ 0x00 ‖ PH(signing input)
 *   signature = ML-DSA.Sign(sk, M′, ctx = Label) ‖ Trad.Sign(M′)
 * A composite verifies only when both halves verify.
 */
import crypto from 'node:crypto';
import { MLDSA_PARAMS, type MlDsaAlg, SEED_BYTES } from '../backends/params.ts';
import { b64u, concat, equalBytes, utf8 } from '../encoding.ts';
import { JwkInvalid, SignerInvalidSignature, SignerUnsupported } from '../errors.ts';
import {
  callSigner,
  type DelegatedSigner,
  ecdsaFromSigner,
  isCompositeSigners,
  mldsaViaSigner,
} from './delegate.ts';
import { akpMember, MlDsaSecret, mldsaPublicFromSeed, mldsaSign, mldsaVerify } from './mldsa.ts';
import { TRADITIONAL, type Traditional, type TraditionalKey } from './traditional.ts';
import type { AlgorithmEntry } from './types.ts';

const PREFIX = utf8('CompositeAlgorithmSignatures2025');

type PreHash = 'sha256' | 'sha512' | 'shake256';

export interface CompositeSpec {
  alg: string;
  mldsa: MlDsaAlg;
  trad: Traditional;
  label: string;
  ph: PreHash;
}

export interface CompositePrivate {
  mldsa: MlDsaSecret;
  trad: TraditionalKey;
}
interface CompositePublic {
  mldsa: Uint8Array;
  trad: TraditionalKey;
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

function compositeEntry(spec: CompositeSpec): AlgorithmEntry {
  const mp = MLDSA_PARAMS[spec.mldsa];
  const { trad } = spec;
  const label = utf8(spec.label);
  const split = (bytes: Uint8Array, at: number) => [bytes.subarray(0, at), bytes.subarray(at)] as const;
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
      const pub = concat(await mldsaPublicFromSeed(spec.mldsa, s), t.publicBytes);
      const publicJwk = { kty: 'AKP', alg: spec.alg, pub: b64u(pub) };
      return { publicJwk, privateJwk: { ...publicJwk, priv: b64u(concat(s, t.privateBytes)) } };
    },
    async importPublic(jwk): Promise<CompositePublic> {
      const [m, t] = split(akpMember(jwk, 'pub', mp.publicKey + trad.publicKeyBytes), mp.publicKey);
      return { mldsa: m, trad: trad.importPublic(t) };
    },
    async importPrivate(jwk) {
      const pub = akpMember(jwk, 'pub', mp.publicKey + trad.publicKeyBytes);
      const [seed, tsk] = split(akpMember(jwk, 'priv', SEED_BYTES + trad.privateKeyBytes), SEED_BYTES);
      const tk = trad.importPrivate(tsk);
      const derived = concat(await mldsaPublicFromSeed(spec.mldsa, seed), tk.publicBytes);
      if (!equalBytes(derived, pub)) throw new JwkInvalid('JWK "pub" does not match "priv"');
      const material: CompositePrivate = {
        mldsa: new MlDsaSecret(spec.mldsa, new Uint8Array(seed)),
        trad: tk,
      };
      return { material, publicJwk: { kty: 'AKP', alg: spec.alg, pub: jwk.pub as string } };
    },
    plausibleSignature: (sig) =>
      sig.length > mp.signature && sig.length <= mp.signature + trad.maxSignatureBytes,
    async sign(m, input, opts) {
      const k = m as CompositePrivate;
      const mPrime = messageRepresentative(spec, input.bytes);
      const [mldsaSig, tradSig] = await Promise.all([
        mldsaSign(k.mldsa, mPrime, {
          context: label,
          ...(opts.deterministic ? { deterministic: true } : {}),
          ...(opts.backend ? { backend: opts.backend } : {}),
        }),
        trad.sign(k.trad, mPrime),
      ]);
      return concat(mldsaSig, tradSig);
    },
    async signDelegated(d, input) {
      if (!isCompositeSigners(d.signers))
        throw new SignerUnsupported(`${spec.alg} needs an ML-DSA and a traditional signer`);
      const { mldsa: ms, traditional: ts } = d.signers;
      const pub = d.publicMaterial as CompositePublic;
      const mPrime = messageRepresentative(spec, input.bytes);
      const [mldsaSig, tradSig] = await Promise.all([
        mldsaViaSigner(ms, spec.mldsa, pub.mldsa, mPrime, label),
        tradViaSigner(ts, trad, mPrime),
      ]);
      return concat(mldsaSig, tradSig);
    },
    async verify(m, input, sig) {
      const k = m as CompositePublic;
      const [mldsaSig, tradSig] = split(sig, mp.signature);
      const mPrime = messageRepresentative(spec, input.bytes);
      // Both halves are always checked: no early exit that would time which one failed.
      const [a, b] = await Promise.all([
        mldsaVerify(spec.mldsa, k.mldsa, mPrime, mldsaSig, label),
        Promise.resolve().then(() => trad.verify(k.trad, mPrime, tradSig)),
      ]);
      return a && b;
    },
  };
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
