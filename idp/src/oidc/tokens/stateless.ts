/**
 * Stateless JWT access tokens (`accessTokenStorage: stateless`): nothing is written when one is
 * issued, so introspection and userinfo verify it instead of looking it up: its signature with
 * this provider's published token-signing keys (a retired key verifies until it is removed; a
 * removed one no longer does), its `typ`, issuer and expiry, then the denylist revocation writes
 * (storage/denylist.ts).
 *
 * Such a token says it is one in its signed `jti`: `s1.<random>` or, for a user's grant,
 * `s1.<random>.<grant id>` — the grant id is what revoking the grant denies. A JWT of the stored
 * mode has a plain random `jti` and is only ever looked up, so a revoked stored token (its record
 * gone) can never pass as a stateless one; and a token whose marker was edited no longer verifies.
 */
import { algorithms, createLocalJWKSet, type JwtClaims, type KeySet, verifyJwt } from '@pqid/jose';
import type { IdpContext } from '../../context.ts';
import { randomToken } from '../../crypto/secrets.ts';
import { isDenied } from '../../storage/denylist.ts';

const MARKER = 's1.';

/** The `jti` of a new stateless token, naming its grant when it has one. */
export function statelessJti(grantId: string | undefined): string {
  return `${MARKER}${randomToken(16)}${grantId !== undefined ? `.${grantId}` : ''}`;
}

/** The grant a stateless `jti` names, if any. */
function grantOf(jti: string): string | undefined {
  const dot = jti.indexOf('.', MARKER.length);
  return dot < 0 ? undefined : jti.slice(dot + 1);
}

/**
 * Whether `token` claims to be a stateless access token: a JWT whose (not yet verified) `jti`
 * carries the marker. Cheap, and only decides which lookup applies: verification decides the rest.
 */
export function isStatelessToken(token: string): boolean {
  const parts = token.split('.');
  if (parts.length !== 3) return false;
  try {
    const claims = JSON.parse(Buffer.from(parts[1] as string, 'base64url').toString('utf8')) as unknown;
    const jti = (claims as { jti?: unknown } | null)?.jti;
    return typeof jti === 'string' && jti.startsWith(MARKER);
  } catch {
    return false;
  }
}

/**
 * This provider's token-signing keys (the `oidc` set) as a key set, imported again only when
 * they change. Not all of /jwks: the root set published by `keys.publishRoot` signs cold-path
 * objects only, and a JWT it signed is never one of our access tokens.
 */
const ownSets = new WeakMap<IdpContext['keys'], { kids: string; set: Promise<KeySet> }>();

function ownKeySet(ctx: IdpContext): Promise<KeySet> {
  const jwks = ctx.keys.publicKeys('oidc');
  const kids = jwks.keys.map((k) => `${k.kid}/${k.alg}`).join(' ');
  const cached = ownSets.get(ctx.keys);
  if (cached?.kids === kids) return cached.set;
  const set = createLocalJWKSet(jwks);
  ownSets.set(ctx.keys, { kids, set });
  return set;
}

/** What a verified stateless token says (an access-token record's members, from its claims). */
export interface VerifiedAccessToken {
  jti: string;
  clientId: string;
  /** The end-user; absent for a client's own token (its `sub` is the client). */
  accountId?: string;
  scope: string;
  grantId?: string;
  iat: number;
  exp: number;
  aud: string;
  authTime?: number;
  amr?: string[];
  acr?: string;
  jkt?: string;
}

const REQUIRED = ['iss', 'sub', 'aud', 'exp', 'iat', 'jti', 'client_id', 'scope'];

/** The claims of a valid stateless token of ours, in the shape this provider wrote them. */
function readClaims(c: JwtClaims): VerifiedAccessToken | undefined {
  const { jti, sub, aud, client_id: clientId, scope, iat, exp } = c;
  if (typeof jti !== 'string' || !jti.startsWith(MARKER) || typeof sub !== 'string') return undefined;
  if (typeof aud !== 'string' || typeof clientId !== 'string' || typeof scope !== 'string') return undefined;
  if (typeof iat !== 'number' || typeof exp !== 'number') return undefined;
  const grantId = grantOf(jti);
  const cnf = c.cnf as { jkt?: unknown } | undefined;
  return {
    jti,
    clientId,
    // Tokens of a grant are a user's; without a grant the client itself is the subject.
    ...(grantId !== undefined ? { accountId: sub, grantId } : {}),
    scope,
    iat,
    exp,
    aud,
    ...(typeof c.auth_time === 'number' ? { authTime: c.auth_time } : {}),
    ...(Array.isArray(c.amr) ? { amr: c.amr as string[] } : {}),
    ...(typeof c.acr === 'string' ? { acr: c.acr } : {}),
    ...(typeof cnf?.jkt === 'string' ? { jkt: cnf.jkt } : {}),
  };
}

/**
 * The token, if it is a valid, unrevoked stateless access token of this provider. Expiry is
 * exact (`exp` ≤ now: expired), like a stored token's record: the provider judges by its own
 * clock, and a resource server that allows for skew does so itself.
 */
export async function verifyStatelessToken(
  ctx: IdpContext,
  token: string,
): Promise<VerifiedAccessToken | undefined> {
  let claims: JwtClaims;
  try {
    ({ claims } = await verifyJwt(token, await ownKeySet(ctx), {
      algorithms: algorithms(),
      issuer: ctx.config.issuer,
      typ: 'at+jwt',
      requiredClaims: REQUIRED,
    }));
  } catch {
    return undefined; // tampered, foreign, expired, or signed by a key no longer published
  }
  const verified = readClaims(claims);
  if (!verified) return undefined;
  return (await isDenied(ctx.storage, verified)) ? undefined : verified;
}
