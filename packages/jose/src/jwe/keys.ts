/**
 * Encryption keys as JWKs (`use: "enc"`): generation, import, export, and the handles that
 * carry them. An `EncryptionKey` is a recipient's public key (what a sender encrypts to); a
 * `DecryptionKey` holds the private key and, like a signing `PrivateKey`, refuses to be
 * serialised by accident: only `exportEncryptionKey` gives its JWK out.
 *
 * HPKE keys follow draft-ietf-jose-hpke-encrypt-20 §8 (EC P-256/384/521 and OKP X25519/X448 for
 * the DHKEMs) and draft-ietf-jose-hpke-pq-pqt-00 §4 (`kty: "AKP"`, `pub`/`priv` = the KEM's
 * SerializePublicKey/SerializePrivateKey: a 32-byte seed for the hybrids, the 64-byte d‖z seed
 * for ML-KEM). Every key names exactly one `alg`: reusing a KEM key across suites or modes is
 * what the drafts advise against.
 */
import { inspect } from 'node:util';
import * as jose from 'jose';
import type { Jwk } from '../algorithms/types.ts';
import { b64u, b64uDecode, concat, equalBytes, utf8 } from '../encoding.ts';
import { InvalidArgument, JwkInvalid, KeyMismatch, SecretSerialization } from '../errors.ts';
import { type CipherSuite, cipherSuite, defaultHpkeBackend, type HpkeBackend } from '../hpke/suite.ts';
import { calculateThumbprint } from '../keys/thumbprint.ts';
import { isJweAlgorithm, lookupJweAlgorithm } from './algorithms.ts';
import type { JweAlgorithmEntry, JweKeyType } from './types.ts';

type HpkeKey = Parameters<CipherSuite['Seal']>[0];
type HpkeKeyPair = { privateKey: HpkeKey; publicKey: HpkeKey };

/** What a handle holds: serialized HPKE keys (imported per backend on demand) or a jose key. */
interface HpkePublicMaterial {
  kind: 'hpke';
  raw: Uint8Array;
  imported: Map<HpkeBackend, Promise<HpkeKey>>;
}
interface HpkePrivateMaterial {
  kind: 'hpke';
  raw: Uint8Array;
  pub: HpkePublicMaterial;
  imported: Map<HpkeBackend, Promise<HpkeKeyPair>>;
}
interface JoseMaterial {
  kind: 'jose';
  key: jose.CryptoKey | jose.KeyObject;
}
type Material = HpkePublicMaterial | HpkePrivateMaterial | JoseMaterial;

const materials = new WeakMap<object, Material>();
const privateJwks = new WeakMap<DecryptionKey, Jwk>();

/** A recipient's public encryption key: what a sender encrypts to. */
export class EncryptionKey {
  readonly type = 'public' as const;
  readonly alg: string;
  readonly kid: string;
  readonly entry: JweAlgorithmEntry;
  /** The public JWK, with `alg`, `use: "enc"` and `kid`. */
  readonly jwk: Readonly<Jwk>;

  constructor(entry: JweAlgorithmEntry, jwk: Jwk, material: Material) {
    this.entry = entry;
    this.alg = entry.alg;
    this.kid = jwk.kid as string;
    this.jwk = Object.freeze({ ...jwk });
    materials.set(this, material);
  }

  toJSON(): Jwk {
    return { ...this.jwk };
  }
}

/** A private decryption key. Never serialised by accident: `JSON.stringify` throws. */
export class DecryptionKey {
  readonly type = 'private' as const;
  readonly alg: string;
  readonly kid: string;
  readonly entry: JweAlgorithmEntry;
  readonly publicKey: EncryptionKey;

  constructor(entry: JweAlgorithmEntry, privateJwk: Jwk, material: Material, publicKey: EncryptionKey) {
    this.entry = entry;
    this.alg = entry.alg;
    this.kid = publicKey.kid;
    this.publicKey = publicKey;
    materials.set(this, material);
    privateJwks.set(this, Object.freeze({ ...privateJwk, kid: publicKey.kid }));
  }

  toJSON(): never {
    throw new SecretSerialization('refusing to serialize a decryption key; use exportEncryptionKey(key)');
  }

  toString(): string {
    return `[DecryptionKey ${this.alg} ${this.kid}]`;
  }

  [inspect.custom](): string {
    return this.toString();
  }
}

export type JweKeyHandle = EncryptionKey | DecryptionKey;

