/** The expiry sweep: bounded batches, no overlap, stop waits, and the IdP schedules it. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { createIdp } from '../src/app.ts';
import { loadConfig } from '../src/config/index.ts';
import type { Storage } from '../src/storage/adapter.ts';
import { schedulePurge } from '../src/storage/purge.ts';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** Polls `check` until it holds (timers run late on a loaded CI machine), at most 5 s. */
async function eventually(check: () => boolean | Promise<boolean>): Promise<void> {
  for (let i = 0; i < 100; i++) {
    if (await check()) return;
    await sleep(50);
  }
  throw new Error('condition not reached within 5 s');
}

/** A store with `backlog` expired rows whose purge takes `delayMs` per call. */
function fakeStore(backlog: number, delayMs = 0) {
  const calls: number[] = [];
  let left = backlog;
  let active = 0;
  let maxActive = 0;
  const storage = {
    async purgeExpired(limit = 2000) {
      active++;
      maxActive = Math.max(maxActive, active);
      await sleep(delayMs);
      const n = Math.min(limit, left);
      left -= n;
      calls.push(n);
      active--;
      return n;
    },
  } as unknown as Storage;
  return { storage, calls, left: () => left, maxActive: () => maxActive };
}

describe('schedulePurge', () => {
  it('sweeps a backlog in batches until a short batch, once per interval', async () => {
    const f = fakeStore(2500);
    const swept: number[] = [];
    const stop = schedulePurge(f.storage, {
      intervalSeconds: 0.05,
      batch: 1000,
      onSwept: (n) => swept.push(n),
    });
    await eventually(() => swept.length > 0);
    await stop();
    expect(f.calls.slice(0, 3)).toEqual([1000, 1000, 500]);
    expect(swept[0]).toBe(2500);
    expect(f.left()).toBe(0);
  });

  it('never overlaps a slow sweep, and stop() waits for the running one', async () => {
    const f = fakeStore(10, 120);
    const stop = schedulePurge(f.storage, { intervalSeconds: 0.02, batch: 100 });
    await sleep(200);
    await stop();
    const after = f.calls.length;
    await sleep(100);
    expect(f.maxActive()).toBe(1);
    expect(f.calls.length).toBe(after);
  });

  it('reports errors and keeps sweeping; interval 0 schedules nothing', async () => {
    let fail = true;
    const errors: unknown[] = [];
    const swept: number[] = [];
    const storage = {
      async purgeExpired() {
        if (fail) {
          fail = false;
          throw new Error('database is down');
        }
        return 0;
      },
    } as unknown as Storage;
    const stop = schedulePurge(storage, {
      intervalSeconds: 0.03,
      onError: (e) => errors.push(e),
      onSwept: (n) => swept.push(n),
    });
    await eventually(() => swept.length > 0);
    await stop();
    expect(errors).toHaveLength(1);
    expect(swept.length).toBeGreaterThan(0);
    const idle = fakeStore(5);
    await schedulePurge(idle.storage, { intervalSeconds: 0 })();
    expect(idle.calls).toEqual([]);
  });
});

describe('the IdP', () => {
  it('purges expired records on its own (purgeInterval) and takes the setting from PQID_PURGE_INTERVAL', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pqid-purge-'));
    dirs.push(dir);
    const config = loadConfig({
      env: { PQID_PURGE_INTERVAL: '1' },
      cwd: dir,
      overrides: { dataDir: dir, logLevel: 'silent', demo: { enabled: false } },
    });
    expect(config.purgeInterval).toBe(1);
    const idp = await createIdp(config, { env: { PQID_KEK: Buffer.alloc(32, 7).toString('base64') } });
    try {
      const codes = idp.ctx.storage.adapter('AuthorizationCode');
      await codes.upsert('expired-1', { v: 1 }, 0);
      await codes.upsert('expired-2', { v: 1 }, 0);
      await codes.upsert('live', { v: 2 }, 60);
      // Expired rows stay stored until a sweep: purging one by hand (before the first sweep at
      // 1 s) shows the other is there to be swept.
      expect(await idp.ctx.storage.purgeExpired(1)).toBe(1);
      // Watch the table through a second connection, so that looking does not purge.
      const db = new DatabaseSync(join(dir, 'pqid.sqlite'));
      const stored = () =>
        (
          db.prepare("SELECT count(*) AS n FROM records WHERE model = 'AuthorizationCode'").get() as {
            n: number;
          }
        ).n;
      expect(stored()).toBe(2);
      await eventually(() => stored() === 1); // the IdP's own sweep took the other expired one
      db.close();
      expect(await codes.find('live')).toEqual({ v: 2 });
    } finally {
      await idp.close();
    }
  });

  it('refuses a negative or fractional purgeInterval', () => {
    expect(() => loadConfig({ env: { PQID_PURGE_INTERVAL: '-5' }, cwd: '/srv' })).toThrow(
      /purgeInterval|PQID_PURGE_INTERVAL/,
    );
    expect(() => loadConfig({ env: {}, cwd: '/srv', overrides: { purgeInterval: 1.5 } })).toThrow(
      /whole number of seconds/,
    );
  });
});
