/**
 * A key record, as stored in the `SigningKey` model: type-agnostic (public JWK + metadata + where
 * the private half is), so a new algorithm needs no code here. Records are only ever replaced or
 * added, never edited in place (key-ring.ts relies on it).
 */
import type { Jwk } from '@pqid/jose';
import type { Sealed } from '../crypto/kek.ts';
import type { KeySet } from '../policy/key-sets.ts';
import type { CustodyFields, ExternalRef } from './custody.ts';
import type { KeyState, KeyStatus } from './lifecycle.ts';
import { type KeyUse, SET_RULES } from './sets.ts';

interface KeyRecordMembers {
  /** Members this version does not know (a newer version's) are kept by every rewrite. */
  [member: string]: unknown;
  kid: string;
  alg: string;
  kty: string;
  /** What it does (sets.ts): the set's use. */
  use: KeyUse;
  /** The state when written (informative); the live state is computed from the times. */
  status: KeyStatus;
  createdAt: number;
  /** Epoch seconds from which it signs; absent on older records (= createdAt). */
  activateAt?: number;
  /** Creation order, breaking ties between keys activated in the same second. */
  serial?: number;
  publicJwk: Jwk;
  /** Sealed custody: the private JWK sealed under the KEK. */
  privateJwk?: Sealed;
  /** External custody: where the key is in a KMS/HSM. */
  external?: ExternalRef;
}

export interface KeyRecord extends KeyRecordMembers {
  /** What the key is for (policy/key-sets.ts). */
  set: KeySet;
}

/**
 * A record as the store may hold it: one written before key sets has no `set`, and loading
 * migrates it (loading.ts).
 */
export interface PersistedKeyRecord extends KeyRecordMembers {
  set?: unknown;
}

export interface KeyInfo extends KeyState {
  kty: string;
  createdAt: number;
  /** `sealed:<KEK id>` (which KEK sealed it) or `external:<signer>`. */
  custody: string;
  /** The public JWK (what a relying party pins, e.g. the root's for the signed JWKS). */
  publicJwk: Jwk;
}

/** Describes a record's custody without opening it (listings, audit lines). */
export function custodyLabel(rec: { privateJwk?: Sealed; external?: ExternalRef }): string {
  if (rec.external)
    return `external:${'signer' in rec.external ? rec.external.signer : `${rec.external.mldsa.signer}+${rec.external.traditional.signer}`}`;
  return rec.privateJwk?.kek ? `sealed:${rec.privateJwk.kek}` : 'sealed';
}

/** A new key's record: `next` until `activateAt`, numbered after every record in `records`. */
export function newRecord(
  key: { alg: string; set: KeySet; publicJwk: Jwk; custody: CustodyFields },
  times: { now: number; activateAt: number },
  records: readonly KeyRecord[],
): KeyRecord {
  const use = SET_RULES[key.set].use;
  return {
    kid: String(key.publicJwk.kid),
    alg: key.alg,
    set: key.set,
    kty: key.publicJwk.kty,
    use,
    status: times.activateAt > times.now ? 'next' : 'active',
    createdAt: times.now,
    activateAt: times.activateAt,
    serial: Math.max(0, ...records.map((r) => r.serial ?? 0)) + 1,
    publicJwk: { ...key.publicJwk, use },
    ...key.custody,
  };
}

/** What listings show of a record: its live state and metadata, never key material. */
export const keyInfo = (rec: KeyRecord, state: KeyState): KeyInfo => ({
  ...state,
  kty: rec.kty,
  createdAt: rec.createdAt,
  custody: custodyLabel(rec),
  publicJwk: { ...rec.publicJwk },
});