// ---- HPKE key serialization ↔ JWK ------------------------------------------------------------

const PRIVATE_MEMBERS = ['priv', 'd', 'p', 'q', 'dp', 'dq', 'qi', 'oth', 'k'];

/** EC coordinate length per curve (SEC 1 field element size). */
const COORD: Record<string, number> = { 'P-256': 32, 'P-384': 48, 'P-521': 66 };

function member(jwk: Jwk, name: string, bytes?: number): Uint8Array {
  const v = jwk[name];
  const out = typeof v === 'string' ? b64uDecode(v) : undefined;
  if (!out) throw new JwkInvalid(`JWK member "${name}" must be base64url`);
  if (bytes !== undefined && out.length !== bytes)
    throw new JwkInvalid(`JWK member "${name}" must be ${bytes} bytes, got ${out.length}`);
  return out;
}

/** SerializePublicKey for an HPKE JWK: EC → SEC 1 uncompressed point, OKP → x, AKP → pub. */
function hpkePublicBytes(entry: JweAlgorithmEntry, jwk: Jwk): Uint8Array {
  const kem = (entry.hpke as NonNullable<JweAlgorithmEntry['hpke']>).kem;
  if (jwk.kty === 'EC') {
    const n = COORD[jwk.crv as string] as number;
    return concat(Uint8Array.of(4), member(jwk, 'x', n), member(jwk, 'y', n));
  }
  if (jwk.kty === 'OKP') return member(jwk, 'x', kem.Npk);
  return member(jwk, 'pub', kem.Npk);
}

function hpkePrivateBytes(entry: JweAlgorithmEntry, jwk: Jwk): Uint8Array {
  const kem = (entry.hpke as NonNullable<JweAlgorithmEntry['hpke']>).kem;
  return member(jwk, jwk.kty === 'AKP' ? 'priv' : 'd', kem.Nsk);
}

/** The JWK members of serialized HPKE keys (the inverse of the two functions above). */
function hpkeJwk(entry: JweAlgorithmEntry, pub: Uint8Array, priv?: Uint8Array): Jwk {
  const kt = entry.keyTypes[0] as JweKeyType;
  if (kt.kty === 'EC') {
    const n = COORD[kt.crv as string] as number;
    return {
      kty: 'EC',
      crv: kt.crv,
      x: b64u(pub.subarray(1, 1 + n)),
      y: b64u(pub.subarray(1 + n)),
      ...(priv ? { d: b64u(priv) } : {}),
    };
  }
  if (kt.kty === 'OKP') return { kty: 'OKP', crv: kt.crv, x: b64u(pub), ...(priv ? { d: b64u(priv) } : {}) };
  return { kty: 'AKP', alg: entry.alg, pub: b64u(pub), ...(priv ? { priv: b64u(priv) } : {}) };
}

export function hpkePublicKey(key: JweKeyHandle, backend: HpkeBackend): Promise<HpkeKey> {
  const m = materials.get(key instanceof DecryptionKey ? key.publicKey : key) as HpkePublicMaterial;
  const suite = cipherSuite(key.entry.hpke as NonNullable<JweAlgorithmEntry['hpke']>, backend);
  let p = m.imported.get(backend);
  if (!p) {
    p = suite.DeserializePublicKey(m.raw);
    m.imported.set(backend, p);
  }
  return p;
}

export function hpkeKeyPair(key: DecryptionKey, backend: HpkeBackend): Promise<HpkeKeyPair> {
  const m = materials.get(key) as HpkePrivateMaterial;
  const suite = cipherSuite(key.entry.hpke as NonNullable<JweAlgorithmEntry['hpke']>, backend);
  let p = m.imported.get(backend);
  if (!p) {
    // Not extractable: the backend's key object never gives the secret back.
    p = Promise.all([suite.DeserializePrivateKey(m.raw, false), hpkePublicKey(key, backend)]).then(
      ([privateKey, publicKey]) => ({ privateKey, publicKey }),
    );
    m.imported.set(backend, p);
  }
  return p;
}

/** The jose key behind a classical handle. */
export function joseKey(key: JweKeyHandle): jose.CryptoKey | jose.KeyObject {
  return (materials.get(key) as JoseMaterial).key;
}

// ---- import -------------------------------------------------------------------------------------

export interface ImportEncryptionKeyOptions {
  /**
   * The JWE `alg` this key is for. Required when the JWK has no `alg` (EC, OKP and RSA keys often
   * do not); when both are present they must agree.
   */
  alg?: string;
}

