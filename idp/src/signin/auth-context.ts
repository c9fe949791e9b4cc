/**
 * The authentication context of a signed-in browser: who, when, by which methods, at which
 * level. OIDC reports it as `sub`, `auth_time`, `amr` and `acr`; SAML as the Subject,
 * AuthnInstant and AuthnContextClassRef. Protocols state what they need (`SignInNeed`) and ask
 * SignIn.check for a session that meets it rather than judging sessions themselves, so a new
 * factor or a stronger level changes this module, not theirs.
 */
import { ACR, ACR_CLASSES, ACR_VALUES } from '../policy/acr.ts';

export {
  ACR,
  ACR_VALUES,
  AMR,
  acrAtLeast,
  combineAmr,
  weakestKnown,
} from '../policy/acr.ts';

export interface AuthContext {
  accountId: string;
  /** Epoch seconds of the user's last authentication (OIDC `auth_time`, SAML AuthnInstant). */
  authTime: number;
  /** The methods used (RFC 8176), e.g. `['pwd']`. */
  amr: string[];
  /** The class achieved: one of ACR_VALUES. */
  acr: string;
  /**
   * The browser session this context belongs to: OIDC `sid`, which back-channel logout tokens
   * name. Absent for sessions stored before sessions had one.
   */
  sid?: string;
  /**
   * The stored session record this context was read from (the digest of its cookie): every
   * re-authentication makes a new one, so a step started in one session can tell whether that
   * very session is still alive.
   */
  session?: string;
  /** The credential ID of the passkey this sign-in used, if it used one (signin/uses.ts). */
  passkey?: string;
}

/** The strongest class that these methods reach. */
export function acrFor(amr: readonly string[]): string {
  let achieved: string = ACR.none;
  for (const c of ACR_CLASSES) if (c.reachedBy(amr)) achieved = c.acr;
  return achieved;
}

export function authContext(
  accountId: string,
  authTime: number,
  amr: string[],
  sid?: string,
  stored: { session?: string | undefined; passkey?: string | undefined } = {},
): AuthContext {
  return {
    accountId,
    authTime,
    amr,
    acr: acrFor(amr),
    ...(sid !== undefined ? { sid } : {}),
    ...(stored.session !== undefined ? { session: stored.session } : {}),
    ...(stored.passkey !== undefined ? { passkey: stored.passkey } : {}),
  };
}

/** What a protocol needs of the browser's session; an empty need is met by any session. */
export interface SignInNeed {
  /** Authenticate again even with a live session (OIDC `prompt=login`, SAML ForceAuthn). */
  reauthenticate?: boolean;
  /**
   * Seconds since the last authentication, at most (OIDC `max_age`). 0 means authenticate now,
   * as `prompt=login` does (OIDC Core §3.1.2.1): within the same second of a sign-in the elapsed
   * time is 0 as well, and that sign-in must not count.
   */
  maxAge?: number;
  /** Authenticated at or after this epoch second (a forced login coming back to its protocol). */
  authenticatedSince?: number;
  /**
   * Acceptable classes, any one of them (OIDC `acr_values` as essential, a client's minimum,
   * SAML RequestedAuthnContext). A class this provider does not know is never met.
   */
  acr?: readonly string[];
}

/** Why a session does not meet a need. */
export type Unmet = 'reauthenticate' | 'max_age' | 'authenticated_since' | 'acr';

/** The first part of `need` that `auth` fails, or undefined when it meets all of it. */
export function unmetBy(auth: AuthContext, need: SignInNeed, now: number): Unmet | undefined {
  if (need.reauthenticate) return 'reauthenticate';
  if (need.maxAge !== undefined && (need.maxAge === 0 || now - auth.authTime > need.maxAge)) return 'max_age';
  if (need.authenticatedSince !== undefined && auth.authTime < need.authenticatedSince)
    return 'authenticated_since';
  if (need.acr !== undefined && need.acr.length > 0) {
    const achieved = ACR_VALUES.indexOf(auth.acr);
    if (!need.acr.some((v) => ACR_VALUES.includes(v) && ACR_VALUES.indexOf(v) <= achieved)) return 'acr';
  }
  return undefined;
}
