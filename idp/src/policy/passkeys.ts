/**
 * Passkeys (WebAuthn): the credential algorithms this provider knows, by COSE identifier, and
 * which relying party ID an issuer may claim. The relying party is the issuer's host unless
 * `passkeys.rpId` names a registrable suffix of it (passkeys then also work on sibling hosts).
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

/** The RP ID for `issuer`: the configured one must be the issuer's host or a suffix of it. */
export function rpIdFor(cfg: { rpId?: string | undefined }, issuer: string): string {
  const host = new URL(issuer).hostname;
  const rpId = cfg.rpId ?? host;
  if (rpId !== host && !host.endsWith(`.${rpId}`))
    throw new Error(`passkeys.rpId ${rpId} is neither the issuer's host ${host} nor a domain suffix of it`);
  return rpId;
}