function asJwk(input: unknown): Jwk {
  if (
    typeof input !== 'object' ||
    input === null ||
    Array.isArray(input) ||
    typeof (input as Jwk).kty !== 'string'
  )
    throw new JwkInvalid('a JWK must be an object with a string "kty"');
  return input as Jwk;
}

function entryFor(jwk: Jwk, expected?: string): JweAlgorithmEntry {
  if (expected !== undefined && !isJweAlgorithm(expected))
    throw new InvalidArgument(`unsupported JWE algorithm ${JSON.stringify(expected)}`);
  const alg = jwk.alg ?? expected;
  if (alg === undefined)
    throw new JwkInvalid(
      `cannot tell the JWE algorithm of a ${jwk.kty} JWK without "alg" (pass options.alg)`,
    );
  if (!isJweAlgorithm(alg)) throw new KeyMismatch(`JWK alg ${JSON.stringify(alg)} is not a JWE algorithm`);
  if (expected !== undefined && expected !== alg) throw new KeyMismatch(`key is for ${alg}, not ${expected}`);
  const entry = lookupJweAlgorithm(alg);
  if (!entry.keyTypes.some((t) => t.kty === jwk.kty && (t.crv === undefined || t.crv === jwk.crv))) {
    const want = entry.keyTypes.map((t) => (t.crv ? `${t.kty} ${t.crv}` : t.kty)).join(' or ');
    throw new KeyMismatch(
      `${alg} needs a ${want} key, got ${jwk.kty}${jwk.crv ? ` ${String(jwk.crv)}` : ''}`,
    );
  }
  if (jwk.use !== undefined && jwk.use !== 'enc')
    throw new KeyMismatch(`JWK has "use": ${JSON.stringify(jwk.use)}; encryption keys are "enc"`);
  return entry;
}

/** The public members of a JWK plus alg, use and kid (RFC 7638 thumbprint unless given). */
function publicJwkOf(entry: JweAlgorithmEntry, jwk: Jwk): Jwk {
  const pub: Jwk = { kty: jwk.kty };
  for (const [k, v] of Object.entries(jwk)) if (!PRIVATE_MEMBERS.includes(k) && k !== 'key_ops') pub[k] = v;
  pub.alg = entry.alg;
  pub.use = 'enc';
  pub.kid = typeof jwk.kid === 'string' && jwk.kid ? jwk.kid : calculateThumbprint(pub);
  return pub;
}

async function joseImport(entry: JweAlgorithmEntry, jwk: Jwk): Promise<JoseMaterial> {
  try {
    const { use: _use, key_ops: _ops, ...rest } = jwk;
    const key = await jose.importJWK({ ...(rest as jose.JWK), alg: entry.alg }, entry.alg);
    if (key instanceof Uint8Array) throw new JwkInvalid('symmetric keys are not encryption keys here');
    return { kind: 'jose', key };
  } catch (e) {
    if (e instanceof JwkInvalid) throw e;
    throw new JwkInvalid(`invalid ${entry.alg} JWK: ${(e as Error).message}`, { cause: e });
  }
}

/** Pairwise consistency: a message sealed to the public half opens with the private half. */
async function consistent(entry: JweAlgorithmEntry, pub: Uint8Array, priv: Uint8Array): Promise<boolean> {
  const suite = cipherSuite(entry.hpke as NonNullable<JweAlgorithmEntry['hpke']>, defaultHpkeBackend());
  try {
    const publicKey = await suite.DeserializePublicKey(pub);
    const privateKey = await suite.DeserializePrivateKey(priv, false);
    const probe = utf8('pqid pairwise consistency');
    const { encapsulatedSecret, ciphertext } = await suite.Seal(publicKey, probe);
    return equalBytes(await suite.Open({ privateKey, publicKey }, encapsulatedSecret, ciphertext), probe);
  } catch {
    return false;
  }
}

async function importHpkePublic(entry: JweAlgorithmEntry, jwk: Jwk): Promise<HpkePublicMaterial> {
  const raw = hpkePublicBytes(entry, jwk);
  const m: HpkePublicMaterial = { kind: 'hpke', raw, imported: new Map() };
  // Deserialize once now, so a point off the curve or a malformed ML-KEM key fails at import.
  const backend = defaultHpkeBackend();
  const p = cipherSuite(entry.hpke as NonNullable<JweAlgorithmEntry['hpke']>, backend).DeserializePublicKey(
    raw,
  );
  m.imported.set(backend, p);
  await p.catch((e) => {
    throw new JwkInvalid(`invalid ${entry.alg} public key: ${(e as Error).message}`, { cause: e });
  });
  return m;
}

