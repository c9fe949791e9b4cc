/** The embedded store: one `node:sqlite` table holding every model, keyed by (model, id). */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import type { SqliteSynchronous } from '../config/index.ts';
import type { FailureStore } from '../security/failure-store.ts';
import {
  type Adapter,
  type ModelName,
  type Payload,
  REVOKED_GRANT_RETENTION_SECONDS,
  type Storage,
} from './adapter.ts';
import { refuseGrant } from './adapter-checks.ts';

const now = () => Math.floor(Date.now() / 1000);

/** Rows per purge call: a few ms of blocked event loop at most. */
const PURGE_BATCH = 2000;

const SCHEMA = `
CREATE TABLE IF NOT EXISTS records (
  model       TEXT NOT NULL,
  id          TEXT NOT NULL,
  payload     TEXT NOT NULL,
  grant_id    TEXT,
  uid         TEXT,
  consumed_at INTEGER,
  expires_at  INTEGER,
  PRIMARY KEY (model, id)
);
CREATE INDEX IF NOT EXISTS records_grant ON records (grant_id) WHERE grant_id IS NOT NULL;
CREATE INDEX IF NOT EXISTS records_uid ON records (model, uid) WHERE uid IS NOT NULL;
CREATE INDEX IF NOT EXISTS records_expiry ON records (expires_at) WHERE expires_at IS NOT NULL;
CREATE TABLE IF NOT EXISTS login_failures (
  key        TEXT NOT NULL,
  at         INTEGER NOT NULL,
  expires_at INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS login_failures_key ON login_failures (key, at);
CREATE INDEX IF NOT EXISTS login_failures_expiry ON login_failures (expires_at);
CREATE TABLE IF NOT EXISTS revoked_grants (
  grant_id   TEXT PRIMARY KEY,
  expires_at INTEGER NOT NULL
);
`;

interface Row {
  id: string;
  payload: string;
  consumed_at: number | null;
}

function toPayload(row: Row): Payload {
  const payload = JSON.parse(row.payload) as Payload;
  if (row.consumed_at !== null) payload.consumed = row.consumed_at;
  return payload;
}

function sqliteFailureStore(db: DatabaseSync): FailureStore {
  const add = db.prepare('INSERT INTO login_failures (key, at, expires_at) VALUES (?, ?, ?)');
  const recent = db.prepare('SELECT at FROM login_failures WHERE key = ? AND at > ? ORDER BY at');
  const clear = db.prepare('DELETE FROM login_failures WHERE key = ?');
  return {
    async add(key, now, windowMs) {
      add.run(key, now, Math.ceil((now + windowMs) / 1000));
    },
    async recent(key, now, windowMs) {
      return (recent.all(key, now - windowMs) as { at: number }[]).map((r) => r.at);
    },
    async clear(key) {
      clear.run(key);
    },
  };
}

export class SqliteStorage implements Storage {
  readonly kind = 'sqlite';
  readonly #db: DatabaseSync;
  readonly #adapters = new Map<ModelName, Adapter>();

  constructor(path: string, { synchronous = 'normal' }: { synchronous?: SqliteSynchronous } = {}) {
    if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
    this.#db = new DatabaseSync(path);
    // WAL lets readers proceed during writes; the busy timeout covers a second process briefly.
    // node:sqlite is synchronous, so an fsync per commit (synchronous = FULL) blocks the event
    // loop on every token issued; NORMAL syncs at checkpoints (see parseSqliteUrl).
    this.#db.exec(
      `PRAGMA journal_mode = WAL; PRAGMA synchronous = ${synchronous === 'full' ? 'FULL' : 'NORMAL'}; PRAGMA busy_timeout = 5000; PRAGMA foreign_keys = ON;`,
    );
    this.#db.exec(SCHEMA);
    this.loginFailures = sqliteFailureStore(this.#db);
  }

  /** Failed-login timestamps (ms) per key, in a table: shared with every process on this file. */
  readonly loginFailures: FailureStore;

