/**
 * Registered relying parties. Secrets are stored hashed only (crypto/secrets.ts says how).
 * Every way in — `pqid clients add`, dynamic registration (RFC 7591/7592), the demo seed, tests —
 * goes through `Clients.register`/`replace`, which run `parseClientMetadata` (types, as JSON may
 * hold anything) and then the semantic checks below: one set of rules for every client.
 */
import { algorithms, importJwks, type Jwk } from '@pqid/jose';
import { hashGeneratedSecret, hashSecret, randomToken, verifySecret } from '../crypto/secrets.ts';
import { ACR_VALUES } from '../policy/acr.ts';
import { OutboundAllowlist } from '../policy/addresses.ts';
import { isSlowSigner, slowHotPathRefusal } from '../policy/algorithms.ts';
import type { Adapter } from '../storage/adapter.ts';
import { ClientCache } from './client-cache.ts';
import { ClientError } from './client-error.ts';
import { checkOutboundUrl, OutboundRefused, type Trust } from './outbound.ts';
import {
  APPLICATION_TYPES,
  type ApplicationType,
  absoluteUrl,
  checkBrowserUri,
  checkBrowserUris,
  type UriRules,
} from './redirect-uris.ts';

export { ClientError };

export type TokenEndpointAuthMethod =
  | 'client_secret_basic'
  | 'client_secret_post'
  | 'private_key_jwt'
  | 'none';
export const AUTH_METHODS: readonly TokenEndpointAuthMethod[] = [
  'client_secret_basic',
  'client_secret_post',
  'private_key_jwt',
  'none',
];
/**
 * `jwt`: RFC 9068 signed access tokens; `reference`: opaque handles validated by introspection;
 * `auto`: a JWT unless `Authorization: Bearer <jwt>` would exceed the header budget.
 */
export type AccessTokenFormat = 'jwt' | 'reference' | 'auto';
export const ACCESS_TOKEN_FORMATS: readonly AccessTokenFormat[] = ['jwt', 'reference', 'auto'];
export type GrantType = 'authorization_code' | 'refresh_token' | 'client_credentials';
export const GRANT_TYPES: readonly GrantType[] = [
  'authorization_code',
  'refresh_token',
  'client_credentials',
];

export interface Client {
  [member: string]: unknown;
  client_id: string;
  client_secret_hash?: string;
  token_endpoint_auth_method: TokenEndpointAuthMethod;
  redirect_uris: string[];
  grant_types: GrantType[];
  response_types: ['code'];
  id_token_signed_response_alg: string;
  /** PKCE S256 is on by default and cannot be turned off for public clients. */
  require_pkce: boolean;
  /** Scopes this client may request. */
  scope: string;
  client_name?: string;
  /** Reference tokens unless the client asks otherwise: they always fit in a header. */
  access_token_format?: AccessTokenFormat;
  /** Alg for JWT access tokens (default: the ID-token alg), unless key placement fixes one. */
  access_token_signed_response_alg?: string;
  /** When set, userinfo answers with a JWT signed with this alg (OIDC Core §5.3.2). */
  userinfo_signed_response_alg?: string;
  /** Exact-match targets for RP-initiated logout. */
  post_logout_redirect_uris?: string[];
  /**
   * OIDC Dynamic Client Registration §2: `web` (the default, absent) or `native`, which may use
   * private-use URI schemes for its redirects (clients/redirect-uris.ts).
   */
  application_type?: ApplicationType;
  /** private_key_jwt and request objects: the client's public keys, inline or by URL (one of them). */
  jwks?: { keys: Jwk[] };
  jwks_uri?: string;
  /** private_key_jwt: the only alg accepted on client assertions. */
  token_endpoint_auth_signing_alg?: string;
  /** RFC 9449 §5.2: every token request must carry a DPoP proof. */
  dpop_bound_access_tokens?: boolean;
  /** RFC 9126 §6: authorization requests only through the PAR endpoint. */
  require_pushed_authorization_requests?: boolean;
  /** RFC 9101 / OIDC Registration: the only alg accepted on request objects. */
  request_object_signing_alg?: string;
  /** RFC 9101 §10.5: every authorization request must be a signed request object. */
  require_signed_request_object?: boolean;
  /** OIDC Back-Channel Logout 1.0: where logout tokens are POSTed. */
  backchannel_logout_uri?: string;
  /** The logout token must carry `sid` (always true here: pqid always sends it). */
  backchannel_logout_session_required?: boolean;
  /** OIDC Front-Channel Logout 1.0: loaded in a hidden iframe of the signed-out page. */
  frontchannel_logout_uri?: string;
  /** `iss` and `sid` must be appended (always true here: pqid always appends them). */
  frontchannel_logout_session_required?: boolean;
  /** RFC 7592: SHA-256 digest of the registration access token (dynamically registered clients). */
  registration_access_token_hash?: string;
  /** RFC 7591 §3.2.1, epoch seconds. */
  client_id_issued_at?: number;
  /**
   * OIDC Dynamic Client Registration §2: the classes used when a request names none. pqid also
   * treats the weakest of them as the client's minimum: a request for less is raised to it.
   */
  default_acr_values?: string[];
}

