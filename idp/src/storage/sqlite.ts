/** The embedded store: one `node:sqlite` table holding every model, keyed by (model, id). */
import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import type { SqliteSynchronous } from '../config/index.ts';
import type { FailureStore } from '../security/failure-store.ts';
import { type Adapter, type ModelName, REVOKED_GRANT_RETENTION_SECONDS, type Storage } from './adapter.ts';
import { inTransaction, now, prepareStatements, type Statements, sqliteAdapter } from './sqlite-adapter.ts';

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

function sqliteFailureStore(db: DatabaseSync): FailureStore {
  const add = db.prepare('INSERT INTO login_failures (key, at, expires_at) VALUES (?, ?, ?)');
  const recent = db.prepare('SELECT at FROM login_failures WHERE key = ? AND at > ? ORDER BY at');
  const clear = db.prepare('DELETE FROM login_failures WHERE key = ?');
  // One row of several with the same time is as good as another.
  const remove = db.prepare(
    'DELETE FROM login_failures WHERE rowid = (SELECT rowid FROM login_failures WHERE key = ? AND at = ? LIMIT 1)',
  );
  return {
    async add(key, now, windowMs) {
      add.run(key, now, Math.ceil((now + windowMs) / 1000));
    },
    async recent(key, now, windowMs) {
      return (recent.all(key, now - windowMs) as { at: number }[]).map((r) => r.at);
    },
    async remove(key, at) {
      remove.run(key, at);
    },
    async clear(key) {
      clear.run(key);
    },
  };
}

/** revokeGrant's statements, prepared once per database, as the adapters' are. */
const prepareRevocation = (db: DatabaseSync) => ({
  tombstone: db.prepare(
    `INSERT INTO revoked_grants (grant_id, expires_at) VALUES (?, ?)
     ON CONFLICT (grant_id) DO UPDATE SET expires_at = excluded.expires_at`,
  ),
  deleteLive: db.prepare('DELETE FROM records WHERE grant_id = ? AND (expires_at IS NULL OR expires_at > ?)'),
  deleteRest: db.prepare('DELETE FROM records WHERE grant_id = ?'),
});

/**
 * node:sqlite, loaded when a store is opened rather than imported: a static import fails the whole
 * package at load on a Node without it, before its entry (supported-node.ts) can say which Node
 * it needs, and commands that open no store never load it.
 */
const loadSqlite = (): typeof import('node:sqlite') => createRequire(import.meta.url)('node:sqlite');

export class SqliteStorage implements Storage {
  readonly kind = 'sqlite';
  readonly #db: DatabaseSync;
  readonly #adapters = new Map<ModelName, Adapter>();
  readonly #statements: Statements;
  readonly #revocation: Record<'tombstone' | 'deleteLive' | 'deleteRest', StatementSync>;

  constructor(path: string, { synchronous = 'normal' }: { synchronous?: SqliteSynchronous } = {}) {
    if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
    this.#db = new (loadSqlite().DatabaseSync)(path);
    // WAL lets readers proceed during writes; the busy timeout covers a second process briefly.
    // node:sqlite is synchronous, so an fsync per commit (synchronous = FULL) blocks the event
    // loop on every token issued; NORMAL syncs at checkpoints (see parseSqliteUrl).
    this.#db.exec(
      `PRAGMA journal_mode = WAL; PRAGMA synchronous = ${synchronous === 'full' ? 'FULL' : 'NORMAL'}; PRAGMA busy_timeout = 5000; PRAGMA foreign_keys = ON;`,
    );
    this.#db.exec(SCHEMA);
    this.#statements = prepareStatements(this.#db);
    this.#revocation = prepareRevocation(this.#db);
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
      a = sqliteAdapter(this.#db, model, this.#statements);
      this.#adapters.set(model, a);
    }
    return a;
  }

  async revokeGrant(grantId: string): Promise<boolean> {
    // Tombstone and delete in one write transaction (see the upsert statement); the live records
    // go first, so their count says whether the grant was still alive.
    const { tombstone, deleteLive, deleteRest } = this.#revocation;
    return inTransaction(this.#db, () => {
      const t = now();
      tombstone.run(grantId, t + REVOKED_GRANT_RETENTION_SECONDS);
      const live = deleteLive.run(grantId, t).changes;
      deleteRest.run(grantId);
      return Number(live) > 0;
    });
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
