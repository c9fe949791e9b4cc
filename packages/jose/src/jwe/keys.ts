/**
 * Encryption keys as JWKs (`use: "enc"`): generation, import and export. Every key names exactly
 * one `alg`: reusing a KEM key across suites or modes is what draft-ietf-jose-hpke-encrypt-20 and
 * draft-ietf-jose-hpke-pq-pqt-00 advise against.
 */
import * as jose from 'jose';
import { InvalidArgument, JwkInvalid, KeyMismatch } from '../errors.ts';
import { cipherSuite, defaultHpkeBackend, type HpkeBackend } from '../hpke/suite.ts';
import { kidOf } from '../keys/thumbprint.ts';
import { equalBytes, utf8 } from '../lib/encoding.ts';
import { privateJwkOf } from '../lib/handles.ts';
import {
  asJwk,
  hasPrivateMember,
  type Jwk,
  type JwkKind,
  type KeyPairJwks,
  PRIVATE_MEMBERS,
  type PrivateJwk,
  type PublicJwk,
} from '../lib/jwk.ts';
import { isJweAlgorithm, lookupJweAlgorithm } from './algorithms.ts';
import {
  DecryptionKey,
  EncryptionKey,
  type HpkePrivateMaterial,
  type HpkePublicMaterial,
  type JoseMaterial,
  type JweKeyHandle,
} from './handles.ts';
import { hpkeJwk, hpkePrivateBytes, hpkePublicBytes } from './hpke-jwk.ts';
import type { JweAlgorithmEntry } from './types.ts';

export interface ImportEncryptionKeyOptions {
  /**
   * The JWE `alg` this key is for. Required when the JWK has no `alg` (EC, OKP and RSA keys often
   * do not); when both are present they must agree.
   */
  alg?: string;
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
function publicJwkOf(entry: JweAlgorithmEntry, jwk: Jwk): PublicJwk {
  const pub: Jwk = { kty: jwk.kty };
  for (const [k, v] of Object.entries(jwk))
    if (!(PRIVATE_MEMBERS as readonly string[]).includes(k) && k !== 'key_ops') pub[k] = v;
  pub.alg = entry.alg;
  pub.use = 'enc';
  pub.kid = kidOf(pub);
  return pub as PublicJwk;
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
 * The handle `importEncryptionKey` gives for a JWK of type `J`: a DecryptionKey for a private JWK,
 * an EncryptionKey for a public one, either one when the type cannot tell (see `ImportedKey`).
 */
export type ImportedEncryptionKey<J> = { public: EncryptionKey; private: DecryptionKey }[JwkKind<J>];

/**
 * Imports a JWK as an encryption key handle: an `EncryptionKey` for a public JWK, a
 * `DecryptionKey` for a private one (checked against its public half).
 */
export async function importEncryptionKey<J>(
  input: J,
  opts: ImportEncryptionKeyOptions = {},
): Promise<ImportedEncryptionKey<J>> {
  const jwk = asJwk(input);
  const entry = entryFor(jwk, opts.alg);
  const { pub, material } = await importPublic(entry, jwk);
  if (!hasPrivateMember(jwk)) return pub as ImportedEncryptionKey<J>;
  return new DecryptionKey(pub, await importPrivate(entry, jwk, material), {
    ...jwk,
    alg: entry.alg,
    use: 'enc',
  }) as ImportedEncryptionKey<J>;
}

async function importPublic(
  entry: JweAlgorithmEntry,
  jwk: Jwk,
): Promise<{ pub: EncryptionKey; material: JoseMaterial | HpkePublicMaterial }> {
  const publicJwk = publicJwkOf(entry, jwk);
  const material =
    entry.family === 'classical' ? await joseImport(entry, publicJwk) : await importHpkePublic(entry, jwk);
  return { pub: new EncryptionKey(entry, publicJwk, material), material };
}

async function importPrivate(
  entry: JweAlgorithmEntry,
  jwk: Jwk,
  pub: JoseMaterial | HpkePublicMaterial,
): Promise<JoseMaterial | HpkePrivateMaterial> {
  if (pub.kind === 'jose') return joseImport(entry, jwk);
  const raw = hpkePrivateBytes(entry, jwk);
  if (!(await consistent(entry, pub.raw, raw)))
    throw new JwkInvalid(`${entry.alg} private key does not match its public key`);
  return { kind: 'hpke', raw, pub, imported: new Map() };
}

/** The JWK of a handle; for a `DecryptionKey` the one deliberate way to get its secret out. */
export function exportEncryptionKey(key: DecryptionKey): PrivateJwk;
export function exportEncryptionKey(key: EncryptionKey): PublicJwk;
export function exportEncryptionKey(key: JweKeyHandle): PrivateJwk | PublicJwk;
export function exportEncryptionKey(key: JweKeyHandle): PrivateJwk | PublicJwk {
  if (key instanceof EncryptionKey) return { ...key.jwk };
  if (key instanceof DecryptionKey) return privateJwkOf(key) as PrivateJwk;
  throw new InvalidArgument('exportEncryptionKey needs an EncryptionKey or DecryptionKey handle');
}

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
): Promise<KeyPairJwks> {
  const entry = lookupJweAlgorithm(alg);
  let priv: PrivateJwk;
  if (entry.family === 'classical') {
    const { privateKey } = await jose.generateKeyPair(alg, {
      extractable: true,
      ...(opts.crv ? { crv: opts.crv } : {}),
      ...(opts.modulusLength ? { modulusLength: opts.modulusLength } : {}),
    });
    priv = (await jose.exportJWK(privateKey)) as PrivateJwk;
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
    ) as PrivateJwk;
  }
  const publicJwk = publicJwkOf(entry, priv);
  return {
    publicJwk,
    privateJwk: { ...priv, alg: entry.alg, use: 'enc', kid: publicJwk.kid },
  };
}
