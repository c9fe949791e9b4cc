/**
 * The JWE key management registry: one entry per `alg`.
 *
 * HPKE identifiers, as registered by
 * - draft-ietf-jose-hpke-encrypt-20 (June 2026), §5.1 and §6.2: HPKE-0 … HPKE-7 (Integrated
 *   Encryption) and HPKE-0-KE … HPKE-7-KE (Key Encryption), over the RFC 9180 DHKEMs;
 * - draft-ietf-jose-hpke-pq-pqt-00 (June 2026), §3: HPKE-8, -9, -10 (the PQ/T hybrids
 *   MLKEM768-P256, MLKEM768-X25519 a.k.a. X-Wing, MLKEM1024-P384) and HPKE-12, -13 (ML-KEM-768,
 *   ML-KEM-1024), each with a -KE twin, all with the SHAKE256 KDF and AES-256-GCM; keys are
 *   `kty: "AKP"` (RFC 9964) whose `pub`/`priv` are the KEM's SerializePublicKey/SerializePrivateKey;
 * - the KEMs, KDF and sizes from draft-ietf-hpke-pq-05 and the IANA HPKE registry.
 * A later revision that renumbers an identifier or changes a suite changes this table and
 * nothing else; the copied draft vectors then fail until they are refreshed with it.
 *
 * Classical identifiers (RFC 7518 §4.3, §4.6; RFC 8037 for X25519) run on `jose`.
 */
import { UnsupportedAlgorithm } from '../errors.ts';
import type { HpkeSuite, JweAlgorithmEntry, JweKeyType } from './types.ts';

const HPKE_ENCRYPT = 'draft-ietf-jose-hpke-encrypt-20';
const HPKE_PQ = 'draft-ietf-jose-hpke-pq-pqt-00, draft-ietf-hpke-pq-05';

/** IANA HPKE KEM identifiers with Nenc/Npk/Nsk (RFC 9180 §7.1, draft-ietf-hpke-pq-05 §3–4). */
const KEM = {
  P256: { id: 0x0010, name: 'DHKEM(P-256, HKDF-SHA256)', Nenc: 65, Npk: 65, Nsk: 32 },
  P384: { id: 0x0011, name: 'DHKEM(P-384, HKDF-SHA384)', Nenc: 97, Npk: 97, Nsk: 48 },
  P521: { id: 0x0012, name: 'DHKEM(P-521, HKDF-SHA512)', Nenc: 133, Npk: 133, Nsk: 66 },
  X25519: { id: 0x0020, name: 'DHKEM(X25519, HKDF-SHA256)', Nenc: 32, Npk: 32, Nsk: 32 },
  X448: { id: 0x0021, name: 'DHKEM(X448, HKDF-SHA512)', Nenc: 56, Npk: 56, Nsk: 56 },
  MLKEM768: { id: 0x0041, name: 'ML-KEM-768', Nenc: 1088, Npk: 1184, Nsk: 64 },
  MLKEM1024: { id: 0x0042, name: 'ML-KEM-1024', Nenc: 1568, Npk: 1568, Nsk: 64 },
  MLKEM768_P256: { id: 0x0050, name: 'MLKEM768-P256', Nenc: 1153, Npk: 1249, Nsk: 32 },
  MLKEM1024_P384: { id: 0x0051, name: 'MLKEM1024-P384', Nenc: 1665, Npk: 1665, Nsk: 32 },
  MLKEM768_X25519: { id: 0x647a, name: 'MLKEM768-X25519', Nenc: 1120, Npk: 1216, Nsk: 32 },
} as const;

const KDF = {
  HKDF_SHA256: { id: 0x0001, name: 'HKDF-SHA256' },
  HKDF_SHA384: { id: 0x0002, name: 'HKDF-SHA384' },
  HKDF_SHA512: { id: 0x0003, name: 'HKDF-SHA512' },
  SHAKE256: { id: 0x0011, name: 'SHAKE256' },
} as const;

