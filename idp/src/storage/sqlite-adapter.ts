/**
 * The SQLite store's adapter for one model: prepared statements over the single `records` table
 * (sqlite.ts), each guarantee one statement or one write transaction.
 */
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import type { Adapter, ModelName, Payload } from './adapter.ts';
import { refuseGrant, storable, withConsumed } from './adapter-checks.ts';

export const now = (): number => Math.floor(Date.now() / 1000);

interface Row {
  id: string;
  payload: string;
  consumed_at: number | null;
}

const toPayload = (row: Row): Payload => withConsumed(JSON.parse(row.payload), row.consumed_at);

/** node:sqlite types rows loosely; these statements select exactly a Row's columns. */
const rows = (result: unknown): Row[] => result as Row[];
const row = (result: unknown): Row | undefined => result as Row | undefined;

const LIVE = '(expires_at IS NULL OR expires_at > ?)';
const COLUMNS = 'id, payload, consumed_at';

export type Statements = Record<
  | 'upsert'
  | 'insertIfAbsent'
  | 'find'
  | 'findByUid'
  | 'listByUid'
  | 'consume'
  | 'destroy'
  | 'revoke'
  | 'list'
  | 'listSome'
  | 'rewrite',
  StatementSync
>;

/** Every statement an adapter runs, prepared once per database (the model is a parameter). */
export function prepareStatements(db: DatabaseSync): Statements {
  return {
    // One statement: the tombstone check and the write happen under SQLite's write lock, so a
    // record of a grant revoked by revokeGrant (also from another process) is never stored.
    upsert: db.prepare(
      `INSERT INTO records (model, id, payload, grant_id, uid, consumed_at, expires_at)
       SELECT ?, ?, ?, ?, ?, NULL, ?
       WHERE NOT EXISTS (SELECT 1 FROM revoked_grants WHERE grant_id = ?4 AND expires_at > ?)
       ON CONFLICT (model, id) DO UPDATE SET payload = excluded.payload, grant_id = excluded.grant_id, uid = excluded.uid,
         consumed_at = NULL, expires_at = excluded.expires_at`,
    ),
    // An expired record is replaced; a live one (consumed or not) is left alone: changes = 0.
    insertIfAbsent: db.prepare(
      `INSERT INTO records (model, id, payload, grant_id, uid, consumed_at, expires_at)
       VALUES (?, ?, ?, NULL, ?, NULL, ?)
       ON CONFLICT (model, id) DO UPDATE SET payload = excluded.payload, grant_id = NULL, uid = excluded.uid,
         consumed_at = NULL, expires_at = excluded.expires_at
       WHERE records.expires_at IS NOT NULL AND records.expires_at <= ?`,
    ),
    find: db.prepare(`SELECT ${COLUMNS} FROM records WHERE model = ? AND id = ? AND ${LIVE}`),
    findByUid: db.prepare(`SELECT ${COLUMNS} FROM records WHERE model = ? AND uid = ? AND ${LIVE} LIMIT 1`),
    listByUid: db.prepare(
      `SELECT ${COLUMNS} FROM records WHERE model = ? AND uid = ? AND ${LIVE} ORDER BY rowid`,
    ),
    consume: db.prepare(
      `UPDATE records SET consumed_at = ? WHERE model = ? AND id = ? AND consumed_at IS NULL AND ${LIVE}`,
    ),
    destroy: db.prepare('DELETE FROM records WHERE model = ? AND id = ?'),
    revoke: db.prepare('DELETE FROM records WHERE model = ? AND grant_id = ?'),
    list: db.prepare(`SELECT ${COLUMNS} FROM records WHERE model = ? AND ${LIVE} ORDER BY rowid`),
    // LIMIT -1 is SQLite's "no limit".
    listSome: db.prepare(`SELECT ${COLUMNS} FROM records WHERE model = ? AND ${LIVE} ORDER BY rowid LIMIT ?`),
    rewrite: db.prepare('UPDATE records SET payload = ? WHERE model = ? AND id = ?'),
  };
}

type Reads = Pick<Adapter, 'find' | 'findByUid' | 'listByUid' | 'list'>;

function reads(model: ModelName, st: Statements): Reads {
  return {
    async find(id) {
      const r = row(st.find.get(model, id, now()));
      return r ? toPayload(r) : undefined;
    },
    async findByUid(uid) {
      const r = row(st.findByUid.get(model, uid, now()));
      return r ? toPayload(r) : undefined;
    },
    async listByUid(uid) {
      return rows(st.listByUid.all(model, uid, now())).map((r) => ({ id: r.id, payload: toPayload(r) }));
    },
    async list(limit) {
      const all = limit === undefined ? st.list.all(model, now()) : st.listSome.all(model, now(), limit);
      return rows(all).map((r) => ({ id: r.id, payload: toPayload(r) }));
    },
  };
}

/** `fn` in a write transaction: BEGIN IMMEDIATE takes the write lock first, ROLLBACK if it throws. */
export function inTransaction<T>(db: DatabaseSync, fn: () => T): T {
  db.exec('BEGIN IMMEDIATE');
  try {
    const out = fn();
    db.exec('COMMIT');
    return out;
  } catch (e) {
    db.exec('ROLLBACK');
    throw e;
  }
}

function writes(db: DatabaseSync, model: ModelName, st: Statements): Omit<Adapter, keyof Reads> {
  return {
    async upsert(id, payload, expiresIn) {
      const rest = storable(payload);
      const t = now();
      const expires = expiresIn === undefined ? null : t + expiresIn;
      st.upsert.run(model, id, JSON.stringify(rest), rest.grantId ?? null, rest.uid ?? null, expires, t);
    },
    async insertIfAbsent(id, payload, expiresIn) {
      const rest = storable(refuseGrant(payload));
      const t = now();
      const expires = expiresIn === undefined ? null : t + expiresIn;
      // One statement under SQLite's write lock (also against other processes on the file).
      const { changes } = st.insertIfAbsent.run(
        model,
        id,
        JSON.stringify(rest),
        rest.uid ?? null,
        expires,
        t,
      );
      return Number(changes) === 1;
    },
    async consume(id) {
      const t = now();
      return Number(st.consume.run(t, model, id, t).changes) === 1;
    },
    async destroy(id) {
      st.destroy.run(model, id);
    },
    async revokeByGrantId(grantId) {
      st.revoke.run(model, grantId);
    },
    // No other process writes between our read and our writes, and none sees half of them.
    rewriteAll: async (transform) =>
      inTransaction(db, () => {
        let n = 0;
        for (const r of rows(st.list.all(model, now()))) {
          const next = transform(r.id, toPayload(r));
          if (next === undefined) continue;
          st.rewrite.run(JSON.stringify(storable(next)), model, r.id);
          n++;
        }
        return n;
      }),
  };
}

export function sqliteAdapter(db: DatabaseSync, model: ModelName, st: Statements): Adapter {
  return { ...reads(model, st), ...writes(db, model, st) };
}
