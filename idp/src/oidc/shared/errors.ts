/**
 * OAuth 2.0 error responses (RFC 6749 §5.2, RFC 6750 §3): the OAuthError family lives with the
 * error model (errors/), the answer is made by http/errors.ts; these are oidc's shorthands.
 */
import { OAuthError } from '../../errors/index.ts';

export { OAuthError } from '../../errors/index.ts';
export { jsonErrorHandler, sendOAuthError } from '../../http/errors.ts';

/**
 * Text for an `error_description` inside a WWW-Authenticate challenge: RFC 6750 §3 allows
 * printable ASCII without `"` and `\`. Descriptions can echo input (an algorithm name), and a
 * header value outside Latin-1 would make Node throw, so anything else becomes `?`.
 */
export const challengeText = (s: string): string => s.replace(/[^\x20\x21\x23-\x5b\x5d-\x7e]/g, '?');

export const invalidRequest = (d: string) => new OAuthError('invalid_request', d);
export const invalidGrant = (d: string) => new OAuthError('invalid_grant', d);
