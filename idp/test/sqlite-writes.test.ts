/**
 * SQLite writes under concurrency and crashes: single use stays exact when consumes race,
 * a revocation leaves nothing of its grant, and a crash (SIGKILL) never loses a write whose caller
 * was answered. (A group commit per event-loop turn was tried and measured no gain
 * in CPU per token at the load suite's concurrency: docs/LOAD.md.)
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
/** Records of `model` whose id starts with one of `prefixes`, read by another connection. */
const countIn = (file: string, model: string, prefixes: string[]) => {
  const db = new DatabaseSync(file, { readOnly: true });
  try {
    const like = prefixes.map(() => 'id LIKE ?').join(' OR ');
    const q = db.prepare(`SELECT count(*) AS n FROM records WHERE model = ? AND (${like})`);
    return (q.get(model, ...prefixes.map((p) => `${p}%`)) as { n: number }).n;
  } finally {
    db.close();
  }
};

describe('sqlite writes', () => {
  it('keeps single use exact when consumes race: one consume of a record wins', async () => {
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

  it('a revocation racing a write of its grant leaves nothing of the grant', async () => {
    const s = new SqliteStorage(dbFile());
    const at = s.adapter('AccessToken');
    const pending = at.upsert('queued', { clientId: 'c', grantId: 'g1' }, 60);
    await s.revokeGrant('g1');
    await pending;
    expect(await at.find('queued')).toBeUndefined();
    await at.upsert('after', { clientId: 'c', grantId: 'g1' }, 60);
    expect(await at.find('after')).toBeUndefined(); // the tombstone refuses it
    await s.close();
  });

  it('keeps every answered write across a crash (SIGKILL)', () => {
    const file = dbFile();
    const storage = join(import.meta.dirname, '../src/storage/sqlite.ts');
    // The child answers ("ok n") after each awaited write, then starts more writes without
    // awaiting them and dies by SIGKILL.
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
    expect(countIn(file, 'AccessToken', ['a', 'b'])).toBe(2 * answered);
  });
});
