/**
 * Placement: which algorithm (and so which key) signs which kind of object. Hot-path objects
 * (ID tokens, JWT access tokens, userinfo JWTs) are signed per request, so they follow the
 * client's registered algorithm by default; the cold path (long-lived objects signed rarely:
 * signed JWKS, SAML metadata) can afford a slower or larger algorithm.
 */
export type SigningPurpose = 'id_token' | 'access_token' | 'userinfo' | 'cold';

export const SIGNING_PURPOSES: readonly SigningPurpose[] = ['id_token', 'access_token', 'userinfo', 'cold'];

/** `client`: the algorithm the caller passes (the client's registration); otherwise a fixed alg. */
export type PlacementTarget = 'client' | (string & {});

export interface Placement {
  idToken: PlacementTarget;
  accessToken: PlacementTarget;
  userinfo: PlacementTarget;
  /** Always a fixed algorithm: there is no client to ask. */
  cold: string;
}

const FIELD: Record<SigningPurpose, keyof Placement> = {
  id_token: 'idToken',
  access_token: 'accessToken',
  userinfo: 'userinfo',
  cold: 'cold',
};

export class PlacementError extends Error {
  override name = 'PlacementError';
}

/** The algorithm for `purpose`; `requested` is the client's alg (or undefined: the default). */
export function resolveAlg(
  placement: Placement,
  purpose: SigningPurpose,
  requested: string | undefined,
  defaultAlg: string,
): string {
  const target = placement[FIELD[purpose]];
  if (target !== 'client') return target;
  return requested ?? defaultAlg;
}

/** The fixed algorithms a placement names: they need keys before the first request. */
export function fixedAlgs(placement: Placement): string[] {
  return [...new Set(Object.values(placement).filter((t) => t !== 'client'))];
}
