/**
 * Placement: which algorithm (and so which key) signs which kind of object. Hot-path objects
 * (ID tokens, JWT access tokens, userinfo JWTs) are signed per request, so they follow the
 * client's registered algorithm by default; the cold path (long-lived objects signed rarely: the
 * SAML certificates and metadata, the signed JWKS) is signed by the root key set, whose
 * algorithm can be slow and conservative — SLH-DSA — because it signs almost never.
 */
import { algorithms } from '@pqid/jose';
import type { Placement } from '../config/types.ts';
import { IdpError } from '../errors/index.ts';

export type { Placement, PlacementTarget } from '../config/types.ts';

export type SigningPurpose = 'id_token' | 'access_token' | 'userinfo' | 'cold';

export const SIGNING_PURPOSES: readonly SigningPurpose[] = ['id_token', 'access_token', 'userinfo', 'cold'];

const FIELD: Record<Exclude<SigningPurpose, 'cold'>, keyof Placement> = {
  id_token: 'idToken',
  access_token: 'accessToken',
  userinfo: 'userinfo',
};

export class PlacementError extends IdpError<'ERR_PLACEMENT'> {
  constructor(message: string) {
    super('ERR_PLACEMENT', message);
  }
}

/** The cold-path algorithm of a new store: SLH-DSA-SHA2-128s, where the runtime has it. */
export const COLD_PATH_ALGS = ['SLH-DSA-SHA2-128s', 'ML-DSA-87'] as const;
export const defaultColdAlg = (): string =>
  COLD_PATH_ALGS.find((a) => algorithms().includes(a)) ?? 'ML-DSA-87';

/** The algorithm for a hot-path `purpose`; `requested` is the client's alg (or undefined: the default). */
export function resolveAlg(
  placement: Placement,
  purpose: Exclude<SigningPurpose, 'cold'>,
  requested: string | undefined,
  defaultAlg: string,
): string {
  const target = placement[FIELD[purpose]];
  if (target !== 'client') return target;
  return requested ?? defaultAlg;
}

/** The fixed hot-path algorithms a placement names: they need keys before the first request. */
export function fixedAlgs(placement: Placement): string[] {
  return [
    ...new Set([placement.idToken, placement.accessToken, placement.userinfo].filter((t) => t !== 'client')),
  ];
}
