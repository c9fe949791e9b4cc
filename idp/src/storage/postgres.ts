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
import {
  type Adapter,
  type ModelName,
  type Payload,
  REVOKED_GRANT_RETENTION_SECONDS,
  type Storage,
} from './adapter.ts';
import { refuseGrant } from './adapter-checks.ts';
import { StorageUnavailable, toStorageError } from './errors.ts';
import { migrate, quoteIdent } from './migrations.ts';

interface Row {
  id: string;
  payload: Payload;
  consumed: number | null;
}

const LIVE = '(expires_at IS NULL OR expires_at > now())';
const COLUMNS = 'id, payload, floor(extract(epoch FROM consumed_at))::float8 AS consumed';

function toPayload(row: Row): Payload {
  const payload = row.payload;
  if (row.consumed !== null) payload.consumed = row.consumed;
  return payload;
}

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
      a = this.#makeAdapter(model);
      this.#adapters.set(model, a);
    }
    return a;
  }

  #makeAdapter(model: ModelName): Adapter {
    const t = this.#table;
    const schema = quoteIdent(this.settings.schema);
    const q = <R extends pg.QueryResultRow>(sql: string, params: unknown[], op: string) =>
      this.#query<R>(sql, params, `${model}.${op}`);
    return {
      async upsert(id, payload, expiresIn) {
        const { consumed: _ignored, ...rest } = payload;
        const expires = expiresIn === undefined ? null : expiresIn;
        if (rest.grantId !== undefined) {
          // Under the grant's lock, and not at all once the grant is revoked (migration 2).
          await q(
            `SELECT ${schema}.pqid_upsert_in_grant($1, $2, $3::json, $4, $5, $6)`,
            [model, id, JSON.stringify(rest), rest.grantId, rest.uid ?? null, expires],
            'upsert',
          );
          return;
        }
        // make_interval(NULL) is NULL: records without expiresIn never expire.
        await q(
          `INSERT INTO ${t} (model, id, payload, grant_id, uid, consumed_at, expires_at)
           VALUES ($1, $2, $3::json, NULL, $4, NULL, now() + make_interval(secs => $5))
           ON CONFLICT (model, id) DO UPDATE SET payload = excluded.payload, grant_id = excluded.grant_id,
             uid = excluded.uid, consumed_at = NULL, expires_at = excluded.expires_at`,
          [model, id, JSON.stringify(rest), rest.uid ?? null, expires],
          'upsert',
        );
      },
      async insertIfAbsent(id, payload, expiresIn) {
        const { consumed: _ignored, ...rest } = refuseGrant(payload);
        // One statement: a concurrent insert of the same id waits for ours and then takes the
        // DO UPDATE path, whose WHERE (re-checked on the committed row) only replaces an expired
        // record. RETURNING yields a row exactly when this call created or replaced it.
        const { rowCount } = await q(
          `INSERT INTO ${t} AS r (model, id, payload, grant_id, uid, consumed_at, expires_at)
           VALUES ($1, $2, $3::json, NULL, $4, NULL, now() + make_interval(secs => $5))
           ON CONFLICT (model, id) DO UPDATE SET payload = excluded.payload, grant_id = NULL,
             uid = excluded.uid, consumed_at = NULL, expires_at = excluded.expires_at
           WHERE r.expires_at IS NOT NULL AND r.expires_at <= now()
           RETURNING 1`,
          [model, id, JSON.stringify(rest), rest.uid ?? null, expiresIn === undefined ? null : expiresIn],
          'insertIfAbsent',
        );
        return rowCount === 1;
      },
      async find(id) {
        const { rows } = await q<Row>(
          `SELECT ${COLUMNS} FROM ${t} WHERE model = $1 AND id = $2 AND ${LIVE}`,
          [model, id],
          'find',
        );
        return rows[0] ? toPayload(rows[0]) : undefined;
      },
      async findByUid(uid) {
        const { rows } = await q<Row>(
          `SELECT ${COLUMNS} FROM ${t} WHERE model = $1 AND uid = $2 AND ${LIVE} ORDER BY seq LIMIT 1`,
          [model, uid],
          'findByUid',
        );
        return rows[0] ? toPayload(rows[0]) : undefined;
      },
      async listByUid(uid) {
        const { rows } = await q<Row>(
          `SELECT ${COLUMNS} FROM ${t} WHERE model = $1 AND uid = $2 AND ${LIVE} ORDER BY seq`,
          [model, uid],
          'listByUid',
        );
        return rows.map((r) => ({ id: r.id, payload: toPayload(r) }));
      },
      async consume(id) {
        // Concurrent UPDATEs of one row serialise on its row lock; the loser re-checks the WHERE
        // against the winner's committed row and matches nothing. Exactly one caller gets a row.
        const { rowCount } = await q(
          `UPDATE ${t} SET consumed_at = now()
           WHERE model = $1 AND id = $2 AND consumed_at IS NULL AND ${LIVE} RETURNING 1`,
          [model, id],
          'consume',
        );
        return rowCount === 1;
      },
      async destroy(id) {
        await q(`DELETE FROM ${t} WHERE model = $1 AND id = $2`, [model, id], 'destroy');
      },
      async revokeByGrantId(grantId) {
        await q(`DELETE FROM ${t} WHERE model = $1 AND grant_id = $2`, [model, grantId], 'revokeByGrantId');
      },
      async list(limit) {
        // LIMIT NULL is no limit.
        const { rows } = await q<Row>(
          `SELECT ${COLUMNS} FROM ${t} WHERE model = $1 AND ${LIVE} ORDER BY seq LIMIT $2`,
          [model, limit ?? null],
          'list',
        );
        return rows.map((r) => ({ id: r.id, payload: toPayload(r) }));
      },
      rewriteAll: (transform) =>
        this.#transaction(`${model}.rewriteAll`, async (client) => {
          // FOR UPDATE: writers of these rows on other instances wait for our COMMIT.
          const { rows } = await client.query<Row>(
            `SELECT ${COLUMNS} FROM ${t} WHERE model = $1 AND ${LIVE} ORDER BY seq FOR UPDATE`,
            [model],
          );
          let n = 0;
          for (const row of rows) {
            const next = transform(row.id, toPayload(row));
            if (next === undefined) continue;
            const { consumed: _ignored, ...rest } = next;
            await client.query(`UPDATE ${t} SET payload = $3::json WHERE model = $1 AND id = $2`, [
              model,
              row.id,
              JSON.stringify(rest),
            ]);
            n++;
          }
          return n;
        }),
    };
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

  async revokeGrant(grantId: string): Promise<void> {
    // One transaction across every model, leaving a tombstone that stops racing issuances.
    await this.#query(
      `SELECT ${quoteIdent(this.settings.schema)}.pqid_revoke_grant($1, $2)`,
      [grantId, REVOKED_GRANT_RETENTION_SECONDS],
      'revokeGrant',
    );
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
