/**
 * What every grant module exports (node-oidc-provider's lib/actions/grants/ is the model): its
 * `grantType`, the body `parameters` it reads, and the `handler` that answers a token request of
 * that type once the token endpoint has authenticated the client and checked its DPoP proof.
 */
import type { Client, GrantType } from '../../clients/clients.ts';
import type { ResourceServerConfig } from '../../config/index.ts';
import type { IdpContext } from '../../context.ts';
import type { AccessTokenTarget } from '../tokens/access-tokens.ts';
import type { TokenResponse } from '../tokens/issue.ts';

/** The token request's body: each parameter once; `resource` (RFC 8707) once or repeated. */
export type TokenParams = Partial<Record<string, string>> & { resource?: string | string[] };

export interface TokenRequest {
  /** The authenticated client, allowed this grant type. */
  client: Client;
  params: TokenParams;
  /** Thumbprint of the key of this request's DPoP proof, if it sent one. */
  jkt?: string;
}

export interface Grant {
  readonly grantType: GrantType;
  /** Body parameters the grant reads, beyond grant_type and client authentication. */
  readonly parameters: readonly string[];
  handler(ctx: IdpContext, request: TokenRequest): Promise<TokenResponse>;
}

/** The access token's audience and DPoP key. */
export const accessTarget = (resource: ResourceServerConfig | undefined, jkt: string | undefined) =>
  ({
    ...(resource ? { resource } : {}),
    ...(jkt !== undefined ? { jkt } : {}),
  }) satisfies AccessTokenTarget;

/** Public clients' refresh tokens are bound to the DPoP key; confidential clients' are not (RFC 9449 §5). */
export const refreshBinding = (client: Client, jkt: string | undefined): string | undefined =>
  client.token_endpoint_auth_method === 'none' ? jkt : undefined;

/** The `refreshJkt` member of a user grant, when there is a key to bind to. */
export const bindRefresh = (jkt: string | undefined) => (jkt !== undefined ? { refreshJkt: jkt } : {});
