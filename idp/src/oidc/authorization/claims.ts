/**
 * The `claims` parameter (OIDC Core §5.5). Only `id_token.acr` matters to this provider: other
 * claims are released by scope, and a claims request for them is voluntary (§5.5.1).
 */

export interface AcrClaimRequest {
  essential: boolean;
  /** Absent: any value (the claim is asked for, not a class). */
  values?: string[];
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** The `acr` request of a `claims` parameter, undefined when it has none, `invalid` if malformed. */
export function parseAcrClaim(json: string): AcrClaimRequest | undefined | 'invalid' {
  let claims: unknown;
  try {
    claims = JSON.parse(json);
  } catch {
    return 'invalid';
  }
  if (!isObject(claims)) return 'invalid';
  const idToken = claims.id_token;
  if (idToken === undefined || idToken === null) return undefined;
  if (!isObject(idToken)) return 'invalid';
  const acr = idToken.acr;
  if (acr === undefined) return undefined;
  // null: requested in the default manner (OIDC Core §5.5.1).
  if (acr === null) return { essential: false };
  if (!isObject(acr)) return 'invalid';
  const values = acr.values ?? (acr.value !== undefined ? [acr.value] : undefined);
  if (values !== undefined && (!Array.isArray(values) || values.some((v) => typeof v !== 'string')))
    return 'invalid';
  return { essential: acr.essential === true, ...(values ? { values: values as string[] } : {}) };
}
