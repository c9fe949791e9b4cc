/**
 * Authentication levels: the methods a sign-in used (RFC 8176 `amr`) and the classes (`acr`) they
 * reach. Sign-in judges sessions with them, discovery advertises them and client registration
 * checks `default_acr_values` against them.
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
export const ACR_CLASSES: ReadonlyArray<{ acr: string; reachedBy: (amr: readonly string[]) => boolean }> = [
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
export const ACR_VALUES: readonly string[] = ACR_CLASSES.map((c) => c.acr);
