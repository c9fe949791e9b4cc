/** Classical JWS algorithms, delegated to `jose`: we add registry metadata, not cryptography. */
import { webcrypto } from 'node:crypto';
import * as jose from 'jose';
import { InvalidArgument, JwkInvalid, SignerUnsupported } from '../errors.ts';
import { b64u, b64uDecode } from '../lib/encoding.ts';
import { callSigner, type DelegatedMaterial, ecdsaFromSigner } from './delegate.ts';
import type { AlgorithmEntry, Jwk, Kty, SigningInput } from './types.ts';

interface ClassicalSpec {
  alg: string;
  kty: Kty;
  crv?: string;
  sizes: AlgorithmEntry['sizes'];
  description: string;
}

const SPECS: ClassicalSpec[] = [
  {
    alg: 'ES256',
    kty: 'EC',
    crv: 'P-256',
    sizes: { publicKey: 65, privateKey: 32, signature: 64 },
    description: 'ECDSA P-256 SHA-256',
  },
  {
    alg: 'ES384',
    kty: 'EC',
    crv: 'P-384',
    sizes: { publicKey: 97, privateKey: 48, signature: 96 },
    description: 'ECDSA P-384 SHA-384',
  },
  {
    alg: 'EdDSA',
    kty: 'OKP',
    crv: 'Ed25519',
    sizes: { publicKey: 32, privateKey: 32, signature: 64 },
    description: 'EdDSA (Ed25519 keys only)',
  },
  {
    alg: 'Ed25519',
    kty: 'OKP',
    crv: 'Ed25519',
    sizes: { publicKey: 32, privateKey: 32, signature: 64 },
    description: 'Ed25519 (RFC 9864)',
  },
  {
    alg: 'RS256',
    kty: 'RSA',
    sizes: { publicKey: 256, privateKey: 1190, signature: 256 },
    description: 'RSASSA-PKCS1-v1_5 SHA-256, 2048-bit',
  },
  {
    alg: 'PS256',
    kty: 'RSA',
    sizes: { publicKey: 256, privateKey: 1190, signature: 256 },
    description: 'RSASSA-PSS SHA-256, 2048-bit',
  },
];

type Key = jose.CryptoKey | Uint8Array;

/** WebCrypto sign parameters per algorithm; ECDSA answers raw r‖s, as JWS wants (RFC 7518 §3.4). */
const SIGN_PARAMS: Record<
  string,
  webcrypto.AlgorithmIdentifier | webcrypto.EcdsaParams | webcrypto.RsaPssParams
> = {
  ES256: { name: 'ECDSA', hash: 'SHA-256' },
  ES384: { name: 'ECDSA', hash: 'SHA-384' },
  EdDSA: { name: 'Ed25519' },
  Ed25519: { name: 'Ed25519' },
  RS256: { name: 'RSASSA-PKCS1-v1_5' },
  PS256: { name: 'RSA-PSS', saltLength: 32 },
};

/** A JWK as a jose key of this algorithm; RSA moduli under 2048 bits are refused here already. */
async function importClassicalKey(spec: ClassicalSpec, jwk: Jwk): Promise<Key> {
  if (spec.crv && jwk.crv !== spec.crv)
    throw new JwkInvalid(`${spec.alg} needs a ${spec.crv} key, got crv ${String(jwk.crv)}`);
  // jose refuses RSA keys under 2048 bits only when it uses them; refuse them at import instead.
  if (spec.kty === 'RSA') {
    const n = (typeof jwk.n === 'string' && b64uDecode(jwk.n)) || new Uint8Array(0);
    const first = n.findIndex((x) => x !== 0);
    const bits = first < 0 ? 0 : (n.length - first) * 8 - (Math.clz32(n[first] as number) - 24);
    if (bits < 2048) throw new JwkInvalid(`${spec.alg} needs an RSA modulus of at least 2048 bits`);
  }
  try {
    return await jose.importJWK({ ...jwk, alg: spec.alg } as jose.JWK, spec.alg, { extractable: false });
  } catch (e) {
    throw new JwkInvalid(`invalid ${spec.alg} JWK: ${(e as Error).message}`, { cause: e });
  }
}

