/**
 * Encryption key handles. An `EncryptionKey` is a recipient's public key (what a sender encrypts
 * to); a `DecryptionKey` holds the private key and, like a signing `PrivateKey`, refuses to be
 * serialised by accident: only `exportEncryptionKey` gives its JWK out. Behind an HPKE handle are
 * the serialized keys, deserialized once per HPKE backend on first use; behind a classical one,
 * a jose key.
 */
import type * as jose from 'jose';
import { type CipherSuite, cipherSuite, type HpkeBackend } from '../hpke/suite.ts';
import { materialOf, PrivateHandle, PublicHandle } from '../lib/handles.ts';
import type { JweAlgorithmEntry } from './types.ts';

type HpkeKey = Parameters<CipherSuite['Seal']>[0];
type HpkeKeyPair = { privateKey: HpkeKey; publicKey: HpkeKey };

/** What a handle holds: serialized HPKE keys (imported per backend on demand) or a jose key. */
export interface HpkePublicMaterial {
  kind: 'hpke';
  raw: Uint8Array;
  imported: Map<HpkeBackend, Promise<HpkeKey>>;
}
export interface HpkePrivateMaterial {
  kind: 'hpke';
  raw: Uint8Array;
  pub: HpkePublicMaterial;
  imported: Map<HpkeBackend, Promise<HpkeKeyPair>>;
}
export interface JoseMaterial {
  kind: 'jose';
  key: jose.CryptoKey | jose.KeyObject;
}

/** A recipient's public encryption key: what a sender encrypts to. Its JWK has `use: "enc"`. */
export class EncryptionKey extends PublicHandle<JweAlgorithmEntry> {}

/** A private decryption key. Never serialised by accident: `JSON.stringify` throws. */
export class DecryptionKey extends PrivateHandle<JweAlgorithmEntry, EncryptionKey> {
  protected static override readonly exportedBy = 'exportEncryptionKey(key)';

  toString(): string {
    return `[DecryptionKey ${this.alg} ${this.kid}]`;
  }
}

export type JweKeyHandle = EncryptionKey | DecryptionKey;

/** The backend's HPKE public key of a handle (for a DecryptionKey: of its public half). */
export function hpkePublicKey(key: JweKeyHandle, backend: HpkeBackend): Promise<HpkeKey> {
  const m = materialOf(key instanceof DecryptionKey ? key.publicKey : key) as HpkePublicMaterial;
  const suite = cipherSuite(key.entry.hpke as NonNullable<JweAlgorithmEntry['hpke']>, backend);
  let p = m.imported.get(backend);
  if (!p) {
    p = suite.DeserializePublicKey(m.raw);
    m.imported.set(backend, p);
  }
  return p;
}

/** The backend's HPKE key pair of a DecryptionKey. */
export function hpkeKeyPair(key: DecryptionKey, backend: HpkeBackend): Promise<HpkeKeyPair> {
  const m = materialOf(key) as HpkePrivateMaterial;
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
  return (materialOf(key) as JoseMaterial).key;
}
