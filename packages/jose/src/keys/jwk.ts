/** JWK import/export and key generation, dispatched through the registry. */
import { isRegistered, lookup } from '../algorithms/registry.ts';
import type { AlgorithmEntry } from '../algorithms/types.ts';
import { InvalidArgument, JwkInvalid, KeyMismatch } from '../errors.ts';
import { privateJwkOf } from '../lib/handles.ts';
import {
  asJwk,
  hasPrivateMember,
  type Jwk,
  type JwkKind,
  type KeyPairJwks,
  type PrivateJwk,
  type PublicJwk,
} from '../lib/jwk.ts';
import { type KeyHandle, PrivateKey, PublicKey } from './handles.ts';
import { calculateThumbprint, kidOf } from './thumbprint.ts';

/** The algorithm a JWK is for: its `alg`, or inferred for EC/OKP keys that omit it. */
function algOf(jwk: Jwk, expected?: string): AlgorithmEntry {
  let alg = jwk.alg;
  if (alg === undefined) {
    if (jwk.kty === 'AKP') throw new JwkInvalid('AKP keys must carry "alg" (RFC 9964)');
    if (jwk.kty === 'EC') alg = jwk.crv === 'P-256' ? 'ES256' : jwk.crv === 'P-384' ? 'ES384' : undefined;
    else if (jwk.kty === 'OKP' && jwk.crv === 'Ed25519') alg = 'EdDSA';
    alg ??= expected;
    if (alg === undefined)
      throw new JwkInvalid(`cannot tell the algorithm of a ${String(jwk.kty)} JWK without "alg"`);
  }
  if (!isRegistered(alg)) throw new JwkInvalid(`unsupported JWK alg ${JSON.stringify(alg)}`);
  if (expected !== undefined && expected !== alg) throw new KeyMismatch(`key is for ${alg}, not ${expected}`);
  const entry = lookup(alg);
  if (entry.kty !== jwk.kty) throw new KeyMismatch(`${alg} needs kty ${entry.kty}, got ${String(jwk.kty)}`);
  return entry;
}

export interface ImportOptions {
  /** Require this algorithm (guards against key-type confusion). */
  alg?: string;
}

/**
 * The handle `importJWK` gives for a JWK of type `J`: a PrivateKey for a private JWK (`priv` or
 * `d`, as generateKeyPair and exportJWK type them), a PublicKey for a public one, either one when
 * the type cannot tell (a `Jwk`, `unknown`): narrow it with `key.type === 'private'`.
 */
export type ImportedKey<J> = { public: PublicKey; private: PrivateKey }[JwkKind<J>];

export async function importJWK<J>(input: J, opts: ImportOptions = {}): Promise<ImportedKey<J>> {
  const jwk = asJwk(input);
  const entry = algOf(jwk, opts.alg);
  if (!hasPrivateMember(jwk)) return (await importPublicJwk(entry, jwk)) as ImportedKey<J>;
  const { material, publicJwk } = await entry.importPrivate(jwk);
  const pub = await importPublicJwk(entry, { ...publicJwk, ...(jwk.kid ? { kid: jwk.kid } : {}) });
  return new PrivateKey(pub, material, { ...jwk, alg: entry.alg }) as ImportedKey<J>;
}

async function importPublicJwk(entry: AlgorithmEntry, jwk: Jwk): Promise<PublicKey> {
  const material = await entry.importPublic(jwk);
  const clean: Jwk = { ...jwk, alg: entry.alg };
  clean.kid = kidOf(clean);
  return new PublicKey(entry, clean, material);
}

/** The JWK of a handle. For a private key this is the one deliberate way to get its secret out. */
export function exportJWK(key: PrivateKey): PrivateJwk;
export function exportJWK(key: PublicKey): PublicJwk;
export function exportJWK(key: KeyHandle): PrivateJwk | PublicJwk;
export function exportJWK(key: KeyHandle): PrivateJwk | PublicJwk {
  if (key instanceof PublicKey) return { ...key.jwk };
  if (key instanceof PrivateKey) {
    const jwk = privateJwkOf(key);
    if (!jwk) throw new InvalidArgument(`${key.kid} is a delegated key: its signer holds the secret`);
    return jwk;
  }
  throw new InvalidArgument('exportJWK needs a PublicKey or PrivateKey handle');
}

export interface GenerateOptions {
  /**
   * ML-DSA seed (32 bytes); for composites, the ML-DSA component's seed; for SLH-DSA the 3n-byte
   * SK.seed‖SK.prf‖PK.seed (48 bytes for the registered parameter sets).
   */
  seed?: Uint8Array;
  /** For composites: the traditional component's raw private key (ECDSA d or EdDSA seed). */
  traditionalSecret?: Uint8Array;
}

/** A new key pair as JWKs, each with `alg` and `kid` = RFC 7638 thumbprint. */
export async function generateKeyPair(alg: string, opts: GenerateOptions = {}): Promise<KeyPairJwks> {
  const { privateJwk, publicJwk } = await lookup(alg).generate(opts);
  const kid = calculateThumbprint(publicJwk);
  return {
    privateJwk: { ...privateJwk, kid } as PrivateJwk,
    publicJwk: { ...publicJwk, kid } as PublicJwk,
  };
}
