/**
 * The storage location (`databaseUrl`, `PQID_DATABASE_URL`): `sqlite:<path>` or
 * `PQID_DATABASE_URL=postgres://user:pass@host:port/db?schema=pqid&pool_max=10` — a libpq-style
 * URL plus a few pqid settings (stripped before the URL reaches node-postgres, which would
 * otherwise pass unknown parameters to the server as startup options and fail).
 */
import type { PoolConfig } from 'pg';
import { ConfigError } from '../errors/index.ts';

export interface PostgresSettings {
  /** Schema holding pqid's tables; created by the first migration run. */
  schema: string;
  /** Connections per instance. Sum over instances must stay below the server's max_connections. */
  poolMax: number;
  /** Fail a connection attempt (or a wait for a free pooled connection) after this long. */
  connectTimeoutMs: number;
  /** Server-side bound on one statement, so a stuck query cannot hold a request forever. */
  statementTimeoutMs: number;
  /** Close pooled connections idle this long (they are reopened on demand). */
  idleTimeoutMs: number;
}

export const PG_DEFAULTS: PostgresSettings = {
  schema: 'public',
  poolMax: 10,
  connectTimeoutMs: 5000,
  statementTimeoutMs: 5000,
  idleTimeoutMs: 30_000,
};

const PARAMS: Record<string, keyof PostgresSettings> = {
  schema: 'schema',
  pool_max: 'poolMax',
  connect_timeout_ms: 'connectTimeoutMs',
  statement_timeout_ms: 'statementTimeoutMs',
  idle_timeout_ms: 'idleTimeoutMs',
};

const IDENT = /^[a-z_][a-z0-9_]{0,62}$/;

export const isPostgresUrl = (url: string) => /^postgres(ql)?:\/\//i.test(url);

/** Parse and validate; throws an Error whose message names the bad part (never the password). */
export function parsePostgresUrl(url: string): { connectionString: string; settings: PostgresSettings } {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new ConfigError(`PQID_DATABASE_URL is not a valid postgres:// URL: ${redactDatabaseUrl(url)}`);
  }
  if (!u.hostname && !u.searchParams.get('host'))
    throw new ConfigError('PQID_DATABASE_URL: postgres:// needs a host (postgres://user@host:5432/db)');
  if (u.pathname.replace(/^\//, '') === '')
    throw new ConfigError(
      'PQID_DATABASE_URL: postgres:// needs a database name (postgres://user@host:5432/db)',
    );
  const settings = { ...PG_DEFAULTS };
  for (const [param, key] of Object.entries(PARAMS)) {
    const value = u.searchParams.get(param);
    if (value === null) continue;
    u.searchParams.delete(param);
    if (key === 'schema') {
      if (!IDENT.test(value))
        throw new ConfigError(
          `PQID_DATABASE_URL: schema must be a lower-case SQL identifier ([a-z_][a-z0-9_]*), got ${JSON.stringify(value)}`,
        );
      settings.schema = value;
    } else {
      const n = Number(value);
      if (!/^\d+$/.test(value) || n <= 0 || (key === 'poolMax' && n > 1000))
        throw new ConfigError(
          `PQID_DATABASE_URL: ${param} must be a positive integer, got ${JSON.stringify(value)}`,
        );
      settings[key] = n;
    }
  }
  return { connectionString: u.href, settings };
}

export function poolConfig(connectionString: string, s: PostgresSettings): PoolConfig {
  return {
    connectionString,
    max: s.poolMax,
    connectionTimeoutMillis: s.connectTimeoutMs,
    idleTimeoutMillis: s.idleTimeoutMs,
    statement_timeout: s.statementTimeoutMs,
    // A transaction left open by a crashed request must not hold row locks for long.
    idle_in_transaction_session_timeout: Math.max(s.statementTimeoutMs * 2, 10_000),
    // TCP keepalive notices a silently dead server or network instead of waiting forever.
    keepAlive: true,
    application_name: 'pqid',
  };
}

/** The URL with any password replaced, for logs and start-up banners. */
export function redactDatabaseUrl(url: string): string {
  return url.replace(/^([a-z]+:\/\/[^:/@]*):[^@]*@/i, '$1:***@');
}

/** `sqlite:<path>` (embedded) or `postgres://…` (several instances); anything else is refused. */
export function validateDatabaseUrl(url: string): void {
  if (isPostgresUrl(url)) {
    parsePostgresUrl(url);
    return;
  }
  if (!/^sqlite:/i.test(url))
    throw new ConfigError(
      `PQID_DATABASE_URL must be sqlite:<path>, sqlite::memory: or postgres://user@host:port/db, got ${JSON.stringify(redactDatabaseUrl(url))}`,
    );
  parseSqliteUrl(url);
}

export type SqliteSynchronous = 'normal' | 'full';

/**
 * `sqlite:<path>[?synchronous=normal|full]`. `normal` (the default) is WAL's usual setting:
 * never corrupt, and a commit survives a crash of the process; only an OS crash or power loss
 * can take the last commits with it. `full` also fsyncs every commit, which on this machine
 * cost ~150 µs of blocked event loop per token against ~30 µs (docs/BENCHMARKS.md).
 */
export function parseSqliteUrl(url: string): { path: string; synchronous: SqliteSynchronous } {
  const rest = url.slice('sqlite:'.length);
  const q = rest.indexOf('?');
  const path = (q < 0 ? rest : rest.slice(0, q)).replace(/^\/\/(?=\/)/, '');
  if (path === '') throw new ConfigError('PQID_DATABASE_URL: sqlite: needs a file path (or :memory:)');
  let synchronous: SqliteSynchronous = 'normal';
  for (const [k, v] of new URLSearchParams(q < 0 ? '' : rest.slice(q + 1))) {
    if (k !== 'synchronous')
      throw new ConfigError(
        `PQID_DATABASE_URL: unknown sqlite option ${JSON.stringify(k)} (known: synchronous)`,
      );
    if (v !== 'normal' && v !== 'full')
      throw new ConfigError(
        `PQID_DATABASE_URL: synchronous must be normal or full, got ${JSON.stringify(v)}`,
      );
    synchronous = v;
  }
  return { path, synchronous };
}
