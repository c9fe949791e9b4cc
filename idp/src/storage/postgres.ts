/**
 * The PostgreSQL store, for several instances over one database. Same single-table layout and
 * semantics as the SQLite store; every guarantee that matters across instances is one SQL
 * statement: single use is `UPDATE … WHERE consumed_at IS NULL RETURNING`, expiry is compared
 * with the database's clock, revoking a grant is one DELETE. Connection failures surface as
 * StorageUnavailable, quickly, and the pool reconnects by itself once the database is back.
 */
import pg from 'pg';
import { type PostgresSettings, parsePostgresUrl, poolConfig } from '../config/database-url.ts';
import type { FailureStore } from '../security/failure-store.ts';
import { type Adapter, type ModelName, REVOKED_GRANT_RETENTION_SECONDS, type Storage } from './adapter.ts';
import { StorageUnavailable, toStorageError } from './errors.ts';
import { migrate, quoteIdent } from './migrations.ts';
import { postgresAdapter } from './postgres-adapter.ts';

export interface PostgresStorageOptions {
  /** Called with errors of idle pooled connections (e.g. the server restarted); default: ignore. */
  onIdleError?: (e: Error) => void;
}

export class PostgresStorage implements Storage {
  readonly kind = 'postgres';
  readonly settings: PostgresSettings;
  readonly #pool: pg.Pool;
  readonly #table: string;
  readonly #adapters = new Map<ModelName, Adapter>();
  #ready: Promise<void> | undefined;
  #closed = false;

  constructor(url: string, opts: PostgresStorageOptions = {}) {
    const { connectionString, settings } = parsePostgresUrl(url);
    this.settings = settings;
    this.#table = `${quoteIdent(settings.schema)}.records`;
    this.#pool = new pg.Pool(poolConfig(connectionString, settings));
    // An idle connection whose server went away emits 'error'; without a listener that would
    // crash the process. The pool already drops the connection; the next query reconnects.
    this.#pool.on('error', (e) => opts.onIdleError?.(e));
  }

  /** Failed-login timestamps (ms) per key, one row per failure (see Storage.loginFailures). */
  readonly loginFailures: FailureStore = {
    add: async (key, now, windowMs) => {
      await this.#query(
        `INSERT INTO ${this.#failures} (key, at, expires_at) VALUES ($1, $2, to_timestamp($3 / 1000.0))`,
        [key, now, now + windowMs],
        'loginFailures.add',
      );
    },
    recent: async (key, now, windowMs) => {
      const { rows } = await this.#query<{ at: string }>(
        `SELECT at FROM ${this.#failures} WHERE key = $1 AND at > $2 ORDER BY at`,
        [key, now - windowMs],
        'loginFailures.recent',
      );
      return rows.map((r) => Number(r.at));
    },
    remove: async (key, at) => {
      // One row of several with the same time is as good as another.
      await this.#query(
        `DELETE FROM ${this.#failures} WHERE ctid = (SELECT ctid FROM ${this.#failures} WHERE key = $1 AND at = $2 LIMIT 1)`,
        [key, at],
        'loginFailures.remove',
      );
    },
    clear: async (key) => {
      await this.#query(`DELETE FROM ${this.#failures} WHERE key = $1`, [key], 'loginFailures.clear');
    },
  };

  get #failures(): string {
    return `${quoteIdent(this.settings.schema)}.login_failures`;
  }

  /**
   * Bring the schema up to date. Runs once, lazily, before the first query (so `openStorage`
   * stays synchronous); a failure is not cached, so an instance started while the database was
   * down migrates on the first request after it is back.
   */
  migrate(): Promise<void> {
    this.#ready ??= migrate(this.#pool, this.settings.schema).then(
      () => undefined,
      (e: unknown) => {
        this.#ready = undefined;
        throw toStorageError(e, 'migration');
      },
    );
    return this.#ready;
  }

  async #query<R extends pg.QueryResultRow>(sql: string, params: unknown[], what: string) {
    if (this.#closed) throw new StorageUnavailable('storage is closed');
    await this.migrate();
    try {
      return await this.#pool.query<R>(sql, params);
    } catch (e) {
      throw toStorageError(e, what);
    }
  }

  adapter(model: ModelName): Adapter {
    let a = this.#adapters.get(model);
    if (!a) {
      a = postgresAdapter(model, {
        schema: quoteIdent(this.settings.schema),
        table: this.#table,
        query: (sql, params, what) => this.#query(sql, params, what),
        transaction: (what, fn) => this.#transaction(what, fn),
      });
      this.#adapters.set(model, a);
    }
    return a;
  }

  /** `fn` inside BEGIN … COMMIT on one pooled connection; ROLLBACK (and the error) if it throws. */
  async #transaction<T>(what: string, fn: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    if (this.#closed) throw new StorageUnavailable('storage is closed');
    await this.migrate();
    let client: pg.PoolClient;
    try {
      client = await this.#pool.connect();
    } catch (e) {
      throw toStorageError(e, what);
    }
    try {
      await client.query('BEGIN');
      const out = await fn(client);
      await client.query('COMMIT');
      client.release();
      return out;
    } catch (e) {
      // A failed ROLLBACK means the connection is broken: destroy it rather than pool it.
      const broken = await client.query('ROLLBACK').then(
        () => false,
        () => true,
      );
      client.release(broken ? (e as Error) : undefined);
      throw toStorageError(e, what);
    }
  }

  async revokeGrant(grantId: string): Promise<boolean> {
    // One transaction across every model, leaving a tombstone that stops racing issuances.
    const { rows } = await this.#query<{ live: boolean }>(
      `SELECT ${quoteIdent(this.settings.schema)}.pqid_revoke_grant_counted($1, $2) AS live`,
      [grantId, REVOKED_GRANT_RETENTION_SECONDS],
      'revokeGrant',
    );
    return rows[0]?.live === true;
  }

  /**
   * Expired rows are invisible to reads already; this only reclaims space (see Storage).
   * SKIP LOCKED: instances sweeping at the same moment take different rows instead of waiting.
   */
  async purgeExpired(limit = 10_000): Promise<number> {
    const { rowCount } = await this.#query(
      `DELETE FROM ${this.#table} WHERE (model, id) IN (
         SELECT model, id FROM ${this.#table} WHERE expires_at IS NOT NULL AND expires_at <= now()
         LIMIT $1 FOR UPDATE SKIP LOCKED)`,
      [limit],
      'purgeExpired',
    );
    await this.#query(
      `DELETE FROM ${quoteIdent(this.settings.schema)}.revoked_grants WHERE expires_at <= now()`,
      [],
      'purgeExpired',
    );
    await this.#query(`DELETE FROM ${this.#failures} WHERE expires_at <= now()`, [], 'purgeExpired');
    return rowCount ?? 0;
  }

  /** Reachability only (no migration): /healthz must answer quickly and never throw. */
  async ping(): Promise<boolean> {
    if (this.#closed) return false;
    try {
      const { rows } = await this.#pool.query<{ ok: number }>('SELECT 1 AS ok');
      return rows[0]?.ok === 1;
    } catch {
      return false;
    }
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#pool.end();
  }
}
