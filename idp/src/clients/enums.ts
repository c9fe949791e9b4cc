/** The closed sets of values some client members take. */

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

/** How a JWT access token is kept (config/types.ts): a record each, or a revocation denylist. */
export { ACCESS_TOKEN_STORAGES, type AccessTokenStorage } from '../config/index.ts';

export type GrantType = 'authorization_code' | 'refresh_token' | 'client_credentials';
export const GRANT_TYPES: readonly GrantType[] = [
  'authorization_code',
  'refresh_token',
  'client_credentials',
];

/** Whether a method authenticates with a client secret (which the provider then keeps, hashed). */
export const needsSecret = (method: TokenEndpointAuthMethod): boolean =>
  method !== 'none' && method !== 'private_key_jwt';
