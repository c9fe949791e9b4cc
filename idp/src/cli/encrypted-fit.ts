/**
 * What encryption adds to an ID token on the wire: the signed token encrypted (a Nested JWT,
 * sign then encrypt, as OpenID Connect Core §10.2 requires) to a throw-away key of each chosen
 * JWE `alg`/`enc`, measured with `inspectJwe` against the same cookie, header and URL limits as
 * the signed token. The post-quantum KEMs add their 1 088–1 665-byte encapsulated secret, and
 * the whole signed token is base64url-encoded once more.
 */
import {
  contentEncryptionRegistry,
  type DecryptionKey,
  type EncryptionKey,
  encryptJwt,
  generateEncryptionKeyPair,
  getJweAlgorithm,
  importEncryptionKey,
  inspectJwe,
  isJweAlgorithm,
  type JweAlgorithmEntry,
  type JweInspection,
  jweRegistry,
} from '@pqid/jose';
import { UsageError } from './common.ts';

/** One JWE configuration: key management `alg`, and `enc` unless the alg is HPKE Integrated. */
export interface Encryption {
  alg: string;
  enc?: string;
}

/** The content encryption used when a key-management alg is named without one. */
export const DEFAULT_ENC = 'A256GCM';

/**
 * The configurations measured when none is named: X-Wing, the two NIST-curve hybrids, and two
 * classical ones for comparison (what OIDC providers offer today).
 */
export const DEFAULT_ENCRYPTIONS: readonly Encryption[] = [
  { alg: 'HPKE-9' },
  { alg: 'HPKE-8' },
  { alg: 'HPKE-10' },
  { alg: 'ECDH-ES+A256KW', enc: DEFAULT_ENC },
  { alg: 'RSA-OAEP-256', enc: DEFAULT_ENC },
];

export const encryptionLabel = (e: Encryption): string => (e.enc ? `${e.alg} / ${e.enc}` : e.alg);

/**
 * `ALG` or `ALG:ENC` as an Encryption; a usage error that lists the choices when either is
 * unknown, or when an HPKE Integrated alg is given an `enc` (it has none).
 */
export function parseEncryption(spec: string, flag = '--encrypt'): Encryption {
  const [alg = '', enc, ...extra] = spec.trim().split(':');
  if (!isJweAlgorithm(alg))
    throw new UsageError(
      `${flag}: unknown JWE alg ${JSON.stringify(alg)}; choose one of ${jweRegistry()
        .map((e) => e.alg)
        .join(', ')}`,
    );
  const entry = getJweAlgorithm(alg);
  if (extra.length) throw new UsageError(`${flag}: ${JSON.stringify(spec)} is not ALG or ALG:ENC`);
  if (entry.mode === 'integrated') {
    if (enc !== undefined)
      throw new UsageError(
        `${flag}: ${alg} is HPKE Integrated Encryption and takes no enc; use ${alg}-KE:${enc} for Key Encryption`,
      );
    return { alg };
  }
  const encs = contentEncryptionRegistry().map((c) => c.enc);
  const chosen = enc ?? DEFAULT_ENC;
  if (!encs.includes(chosen))
    throw new UsageError(
      `${flag}: unknown JWE enc ${JSON.stringify(chosen)}; choose one of ${encs.join(', ')}`,
    );
  return { alg, enc: chosen };
}

/** A comma-separated list of ALG[:ENC]; the defaults when none is given. */
export function parseEncryptions(value: string | undefined, flag = '--encrypt'): Encryption[] {
  if (value === undefined) return [...DEFAULT_ENCRYPTIONS];
  const specs = value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (!specs.length) throw new UsageError(`${flag} needs at least one ALG[:ENC]`);
  return specs.map((s) => parseEncryption(s, flag));
}

export interface EncryptedFit {
  encryption: Encryption;
  entry: JweAlgorithmEntry;
  /** The JWE produced (to a throw-away key): what the sizes are of. */
  token: string;
  inspection: JweInspection;
}

/** Whether an alg resists a quantum adversary: PQ/T hybrid, pure PQ, or classical only. */
export const quantumSafety = (entry: JweAlgorithmEntry): 'PQ/T' | 'PQ' | 'no' =>
  entry.hybrid ? 'PQ/T' : entry.pq ? 'PQ' : 'no';

/** A throw-away key pair of `alg`: the public half to encrypt to, the private one to decrypt. */
export interface EncryptionKeyPair {
  publicKey: EncryptionKey;
  privateKey: DecryptionKey;
}

export async function throwAwayEncryptionKeys(alg: string): Promise<EncryptionKeyPair> {
  const { publicJwk, privateJwk } = await generateEncryptionKeyPair(alg);
  return {
    publicKey: (await importEncryptionKey(publicJwk)) as EncryptionKey,
    privateKey: (await importEncryptionKey(privateJwk)) as DecryptionKey,
  };
}

/** Encrypts `signedJwt` (a Nested JWT, `cty: "JWT"`) as `e` says, to `key`. */
export const encryptAs = (signedJwt: string, e: Encryption, key: EncryptionKey): Promise<string> =>
  encryptJwt(signedJwt, key, e.enc ? { enc: e.enc } : {});

/** Encrypts `signedJwt` to `keys` (a fresh key pair of `e.alg` when none is given) and measures the JWE. */
export async function encryptedFit(
  signedJwt: string,
  e: Encryption,
  keys?: EncryptionKeyPair,
): Promise<EncryptedFit> {
  const entry = getJweAlgorithm(e.alg);
  const { publicKey } = keys ?? (await throwAwayEncryptionKeys(e.alg));
  const token = await encryptAs(signedJwt, e, publicKey);
  return { encryption: e, entry, token, inspection: inspectJwe(token) };
}
