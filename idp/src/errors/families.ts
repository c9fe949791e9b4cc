/**
 * The error families every layer may raise: configuration, outages of what the IdP depends on,
 * OAuth/OpenID Connect protocol errors, operator mistakes on the command line, and faults. Feature
 * families (passkeys, SAML requests, keys, clients) extend IdpError beside their code.
 */
import { IdpError, type IdpErrorOptions, type OAuthErrorCode } from './idp-error.ts';

/** A setting, a secret or the environment is wrong: the process must not start (exit status 2). */
export class ConfigError extends IdpError<'ERR_CONFIG' | 'ERR_KEK_MISMATCH'> {
  constructor(
    message: string,
    options: ErrorOptions = {},
    code: 'ERR_CONFIG' | 'ERR_KEK_MISMATCH' = 'ERR_CONFIG',
  ) {
    super(code, message, options);
  }
}

/**
 * Storage failures that are not the caller's fault and will pass: the database is down,
 * restarting, overloaded or unreachable. Answered with 503 and Retry-After
 * (`temporarily_unavailable`) instead of a 500, so clients retry and operators see an outage
 * rather than a bug.
 */
export class StorageUnavailable extends IdpError<'ERR_STORAGE_UNAVAILABLE'> {
  declare readonly retryAfter: number;
  constructor(message: string, options: { cause?: unknown; retryAfter?: number } = {}) {
    super('ERR_STORAGE_UNAVAILABLE', message, {
      status: 503,
      expose: false,
      retryAfter: options.retryAfter ?? 1,
      ...(options.cause === undefined ? {} : { cause: options.cause }),
    });
  }
}

/** Seconds a client is asked to wait after a signer outage. */
export const SIGNER_RETRY_AFTER = 5;

/**
 * A KMS/HSM that failed to sign (unreachable, throttled, refused): an outage, not a bug. Answered
 * like a storage outage, 503 with Retry-After; the request can be retried.
 */
export class SignerUnavailable extends IdpError<'ERR_SIGNER_UNAVAILABLE'> {
  declare readonly retryAfter: number;
  constructor(message: string, options: ErrorOptions = {}) {
    super('ERR_SIGNER_UNAVAILABLE', message, {
      ...options,
      status: 503,
      expose: false,
      retryAfter: SIGNER_RETRY_AFTER,
    });
  }

  override get description(): string {
    return 'signing is temporarily unavailable';
  }
}

/**
 * An OAuth 2.0 error response (RFC 6749 §5.2, RFC 6750 §3): `code` is the `error` on the wire,
 * the message its `error_description`, `headers` e.g. a `WWW-Authenticate` challenge.
 */
export class OAuthError extends IdpError<OAuthErrorCode> {
  readonly #headers: Record<string, string>;
  constructor(
    error: OAuthErrorCode,
    description: string,
    status = 400,
    headers: Record<string, string> = {},
    options: Omit<IdpErrorOptions, 'status'> = {},
  ) {
    super(error, description, { expose: true, ...options, status });
    this.#headers = headers;
  }

  override get error(): OAuthErrorCode {
    return this.code;
  }

  override get description(): string {
    return this.message;
  }

  override get headers(): Record<string, string> {
    return { ...super.headers, ...this.#headers };
  }
}

/** The operator's command line is wrong (the CLI exits with status 2 and points to `--help`). */
export class UsageError extends IdpError<'ERR_USAGE'> {
  constructor(message: string) {
    super('ERR_USAGE', message, { status: 400 });
  }
}

/** A fault: anything that is not one of the above, answered as a 500 whose details stay in the log. */
export class InternalError extends IdpError<'ERR_INTERNAL'> {
  constructor(cause: unknown) {
    super('ERR_INTERNAL', cause instanceof Error ? cause.message : String(cause), { cause, expose: false });
  }
}
