/**
 * Tokens for the `sizes` scenario. The minimal profile is what the IdP issued in a real login
 * (ID token + RFC 9068 JWT access token). Typical and rich are those same claims plus the
 * profile, group and role claims deployments add, signed here with @pqid/jose under the same
 * algorithm (a fresh key: same kid length, same signature size). DPoP proofs (RFC 9449) carry
 * the client's public key in the header, which is what makes ML-DSA proofs large. Request
 * objects (JAR, RFC 9101) are signed by the IdP's JAR client of each algorithm: the
 * authorization URL that carries one by value, against the one PAR leaves (client_id and a
 * request_uri), is the size argument for PAR.
 */
import { createHash, randomBytes } from 'node:crypto';
import { generateKeyPair, importJWK, signJwt } from '@pqid/jose';

/**
 * A JWT's claims.
 * @param {string} jwt
 * @returns {Record<string, unknown>}
 */
const decode = (jwt) => JSON.parse(Buffer.from(jwt.split('.')[1] ?? '', 'base64url').toString('utf8'));

/**
 * A private JWK as a signing key of @pqid/jose.
 * @param {unknown} jwk
 */
export const importPrivateJwk = async (jwk) =>
  /** @type {import('@pqid/jose').PrivateKey} */ (await importJWK(jwk));

/**
 * One token set of the sizes scenario: an (alg, profile) and what k6 measures of it.
 * @typedef {object} SizeItem
 * @property {string} alg
 * @property {string} profile
 * @property {'idp' | 'runner'} source who signed the tokens
 * @property {string} idToken
 * @property {string} accessToken
 * @property {string} [dpopProof]
 * @property {string} [requestObject]
 * @property {{ id: string, secret: string }} [jarClient]
 * @property {{ id: string, secret: string }} [ccClient] the client that presents the DPoP proof
 */

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

/**
 * Re-sign `claims` (plus `extra`) under `key`, keeping the original header's typ.
 * @param {string} original
 * @param {import('@pqid/jose').PrivateKey} key
 * @param {Record<string, unknown>} extra
 */
async function resign(original, key, extra) {
  const header = JSON.parse(Buffer.from(original.split('.')[0] ?? '', 'base64url').toString('utf8'));
  const claims = { ...decode(original), ...extra };
  for (const k of SIZE_CLAIMS) if (claims[k] === undefined) delete claims[k];
  return signJwt(claims, key, { typ: header.typ ?? 'JWT' });
}

/**
 * What a richer authorization request adds (profile `rich`): an OIDC `claims` request and
 * RFC 9396 authorization details, as payment and open-banking clients send them.
 */
const RICH_REQUEST = {
  claims: {
    id_token: { acr: { essential: true, values: ['urn:pqid:acr:1fa'] }, auth_time: { essential: true } },
    userinfo: { name: null, email: { essential: true }, email_verified: null, locale: null },
  },
  authorization_details: [
    {
      type: 'payment_initiation',
      locations: ['https://pay.example.com/payments'],
      instructedAmount: { currency: 'EUR', amount: '123.50' },
      creditorName: 'Merchant A',
      creditorAccount: { iban: 'DE02100100109307118603' },
      remittanceInformationUnstructured: 'Ref Number Merchant 4711-0815',
    },
    {
      type: 'account_information',
      actions: ['list_accounts', 'read_balances', 'read_transactions'],
      locations: ['https://accounts.example.com/v2'],
      datatypes: ['balances', 'transactions', 'standing_orders'],
    },
  ],
};

/**
 * A request object as a client builds one: the code-flow parameters (plus `extra`), signed for
 * this issuer.
 * @param {{ id: string, privateJwk: Record<string, unknown> }} client
 * @param {{ issuer: string, redirectUri: string }} where
 * @param {Record<string, unknown>} [extra]
 */
export async function requestObject(client, where, extra = {}) {
  const verifier = randomBytes(32).toString('base64url');
  return signJwt(
    {
      client_id: client.id,
      response_type: 'code',
      redirect_uri: where.redirectUri,
      scope: 'openid profile email',
      state: randomBytes(16).toString('base64url'),
      nonce: randomBytes(16).toString('base64url'),
      code_challenge: createHash('sha256').update(verifier).digest('base64url'),
      code_challenge_method: 'S256',
      ...extra,
    },
    await importPrivateJwk(client.privateJwk),
    {
      typ: 'oauth-authz-req+jwt',
      issuer: client.id,
      audience: where.issuer,
      expiresIn: 300,
      jti: randomBytes(16).toString('base64url'),
    },
  );
}

/**
 * @param {Record<string, {idToken: string, accessToken: string}>} issued per alg, from the IdP
 * @param {string} tokenEndpoint htu of the DPoP proofs
 * @param {Record<string, { id: string, secret: string, privateJwk: Record<string, unknown> } | undefined>} [jarClients] per alg
 * @param {{ issuer: string, redirectUri: string }} [where] audience and redirect URI of request objects
 */
export async function buildSizeItems(issued, tokenEndpoint, jarClients = {}, where) {
  /** @type {SizeItem[]} */
  const items = [];
  /** @type {Record<string, number>} */
  const jwks = {};
  for (const [alg, tokens] of Object.entries(issued)) {
    const { privateJwk, publicJwk } = await generateKeyPair(alg);
    const key = await importPrivateJwk(privateJwk);
    jwks[alg] = Buffer.byteLength(JSON.stringify({ keys: [{ ...publicJwk, use: 'sig' }] }));
    // DPoP: the client's own key of this algorithm, public JWK in the header (no kid).
    const { kid: _kid, ...jwk } = publicJwk;
    const dpopProof = await signJwt(
      { htm: 'POST', htu: tokenEndpoint, jti: randomBytes(16).toString('base64url') },
      key,
      { typ: 'dpop+jwt', header: { jwk } },
    );
    const jar = jarClients[alg];
    /**
     * Request objects for the minimal (code-flow parameters) and rich (RICH_REQUEST) profiles.
     * @param {string} profile
     */
    const jarItem = async (profile) =>
      jar && where && profile !== 'typical'
        ? {
            requestObject: await requestObject(jar, where, profile === 'rich' ? RICH_REQUEST : {}),
            jarClient: { id: jar.id, secret: jar.secret },
          }
        : {};
    for (const [profile, extra] of Object.entries(PROFILES)) {
      const minimal = profile === 'minimal';
      items.push({
        alg,
        profile,
        source: minimal ? /** @type {const} */ ('idp') : 'runner',
        idToken: minimal ? tokens.idToken : await resign(tokens.idToken, key, extra),
        accessToken: minimal
          ? tokens.accessToken
          : await resign(tokens.accessToken, key, accessTokenExtra(extra)),
        ...(minimal ? { dpopProof } : {}),
        ...(await jarItem(profile)),
      });
    }
  }
  return { items, jwks };
}

/**
 * Access tokens carry authorization data (groups, roles), not the profile.
 * @param {Record<string, unknown>} extra
 */
function accessTokenExtra(extra) {
  /** @type {Record<string, unknown>} */
  const out = {};
  for (const k of ['groups', 'roles', 'entitlements', 'acr', 'amr', 'sid'])
    if (extra[k] !== undefined) out[k] = extra[k];
  return out;
}
