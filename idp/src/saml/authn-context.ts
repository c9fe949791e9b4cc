/**
 * The authentication context of a SAML response, and what an AuthnRequest's
 * RequestedAuthnContext asks of the sign-in (saml-core §3.3.2.2.1), through the same classes as
 * OIDC's `acr` (signin/auth-context.ts). SAML 2.0 has no class for passkeys; two factors are
 * reported as the REFEDS MFA profile, the class SPs in practice ask for, a password sign-in as
 * PasswordProtectedTransport (Password when the issuer is plain http, i.e. local development),
 * and pqid's own `urn:pqid:acr:*` classes may be requested by name.
 */
import { ACR, AMR, type AuthContext, acrAtLeast, weakestKnown } from '../signin/auth-context.ts';
import { AUTHN_CONTEXT } from './constants.ts';

export type Comparison = 'exact' | 'minimum' | 'maximum' | 'better';

export interface RequestedAuthnContext {
  comparison: Comparison;
  classRefs: string[];
}

/** The class each known reference stands for. */
const LEVEL: Record<string, string> = {
  [AUTHN_CONTEXT.unspecified]: ACR.none,
  [AUTHN_CONTEXT.password]: ACR.oneFactor,
  [AUTHN_CONTEXT.passwordProtectedTransport]: ACR.oneFactor,
  [AUTHN_CONTEXT.refedsSfa]: ACR.oneFactor,
  [AUTHN_CONTEXT.refedsMfa]: ACR.multiFactor,
  [ACR.none]: ACR.none,
  [ACR.oneFactor]: ACR.oneFactor,
  [ACR.multiFactor]: ACR.multiFactor,
};
const LADDER = [ACR.none, ACR.oneFactor, ACR.multiFactor] as const;

/** Whether `ref` truthfully describes the sign-in `auth` (not merely its strength). */
function describes(ref: string, auth: AuthContext, https: boolean): boolean {
  const level = LEVEL[ref];
  if (level === undefined || !acrAtLeast(auth.acr, level)) return false;
  if (ref === AUTHN_CONTEXT.password) return auth.amr.includes(AMR.password);
  if (ref === AUTHN_CONTEXT.passwordProtectedTransport) return https && auth.amr.includes(AMR.password);
  return true;
}

/** The class reference of `auth` when the SP asked for nothing in particular. */
export function ownClassRef(auth: AuthContext, https: boolean): string {
  if (acrAtLeast(auth.acr, ACR.multiFactor)) return AUTHN_CONTEXT.refedsMfa;
  if (auth.amr.includes(AMR.password))
    return https ? AUTHN_CONTEXT.passwordProtectedTransport : AUTHN_CONTEXT.password;
  if (acrAtLeast(auth.acr, ACR.oneFactor)) return AUTHN_CONTEXT.refedsSfa;
  return AUTHN_CONTEXT.unspecified;
}

/**
 * The weakest class a sign-in must reach for `rac` (its acr need), or `impossible` when no
 * class this provider knows can satisfy it (answer NoAuthnContext without asking the user).
 */
export function requiredClass(rac: RequestedAuthnContext | undefined): string | undefined | 'impossible' {
  if (!rac) return undefined;
  const floor = weakestKnown(rac.classRefs.flatMap((r) => (LEVEL[r] ? [LEVEL[r]] : [])));
  if (floor === undefined) return 'impossible';
  if (rac.comparison !== 'better') return floor;
  // Stronger than one of them: the class above the weakest.
  return LADDER[LADDER.indexOf(floor as (typeof LADDER)[number]) + 1] ?? 'impossible';
}

/** Whether this provider knows the class reference `ref` (and so can require or report it). */
export const isKnownClassRef = (ref: string): boolean => LEVEL[ref] !== undefined;

/**
 * The weakest class a sign-in must reach for this SP: what the AuthnRequest asks (requiredClass),
 * raised to the SP's registered minimum. A request cannot lower the minimum: AuthnRequests travel
 * through the user's browser, so whoever holds only a password could otherwise ask for less.
 */
export function requiredClassFor(
  rac: RequestedAuthnContext | undefined,
  minimum: string | undefined,
): string | undefined | 'impossible' {
  const asked = requiredClass(rac);
  const floor = minimum === undefined ? undefined : LEVEL[minimum];
  if (floor === undefined || asked === 'impossible') return asked;
  return asked !== undefined && acrAtLeast(asked, floor) ? asked : floor;
}

/**
 * The AuthnContextClassRef to report for `auth` under `rac`, or undefined when the sign-in does
 * not satisfy the request (NoAuthnContext). exact and maximum report one of the requested
 * classes that truthfully describes the sign-in (maximum: the strongest); minimum and better
 * report the sign-in's own class, which is at least (more than) one of them.
 */
export function classRefFor(
  auth: AuthContext,
  rac: RequestedAuthnContext | undefined,
  https: boolean,
): string | undefined {
  const own = ownClassRef(auth, https);
  if (!rac) return own;
  const known = rac.classRefs.filter((r) => LEVEL[r] !== undefined);
  switch (rac.comparison) {
    case 'exact':
      return known.find((r) => describes(r, auth, https));
    case 'maximum': {
      const fitting = known.filter((r) => describes(r, auth, https));
      return fitting.sort((a, b) => (acrAtLeast(LEVEL[a] as string, LEVEL[b] as string) ? -1 : 1))[0];
    }
    case 'minimum':
      return known.some((r) => acrAtLeast(auth.acr, LEVEL[r] as string)) ? own : undefined;
    case 'better': {
      const need = requiredClass(rac);
      return need !== undefined && need !== 'impossible' && acrAtLeast(auth.acr, need) ? own : undefined;
    }
  }
}
