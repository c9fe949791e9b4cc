/**
 * Where a browser may be sent for a client: `redirect_uris`, `post_logout_redirect_uris` and
 * the front-channel logout frame. The rules of OAuth 2.1 (draft-ietf-oauth-v2-1-13 §2.3.1,
 * §8.4) and RFC 9700 §4.1, with RFC 8252 for native apps:
 *
 * - absolute, no fragment (RFC 6749 §3.1.2), no user name or password, no `*` anywhere (a
 *   registered URI is compared exactly: a wildcard is a pattern someone hopes will match);
 * - `https`, or `http` on a loopback IP literal — `127.0.0.1` or `[::1]`, any port (RFC 8252
 *   §7.3; the port is ignored when matching, see `redirectUriMatches`);
 * - a private-use scheme only for `application_type: native`, and only a reverse-domain one
 *   such as `com.example.app:` (RFC 8252 §7.1), never one that runs code or reads local data.
 *
 * `localhost` over http: RFC 8252 §8.3 calls it NOT RECOMMENDED (the name may resolve or be
 * bound elsewhere), so a dynamically registered client must use the IP literal; a client the
 * operator registers may still use it (the demo client does).
 */
import { ClientError } from './client-error.ts';

export type ApplicationType = 'web' | 'native';
export const APPLICATION_TYPES: readonly ApplicationType[] = ['web', 'native'];

export interface UriRules {
  applicationType: ApplicationType;
  /** Registered by an anonymous party (RFC 7591) rather than the operator. */
  dynamic: boolean;
  /** Only http(s), whatever the application type (a URI loaded in an iframe). */
  webOnly?: boolean;
}

// Schemes that run code or read local data where a browser is sent: never a target.
const DANGEROUS_SCHEMES = new Set(['javascript:', 'data:', 'vbscript:', 'file:', 'blob:', 'about:']);

/** The loopback IP literals of RFC 8252 §7.3, as `URL.hostname` writes them. */
const LOOPBACK_LITERALS = new Set(['127.0.0.1', '[::1]']);

/** An absolute URL without a fragment (parsed), or a ClientError naming `field`. */
export function absoluteUrl(field: string, uri: string): URL {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    throw new ClientError(`${field}: ${JSON.stringify(uri)} is not an absolute URL`, field);
  }
  if (url.hash || uri.includes('#'))
    throw new ClientError(`${field}: ${uri} must not have a fragment`, field);
  return url;
}

/** One URI a browser is sent to, checked against the rules above; returns it as registered. */
export function checkBrowserUri(field: string, uri: string, rules: UriRules): URL {
  const url = absoluteUrl(field, uri);
  if (url.username || url.password || /^[a-z][a-z0-9+.-]*:\/\/[^/?]*@/i.test(uri))
    throw new ClientError(`${field}: ${uri} must not carry a user name or password`, field);
  // The raw text and the parsed form: URL parsing percent-decodes `%2A` in a host into `*`.
  if (uri.includes('*') || url.href.includes('*') || /%2a/i.test(url.host))
    throw new ClientError(`${field}: ${uri} must not contain a wildcard (*)`, field);
  const scheme = url.protocol;
  if (DANGEROUS_SCHEMES.has(scheme))
    throw new ClientError(`${field}: the ${scheme} scheme is not allowed`, field);
  if (scheme === 'https:') return url;
  if (scheme === 'http:') {
    if (LOOPBACK_LITERALS.has(url.hostname)) return url;
    if (!rules.dynamic && (url.hostname === 'localhost' || /^127\.\d+\.\d+\.\d+$/.test(url.hostname)))
      return url;
    // One message for both: what is allowed everywhere (localhost is the operator's exception).
    throw new ClientError(
      `${field}: ${uri} must be https, or http on a loopback IP literal (127.0.0.1 or [::1], any port)`,
      field,
    );
  }
  if (rules.webOnly) throw new ClientError(`${field}: ${uri} must be an https (or loopback http) URL`, field);
  if (rules.applicationType !== 'native')
    throw new ClientError(
      `${field}: the private-use scheme ${scheme} is for native apps only (application_type "native")`,
      field,
    );
  // RFC 8252 §7.1: a scheme based on a domain name the app controls, in reverse order.
  if (!scheme.slice(0, -1).includes('.'))
    throw new ClientError(
      `${field}: a private-use scheme must be a reverse domain name such as com.example.app: (RFC 8252 §7.1)`,
      field,
    );
  return url;
}

/** Every URI of a list checked; duplicates dropped. */
export function checkBrowserUris(field: string, uris: string[], rules: UriRules): string[] {
  for (const uri of uris) checkBrowserUri(field, uri, rules);
  return [...new Set(uris)];
}

/**
 * Is `uri` one of `registered`? An exact string match, except that an http redirect to a
 * loopback IP literal may use any port (RFC 8252 §7.3, OAuth 2.1 §2.3.1: a native app listens
 * on whatever port the OS gives it); scheme, address, path and query must still be the same.
 */
export function redirectUriMatches(registered: readonly string[], uri: string): boolean {
  if (registered.includes(uri)) return true;
  const portless = loopbackWithoutPort(uri);
  return portless !== undefined && registered.some((r) => loopbackWithoutPort(r) === portless);
}

function loopbackWithoutPort(uri: string): string | undefined {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'http:' || !LOOPBACK_LITERALS.has(url.hostname) || uri.includes('#')) return undefined;
  url.port = '';
  return url.href;
}
