/**
 * Storage failures that are not the caller's fault and will pass (errors/families.ts): the
 * adapters wrap a database's connection errors as StorageUnavailable, anything else is a bug.
 */
import { StorageUnavailable } from '../errors/index.ts';

export { StorageUnavailable } from '../errors/index.ts';

export const isStorageUnavailable = (e: unknown): e is StorageUnavailable => e instanceof StorageUnavailable;

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
