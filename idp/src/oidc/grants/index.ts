/**
 * The grants the token endpoint serves, by `grant_type`: one module each, collected here. A new
 * grant is a module exporting `grantType`, `parameters` and `handler`, added to this list (and to
 * the client metadata's grant types).
 */
import type { GrantType } from '../../clients/clients.ts';
import * as authorizationCode from './authorization_code.ts';
import * as clientCredentials from './client_credentials.ts';
import type { Grant } from './grant.ts';
import * as refreshToken from './refresh_token.ts';

const ALL: readonly Grant[] = [authorizationCode, refreshToken, clientCredentials];

export const GRANTS: ReadonlyMap<string, Grant> = new Map(ALL.map((g) => [g.grantType, g]));

/** `grant_types_supported` (discovery), in the order above. */
export const GRANT_TYPES_SUPPORTED: readonly GrantType[] = ALL.map((g) => g.grantType);

export type { Grant, TokenParams, TokenRequest } from './grant.ts';
