/**
 * HPKE ciphersuites for the registry's HPKE entries, on one of two interchangeable backends:
 *
 * - `node`: the `hpke` package's built-in algorithms, on Web Cryptography in `node:crypto`
 *   (OpenSSL 3.5: ML-KEM, SHAKE256, X25519, ChaCha20-Poly1305); needs Node ≥ 24.7.
 * - `noble`: `@panva/hpke-noble`, the same algorithms in pure JavaScript on the `@noble/*`
 *   libraries; runs anywhere.
 *
 * Both implement draft-ietf-hpke-hpke (the RFC 9180 successor, with the one-stage SHAKE256 KDF)
 * and draft-ietf-hpke-pq; the `hpke` package drives the key schedule for both. Which backend
 * runs is the caller's choice (`backend` option), else the fastest available one.
 */
import * as Noble from '@panva/hpke-noble';
import * as Native from 'hpke';
import { BackendUnavailable, InvalidArgument } from '../errors.ts';

/** The HPKE ciphersuite behind a JWE HPKE `alg`: IANA HPKE registry identifiers and sizes. */
export interface HpkeSuite {
  kem: { id: number; name: string; Nenc: number; Npk: number; Nsk: number };
  kdf: { id: number; name: string };
  aead: { id: number; name: string; Nk: number };
}

export type HpkeBackend = 'node' | 'noble';
export const HPKE_BACKENDS: readonly HpkeBackend[] = ['node', 'noble'];

type Factories = typeof Native;

const KEM_FACTORY: Record<number, keyof Factories> = {
  16: 'KEM_DHKEM_P256_HKDF_SHA256',
  17: 'KEM_DHKEM_P384_HKDF_SHA384',
  18: 'KEM_DHKEM_P521_HKDF_SHA512',
  32: 'KEM_DHKEM_X25519_HKDF_SHA256',
  33: 'KEM_DHKEM_X448_HKDF_SHA512',
  65: 'KEM_ML_KEM_768',
  66: 'KEM_ML_KEM_1024',
  80: 'KEM_MLKEM768_P256',
  81: 'KEM_MLKEM1024_P384',
  25722: 'KEM_MLKEM768_X25519',
};
const KDF_FACTORY: Record<number, keyof Factories> = {
  1: 'KDF_HKDF_SHA256',
  2: 'KDF_HKDF_SHA384',
  3: 'KDF_HKDF_SHA512',
  17: 'KDF_SHAKE256',
};
const AEAD_FACTORY: Record<number, keyof Factories> = {
  1: 'AEAD_AES_128_GCM',
  2: 'AEAD_AES_256_GCM',
  3: 'AEAD_ChaCha20Poly1305',
};

/**
 * Why the `node` backend cannot run here, or undefined when it can. Web Cryptography's ML-KEM
 * (`encapsulateBits`) arrived in Node 24.7 together with SHAKE256 and ChaCha20-Poly1305.
 */
export function nodeHpkeUnavailable(): string | undefined {
  const subtle = globalThis.crypto?.subtle as { encapsulateBits?: unknown } | undefined;
  return typeof subtle?.encapsulateBits === 'function'
    ? undefined
    : `Web Cryptography ML-KEM needs Node >= 24.7 (this is ${process.version})`;
}

/** The backend used when a call names none: `node` where it runs, else `noble`. */
export const defaultHpkeBackend = (): HpkeBackend => (nodeHpkeUnavailable() ? 'noble' : 'node');

export function resolveHpkeBackend(requested: unknown): HpkeBackend {
  if (requested === undefined) return defaultHpkeBackend();
  if (requested !== 'node' && requested !== 'noble')
    throw new InvalidArgument(`unknown HPKE backend ${JSON.stringify(requested)} (node or noble)`);
  if (requested === 'node') {
    const why = nodeHpkeUnavailable();
    if (why) throw new BackendUnavailable(`the node HPKE backend is unavailable: ${why}`);
  }
  return requested;
}

export type CipherSuite = Native.CipherSuite<Native.Key>;

const cache = new Map<string, CipherSuite>();

/** The `hpke` CipherSuite for a registry suite on a backend (built once, then shared). */
export function cipherSuite(suite: HpkeSuite, backend: HpkeBackend): CipherSuite {
  const id = `${backend}:${suite.kem.id}:${suite.kdf.id}:${suite.aead.id}`;
  let s = cache.get(id);
  if (!s) {
    const lib = (backend === 'node' ? Native : Noble) as unknown as Record<string, unknown>;
    const pick = <T>(table: Record<number, keyof Factories>, n: number) =>
      lib[table[n] as string] as unknown as T;
    s = new Native.CipherSuite(
      pick<Native.KEMFactory>(KEM_FACTORY, suite.kem.id),
      pick<Native.KDFFactory>(KDF_FACTORY, suite.kdf.id),
      pick<Native.AEADFactory>(AEAD_FACTORY, suite.aead.id),
    );
    cache.set(id, s);
  }
  return s;
}
