import { isPostgresUrl, redactDatabaseUrl } from '../config/database-url.ts';
import { ConfigError, parseSqliteUrl, validateDatabaseUrl } from '../config/index.ts';
import type { Storage } from './adapter.ts';
import { PostgresStorage } from './postgres.ts';
import { SqliteStorage } from './sqlite.ts';

/**
 * The store named by a database URL: `sqlite:<path>` (embedded, one instance) or
 * `postgres://…` (shared by several instances). Synchronous: PostgreSQL connects and migrates
 * on first use, so a database that is down at start shows up as StorageUnavailable there.
 */
export function openStorage(databaseUrl: string): Storage {
  validateDatabaseUrl(databaseUrl);
  if (isPostgresUrl(databaseUrl)) {
    try {
      return new PostgresStorage(databaseUrl);
    } catch (e) {
      throw new ConfigError(
        `cannot use PostgreSQL at ${redactDatabaseUrl(databaseUrl)}: ${(e as Error).message}`,
      );
    }
  }
  const { path, synchronous } = parseSqliteUrl(databaseUrl);
  try {
    return new SqliteStorage(path, { synchronous });
  } catch (e) {
    throw new ConfigError(`cannot open sqlite database at ${path}: ${(e as Error).message}`);
  }
}
