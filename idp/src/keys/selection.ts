/**
 * Which key signs what: a hot-path object (ID token, JWT access token, userinfo) is signed by the
 * OIDC key of the client's algorithm unless placement fixes one (placement.ts); a cold-path
 * object by the root set's key.
 */
import type { KeySet } from '../policy/key-sets.ts';
import type { KeyRing } from './key-ring.ts';
import { defaultColdAlg, type Placement, resolveAlg, type SigningPurpose } from './placement.ts';

/**
 * The cold-path root's algorithm (`keys.placement.cold`). `auto`: the algorithm of the newest
 * active root key, so an existing root stays what it is; for a store without one, SLH-DSA
 * (placement.ts, `defaultColdAlg`).
 */
export function coldAlg(ring: KeyRing, placement: Placement): string {
  if (placement.cold !== 'auto') return placement.cold;
  const states = ring.states();
  const roots = ring.records
    .filter((r) => r.set === 'root' && ring.stateOf(r, states)?.status === 'active')
    .sort((a, b) => (b.activateAt ?? b.createdAt) - (a.activateAt ?? a.createdAt));
  return roots[0]?.alg ?? defaultColdAlg();
}

/** The set and algorithm whose active key signs `purpose` (`alg`: the client's registered one). */
export function signingTarget(
  ring: KeyRing,
  placement: Placement,
  defaultAlg: string,
  request: { purpose: SigningPurpose; alg?: string | undefined },
): { alg: string; set: KeySet } {
  if (request.purpose === 'cold') return { alg: coldAlg(ring, placement), set: 'root' };
  return { alg: resolveAlg(placement, request.purpose, request.alg, defaultAlg), set: 'oidc' };
}
