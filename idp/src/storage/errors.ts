/**
 * Storage failures that are not the caller's fault and will pass: the database is down,
 * restarting, overloaded or unreachable. The HTTP layer maps them to 503 with an OAuth error
 * body (`temporarily_unavailable`) instead of a 500, so clients retry and operators see an
 * outage rather than a bug.
 */
export class StorageUnavailable extends Error {
  override name = 'StorageUnavailable';
  readonly code = 'ERR_STORAGE_UNAVAILABLE';
  /** Seconds a client should wait before retrying (the Retry-After header). */
  readonly retryAfter: number;
  constructor(message: string, options: { cause?: unknown; retryAfter?: number } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.retryAfter = options.retryAfter ?? 1;
  }
}

/** True for a StorageUnavailable, also across module copies (checks the code, not the class). */
export function isStorageUnavailable(e: unknown): e is StorageUnavailable {
  return (
    e instanceof StorageUnavailable ||
    (e instanceof Error && (e as { code?: unknown }).code === 'ERR_STORAGE_UNAVAILABLE')
  );
}

/** The response the HTTP layer sends for a StorageUnavailable (RFC 6749 §4.1.2.1 error code). */
export function storageUnavailableResponse(e: StorageUnavailable): {
  status: 503;
  headers: Record<string, string>;
  body: { error: 'temporarily_unavailable'; error_description: string };
} {
  return {
    status: 503,
    headers: { 'retry-after': String(e.retryAfter), 'cache-control': 'no-store' },
    body: {
      error: 'temporarily_unavailable',
      error_description: 'the service is temporarily unavailable, retry later',
    },
  };
}

// Socket-level failures: the server is gone, refusing, or unreachable.
const NET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

// SQLSTATEs that mean "not now" rather than "wrong query": class 08 (connection exception),
// 53300 too_many_connections, 57014 query_canceled (statement_timeout), 57P01–57P03 shutdown,
// crash shutdown and "the database system is starting up".
const SQLSTATES = new Set(['53300', '57014', '57P01', '57P02', '57P03']);

// node-postgres reports its own connection failures as plain Errors with these messages.
const PG_MESSAGES =
  /Connection terminated|timeout exceeded when trying to connect|not queryable|Query read timeout|Cannot use a pool after calling end/i;

/** Whether a node-postgres error means the database is unavailable (vs. a bug or bad data). */
export function isPgUnavailableError(e: unknown): boolean {
  if (!(e instanceof Error)) return false;
  const code = (e as { code?: unknown }).code;
  if (typeof code === 'string') {
    if (NET_CODES.has(code) || SQLSTATES.has(code) || code.startsWith('08')) return true;
  }
  // Happy-eyeballs connects report every address's failure in one AggregateError.
  if (e instanceof AggregateError && e.errors.some(isPgUnavailableError)) return true;
  return PG_MESSAGES.test(e.message);
}

/** Wrap unavailability as StorageUnavailable; anything else is rethrown unchanged. */
export function toStorageError(e: unknown, what: string): unknown {
  if (isStorageUnavailable(e)) return e;
  if (isPgUnavailableError(e)) {
    const detail = e instanceof Error ? e.message || (e as { code?: string }).code : String(e);
    return new StorageUnavailable(`storage unavailable during ${what}: ${detail}`, { cause: e });
  }
  return e;
}
