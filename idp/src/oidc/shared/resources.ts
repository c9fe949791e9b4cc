/**
 * Resource indicators (RFC 8707). A `resource` names a configured resource server
 * (`resourceServers` in the configuration); its access tokens are audience-restricted to it,
 * carry only the granted scopes it accepts, and are signed with its algorithm if it pins one —
 * so a resource server that cannot verify ML-DSA yet still gets tokens it can check.
 *
 * At the authorization endpoint a request may name several resources (the grant covers them, and
 * no others); each access token is for one: the token request picks it, or the grant's only one.
 */
import type { Config, ResourceServerConfig } from '../../config/index.ts';
import { OAuthError } from './errors.ts';

export const invalidTarget = (description: string) => new OAuthError('invalid_target', description);

/** A `resource` parameter as received: absent, once (a string) or repeated (an array). */
export function resourceParam(value: unknown): string[] | undefined {
  if (value === undefined) return undefined;
  return Array.isArray(value) ? (value as string[]) : [value as string];
}

/** Each named resource must be a configured one (compared exactly, as registered). */
export function checkResources(config: Config, uris: readonly string[]): ResourceServerConfig[] {
  return uris.map((uri) => {
    const rs = config.resourceServers[uri];
    if (!rs) throw invalidTarget(`unknown resource ${JSON.stringify(uri.slice(0, 200))}`);
    return rs;
  });
}

/**
 * The resource one access token of a user grant (authorization_code, refresh_token) is for: named
 * in the token request, or the grant's only one. RFC 8707 §2.2 lets the token request only
 * narrow: to a resource the grant covers, i.e. one the authorization request named (what the user
 * consented to). A grant whose request named none covers this provider's own audience only.
 */
export function pickResource(
  config: Config,
  requested: readonly string[] | undefined,
  granted: readonly string[] | undefined,
): ResourceServerConfig | undefined {
  if (requested === undefined || requested.length === 0) {
    return granted?.length === 1 ? checkResources(config, granted)[0] : undefined;
  }
  const rs = oneResource(config, requested);
  if (!granted?.includes(rs.uri))
    throw invalidTarget(
      `the grant does not cover the resource ${JSON.stringify(rs.uri)}${granted?.length ? '' : ': the authorization request named no resource'}`,
    );
  return rs;
}

/** client_credentials has no user grant: any configured resource (the client's scopes still bound the token). */
export function pickClientResource(
  config: Config,
  requested: readonly string[] | undefined,
): ResourceServerConfig | undefined {
  return requested === undefined || requested.length === 0 ? undefined : oneResource(config, requested);
}

function oneResource(config: Config, requested: readonly string[]): ResourceServerConfig {
  const unique = [...new Set(requested)];
  if (unique.length > 1)
    throw invalidTarget('name one resource per token request: each access token is for one audience');
  return checkResources(config, unique)[0] as ResourceServerConfig;
}
