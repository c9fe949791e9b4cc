/** JWK import/export and key generation, dispatched through the registry. */
import { isRegistered, lookup } from '../algorithms/registry.ts';
import type { AlgorithmEntry, Jwk } from '../algorithms/types.ts';
import { InvalidArgument, JwkInvalid, KeyMismatch } from '../errors.ts';
import { PrivateKey, PublicKey, privateJwkOf } from './handles.ts';
import { calculateThumbprint } from './thumbprint.ts';

const PRIVATE_MEMBERS = ['priv', 'd', 'p', 'q', 'dp', 'dq', 'qi', 'oth', 'k'];

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

function asJwk(input: unknown): Jwk {
  if (
    typeof input !== 'object' ||
    input === null ||
    Array.isArray(input) ||
    typeof (input as Jwk).kty !== 'string'
  ) {
    throw new JwkInvalid('a JWK must be an object with a string "kty"');
  }
  return input as Jwk;
}

export interface ImportOptions {
  /** Require this algorithm (guards against key-type confusion). */
  alg?: string;
}

export async function importJWK(input: unknown, opts: ImportOptions = {}): Promise<PublicKey | PrivateKey> {
  const jwk = asJwk(input);
  const entry = algOf(jwk, opts.alg);
  const isPrivate = PRIVATE_MEMBERS.some((m) => m in jwk);
  if (isPrivate) {
    const { material, publicJwk } = await entry.importPrivate(jwk);
    const pub = await importPublicJwk(entry, { ...publicJwk, ...(jwk.kid ? { kid: jwk.kid } : {}) });
    return new PrivateKey(entry, { ...jwk, alg: entry.alg }, material, pub);
  }
  return importPublicJwk(entry, jwk);
}

async function importPublicJwk(entry: AlgorithmEntry, jwk: Jwk): Promise<PublicKey> {
  const material = await entry.importPublic(jwk);
  const clean: Jwk = { ...jwk, alg: entry.alg };
  clean.kid = typeof jwk.kid === 'string' && jwk.kid ? jwk.kid : calculateThumbprint(clean);
  return new PublicKey(entry, clean, material);
}

/** The JWK of a handle. For a private key this is the one deliberate way to get its secret out. */
export function exportJWK(key: PublicKey | PrivateKey): Jwk {
  if (key instanceof PublicKey) return { ...key.jwk };
  if (key instanceof PrivateKey) {
    const jwk = privateJwkOf(key);
    if (!jwk) throw new InvalidArgument(`${key.kid} is a delegated key: its signer holds the secret`);
    return { ...jwk };
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
export async function generateKeyPair(
  alg: string,
  opts: GenerateOptions = {},
): Promise<{ privateJwk: Jwk; publicJwk: Jwk }> {
  const { privateJwk, publicJwk } = await lookup(alg).generate(opts);
  const kid = calculateThumbprint(publicJwk);
  return { privateJwk: { ...privateJwk, kid }, publicJwk: { ...publicJwk, kid } };
}
