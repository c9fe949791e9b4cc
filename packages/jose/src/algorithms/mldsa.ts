/** Pure ML-DSA in JOSE (RFC 9964): kty AKP, `pub` = FIPS 204 public key, `priv` = 32-byte seed, empty context. */

import { MLDSA_PARAMS, type MlDsaAlg, SEED_BYTES } from '../backends/params.ts';
import { chooseBackend } from '../backends/select.ts';
import { countSeedExpansion } from '../backends/stats.ts';
import type { BackendName } from '../backends/types.ts';
import { InvalidArgument, JwkInvalid } from '../errors.ts';
import { b64u, b64uDecode, equalBytes } from '../lib/encoding.ts';
import { mldsaViaSigner } from './delegate.ts';
import { MlDsaSecretKey } from './mldsa-secret.ts';
import type { AlgorithmEntry, Jwk, SigningInput } from './types.ts';

const EMPTY = new Uint8Array(0);
const ZERO_RND = new Uint8Array(32);

export interface MlDsaSignParams {
  context: Uint8Array;
  deterministic?: boolean;
  backend?: BackendName;
}

/** Shared by pure ML-DSA and the ML-DSA half of composites. */
export async function mldsaSign(
  secret: MlDsaSecretKey,
  message: Uint8Array,
  p: MlDsaSignParams,
): Promise<Uint8Array> {
  const backend = chooseBackend({ rnd: !!p.deterministic, context: p.context.length > 0 }, p.backend);
  const prepared = secret.prepared(backend);
  return backend.sign(secret.alg, prepared, message, {
    context: p.context,
    ...(p.deterministic ? { rnd: ZERO_RND } : {}),
  });
}

export async function mldsaVerify(
  alg: MlDsaAlg,
  publicKey: Uint8Array,
  message: Uint8Array,
  signature: Uint8Array,
  context: Uint8Array,
) {
  if (signature.length !== MLDSA_PARAMS[alg].signature) return false;
  return chooseBackend({ context: context.length > 0 }).verify(alg, publicKey, message, signature, context);
}

export function mldsaPublicFromSeed(alg: MlDsaAlg, seed: Uint8Array): Uint8Array {
  const pk = chooseBackend().publicKeyFromSeed(alg, seed);
  countSeedExpansion();
  return pk;
}

/**
 * The prepared key of a private JWK whose `priv` must derive its `pub`: the seed is expanded
 * once, by the backend that will sign with it, and the check uses that expansion's public key.
 */
export function preparedFromSeed(alg: MlDsaAlg, seed: Uint8Array, pub: Uint8Array): MlDsaSecretKey {
  const key = MlDsaSecretKey.from(alg, seed, chooseBackend());
  // A priv that does not derive pub would sign tokens nobody can verify: refuse it now.
  if (!equalBytes(key.publicKey ?? mldsaPublicFromSeed(alg, seed), pub))
    throw new JwkInvalid('JWK "pub" does not match "priv"');
  return key;
}

/** Decodes an AKP member of an exact length, or throws JwkInvalid naming the member. */
export function akpMember(jwk: Jwk, name: 'pub' | 'priv', length: number): Uint8Array {
  const v = jwk[name];
  const bytes = typeof v === 'string' ? b64uDecode(v) : undefined;
  if (!bytes) throw new JwkInvalid(`JWK "${name}" must be a base64url string`);
  if (bytes.length !== length)
    throw new JwkInvalid(`JWK "${name}" must be ${length} bytes for ${jwk.alg}, got ${bytes.length}`);
  return bytes;
}

export function mldsaEntry(alg: MlDsaAlg): AlgorithmEntry {
  const p = MLDSA_PARAMS[alg];
  return {
    alg,
    family: 'ml-dsa',
    pq: true,
    kty: 'AKP',
    sizes: { publicKey: p.publicKey, privateKey: SEED_BYTES, signature: p.signature },
    description: `${alg} (FIPS 204, RFC 9964)`,
    unavailable: () => undefined,
    async generate({ seed, traditionalSecret }) {
      if (traditionalSecret) throw new InvalidArgument(`${alg} has no traditional component`);
      if (seed && seed.length !== SEED_BYTES) throw new InvalidArgument(`${alg} seed must be 32 bytes`);
      const s = seed ?? crypto.getRandomValues(new Uint8Array(SEED_BYTES));
      const pub = await mldsaPublicFromSeed(alg, s);
      const publicJwk = { kty: 'AKP', alg, pub: b64u(pub) };
      return { publicJwk, privateJwk: { ...publicJwk, priv: b64u(s) } };
    },
    async importPublic(jwk) {
      return akpMember(jwk, 'pub', p.publicKey);
    },
    async importPrivate(jwk) {
      const pub = akpMember(jwk, 'pub', p.publicKey);
      const seed = akpMember(jwk, 'priv', SEED_BYTES);
      const material = preparedFromSeed(alg, seed, pub);
      seed.fill(0); // the key holds its own copy
      return { material, publicJwk: { kty: 'AKP', alg, pub: jwk.pub as string } };
    },
    plausibleSignature: (sig) => sig.length === p.signature,
    // Only these options reach the primitive: JOSE signs with the empty context, always.
    sign: (m, input: SigningInput, o) =>
      mldsaSign(m as MlDsaSecretKey, input.bytes, {
        context: EMPTY,
        ...(o.deterministic ? { deterministic: true } : {}),
        ...(o.backend ? { backend: o.backend } : {}),
      }),
    signDelegated: (d, input) =>
      mldsaViaSigner(d.key, alg, d.publicMaterial as Uint8Array, input.bytes, EMPTY),
    verify: (m, input, sig) => mldsaVerify(alg, m as Uint8Array, input.bytes, sig, EMPTY),
  };
}
