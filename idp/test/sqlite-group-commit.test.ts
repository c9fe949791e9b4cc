/**
 * SQLite group commit (issue 12 item 1): the writes of one event-loop turn share one COMMIT, and
 * a write's promise settles only after it. Checked from a second connection on the same file
 * (what another instance sees) and across a real process crash (SIGKILL): every write a caller
 * was answered for is on disk, and writes nobody was answered for may be lost, never half of one.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, describe, expect, it } from 'vitest';
import { SqliteStorage } from '../src/storage/sqlite.ts';
import { tempDir } from './helpers.ts';

const dirs: Array<{ cleanup: () => void }> = [];
afterEach(() => {
  for (const d of dirs.splice(0)) d.cleanup();
});
function dbFile(): string {
  const d = tempDir();
  dirs.push(d);
  return join(d.dir, 'pqid.db');
}
const countIn = (file: string, model: string) => {
  const db = new DatabaseSync(file, { readOnly: true });
  try {
    return (db.prepare('SELECT count(*) AS n FROM records WHERE model = ?').get(model) as { n: number }).n;
  } finally {
    db.close();
  }
};

describe('sqlite group commit', () => {
  it('commits the writes of one turn together, and answers each only after the commit', async () => {
    const file = dbFile();
    const s = new SqliteStorage(file);
    const a = s.adapter('AccessToken');
    const writes = Array.from({ length: 20 }, (_, i) => a.upsert(`t${i}`, { clientId: 'c', scope: 's' }, 60));
    // Asked for, not yet committed: another connection sees none of them.
    expect(countIn(file, 'AccessToken')).toBe(0);
    await Promise.all(writes);
    expect(countIn(file, 'AccessToken')).toBe(20);
    await s.close();
  });

  it('keeps single use exact within a batch: one consume of a record wins', async () => {
    const s = new SqliteStorage(dbFile());
    const r = s.adapter('RefreshToken');
    await r.upsert('rt', { clientId: 'c', grantId: 'g' }, 60);
    const results = await Promise.all([r.consume('rt'), r.consume('rt'), r.consume('rt')]);
    expect(results.filter(Boolean)).toHaveLength(1);
    const inserted = await Promise.all([
      r.insertIfAbsent('jti', { seen: 1 }, 60),
      r.insertIfAbsent('jti', { seen: 2 }, 60),
    ]);
    expect(inserted).toEqual([true, false]);
    await s.close();
  });

  it('a revocation in the same turn as a queued write of its grant leaves nothing of the grant', async () => {
    const s = new SqliteStorage(dbFile());
    const at = s.adapter('AccessToken');
    const pending = at.upsert('queued', { clientId: 'c', grantId: 'g1' }, 60);
    await s.revokeGrant('g1'); // runs the queued write first, then deletes the grant's records
    await pending;
    expect(await at.find('queued')).toBeUndefined();
    await at.upsert('after', { clientId: 'c', grantId: 'g1' }, 60);
    expect(await at.find('after')).toBeUndefined(); // the tombstone refuses it
    await s.close();
  });

  it('keeps every answered write across a crash, and no write nobody was answered for', () => {
    const file = dbFile();
    const storage = join(import.meta.dirname, '../src/storage/sqlite.ts');
    // The child answers ("ok n") after each awaited write, then queues more writes and dies by
    // SIGKILL in the same turn, before their COMMIT.
    const script = `
      import { SqliteStorage } from ${JSON.stringify(storage)};
      const s = new SqliteStorage(${JSON.stringify(file)});
      const a = s.adapter('AccessToken');
      for (let i = 0; i < 50; i++) {
        await Promise.all([a.upsert('a' + i, { clientId: 'c', scope: 's' }, 600), a.upsert('b' + i, { clientId: 'c', scope: 's' }, 600)]);
        process.stdout.write('ok ' + (i + 1) + '\\n');
      }
      for (let i = 0; i < 10; i++) a.upsert('unanswered' + i, { clientId: 'c', scope: 's' }, 600);
      process.kill(process.pid, 'SIGKILL');
    `;
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
    expect(r.signal).toBe('SIGKILL');
    const answered = r.stdout.trim().split('\n').filter(Boolean).length;
    expect(answered).toBe(50);
    expect(countIn(file, 'AccessToken')).toBe(2 * answered);
  });
});
