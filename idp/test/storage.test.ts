/** The storage contract on the embedded SQLite store, plus what only SQLite has. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
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
