/**
 * A user's grant as the token endpoint carries it from a stored code or refresh token to the
 * tokens it issues: who signed in, how and when, what they granted and for which resources.
 */

export interface UserGrant {
  accountId: string;
  /** The grant's scope: a new refresh token carries exactly this one (RFC 6749 §6). */
  scope: string;
  /** A narrower scope the client asked for at refresh: the access and ID token get it. */
  tokenScope?: string;
  grantId: string;
  authTime: number;
  amr?: string[];
  acr?: string;
  nonce?: string;
  /** Absolute end of the grant (a refresh never extends it); absent: a new grant. */
  grantExpiresAt?: number;
  resources?: string[];
  /** DPoP key the refresh token is bound to (public clients). */
  refreshJkt?: string;
  sid?: string;
}

/** What a stored code and a stored refresh token both remember of the grant. */
export type GrantRecord = Pick<UserGrant, 'accountId' | 'scope' | 'grantId' | 'authTime'> &
  Pick<UserGrant, 'amr' | 'acr' | 'sid' | 'resources'>;

/** The grant a stored code or refresh token stands for. */
export function userGrant(record: GrantRecord): UserGrant {
  return {
    accountId: record.accountId,
    scope: record.scope,
    grantId: record.grantId,
    authTime: record.authTime,
    ...(record.amr !== undefined ? { amr: record.amr } : {}),
    ...(record.acr !== undefined ? { acr: record.acr } : {}),
    ...(record.sid !== undefined ? { sid: record.sid } : {}),
    ...(record.resources ? { resources: record.resources } : {}),
  };
}
