/** The storage contract on the embedded SQLite store, plus what only SQLite has. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { openStorage } from '../src/storage/open.ts';
import { SqliteStorage } from '../src/storage/sqlite.ts';
import { defineStorageContract } from './storage-contract.ts';

const dirs: string[] = [];

defineStorageContract('sqlite', {
  async fresh() {
    // A file, not :memory:, so `another()` can open a second handle on the same data.
    const dir = mkdtempSync(join(tmpdir(), 'pqid-storage-'));
    dirs.push(dir);
    const file = join(dir, 'pqid.sqlite');
    return { storage: new SqliteStorage(file), another: async () => new SqliteStorage(file) };
  },
  async cleanup() {
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  },
});

describe('sqlite storage specifics', () => {
  let storage: SqliteStorage | undefined;
  afterEach(async () => {
    vi.useRealTimers();
    await storage?.close();
  });
  afterAll(() => {
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });

  it('syncs at checkpoints by default (WAL + synchronous NORMAL), every commit with ?synchronous=full', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pqid-storage-'));
    dirs.push(dir);
    // PRAGMA synchronous is per connection: read it back through the store's own connection.
    for (const [query, expected] of [
      ['', 1],
      ['?synchronous=normal', 1],
      ['?synchronous=full', 2],
    ] as const) {
      const file = join(dir, `s${expected}${query.length}.sqlite`);
      storage = openStorage(`sqlite:${file}${query}`) as SqliteStorage;
      expect(storage.pragma('synchronous')).toBe(expected);
      expect(storage.pragma('journal_mode')).toBe('wal');
      // The data survives the store being closed and opened again: one path, no query left in it.
      await storage.adapter('Session').upsert('s', { v: 1 }, 60);
      await storage.close();
      const check = new DatabaseSync(file);
      expect(check.prepare('SELECT count(*) AS n FROM records').get()).toEqual({ n: 1 });
      check.close();
      storage = undefined;
    }
  });

  it('follows the process clock for expiry and purges expired rows', async () => {
    storage = new SqliteStorage(':memory:');
    vi.useFakeTimers({ toFake: ['Date'] });
    const codes = storage.adapter('AuthorizationCode');
    await codes.upsert('c', { v: 1 }, 60);
    expect(await codes.find('c')).toEqual({ v: 1 });
    vi.setSystemTime(Date.now() + 61_000);
    expect(await codes.find('c')).toBeUndefined();
    expect(await codes.consume('c')).toBe(false);
    expect(storage.purgeExpired()).toBe(1);
  });
});
