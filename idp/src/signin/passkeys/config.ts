/**
 * The `passkeys` configuration section (WebAuthn). The relying party is the issuer's host unless
 * `rpId` names a registrable suffix of it (passkeys then also work on sibling hosts); the origin
 * a ceremony must come from is always the issuer's.
 */

/** COSE algorithm identifiers (IANA COSE registry; ML-DSA: draft-ietf-cose-dilithium / RFC 9964). */
export const COSE_ALG = {
  'ML-DSA-44': -48,
  'ML-DSA-65': -49,
  'ML-DSA-87': -50,
  EdDSA: -8,
  ES256: -7,
  RS256: -257,
} as const;
export type PasskeyAlg = keyof typeof COSE_ALG;
export const PASSKEY_ALGS = Object.keys(COSE_ALG) as PasskeyAlg[];
export const isMlDsa = (alg: PasskeyAlg): boolean => alg.startsWith('ML-DSA-');

/** The name of a COSE algorithm identifier this provider knows, or undefined. */
export function passkeyAlgName(cose: number): PasskeyAlg | undefined {
  return PASSKEY_ALGS.find((a) => COSE_ALG[a] === cose);
}

export interface PasskeysConfig {
  /** Offer passkeys at all (login page, account page, second factor). */
  enabled: boolean;
  /** WebAuthn RP ID: the issuer's host (default) or a registrable domain suffix of it. */
  rpId?: string;
  /** The relying party's name as authenticators show it. */
  rpName: string;
  /** Seconds a challenge is valid; also the timeout the browser is given. */
  challengeTtl: number;
  /**
   * Credential algorithms offered at registration, most preferred first. ML-DSA is offered only
   * where this Node verifies it (WebCrypto ML-DSA, Node ≥ 24.7).
   */
  algorithms: PasskeyAlg[];
  /** Adding or removing a passkey needs a sign-in at most this many seconds old. */
  manageMaxAge: number;
}

export const passkeysDefaults = (): PasskeysConfig => ({
  enabled: true,
  rpName: 'pqid',
  challengeTtl: 300,
  algorithms: ['ML-DSA-44', 'ML-DSA-65', 'ML-DSA-87', 'EdDSA', 'ES256', 'RS256'],
  manageMaxAge: 600,
});

export function parsePasskeysConfig(layers: unknown[], fail: (message: string) => never): PasskeysConfig {
  const cfg = passkeysDefaults();
  for (const raw of layers) {
    if (raw === undefined) continue;
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) fail('passkeys must be an object');
    for (const [k, v] of Object.entries(raw as Record<string, unknown>)) {
      switch (k) {
        case 'enabled':
          if (typeof v !== 'boolean') fail('passkeys.enabled must be a boolean');
          cfg.enabled = v as boolean;
          break;
        case 'rpId':
          if (typeof v !== 'string' || !/^[a-z0-9.-]{1,253}$/.test(v) || v.startsWith('.') || v.endsWith('.'))
            fail('passkeys.rpId must be a lower-case host name');
          cfg.rpId = v as string;
          break;
        case 'rpName':
          if (typeof v !== 'string' || v.trim() === '' || v.length > 64)
            fail('passkeys.rpName must be a non-empty string of at most 64 characters');
          cfg.rpName = v as string;
          break;
        case 'challengeTtl':
        case 'manageMaxAge':
          if (typeof v !== 'number' || !Number.isInteger(v) || v <= 0 || v > 86_400)
            fail(`passkeys.${k} must be a whole number of seconds, 1–86400`);
          cfg[k] = v as number;
          break;
        case 'algorithms': {
          const list = v as unknown[];
          if (!Array.isArray(list) || list.length === 0)
            fail(`passkeys.algorithms must be a non-empty array of: ${PASSKEY_ALGS.join(', ')}`);
          for (const a of list)
            if (!PASSKEY_ALGS.includes(a as PasskeyAlg))
              fail(
                `passkeys.algorithms: unknown algorithm ${JSON.stringify(a)} (known: ${PASSKEY_ALGS.join(', ')})`,
              );
          cfg.algorithms = [...new Set(list as PasskeyAlg[])];
          break;
        }
        default:
          fail(`passkeys: unknown setting "${k}"`);
      }
    }
  }
  return cfg;
}

/** The RP ID for `issuer`: the configured one must be the issuer's host or a suffix of it. */
export function rpIdFor(cfg: PasskeysConfig, issuer: string): string {
  const host = new URL(issuer).hostname;
  const rpId = cfg.rpId ?? host;
  if (rpId !== host && !host.endsWith(`.${rpId}`))
    throw new Error(`passkeys.rpId ${rpId} is neither the issuer's host ${host} nor a domain suffix of it`);
  return rpId;
}