/** Client metadata as a caller supplies it (CLI flags, a registration request, tests). */
export interface ClientInput {
  client_id?: string;
  client_secret?: string;
  token_endpoint_auth_method?: TokenEndpointAuthMethod;
  redirect_uris: string[];
  grant_types?: GrantType[];
  response_types?: string[];
  id_token_signed_response_alg?: string;
  require_pkce?: boolean;
  scope?: string;
  client_name?: string;
  access_token_format?: AccessTokenFormat;
  access_token_signed_response_alg?: string;
  userinfo_signed_response_alg?: string;
  post_logout_redirect_uris?: string[];
  application_type?: ApplicationType;
  jwks?: { keys: Jwk[] };
  jwks_uri?: string;
  token_endpoint_auth_signing_alg?: string;
  dpop_bound_access_tokens?: boolean;
  require_pushed_authorization_requests?: boolean;
  request_object_signing_alg?: string;
  require_signed_request_object?: boolean;
  backchannel_logout_uri?: string;
  backchannel_logout_session_required?: boolean;
  frontchannel_logout_uri?: string;
  frontchannel_logout_session_required?: boolean;
  default_acr_values?: string[];
}

const STRING_FIELDS = [
  'client_id',
  'client_secret',
  'client_name',
  'scope',
  'id_token_signed_response_alg',
  'access_token_signed_response_alg',
  'userinfo_signed_response_alg',
  'token_endpoint_auth_signing_alg',
  'request_object_signing_alg',
  'jwks_uri',
  'backchannel_logout_uri',
  'frontchannel_logout_uri',
] as const;
const BOOLEAN_FIELDS = [
  'require_pkce',
  'dpop_bound_access_tokens',
  'require_pushed_authorization_requests',
  'require_signed_request_object',
  'backchannel_logout_session_required',
  'frontchannel_logout_session_required',
] as const;
const LIST_FIELDS = [
  'redirect_uris',
  'post_logout_redirect_uris',
  'grant_types',
  'response_types',
  'default_acr_values',
] as const;
const ENUMS: Record<string, readonly string[]> = {
  token_endpoint_auth_method: AUTH_METHODS,
  access_token_format: ACCESS_TOKEN_FORMATS,
  application_type: APPLICATION_TYPES,
};

/**
 * Client metadata from untrusted JSON: every known member checked for its type, unknown members
 * dropped (RFC 7591 §2: a server ignores metadata it does not understand).
 */
