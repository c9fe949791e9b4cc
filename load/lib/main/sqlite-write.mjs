/** The body of load/sqlite-write.mjs (its header says what it does), loaded once pqid is built. */
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os, { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startScript, UsageError } from '../args.mjs';
import { cpuFlags } from '../machine.mjs';

const N = await startScript({
  script: 'sqlite-write.mjs',
  usage: 'usage: node load/sqlite-write.mjs [N]   (N inserts per layout, default 20000)',
  options: {},
  positionals: true,
  read: (_, args) => {
    if (args.length > 1) throw new UsageError(`one number of inserts, not ${args.join(' ')}`);
    const n = Number(args[0] ?? 20000);
    if (!Number.isInteger(n) || n <= 0)
      throw new UsageError(`N must be a positive whole number, got ${args[0]}`);
    return n;
  },
});
// After the check: node:sqlite is what an older Node lacks.
const { DatabaseSync } = await import('node:sqlite');
const dir = mkdtempSync(join(tmpdir(), 'pqid-sqlite-write-'));
console.log(`CPU: ${os.cpus()[0]?.model ?? '?'} (${cpuFlags()}); ${N} inserts per layout`);

/**
 * @param {boolean} withoutRowid
 * @param {boolean} expiryIndex
 */
const schema = (withoutRowid, expiryIndex) => `
CREATE TABLE records (model TEXT NOT NULL, id TEXT NOT NULL, payload TEXT NOT NULL, grant_id TEXT,
  uid TEXT, consumed_at INTEGER, expires_at INTEGER, PRIMARY KEY (model, id)) ${withoutRowid ? 'WITHOUT ROWID' : ''};
CREATE INDEX records_grant ON records (grant_id) WHERE grant_id IS NOT NULL;
CREATE INDEX records_uid ON records (model, uid) WHERE uid IS NOT NULL;
${expiryIndex ? 'CREATE INDEX records_expiry ON records (expires_at) WHERE expires_at IS NOT NULL;' : ''}
CREATE TABLE revoked_grants (grant_id TEXT PRIMARY KEY, expires_at INTEGER NOT NULL);`;
// The upsert statement of idp/src/storage/sqlite-adapter.ts.
const UPSERT = `INSERT INTO records (model, id, payload, grant_id, uid, consumed_at, expires_at)
 SELECT ?, ?, ?, ?, ?, NULL, ? WHERE NOT EXISTS (SELECT 1 FROM revoked_grants WHERE grant_id = ?4 AND expires_at > ?)
 ON CONFLICT (model, id) DO UPDATE SET payload = excluded.payload, grant_id = excluded.grant_id, uid = excluded.uid,
   consumed_at = NULL, expires_at = excluded.expires_at`;
const PLAIN =
  'INSERT INTO records (model, id, payload, grant_id, uid, consumed_at, expires_at) VALUES (?, ?, ?, ?, ?, NULL, ?)';
/** @type {Record<string, { withoutRowid: boolean, expiryIndex: boolean, sql: string }>} */
const LAYOUTS = {
  today: { withoutRowid: false, expiryIndex: true, sql: UPSERT },
  'plain INSERT': { withoutRowid: false, expiryIndex: true, sql: PLAIN },
  'no expiry index': { withoutRowid: false, expiryIndex: false, sql: UPSERT },
  'WITHOUT ROWID': { withoutRowid: true, expiryIndex: true, sql: UPSERT },
};

/** @param {string} name */
function measure(name) {
  const v = LAYOUTS[name];
  if (!v) throw new Error(`no layout ${name}`);
  const path = join(dir, 'records.db');
  for (const s of ['', '-wal', '-shm']) rmSync(path + s, { force: true });
  const db = new DatabaseSync(path);
  db.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA busy_timeout = 5000;');
  db.exec(schema(v.withoutRowid, v.expiryIndex));
  const st = db.prepare(v.sql);
  // An access token's record as issue.ts stores it, under the digest of a random token.
  const ids = Array.from({ length: 2 * N }, () =>
    createHash('sha256').update(randomBytes(32)).digest('base64url'),
  );
  /**
   * @param {number} from
   * @param {number} to
   */
  const insert = (from, to) => {
    for (let i = from; i < to; i++) {
      const id = ids[i] ?? '';
      const t = 1_800_000_000 + (i >> 10);
      const payload = JSON.stringify({
        clientId: 'cc-ES256',
        scope: 'api',
        iat: t,
        exp: t + 300,
        format: 'jwt',
      });
      if (v.sql === UPSERT) st.run('AccessToken', id, payload, null, null, t + 300, t);
      else st.run('AccessToken', id, payload, null, null, t + 300);
    }
  };
  insert(0, N);
  const c0 = process.cpuUsage();
  const w0 = performance.now();
  insert(N, 2 * N);
  const c = process.cpuUsage(c0);
  const wall = performance.now() - w0;
  db.close();
  /** @param {number} x */
  const us = (x) => (x / N).toFixed(2);
  console.log(
    `${name.padEnd(16)} ${us(c.user + c.system)} µs CPU per insert (user ${us(c.user)}, system ${us(c.system)}), wall ${us(wall * 1000)} µs`,
  );
}

try {
  const names = Object.keys(LAYOUTS);
  for (const name of [...names, ...names.slice().reverse()]) measure(name);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