  /** One PRAGMA's current value on this connection (operations checks and tests). */
  pragma(name: 'synchronous' | 'journal_mode'): unknown {
    const row = this.#db.prepare(`PRAGMA ${name}`).get() as Record<string, unknown> | undefined;
    return row?.[name];
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
    const db = this.#db;
    const live = '(expires_at IS NULL OR expires_at > ?)';
    // One statement: the tombstone check and the write happen under SQLite's write lock, so a
    // record of a grant revoked by revokeGrant (also from another process) is never stored.
    const upsert = db.prepare(
      `INSERT INTO records (model, id, payload, grant_id, uid, consumed_at, expires_at)
       SELECT ?, ?, ?, ?, ?, NULL, ?
       WHERE NOT EXISTS (SELECT 1 FROM revoked_grants WHERE grant_id = ?4 AND expires_at > ?)
       ON CONFLICT (model, id) DO UPDATE SET payload = excluded.payload, grant_id = excluded.grant_id, uid = excluded.uid,
         consumed_at = NULL, expires_at = excluded.expires_at`,
    );
    // An expired record is replaced; a live one (consumed or not) is left alone: changes = 0.
    const insertIfAbsent = db.prepare(
      `INSERT INTO records (model, id, payload, grant_id, uid, consumed_at, expires_at)
       VALUES (?, ?, ?, NULL, ?, NULL, ?)
       ON CONFLICT (model, id) DO UPDATE SET payload = excluded.payload, grant_id = NULL, uid = excluded.uid,
         consumed_at = NULL, expires_at = excluded.expires_at
       WHERE records.expires_at IS NOT NULL AND records.expires_at <= ?`,
    );
    const find = db.prepare(
      `SELECT id, payload, consumed_at FROM records WHERE model = ? AND id = ? AND ${live}`,
    );
    const findByUid = db.prepare(
      `SELECT id, payload, consumed_at FROM records WHERE model = ? AND uid = ? AND ${live} LIMIT 1`,
    );
    const listByUid = db.prepare(
      `SELECT id, payload, consumed_at FROM records WHERE model = ? AND uid = ? AND ${live} ORDER BY rowid`,
    );
    const consume = db.prepare(
      `UPDATE records SET consumed_at = ? WHERE model = ? AND id = ? AND consumed_at IS NULL AND ${live}`,
    );
    const destroy = db.prepare('DELETE FROM records WHERE model = ? AND id = ?');
    const revoke = db.prepare('DELETE FROM records WHERE model = ? AND grant_id = ?');
    const list = db.prepare(
      `SELECT id, payload, consumed_at FROM records WHERE model = ? AND ${live} ORDER BY rowid`,
    );
    // LIMIT -1 is SQLite's "no limit".
    const listSome = db.prepare(
      `SELECT id, payload, consumed_at FROM records WHERE model = ? AND ${live} ORDER BY rowid LIMIT ?`,
    );
    const rewrite = db.prepare('UPDATE records SET payload = ? WHERE model = ? AND id = ?');
    return {
      async upsert(id, payload, expiresIn) {
        const { consumed: _ignored, ...rest } = payload;
        const t = now();
        const expires = expiresIn === undefined ? null : t + expiresIn;
        upsert.run(model, id, JSON.stringify(rest), rest.grantId ?? null, rest.uid ?? null, expires, t);
      },
      async insertIfAbsent(id, payload, expiresIn) {
        const { consumed: _ignored, ...rest } = refuseGrant(payload);
        const t = now();
        const expires = expiresIn === undefined ? null : t + expiresIn;
        // One statement under SQLite's write lock (also against other processes on the file).
        return (
          Number(
            insertIfAbsent.run(model, id, JSON.stringify(rest), rest.uid ?? null, expires, t).changes,
          ) === 1
        );
      },
      async find(id) {
        const row = find.get(model, id, now()) as Row | undefined;
        return row ? toPayload(row) : undefined;
      },
      async findByUid(uid) {
        const row = findByUid.get(model, uid, now()) as Row | undefined;
        return row ? toPayload(row) : undefined;
      },
      async listByUid(uid) {
        return (listByUid.all(model, uid, now()) as unknown as Row[]).map((r) => ({
          id: r.id,
          payload: toPayload(r),
        }));
      },
      async consume(id) {
        const t = now();
        return Number(consume.run(t, model, id, t).changes) === 1;
      },
      async destroy(id) {
        destroy.run(model, id);
      },
      async revokeByGrantId(grantId) {
        revoke.run(model, grantId);
      },
      async list(limit) {
        const rows = limit === undefined ? list.all(model, now()) : listSome.all(model, now(), limit);
        return (rows as unknown as Row[]).map((r) => ({ id: r.id, payload: toPayload(r) }));
      },
      async rewriteAll(transform) {
        // BEGIN IMMEDIATE takes the write lock first: no other process writes between our read
        // and our writes, and none sees half of them.
        db.exec('BEGIN IMMEDIATE');
        try {
          let n = 0;
          for (const row of list.all(model, now()) as unknown as Row[]) {
            const next = transform(row.id, toPayload(row));
            if (next === undefined) continue;
            const { consumed: _ignored, ...rest } = next;
            rewrite.run(JSON.stringify(rest), model, row.id);
            n++;
          }
          db.exec('COMMIT');
          return n;
        } catch (e) {
          db.exec('ROLLBACK');
          throw e;
        }
      },
    };
  }

  async revokeGrant(grantId: string): Promise<void> {
    // Tombstone and delete in one write transaction (see upsert).
    this.#db.exec('BEGIN IMMEDIATE');
    try {
      this.#db
        .prepare(
          `INSERT INTO revoked_grants (grant_id, expires_at) VALUES (?, ?)
           ON CONFLICT (grant_id) DO UPDATE SET expires_at = excluded.expires_at`,
        )
        .run(grantId, now() + REVOKED_GRANT_RETENTION_SECONDS);
      this.#db.prepare('DELETE FROM records WHERE grant_id = ?').run(grantId);
      this.#db.exec('COMMIT');
    } catch (e) {
      this.#db.exec('ROLLBACK');
      throw e;
    }
  }

  /** Expired rows are invisible to reads already; this only reclaims space (see Storage). */
  purgeExpired(limit = PURGE_BATCH): number {
    const t = now();
    this.#db.prepare('DELETE FROM revoked_grants WHERE expires_at <= ?').run(t);
    this.#db.prepare('DELETE FROM login_failures WHERE expires_at <= ?').run(t);
    // rowid subquery: SQLite's DELETE … LIMIT needs a compile-time option node:sqlite lacks.
    return Number(
      this.#db
        .prepare(
          'DELETE FROM records WHERE rowid IN (SELECT rowid FROM records WHERE expires_at IS NOT NULL AND expires_at <= ? LIMIT ?)',
        )
        .run(t, limit).changes,
    );
  }

  async ping(): Promise<boolean> {
    return (this.#db.prepare('SELECT 1 AS ok').get() as { ok: number } | undefined)?.ok === 1;
  }

  async close(): Promise<void> {
    if (this.#db.isOpen) this.#db.close();
  }
}
