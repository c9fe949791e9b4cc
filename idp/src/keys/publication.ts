/**
 * What is published of the keys: /jwks (the sets sets.ts says it serves), one set's public keys
 * (the SAML metadata, the signed JWKS), and the listings of the CLI and health — public JWKs and
 * metadata only, never key material.
 */
import type { Jwk } from '@pqid/jose';
import type { KeySet } from '../policy/key-sets.ts';
import type { KeyRing } from './key-ring.ts';
import { type KeyInfo, keyInfo } from './record.ts';
import { jwksSets } from './sets.ts';

/** Public JWKs of one set's published keys: next, active and retired (until removal). */
export function publicKeys(ring: KeyRing, set: KeySet): { keys: Jwk[] } {
  const now = ring.now();
  const states = ring.states();
  return {
    keys: ring.records
      .filter((r) => {
        if (r.set !== set) return false;
        const removeAt = ring.stateOf(r, states)?.removeAt;
        return removeAt === undefined || removeAt > now;
      })
      .map((r) => ({ ...r.publicJwk })),
  };
}

/**
 * What /jwks serves: the OIDC token-signing keys (next, active, and retired until removal), and
 * the root's only when `publishRoot` is set. SAML signing keys are never here: SPs get them as
 * certificates in the SAML metadata.
 */
export function jwks(ring: KeyRing, publishRoot: boolean): { keys: Jwk[] } {
  return { keys: jwksSets(publishRoot).flatMap((set) => publicKeys(ring, set).keys) };
}

/** Metadata without key material, with the live state; one set or all. */
export function listKeys(ring: KeyRing, set?: KeySet): KeyInfo[] {
  const states = ring.states();
  return ring.records.flatMap((r) => {
    const state = ring.stateOf(r, states);
    return (set === undefined || r.set === set) && state ? [keyInfo(r, state)] : [];
  });
}