const AEAD = {
  AES_128_GCM: { id: 0x0001, name: 'AES-128-GCM', Nk: 16 },
  AES_256_GCM: { id: 0x0002, name: 'AES-256-GCM', Nk: 32 },
  CHACHA20_POLY1305: { id: 0x0003, name: 'ChaCha20Poly1305', Nk: 32 },
} as const;

type KemName = keyof typeof KEM;

const KEY_TYPE: Record<KemName, JweKeyType> = {
  P256: { kty: 'EC', crv: 'P-256' },
  P384: { kty: 'EC', crv: 'P-384' },
  P521: { kty: 'EC', crv: 'P-521' },
  X25519: { kty: 'OKP', crv: 'X25519' },
  X448: { kty: 'OKP', crv: 'X448' },
  MLKEM768: { kty: 'AKP' },
  MLKEM1024: { kty: 'AKP' },
  MLKEM768_P256: { kty: 'AKP' },
  MLKEM1024_P384: { kty: 'AKP' },
  MLKEM768_X25519: { kty: 'AKP' },
};

/** [number, KEM, KDF, AEAD]: the suites behind HPKE-<number> and HPKE-<number>-KE. */
const HPKE_SUITES: ReadonlyArray<
  readonly [number, KemName, keyof typeof KDF, keyof typeof AEAD, typeof HPKE_ENCRYPT | typeof HPKE_PQ]
> = [
  [0, 'P256', 'HKDF_SHA256', 'AES_128_GCM', HPKE_ENCRYPT],
  [1, 'P384', 'HKDF_SHA384', 'AES_256_GCM', HPKE_ENCRYPT],
  [2, 'P521', 'HKDF_SHA512', 'AES_256_GCM', HPKE_ENCRYPT],
  [3, 'X25519', 'HKDF_SHA256', 'AES_128_GCM', HPKE_ENCRYPT],
  [4, 'X25519', 'HKDF_SHA256', 'CHACHA20_POLY1305', HPKE_ENCRYPT],
  [5, 'X448', 'HKDF_SHA512', 'AES_256_GCM', HPKE_ENCRYPT],
  [6, 'X448', 'HKDF_SHA512', 'CHACHA20_POLY1305', HPKE_ENCRYPT],
  [7, 'P256', 'HKDF_SHA256', 'AES_256_GCM', HPKE_ENCRYPT],
  [8, 'MLKEM768_P256', 'SHAKE256', 'AES_256_GCM', HPKE_PQ],
  [9, 'MLKEM768_X25519', 'SHAKE256', 'AES_256_GCM', HPKE_PQ],
  [10, 'MLKEM1024_P384', 'SHAKE256', 'AES_256_GCM', HPKE_PQ],
  [12, 'MLKEM768', 'SHAKE256', 'AES_256_GCM', HPKE_PQ],
  [13, 'MLKEM1024', 'SHAKE256', 'AES_256_GCM', HPKE_PQ],
];

const HPKE_AEAD_TAG = 16; // every HPKE AEAD registered here has Nt = 16

function hpkeEntries(): JweAlgorithmEntry[] {
  return HPKE_SUITES.flatMap(([n, kemName, kdfName, aeadName, standard]) => {
    const suite: HpkeSuite = { kem: KEM[kemName], kdf: KDF[kdfName], aead: AEAD[aeadName] };
    const pq = suite.kem.id >= 0x0040;
    const hybrid = pq && suite.kem.id !== KEM.MLKEM768.id && suite.kem.id !== KEM.MLKEM1024.id;
    const what = `${suite.kem.name}, ${suite.kdf.name}, ${suite.aead.name}`;
    const common = {
      family: 'hpke' as const,
      pq,
      hybrid,
      keyTypes: [KEY_TYPE[kemName]],
      hpke: suite,
      sizes: {
        publicKey: suite.kem.Npk,
        privateKey: suite.kem.Nsk,
        encapsulatedSecret: suite.kem.Nenc,
        aeadTag: HPKE_AEAD_TAG,
      },
      standard,
    };
    return [
      {
        ...common,
        alg: `HPKE-${n}`,
        mode: 'integrated' as const,
        description: `HPKE Integrated Encryption: ${what}`,
      },
      {
        ...common,
        alg: `HPKE-${n}-KE`,
        mode: 'key-encryption' as const,
        description: `HPKE Key Encryption of the CEK: ${what}`,
      },
    ];
  });
}