export function parseClientMetadata(raw: unknown): ClientInput {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
    throw new ClientError('client metadata must be a JSON object');
  const m = raw as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const f of STRING_FIELDS) {
    if (m[f] === undefined) continue;
    if (typeof m[f] !== 'string' || m[f] === '' || (m[f] as string).length > 2048)
      throw new ClientError(`${f} must be a non-empty string`, f);
    out[f] = m[f];
  }
  for (const f of BOOLEAN_FIELDS) {
    if (m[f] === undefined) continue;
    if (typeof m[f] !== 'boolean') throw new ClientError(`${f} must be true or false`, f);
    out[f] = m[f];
  }
  for (const f of LIST_FIELDS) {
    if (m[f] === undefined) continue;
    const v = m[f];
    if (!Array.isArray(v) || v.length > 32 || v.some((x) => typeof x !== 'string' || x.length > 2048))
      throw new ClientError(`${f} must be an array of strings`, f);
    out[f] = [...v];
  }
  for (const [f, allowed] of Object.entries(ENUMS)) {
    if (m[f] === undefined) continue;
    if (!allowed.includes(m[f] as string))
      throw new ClientError(`${f} must be one of ${allowed.join(', ')}`, f);
    out[f] = m[f];
  }
  if (m.jwks !== undefined) {
    const j = m.jwks as { keys?: unknown };
    if (typeof j !== 'object' || j === null || !Array.isArray(j.keys) || j.keys.length > 16)
      throw new ClientError('jwks must be a JWK set: an object with a "keys" array', 'jwks');
    out.jwks = {
      keys: (j.keys as unknown[]).map((k) => (typeof k === 'object' && k !== null ? { ...k } : k)),
    };
  }
  return out as unknown as ClientInput;
}

export interface ClientPolicy {
  /** Accept SLH-DSA for the algorithms the IdP signs with per token (keys.allowSlhDsaHotPath). */
  allowSlhDsaHotPath?: boolean;
  /** Seconds a record read from storage is reused (config `clientCacheTtl`; 0 or absent: never). */
  cacheTtl?: number;
  /** `outbound.allow`: hosts and ranges a dynamically registered client's server URLs may name. */
  outboundAllow?: OutboundAllowlist;
}

/** Registered by an anonymous party through dynamic registration (RFC 7591), not the operator. */
export const isDynamic = (client: Pick<Client, 'registration_access_token_hash'>): boolean =>
  client.registration_access_token_hash !== undefined;

/** The outbound trust of requests made for this client (clients/outbound.ts). */
export const trustOf = (client: Pick<Client, 'registration_access_token_hash'>): Trust =>
  isDynamic(client) ? 'dynamic' : 'operator';

export class Clients {
  readonly #store: Adapter;
  readonly #defaultAlg: string;
  readonly #policy: ClientPolicy;
  readonly #cache: ClientCache<Client>;
  constructor(store: Adapter, defaultAlg: string, policy: ClientPolicy = {}) {
    this.#store = store;
    this.#defaultAlg = defaultAlg;
    this.#policy = policy;
    this.#cache = new ClientCache(policy.cacheTtl ?? 0);
  }