/**
 * Imports a JWK as an encryption key handle: an `EncryptionKey` for a public JWK, a
 * `DecryptionKey` for a private one (checked against its public half).
 */
export async function importEncryptionKey(
  input: unknown,
  opts: ImportEncryptionKeyOptions = {},
): Promise<EncryptionKey | DecryptionKey> {
  const jwk = asJwk(input);
  const entry = entryFor(jwk, opts.alg);
  const publicJwk = publicJwkOf(entry, jwk);
  const isPrivate = PRIVATE_MEMBERS.some((m) => m in jwk);
  if (entry.family === 'classical') {
    const pub = new EncryptionKey(entry, publicJwk, await joseImport(entry, publicJwk));
    if (!isPrivate) return pub;
    return new DecryptionKey(
      entry,
      { ...jwk, alg: entry.alg, use: 'enc' },
      await joseImport(entry, jwk),
      pub,
    );
  }
  const pubMaterial = await importHpkePublic(entry, jwk);
  const pub = new EncryptionKey(entry, publicJwk, pubMaterial);
  if (!isPrivate) return pub;
  const raw = hpkePrivateBytes(entry, jwk);
  if (!(await consistent(entry, pubMaterial.raw, raw)))
    throw new JwkInvalid(`${entry.alg} private key does not match its public key`);
  const material: HpkePrivateMaterial = { kind: 'hpke', raw, pub: pubMaterial, imported: new Map() };
  return new DecryptionKey(entry, { ...jwk, alg: entry.alg, use: 'enc' }, material, pub);
}

/** The JWK of a handle; for a `DecryptionKey` the one deliberate way to get its secret out. */
export function exportEncryptionKey(key: EncryptionKey | DecryptionKey): Jwk {
  if (key instanceof EncryptionKey) return { ...key.jwk };
  if (key instanceof DecryptionKey) return { ...(privateJwks.get(key) as Jwk) };
  throw new InvalidArgument('exportEncryptionKey needs an EncryptionKey or DecryptionKey handle');
}

// ---- generation ---------------------------------------------------------------------------------

export interface GenerateEncryptionKeyOptions {
  /**
   * HPKE only: input keying material for the KEM's DeriveKeyPair (at least Nsk bytes), for
   * reproducible keys in tests. Leave it out in production.
   */
  ikm?: Uint8Array;
  /** Classical ECDH-ES only: the curve (default P-256). */
  crv?: 'P-256' | 'P-384' | 'P-521' | 'X25519';
  /** Classical RSA-OAEP only: modulus bits (default 2048). */
  modulusLength?: number;
  backend?: HpkeBackend;
}

/**
 * A new key pair for a JWE `alg`, as JWKs with `alg`, `use: "enc"` and `kid` = the RFC 7638
 * thumbprint of the public key (for AKP: over `alg`, `kty`, `pub`).
 */
export async function generateEncryptionKeyPair(
  alg: string,
  opts: GenerateEncryptionKeyOptions = {},
): Promise<{ privateJwk: Jwk; publicJwk: Jwk }> {
  const entry = lookupJweAlgorithm(alg);
  let priv: Jwk;
  if (entry.family === 'classical') {
    const { privateKey } = await jose.generateKeyPair(alg, {
      extractable: true,
      ...(opts.crv ? { crv: opts.crv } : {}),
      ...(opts.modulusLength ? { modulusLength: opts.modulusLength } : {}),
    });
    priv = (await jose.exportJWK(privateKey)) as Jwk;
  } else {
    const suite = cipherSuite(
      entry.hpke as NonNullable<JweAlgorithmEntry['hpke']>,
      opts.backend ?? defaultHpkeBackend(),
    );
    const kp = opts.ikm ? await suite.DeriveKeyPair(opts.ikm, true) : await suite.GenerateKeyPair(true);
    priv = hpkeJwk(
      entry,
      await suite.SerializePublicKey(kp.publicKey),
      await suite.SerializePrivateKey(kp.privateKey),
    );
  }
  const publicJwk = publicJwkOf(entry, priv);
  return { publicJwk, privateJwk: { ...priv, alg: entry.alg, use: 'enc', kid: publicJwk.kid } };
}