const ECDH_KEYS: readonly JweKeyType[] = [
  { kty: 'EC', crv: 'P-256' },
  { kty: 'EC', crv: 'P-384' },
  { kty: 'EC', crv: 'P-521' },
  { kty: 'OKP', crv: 'X25519' },
];

function classicalEntries(): JweAlgorithmEntry[] {
  const rsa = (alg: string, hash: string): JweAlgorithmEntry => ({
    alg,
    family: 'classical',
    mode: 'key-encryption',
    pq: false,
    hybrid: false,
    keyTypes: [{ kty: 'RSA' }],
    // A 2048-bit modulus: the encrypted CEK is one modulus long.
    sizes: { publicKey: 256, privateKey: 256, encapsulatedSecret: 256, aeadTag: 0 },
    standard: 'RFC 7518 §4.3, through jose',
    description: `RSAES-OAEP with ${hash} and MGF1 with ${hash}`,
  });
  const ecdh = (alg: string, mode: JweAlgorithmEntry['mode'], what: string): JweAlgorithmEntry => ({
    alg,
    family: 'classical',
    mode,
    pq: false,
    hybrid: false,
    keyTypes: ECDH_KEYS,
    // P-256: the `epk` is a JWK in the header, not counted here.
    sizes: { publicKey: 65, privateKey: 32, encapsulatedSecret: 0, aeadTag: 0 },
    standard: 'RFC 7518 §4.6 (RFC 8037 for X25519), through jose',
    description: what,
  });
  return [
    rsa('RSA-OAEP', 'SHA-1'),
    rsa('RSA-OAEP-256', 'SHA-256'),
    rsa('RSA-OAEP-384', 'SHA-384'),
    rsa('RSA-OAEP-512', 'SHA-512'),
    ecdh('ECDH-ES', 'key-agreement', 'ECDH-ES with Concat KDF: the agreed key is the CEK'),
    ecdh(
      'ECDH-ES+A128KW',
      'key-agreement-with-key-wrapping',
      'ECDH-ES with Concat KDF, CEK wrapped with A128KW',
    ),
    ecdh(
      'ECDH-ES+A192KW',
      'key-agreement-with-key-wrapping',
      'ECDH-ES with Concat KDF, CEK wrapped with A192KW',
    ),
    ecdh(
      'ECDH-ES+A256KW',
      'key-agreement-with-key-wrapping',
      'ECDH-ES with Concat KDF, CEK wrapped with A256KW',
    ),
  ];
}

const ENTRIES: readonly JweAlgorithmEntry[] = Object.freeze([...hpkeEntries(), ...classicalEntries()]);
const BY_ALG = new Map(ENTRIES.map((e) => [e.alg, e]));

/** Every JWE key management algorithm (`alg`) this package implements. */
export const jweRegistry = (): readonly JweAlgorithmEntry[] => ENTRIES;

export const isJweAlgorithm = (alg: unknown): alg is string => typeof alg === 'string' && BY_ALG.has(alg);

export function lookupJweAlgorithm(alg: unknown): JweAlgorithmEntry {
  const e = typeof alg === 'string' ? BY_ALG.get(alg) : undefined;
  if (!e) throw new UnsupportedAlgorithm(`unsupported JWE algorithm: ${JSON.stringify(alg)}`);
  return e;
}