  /** Every write of a client goes through here: the cached record is dropped once it is stored. */
  async #write(clientId: string, write: () => Promise<void>): Promise<void> {
    try {
      await write();
    } finally {
      this.#cache.invalidate(clientId);
    }
  }

  /** Register a client; returns it with the plaintext secret (shown once). */
  async register(
    input: ClientInput,
    extra: Pick<Client, 'registration_access_token_hash' | 'client_id_issued_at'> = {},
  ): Promise<{ client: Client; clientSecret?: string }> {
    const meta = parseClientMetadata(input);
    const dynamic = extra.registration_access_token_hash !== undefined;
    const { client, clientSecret } = await this.#build(meta, meta.client_id ?? randomToken(16), dynamic);
    Object.assign(client, extra);
    await this.#write(client.client_id, () => this.#store.upsert(client.client_id, client));
    return clientSecret !== undefined ? { client, clientSecret } : { client };
  }

  /**
   * Replace a client's metadata (RFC 7592 §2.2), validated like a new registration. The secret
   * stays (a `client_secret` in the input must be the current one); so does the registration
   * access token.
   */
  async replace(existing: Client, input: ClientInput): Promise<{ client: Client; clientSecret?: string }> {
    const { client_secret: given, client_id: _sameId, ...rest } = parseClientMetadata(input);
    if (given !== undefined && !(await this.checkSecret(existing, given)))
      throw new ClientError('client_secret does not match the current secret', 'client_secret');
    // The secret survives a change between secret-based methods; one is minted only if there was none.
    const keep =
      existing.client_secret_hash !== undefined &&
      needsSecret(rest.token_endpoint_auth_method ?? 'client_secret_basic');
    const { client, clientSecret } = await this.#build(rest, existing.client_id, isDynamic(existing), keep);
    if (keep) client.client_secret_hash = existing.client_secret_hash as string;
    for (const k of ['registration_access_token_hash', 'client_id_issued_at'] as const)
      if (existing[k] !== undefined) (client as Record<string, unknown>)[k] = existing[k];
    await this.#write(client.client_id, () => this.#store.upsert(client.client_id, client));
    return clientSecret !== undefined ? { client, clientSecret } : { client };
  }

  async #build(
    input: ClientInput,
    clientId: string,
    dynamic: boolean,
    keepSecret = false,
  ): Promise<{ client: Client; clientSecret?: string }> {
    const method = input.token_endpoint_auth_method ?? 'client_secret_basic';
    // One set of URI rules for every way in; a registrant nobody vetted gets the strict ones.
    const rules: UriRules = { applicationType: input.application_type ?? 'web', dynamic };
    const redirectUris = checkBrowserUris('redirect_uris', input.redirect_uris ?? [], rules);
    const grantTypes = input.grant_types ?? ['authorization_code', 'refresh_token'];
    for (const g of grantTypes)
      if (!GRANT_TYPES.includes(g))
        throw new ClientError(
          `grant_types: ${JSON.stringify(g)} is not one of ${GRANT_TYPES.join(', ')}`,
          'grant_types',
        );
    if (
      input.response_types !== undefined &&
      (input.response_types.length !== 1 || input.response_types[0] !== 'code')
    )
      throw new ClientError(
        'response_types must be ["code"]: only the code flow is supported',
        'response_types',
      );
    if (grantTypes.includes('authorization_code') && redirectUris.length === 0)
      throw new ClientError('the authorization_code grant needs at least one redirect_uri', 'redirect_uris');
    if (method === 'none' && grantTypes.includes('client_credentials'))
      throw new ClientError('a public client cannot use client_credentials', 'grant_types');
    const alg = input.id_token_signed_response_alg ?? this.#defaultAlg;
    checkAlg('id_token_signed_response_alg', alg);
    // What the IdP signs per token with: SLH-DSA only when the operator accepted its cost.
    if (!this.#policy.allowSlhDsaHotPath)
      for (const [field, a] of [
        ['id_token_signed_response_alg', alg],
        ['access_token_signed_response_alg', input.access_token_signed_response_alg],
        ['userinfo_signed_response_alg', input.userinfo_signed_response_alg],
      ] as const)
        if (a !== undefined && isSlowSigner(a)) throw new ClientError(slowHotPathRefusal(field, a), field);
    const scope = input.scope ?? 'openid profile email offline_access';
    if (!/^[\x21\x23-\x5b\x5d-\x7e]+( [\x21\x23-\x5b\x5d-\x7e]+)*$/.test(scope))
      throw new ClientError('scope must be space-separated scope tokens', 'scope');
    const extra = await validateExtras(input, method, rules, this.#policy.outboundAllow ?? NO_EXCEPTIONS);
    const secretNeeded = needsSecret(method) && !keepSecret;
    const clientSecret = secretNeeded ? (input.client_secret ?? randomToken(32)) : undefined;
    // A secret someone chose may be guessable: slow hash. One we generated is not: fast hash.
    const secretHash =
      clientSecret === undefined
        ? undefined
        : input.client_secret !== undefined
          ? await hashSecret(clientSecret)
          : hashGeneratedSecret(clientSecret);
    const client: Client = {
      client_id: clientId,
      ...(secretHash !== undefined ? { client_secret_hash: secretHash } : {}),
      token_endpoint_auth_method: method,
      redirect_uris: redirectUris,
      grant_types: [...new Set(grantTypes)],
      response_types: ['code'],
      id_token_signed_response_alg: alg,
      require_pkce: method === 'none' ? true : (input.require_pkce ?? true),
      scope,
      ...(input.client_name !== undefined ? { client_name: input.client_name } : {}),
      ...(input.application_type !== undefined ? { application_type: input.application_type } : {}),
      ...extra,
    };
    return clientSecret !== undefined ? { client, clientSecret } : { client };
  }

  /** The client, from this instance's cache when read in the last `cacheTtl` seconds. */
  async find(clientId: string): Promise<Client | undefined> {
    if (!this.#cache.enabled) return (await this.#store.find(clientId)) as Client | undefined;
    const cached = this.#cache.get(clientId);
    if (cached !== undefined) return cached;
    const generation = this.#cache.generation;
    const client = (await this.#store.find(clientId)) as Client | undefined;
    return client === undefined ? undefined : this.#cache.set(clientId, client, generation);
  }

  async list(): Promise<Client[]> {
    return (await this.#store.list()).map((r) => r.payload as Client);
  }

  async remove(clientId: string): Promise<void> {
    await this.#write(clientId, () => this.#store.destroy(clientId));
  }

  async checkSecret(client: Client, secret: string): Promise<boolean> {
    return verifySecret(secret, client.client_secret_hash);
  }
}

const needsSecret = (method: TokenEndpointAuthMethod) => method !== 'none' && method !== 'private_key_jwt';

const PRIVATE_MEMBERS = ['d', 'priv', 'p', 'q', 'dp', 'dq', 'qi', 'k', 'seed'];

function checkAlg(field: string, alg: string | undefined): void {
  if (alg !== undefined && !algorithms().includes(alg))
    throw new ClientError(
      `${field} ${alg} is not available; choose one of ${algorithms().join(', ')}`,
      field,
    );
}

const NO_EXCEPTIONS = new OutboundAllowlist();

/**
 * A URL this provider itself requests (jwks_uri, backchannel_logout_uri): the outbound rules
 * on its text (clients/outbound.ts), so a URL the provider would refuse to fetch is refused at
 * registration already. Its addresses are checked again at every connection.
 */
function checkServerUrl(field: string, uri: string, trust: Trust, allow: OutboundAllowlist): string {
  absoluteUrl(field, uri);
  try {
    checkOutboundUrl(uri, trust, allow);
  } catch (e) {
    if (e instanceof OutboundRefused) throw new ClientError(`${field}: ${e.message}`, field);
    throw e;
  }
  if (uri.includes('*')) throw new ClientError(`${field}: ${uri} must not contain a wildcard (*)`, field);
  return uri;
}

const FRONTCHANNEL = 'frontchannel_logout_uri';

/**
 * OIDC Front-Channel Logout 1.0 §2. The browser loads this URI in an iframe of the IdP's
 * signed-out page, so: the rules of a redirect URI, but http(s) only (an https page may frame
 * nothing else); the scheme, host and port of a registered redirect URI (a MUST of §2, and it
 * keeps a client from framing someone else's site in our page); a host that can be written in
 * the page's CSP `frame-src` (WHATWG URLs allow `;` `,` `'` in hosts, CSP host-sources do not,
 * nor IPv6 literals); a query kept as registered, but without `iss` or `sid`, which the IdP
 * appends.
 */
function checkFrontchannelLogoutUri(uri: string, redirectUris: string[], rules: UriRules): void {
  const url = checkBrowserUri(FRONTCHANNEL, uri, { ...rules, webOnly: true });
  if (!/^[a-z0-9-]+(\.[a-z0-9-]+)*$/.test(url.hostname))
    throw new ClientError(`${FRONTCHANNEL}: the host must be a DNS name or an IPv4 address`, FRONTCHANNEL);
  if (url.searchParams.has('iss') || url.searchParams.has('sid'))
    throw new ClientError(`${FRONTCHANNEL}: iss and sid are appended by the provider`, FRONTCHANNEL);
  const origins = redirectUris.map((r) => new URL(r).origin);
  if (!origins.includes(url.origin))
    throw new ClientError(
      `${FRONTCHANNEL}: scheme, host and port must be those of a registered redirect_uri`,
      FRONTCHANNEL,
    );
}

type Extras = Pick<
  Client,
  | 'access_token_format'
  | 'access_token_signed_response_alg'
  | 'userinfo_signed_response_alg'
  | 'post_logout_redirect_uris'
  | 'jwks'
  | 'jwks_uri'
  | 'token_endpoint_auth_signing_alg'
  | 'dpop_bound_access_tokens'
  | 'require_pushed_authorization_requests'
  | 'request_object_signing_alg'
  | 'require_signed_request_object'
  | 'backchannel_logout_uri'
  | 'backchannel_logout_session_required'
  | 'frontchannel_logout_uri'
  | 'frontchannel_logout_session_required'
  | 'default_acr_values'
>;

/** Metadata beyond the core fields: token formats, keys, DPoP, PAR/JAR, logout, minimum acr. */
async function validateExtras(
  input: ClientInput,
  method: TokenEndpointAuthMethod,
  rules: UriRules,
  allow: OutboundAllowlist,
): Promise<Extras> {
  const format = input.access_token_format ?? 'reference';
  if (!ACCESS_TOKEN_FORMATS.includes(format))
    throw new ClientError(
      `access_token_format must be one of ${ACCESS_TOKEN_FORMATS.join(', ')}`,
      'access_token_format',
    );
  checkAlg('access_token_signed_response_alg', input.access_token_signed_response_alg);
  checkAlg('userinfo_signed_response_alg', input.userinfo_signed_response_alg);
  checkAlg('token_endpoint_auth_signing_alg', input.token_endpoint_auth_signing_alg);
  checkAlg('request_object_signing_alg', input.request_object_signing_alg);
  const postLogout = checkBrowserUris(
    'post_logout_redirect_uris',
    input.post_logout_redirect_uris ?? [],
    rules,
  );
  if (input.jwks !== undefined && input.jwks_uri !== undefined)
    throw new ClientError('register jwks or jwks_uri, not both', 'jwks');
  const hasKeys = input.jwks !== undefined || input.jwks_uri !== undefined;
  if (method === 'private_key_jwt') {
    if (!hasKeys) throw new ClientError('private_key_jwt needs jwks or jwks_uri', 'jwks');
    // The alg is pinned per client so an attacker cannot pick a weaker one for the assertion.
    if (input.token_endpoint_auth_signing_alg === undefined)
      throw new ClientError(
        'private_key_jwt needs token_endpoint_auth_signing_alg',
        'token_endpoint_auth_signing_alg',
      );
  }
  if ((input.request_object_signing_alg !== undefined || input.require_signed_request_object) && !hasKeys)
    throw new ClientError('signed request objects need the client keys: jwks or jwks_uri', 'jwks');
  if (input.jwks !== undefined) {
    // importJwks silently skips private keys; refuse them so private material is never stored.
    if (
      input.jwks.keys.some((k) => typeof k !== 'object' || k === null || PRIVATE_MEMBERS.some((m) => m in k))
    )
      throw new ClientError('jwks must hold public keys only', 'jwks');
    const keys = await importJwks(input.jwks).catch((e: Error) => {
      throw new ClientError(`jwks is not a usable JWK set: ${e.message}`, 'jwks');
    });
    if (keys.length === 0) throw new ClientError('jwks holds no usable public signing key', 'jwks');
  }
  const acr = input.default_acr_values;
  // A minimum this provider cannot reach would lock the client out: refuse it now.
  if (acr !== undefined && (acr.length === 0 || acr.some((v) => !ACR_VALUES.includes(v))))
    throw new ClientError(
      `default_acr_values must be a non-empty array of: ${ACR_VALUES.join(', ')}`,
      'default_acr_values',
    );
  const trust: Trust = rules.dynamic ? 'dynamic' : 'operator';
  if (input.jwks_uri !== undefined) checkServerUrl('jwks_uri', input.jwks_uri, trust, allow);
  if (input.backchannel_logout_uri !== undefined)
    checkServerUrl('backchannel_logout_uri', input.backchannel_logout_uri, trust, allow);
  if (input.frontchannel_logout_uri !== undefined)
    checkFrontchannelLogoutUri(input.frontchannel_logout_uri, input.redirect_uris ?? [], rules);
  const flag = <K extends keyof Extras>(k: K, v: boolean | undefined) => (v ? { [k]: true } : {});
  return {
    access_token_format: format,
    post_logout_redirect_uris: postLogout,
    ...(input.access_token_signed_response_alg !== undefined
      ? { access_token_signed_response_alg: input.access_token_signed_response_alg }
      : {}),
    ...(input.userinfo_signed_response_alg !== undefined
      ? { userinfo_signed_response_alg: input.userinfo_signed_response_alg }
      : {}),
    ...(input.jwks !== undefined ? { jwks: { keys: input.jwks.keys.map((k) => ({ ...k })) } } : {}),
    ...(input.jwks_uri !== undefined ? { jwks_uri: input.jwks_uri } : {}),
    ...(input.token_endpoint_auth_signing_alg !== undefined
      ? { token_endpoint_auth_signing_alg: input.token_endpoint_auth_signing_alg }
      : {}),
    ...(input.request_object_signing_alg !== undefined
      ? { request_object_signing_alg: input.request_object_signing_alg }
      : {}),
    ...flag('dpop_bound_access_tokens', input.dpop_bound_access_tokens),
    ...flag('require_pushed_authorization_requests', input.require_pushed_authorization_requests),
    ...flag('require_signed_request_object', input.require_signed_request_object),
    ...(input.backchannel_logout_uri !== undefined
      ? {
          backchannel_logout_uri: input.backchannel_logout_uri,
          // pqid always puts sid in logout tokens, so the requirement is always met.
          backchannel_logout_session_required: input.backchannel_logout_session_required ?? false,
        }
      : {}),
    ...(input.frontchannel_logout_uri !== undefined
      ? {
          frontchannel_logout_uri: input.frontchannel_logout_uri,
          // pqid always appends iss and sid, so the requirement is always met.
          frontchannel_logout_session_required: input.frontchannel_logout_session_required ?? false,
        }
      : {}),
    ...(acr !== undefined ? { default_acr_values: [...acr] } : {}),
  };
}

/** The algorithms a client's tokens may be signed with (keys to publish before first use). */
export function signingAlgs(client: Client, accessTokenAlg?: string): string[] {
  const algs = [client.id_token_signed_response_alg];
  if (client.userinfo_signed_response_alg) algs.push(client.userinfo_signed_response_alg);
  if ((client.access_token_format ?? 'reference') !== 'reference')
    algs.push(accessTokenAlgOf(client, accessTokenAlg));
  return [...new Set(algs)];
}

/**
 * Client override, then the configured access-token alg, then the client's ID-token alg. Key
 * placement (`keys.placement.accessToken`, which `accessTokenSigningAlg` feeds) may still fix one.
 */
export function accessTokenAlgOf(client: Client, configured?: string): string {
  return client.access_token_signed_response_alg ?? configured ?? client.id_token_signed_response_alg;
}

/** Public view of a client: everything but the secret and registration-token hashes. */
export function describeClient(
  client: Client,
): Omit<Client, 'client_secret_hash' | 'registration_access_token_hash'> {
  const { client_secret_hash: _hidden, registration_access_token_hash: _token, ...rest } = client;
  return rest;
}
