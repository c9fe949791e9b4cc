/** Registered relying parties. Secrets are stored hashed only (crypto/secrets.ts says how). */
import { algorithms, importJwks, type Jwk } from '@pqid/jose';
import { hashGeneratedSecret, hashSecret, randomToken, verifySecret } from '../crypto/secrets.ts';
import { ACR_VALUES } from '../signin/auth-context.ts';
import type { Adapter } from '../storage/adapter.ts';

export type TokenEndpointAuthMethod =
  | 'client_secret_basic'
  | 'client_secret_post'
  | 'private_key_jwt'
  | 'none';
/**
 * `jwt`: RFC 9068 signed access tokens; `reference`: opaque handles validated by introspection;
 * `auto`: a JWT unless `Authorization: Bearer <jwt>` would exceed the header budget.
 */
export type AccessTokenFormat = 'jwt' | 'reference' | 'auto';
export const ACCESS_TOKEN_FORMATS: readonly AccessTokenFormat[] = ['jwt', 'reference', 'auto'];
export type GrantType = 'authorization_code' | 'refresh_token' | 'client_credentials';

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
  /** private_key_jwt: the client's public keys, inline or by URL (one of them). */
  jwks?: { keys: Jwk[] };
  jwks_uri?: string;
  /** private_key_jwt: the only alg accepted on client assertions. */
  token_endpoint_auth_signing_alg?: string;
  /**
   * OIDC Dynamic Client Registration §2: the classes used when a request names none. pqid also
   * treats the weakest of them as the client's minimum: a request for less is raised to it.
   */
  default_acr_values?: string[];
}

export interface ClientInput {
  client_id?: string;
  client_secret?: string;
  token_endpoint_auth_method?: TokenEndpointAuthMethod;
  redirect_uris: string[];
  grant_types?: GrantType[];
  id_token_signed_response_alg?: string;
  require_pkce?: boolean;
  scope?: string;
  client_name?: string;
  access_token_format?: AccessTokenFormat;
  access_token_signed_response_alg?: string;
  userinfo_signed_response_alg?: string;
  post_logout_redirect_uris?: string[];
  jwks?: { keys: Jwk[] };
  jwks_uri?: string;
  token_endpoint_auth_signing_alg?: string;
  default_acr_values?: string[];
}

export class ClientError extends Error {
  override name = 'ClientError';
}

export class Clients {
  readonly #store: Adapter;
  readonly #defaultAlg: string;
  constructor(store: Adapter, defaultAlg: string) {
    this.#store = store;
    this.#defaultAlg = defaultAlg;
  }

  /** Register a client; returns it with the plaintext secret (shown once). */
  async register(input: ClientInput): Promise<{ client: Client; clientSecret?: string }> {
    const method = input.token_endpoint_auth_method ?? 'client_secret_basic';
    if (!Array.isArray(input.redirect_uris)) throw new ClientError('redirect_uris must be an array');
    for (const uri of input.redirect_uris) {
      let url: URL;
      try {
        url = new URL(uri);
      } catch {
        throw new ClientError(`redirect_uri ${JSON.stringify(uri)} is not an absolute URL`);
      }
      if (url.hash) throw new ClientError(`redirect_uri ${uri} must not have a fragment`);
    }
    const alg = input.id_token_signed_response_alg ?? this.#defaultAlg;
    if (!algorithms().includes(alg))
      throw new ClientError(
        `id_token_signed_response_alg ${alg} is not available; choose one of ${algorithms().join(', ')}`,
      );
    const extra = await validateExtras(input, method);
    const needsSecret = method !== 'none' && method !== 'private_key_jwt';
    const clientSecret = needsSecret ? (input.client_secret ?? randomToken(32)) : undefined;
    // A secret someone chose may be guessable: slow hash. One we generated is not: fast hash.
    const secretHash =
      clientSecret === undefined
        ? undefined
        : input.client_secret !== undefined
          ? await hashSecret(clientSecret)
          : hashGeneratedSecret(clientSecret);
    const client: Client = {
      client_id: input.client_id ?? randomToken(16),
      ...(secretHash !== undefined ? { client_secret_hash: secretHash } : {}),
      token_endpoint_auth_method: method,
      redirect_uris: [...input.redirect_uris],
      grant_types: input.grant_types ?? ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      id_token_signed_response_alg: alg,
      require_pkce: method === 'none' ? true : (input.require_pkce ?? true),
      scope: input.scope ?? 'openid profile email offline_access',
      ...(input.client_name !== undefined ? { client_name: input.client_name } : {}),
      ...extra,
    };
    if (method === 'none' && client.grant_types.includes('client_credentials')) {
      throw new ClientError('a public client cannot use client_credentials');
    }
    await this.#store.upsert(client.client_id, client);
    return clientSecret !== undefined ? { client, clientSecret } : { client };
  }

