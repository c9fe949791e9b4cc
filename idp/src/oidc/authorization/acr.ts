/**
 * Authentication context at the authorization endpoint. `acr_values` and an `acr` claims request
 * name the classes the client accepts; pqid treats them as a requirement, raised to the client's
 * minimum (`default_acr_values`), and a session below it is stepped up (signin/sign-in.ts) before a code
 * is issued. A user who cannot reach it sends the client `unmet_authentication_requirements`
 * (OpenID Connect Core Unmet Authentication Requirements 1.0), as does an essential `acr` claim
 * with no class this provider knows. So a client that demands MFA never gets a token for a
 * password alone.
 */
import type { Client } from '../../clients/clients.ts';
import { type AuthContext, acrAtLeast, weakestKnown } from '../../signin/auth-context.ts';
import type { AuthRequest } from './request.ts';

export const UNMET = 'unmet_authentication_requirements';

/**
 * The weakest class the request accepts: the weakest known one it asks for (any would do),
 * raised to the client's minimum. `impossible` for an essential acr claim of unknown classes only.
 */
export function requiredAcr(request: AuthRequest, client: Client): string | undefined | 'impossible' {
  const asked = request.acrClaim?.values ?? request.acrValues;
  let floor = asked ? weakestKnown(asked) : undefined;
  if (asked && floor === undefined && request.acrClaim?.essential && request.acrClaim.values)
    return 'impossible';
  const minimum = client.default_acr_values ? weakestKnown(client.default_acr_values) : undefined;
  if (minimum !== undefined && (floor === undefined || !acrAtLeast(floor, minimum))) floor = minimum;
  return floor;
}

/**
 * The `acr` the ID token reports: with a claims request naming values, the strongest of them the
 * session reaches (OIDC Core §5.5.1.1: it must be one of them); otherwise the class achieved.
 */
export function reportedAcr(request: AuthRequest, auth: AuthContext): string {
  const values = request.acrClaim?.values;
  if (!values) return auth.acr;
  const met = values.filter((v) => acrAtLeast(auth.acr, v));
  return met.sort((a, b) => (acrAtLeast(a, b) ? -1 : 1))[0] ?? auth.acr;
}
