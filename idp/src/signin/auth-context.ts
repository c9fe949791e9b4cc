/**
 * The authentication context of a signed-in browser: who, when, by which methods, at which
 * level. OIDC reports it as `sub`, `auth_time`, `amr` and `acr`; SAML as the Subject,
 * AuthnInstant and AuthnContextClassRef. Protocols state what they need (`SignInNeed`) and ask
 * SignIn.check for a session that meets it rather than judging sessions themselves, so a new
 * factor or a stronger level changes this module, not theirs.
 */

/** Authentication Method Reference values (RFC 8176 §2) that the factors produce. */
export const AMR = {
  password: 'pwd',
  /**
   * A passkey the authenticator declares device-bound (backup-ineligible). Without verified
   * attestation this is the authenticator's word, not proof of a hardware key.
   */
  hardwareKey: 'hwk',
  /** A passkey that may be synced (backup-eligible): its private key can leave the device. */
  softwareKey: 'swk',
  /** Two factors: a password and a passkey, or a passkey unlocked by PIN or biometric (UV). */
  multiFactor: 'mfa',
} as const;

/** Authentication context class references (`acr`). */
export const ACR = {
  /** OIDC Core §2: authenticated by nothing worth a level (e.g. a long-lived cookie alone). */
  none: '0',
  /** One factor: a password, or a passkey without user verification. */
  oneFactor: 'urn:pqid:acr:1fa',
  /** Two factors, one of them a phishing-resistant passkey (the only second factor pqid has). */
  multiFactor: 'urn:pqid:acr:mfa',
} as const;

const PASSKEY_AMR: readonly string[] = [AMR.hardwareKey, AMR.softwareKey];
const usedPasskey = (amr: readonly string[]) => amr.some((m) => PASSKEY_AMR.includes(m));

/**
 * The classes, weakest first, each with a test on the methods used. A session achieves the last
 * class whose test passes, and meets a requested class if it achieved that one or a later one.
 */
const CLASSES: ReadonlyArray<{ acr: string; reachedBy: (amr: readonly string[]) => boolean }> = [
  { acr: ACR.none, reachedBy: () => true },
  { acr: ACR.oneFactor, reachedBy: (amr) => amr.includes(AMR.password) || usedPasskey(amr) },
  // `mfa` is only ever added by combineAmr or a verified passkey: never taken on trust.
  { acr: ACR.multiFactor, reachedBy: (amr) => amr.includes(AMR.multiFactor) && usedPasskey(amr) },
];

/**
 * The methods of a sign-in that used `first` and then `second`: both, plus `mfa` when they are
 * of different kinds (something known, a password; something held, a passkey).
 */
export function combineAmr(first: readonly string[], second: readonly string[]): string[] {
  const all = [...new Set([...first, ...second])].filter((m) => m !== AMR.multiFactor);
  const twoKinds = all.includes(AMR.password) && usedPasskey(all);
  const mfa = twoKinds || first.includes(AMR.multiFactor) || second.includes(AMR.multiFactor);
  return mfa ? [...all, AMR.multiFactor] : all;
}

/** Whether `acr` is at least as strong as `floor` (both known classes). */
export function acrAtLeast(acr: string, floor: string): boolean {
  const a = ACR_VALUES.indexOf(acr);
  const f = ACR_VALUES.indexOf(floor);
  return a !== -1 && f !== -1 && a >= f;
}

/** The weakest known class among `values` (any one of them would do), or undefined. */
export function weakestKnown(values: readonly string[]): string | undefined {
  const known = values.map((v) => ACR_VALUES.indexOf(v)).filter((i) => i !== -1);
  return known.length ? ACR_VALUES[Math.min(...known)] : undefined;
}

/** Every class this provider can achieve, weakest first (for `acr_values_supported`). */
export const ACR_VALUES: readonly string[] = CLASSES.map((c) => c.acr);

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
  /** The credential ID of the passkey this sign-in used, if it used one (signin/passkeys/uses.ts). */
  passkey?: string;
}

/** The strongest class that these methods reach. */
export function acrFor(amr: readonly string[]): string {
  let achieved: string = ACR.none;
  for (const c of CLASSES) if (c.reachedBy(amr)) achieved = c.acr;
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