  async find(clientId: string): Promise<Client | undefined> {
    return (await this.#store.find(clientId)) as Client | undefined;
  }

  async list(): Promise<Client[]> {
    return (await this.#store.list()).map((r) => r.payload as Client);
  }

  async checkSecret(client: Client, secret: string): Promise<boolean> {
    return verifySecret(secret, client.client_secret_hash);
  }
}

const PRIVATE_MEMBERS = ['d', 'priv', 'p', 'q', 'dp', 'dq', 'qi', 'k', 'seed'];

function checkAlg(field: string, alg: string | undefined): void {
  if (alg !== undefined && !algorithms().includes(alg))
    throw new ClientError(`${field} ${alg} is not available; choose one of ${algorithms().join(', ')}`);
}

function checkUris(field: string, uris: unknown): string[] {
  if (!Array.isArray(uris)) throw new ClientError(`${field} must be an array`);
  for (const uri of uris) {
    let url: URL;
    try {
      url = new URL(uri as string);
    } catch {
      throw new ClientError(`${field}: ${JSON.stringify(uri)} is not an absolute URL`);
    }
    if (url.hash) throw new ClientError(`${field}: ${uri} must not have a fragment`);
  }
  return [...(uris as string[])];
}

/** Metadata beyond the core fields: token formats, signed userinfo, logout, private_key_jwt. */
async function validateExtras(
  input: ClientInput,
  method: TokenEndpointAuthMethod,
): Promise<
  Pick<
    Client,
    | 'access_token_format'
    | 'access_token_signed_response_alg'
    | 'userinfo_signed_response_alg'
    | 'post_logout_redirect_uris'
    | 'jwks'
    | 'jwks_uri'
    | 'token_endpoint_auth_signing_alg'
    | 'default_acr_values'
  >
> {
  const format = input.access_token_format ?? 'reference';
  if (!ACCESS_TOKEN_FORMATS.includes(format))
    throw new ClientError(`access_token_format must be one of ${ACCESS_TOKEN_FORMATS.join(', ')}`);
  checkAlg('access_token_signed_response_alg', input.access_token_signed_response_alg);
  checkAlg('userinfo_signed_response_alg', input.userinfo_signed_response_alg);
  checkAlg('token_endpoint_auth_signing_alg', input.token_endpoint_auth_signing_alg);
  const postLogout = checkUris('post_logout_redirect_uris', input.post_logout_redirect_uris ?? []);
  if (input.jwks !== undefined && input.jwks_uri !== undefined)
    throw new ClientError('register jwks or jwks_uri, not both');
  if (method === 'private_key_jwt') {
    if (input.jwks === undefined && input.jwks_uri === undefined)
      throw new ClientError('private_key_jwt needs jwks or jwks_uri');
    // The alg is pinned per client so an attacker cannot pick a weaker one for the assertion.
    if (input.token_endpoint_auth_signing_alg === undefined)
      throw new ClientError('private_key_jwt needs token_endpoint_auth_signing_alg');
  }
  if (input.jwks !== undefined) {
    const keys = await importJwks(input.jwks).catch((e: Error) => {
      throw new ClientError(`jwks is not a usable JWK set: ${e.message}`);
    });
    // importJwks silently skips private keys; refuse them so private material is never stored.
    if (input.jwks.keys.some((k) => PRIVATE_MEMBERS.some((m) => m in k)))
      throw new ClientError('jwks must hold public keys only');
    if (keys.length === 0) throw new ClientError('jwks holds no usable public signing key');
  }
  if (input.jwks_uri !== undefined) {
    const url = checkUris('jwks_uri', [input.jwks_uri])[0] as string;
    if (!/^https?:$/.test(new URL(url).protocol)) throw new ClientError('jwks_uri must be http(s)');
  }
  const acr = input.default_acr_values;
  if (acr !== undefined) {
    // A minimum this provider cannot reach would lock the client out: refuse it now.
    if (!Array.isArray(acr) || acr.length === 0 || acr.some((v) => !ACR_VALUES.includes(v)))
      throw new ClientError(`default_acr_values must be a non-empty array of: ${ACR_VALUES.join(', ')}`);
  }
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

/** Public view of a client: everything but the secret hash. */
export function describeClient(client: Client): Omit<Client, 'client_secret_hash'> {
  const { client_secret_hash: _hidden, ...rest } = client;
  return rest;
}
