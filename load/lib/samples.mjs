/**
 * Tokens for the `sizes` scenario. The minimal profile is what the IdP issued in a real login
 * (ID token + RFC 9068 JWT access token). Typical and rich are those same claims plus the
 * profile, group and role claims deployments add, signed here with @pqid/jose under the same
 * algorithm (a fresh key: same kid length, same signature size). DPoP proofs (RFC 9449) carry
 * the client's public key in the header, which is what makes ML-DSA proofs large.
 */
import { randomBytes } from 'node:crypto';
import { generateKeyPair, importJWK, signJwt } from '@pqid/jose';

const decode = (jwt) => JSON.parse(Buffer.from(jwt.split('.')[1], 'base64url').toString('utf8'));

export const PROFILES = {
  minimal: {},
  typical: {
    name: 'Jane Q. Doe',
    given_name: 'Jane',
    family_name: 'Doe',
    preferred_username: 'jane.doe',
    email: 'jane.doe@example.com',
    email_verified: true,
    locale: 'en-GB',
    sid: 'a6b3c1d2-77e1-4f0c-9c2e-0d8f3a9b1c55',
    acr: 'urn:mace:incommon:iap:silver',
    amr: ['pwd', 'mfa'],
    at_hash: 'HK6E_P6Dh8Y93mRNtsDB1Q',
  },
  rich: {
    name: 'Jane Q. Doe',
    given_name: 'Jane',
    family_name: 'Doe',
    preferred_username: 'jane.doe',
    email: 'jane.doe@example.com',
    email_verified: true,
    locale: 'en-GB',
    zoneinfo: 'Europe/London',
    picture: 'https://cdn.example.com/avatars/2f1c9a7e-5b3d-4e21-9f4a-1c2b3d4e5f60.png',
    sid: 'a6b3c1d2-77e1-4f0c-9c2e-0d8f3a9b1c55',
    acr: 'urn:mace:incommon:iap:silver',
    amr: ['pwd', 'mfa', 'hwk'],
    at_hash: 'HK6E_P6Dh8Y93mRNtsDB1Q',
    department: 'Platform Engineering',
    employee_id: 'E-0042917',
    groups: Array.from(
      { length: 24 },
      (_, i) =>
        `cn=team-${['platform', 'payments', 'identity', 'data'][i % 4]}-${i},ou=groups,dc=example,dc=com`,
    ),
    roles: Array.from(
      { length: 12 },
      (_, i) => `${['admin', 'editor', 'viewer', 'auditor'][i % 4]}:project-${1000 + i}`,
    ),
    entitlements: Array.from({ length: 8 }, (_, i) => `urn:example:entitlement:feature-${i}:read-write`),
  },
};

const SIZE_CLAIMS = new Set(['iat', 'exp', 'nbf']);

/** Re-sign `claims` (plus `extra`) under `key`, keeping the original header's typ. */
async function resign(original, key, extra) {
  const header = JSON.parse(Buffer.from(original.split('.')[0], 'base64url').toString('utf8'));
  const claims = { ...decode(original), ...extra };
  for (const k of SIZE_CLAIMS) if (claims[k] === undefined) delete claims[k];
  return signJwt(claims, key, { typ: header.typ ?? 'JWT' });
}

/**
 * @param {Record<string, {idToken: string, accessToken: string}>} issued per alg, from the IdP
 * @param {string} tokenEndpoint htu of the DPoP proofs
 */
export async function buildSizeItems(issued, tokenEndpoint) {
  const items = [];
  const jwks = {};
  for (const [alg, tokens] of Object.entries(issued)) {
    const { privateJwk, publicJwk } = await generateKeyPair(alg);
    const key = await importJWK(privateJwk);
    jwks[alg] = Buffer.byteLength(JSON.stringify({ keys: [{ ...publicJwk, use: 'sig' }] }));
    // DPoP: the client's own key of this algorithm, public JWK in the header (no kid).
    const { kid: _kid, ...jwk } = publicJwk;
    const dpopProof = await signJwt(
      { htm: 'POST', htu: tokenEndpoint, jti: randomBytes(16).toString('base64url') },
      key,
      { typ: 'dpop+jwt', header: { jwk } },
    );
    for (const [profile, extra] of Object.entries(PROFILES)) {
      const minimal = profile === 'minimal';
      items.push({
        alg,
        profile,
        source: minimal ? 'idp' : 'runner',
        idToken: minimal ? tokens.idToken : await resign(tokens.idToken, key, extra),
        accessToken: minimal
          ? tokens.accessToken
          : await resign(tokens.accessToken, key, accessTokenExtra(extra)),
        ...(minimal ? { dpopProof } : {}),
      });
    }
  }
  return { items, jwks };
}

/** Access tokens carry authorization data (groups, roles), not the profile. */
function accessTokenExtra(extra) {
  const out = {};
  for (const k of ['groups', 'roles', 'entitlements', 'acr', 'amr', 'sid'])
    if (extra[k] !== undefined) out[k] = extra[k];
  return out;
}