function publicOnly(jwk: Jwk): Jwk {
  const { d, p, q, dp, dq, qi, oth, kid, ...pub } = jwk;
  return pub as Jwk;
}

/** Through a delegated signer, which hashes (ECDSA/RSA) as its algorithm says; JWS ECDSA is raw r‖s. */
async function signClassicalDelegated(
  spec: ClassicalSpec,
  d: DelegatedMaterial,
  input: SigningInput,
): Promise<Uint8Array> {
  const signer = d.key;
  const ok = spec.alg === signer.alg || (spec.crv === 'Ed25519' && ['EdDSA', 'Ed25519'].includes(signer.alg));
  if (!ok) throw new SignerUnsupported(`a ${signer.alg} signer cannot sign ${spec.alg}`);
  if (!signer.capabilities.message)
    throw new SignerUnsupported(`the ${signer.alg} signer does not sign messages`);
  const sig = await callSigner(signer, { kind: 'message', message: input.bytes, context: new Uint8Array(0) });
  return spec.kty === 'EC' ? ecdsaFromSigner(signer, sig, spec.sizes.privateKey, 'raw') : sig;
}

function classicalEntry(spec: ClassicalSpec): AlgorithmEntry {
  const importKey = (jwk: Jwk) => importClassicalKey(spec, jwk);
  return {
    alg: spec.alg,
    family: 'classical',
    pq: false,
    kty: spec.kty,
    sizes: spec.sizes,
    description: `${spec.description} (via jose)`,
    unavailable: () => undefined,
    async generate({ seed, traditionalSecret }) {
      if (seed || traditionalSecret)
        throw new InvalidArgument(`${spec.alg} keys cannot be derived from a seed`);
      const { privateKey } = await jose.generateKeyPair(spec.alg, { extractable: true, modulusLength: 2048 });
      const privateJwk = { ...(await jose.exportJWK(privateKey)), alg: spec.alg } as Jwk;
      return { privateJwk, publicJwk: publicOnly(privateJwk) };
    },
    importPublic: (jwk) => importKey(publicOnly(jwk)),
    async importPrivate(jwk) {
      if (typeof jwk.d !== 'string') throw new JwkInvalid(`${spec.alg} private JWK has no "d"`);
      return { material: await importKey(jwk), publicJwk: { ...publicOnly(jwk), alg: spec.alg } };
    },
    plausibleSignature: (sig) => sig.length > 0 && sig.length <= 1024,
    async sign(m, input) {
      // The signing input is built already: WebCrypto (what jose calls too, on the thread pool)
      // signs it as is, without jose re-encoding the payload and header per token.
      if (m instanceof CryptoKey)
        return new Uint8Array(
          await webcrypto.subtle.sign(SIGN_PARAMS[spec.alg] as webcrypto.AlgorithmIdentifier, m, input.bytes),
        );
      const jws = await new jose.FlattenedSign(input.payload)
        .setProtectedHeader(input.header as jose.JWSHeaderParameters)
        .sign(m as Key);
      // jose re-serializes the header; it must be byte-identical to the one we committed to.
      if (jws.protected !== input.protectedB64) throw new Error('jose produced a different protected header');
      return b64uDecode(jws.signature) as Uint8Array;
    },
    signDelegated: (d, input) => signClassicalDelegated(spec, d, input),
    async verify(m, input, sig) {
      try {
        await jose.flattenedVerify(
          { protected: input.protectedB64, payload: input.payloadB64, signature: b64u(sig) },
          m as Key,
          { algorithms: [spec.alg] },
        );
        return true;
      } catch (e) {
        if (e instanceof jose.errors.JWSSignatureVerificationFailed) return false;
        throw e;
      }
    },
  };
}

export const classicalEntries = (): AlgorithmEntry[] => SPECS.map(classicalEntry);
