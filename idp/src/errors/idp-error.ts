/**
 * The IdP's one error base. Every failure the IdP raises on purpose is an IdpError: `code` is
 * stable (tests, logs, the CLI's `pqid: CODE: message`), `status` is the HTTP status it answers
 * with, `expose` says whether `message` may reach the caller (otherwise it is only logged and a
 * generic text is sent), and `retryAfter` asks the caller to come back later. http/errors.ts
 * turns any error into its JSON or HTML answer from these fields alone.
 */

/** OAuth 2.0 / OpenID Connect `error` values this provider sends (RFC 6749 §4.1.2.1, §5.2 and extensions). */
export type OAuthErrorCode =
  | 'invalid_request'
  | 'invalid_client'
  | 'invalid_grant'
  | 'unauthorized_client'
  | 'unsupported_grant_type'
  | 'unsupported_response_type'
  | 'invalid_scope'
  | 'invalid_target'
  | 'invalid_token'
  | 'insufficient_scope'
  | 'invalid_dpop_proof'
  | 'use_dpop_nonce'
  | 'invalid_request_object'
  | 'invalid_request_uri'
  | 'request_not_supported'
  | 'request_uri_not_supported'
  | 'invalid_redirect_uri'
  | 'invalid_client_metadata'
  | 'access_denied'
  | 'login_required'
  | 'consent_required'
  | 'interaction_required'
  | 'account_selection_required'
  | 'server_error'
  | 'temporarily_unavailable'
  | 'not_found'
  | (string & {});

/** The codes of the IdP's own families (feature families add theirs: PasskeyErrorCode, …). */
export type IdpErrorCode =
  | 'ERR_CONFIG'
  | 'ERR_KEK_MISMATCH'
  | 'ERR_NATIVE_REQUIRED'
  | 'ERR_STORAGE_UNAVAILABLE'
  | 'ERR_LOCK_TIMEOUT'
  | 'ERR_SIGNER_UNAVAILABLE'
  | 'ERR_ALG_UNAVAILABLE'
  | 'ERR_ROTATION_PENDING'
  | 'ERR_KEY_SET_UNKNOWN'
  | 'ERR_KEY_UNKNOWN'
  | 'ERR_KEY_ACTIVE'
  | 'ERR_KEY_CUSTODY'
  | 'ERR_KEY_EXISTS'
  | 'ERR_PLACEMENT'
  | 'ERR_CLIENT_METADATA'
  | 'ERR_SAML_SP'
  | 'ERR_METADATA'
  | 'ERR_USAGE'
  | 'ERR_INTERNAL';

export interface IdpErrorOptions extends ErrorOptions {
  /** HTTP status of the answer (default 500). */
  status?: number;
  /** Whether the message may be sent to the caller (default: for 4xx statuses). */
  expose?: boolean;
  /** Seconds the caller should wait before retrying (the `Retry-After` header). */
  retryAfter?: number;
}

export class IdpError<Code extends string = IdpErrorCode> extends Error {
  readonly code: Code;
  readonly status: number;
  readonly expose: boolean;
  readonly retryAfter: number | undefined;

  constructor(code: Code, message: string, options: IdpErrorOptions = {}) {
    const { status = 500, expose = status < 500, retryAfter, cause } = options;
    super(message, cause === undefined ? undefined : { cause });
    this.name = new.target.name;
    this.code = code;
    this.status = status;
    this.expose = expose;
    this.retryAfter = retryAfter;
  }

  /** The OAuth `error` this failure answers with. */
  get error(): OAuthErrorCode {
    if (this.status === 503) return 'temporarily_unavailable';
    return this.status >= 500 ? 'server_error' : 'invalid_request';
  }

  /** The text the caller may read: the message when exposed, else a generic one. */
  get description(): string {
    if (this.expose) return this.message;
    return this.status === 503 ? 'the service is temporarily unavailable, retry later' : 'internal error';
  }

  /** Headers the answer carries besides the body (OAuthError adds `WWW-Authenticate`). */
  get headers(): Record<string, string> {
    return this.retryAfter === undefined ? {} : { 'retry-after': String(this.retryAfter) };
  }
}
