/**
 * The PostgreSQL store's adapter for one model: every guarantee that matters across instances is
 * one SQL statement over the single `records` table (postgres.ts): single use is `UPDATE … WHERE
 * consumed_at IS NULL RETURNING`, expiry is compared with the database's clock.
 */
import type pg from 'pg';
import type { Adapter, ModelName, Payload } from './adapter.ts';
import { refuseGrant, storable, withConsumed } from './adapter-checks.ts';

interface Row {
  id: string;
  payload: Payload;
  consumed: number | null;
}

const LIVE = '(expires_at IS NULL OR expires_at > now())';
const COLUMNS = 'id, payload, floor(extract(epoch FROM consumed_at))::float8 AS consumed';

const toPayload = (row: Row): Payload => withConsumed(row.payload, row.consumed);

/** What an adapter needs of the store: its table, queries (errors mapped), transactions. */
export interface PostgresEngine {
  /** The quoted schema, and its `records` table. */
  schema: string;
  table: string;
  query<R extends pg.QueryResultRow>(
    sql: string,
    params: unknown[],
    what: string,
  ): Promise<pg.QueryResult<R>>;
  transaction<T>(what: string, fn: (client: pg.PoolClient) => Promise<T>): Promise<T>;
}

type Reads = Pick<Adapter, 'find' | 'findByUid' | 'listByUid' | 'list'>;

function reads(model: ModelName, db: PostgresEngine): Reads {
  const t = db.table;
  const select = async (where: string, params: unknown[], op: string) =>
    (
      await db.query<Row>(
        `SELECT ${COLUMNS} FROM ${t} WHERE model = $1 AND ${where}`,
        [model, ...params],
        `${model}.${op}`,
      )
    ).rows;
  return {
    async find(id) {
      const [row] = await select(`id = $2 AND ${LIVE}`, [id], 'find');
      return row ? toPayload(row) : undefined;
    },
    async findByUid(uid) {
      const [row] = await select(`uid = $2 AND ${LIVE} ORDER BY seq LIMIT 1`, [uid], 'findByUid');
      return row ? toPayload(row) : undefined;
    },
    async listByUid(uid) {
      const rows = await select(`uid = $2 AND ${LIVE} ORDER BY seq`, [uid], 'listByUid');
      return rows.map((r) => ({ id: r.id, payload: toPayload(r) }));
    },
    async list(limit) {
      // LIMIT NULL is no limit.
      const rows = await select(`${LIVE} ORDER BY seq LIMIT $2`, [limit ?? null], 'list');
      return rows.map((r) => ({ id: r.id, payload: toPayload(r) }));
    },
  };
}

function upsert(model: ModelName, db: PostgresEngine): Adapter['upsert'] {
  return async (id, payload, expiresIn) => {
    const rest = storable(payload);
    const expires = expiresIn === undefined ? null : expiresIn;
    if (rest.grantId !== undefined) {
      // Under the grant's lock, and not at all once the grant is revoked (migration 2).
      await db.query(
        `SELECT ${db.schema}.pqid_upsert_in_grant($1, $2, $3::json, $4, $5, $6)`,
        [model, id, JSON.stringify(rest), rest.grantId, rest.uid ?? null, expires],
        `${model}.upsert`,
      );
      return;
    }
    // make_interval(NULL) is NULL: records without expiresIn never expire.
    await db.query(
      `INSERT INTO ${db.table} (model, id, payload, grant_id, uid, consumed_at, expires_at)
       VALUES ($1, $2, $3::json, NULL, $4, NULL, now() + make_interval(secs => $5))
       ON CONFLICT (model, id) DO UPDATE SET payload = excluded.payload, grant_id = excluded.grant_id,
         uid = excluded.uid, consumed_at = NULL, expires_at = excluded.expires_at`,
      [model, id, JSON.stringify(rest), rest.uid ?? null, expires],
      `${model}.upsert`,
    );
  };
}

function writes(model: ModelName, db: PostgresEngine): Omit<Adapter, keyof Reads> {
  const t = db.table;
  const q = (sql: string, params: unknown[], op: string) => db.query(sql, params, `${model}.${op}`);
  return {
    upsert: upsert(model, db),
    async insertIfAbsent(id, payload, expiresIn) {
      const rest = storable(refuseGrant(payload));
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
    rewriteAll: (transform) =>
      db.transaction(`${model}.rewriteAll`, async (client) => {
        // FOR UPDATE: writers of these rows on other instances wait for our COMMIT.
        const { rows } = await client.query<Row>(
          `SELECT ${COLUMNS} FROM ${t} WHERE model = $1 AND ${LIVE} ORDER BY seq FOR UPDATE`,
          [model],
        );
        let n = 0;
        for (const row of rows) {
          const next = transform(row.id, toPayload(row));
          if (next === undefined) continue;
          await client.query(`UPDATE ${t} SET payload = $3::json WHERE model = $1 AND id = $2`, [
            model,
            row.id,
            JSON.stringify(storable(next)),
          ]);
          n++;
        }
        return n;
      }),
  };
}

export function postgresAdapter(model: ModelName, db: PostgresEngine): Adapter {
  return { ...reads(model, db), ...writes(model, db) };
}
