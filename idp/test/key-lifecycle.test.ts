/**
 * Key lifecycle an operator runs, on SQLite and PostgreSQL: rotations locked
 * across instances (two at once make one next key), `remove` (refuses the active key), `rekey`
 * (every sealed key re-sealed under a new KEK, all or nothing, while instances keep running),
 * and an audit line for every operation that never carries key material or a KEK.
 */
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createLocalJWKSet, signJwt, verifyJwt } from '@pqid/jose';
import { afterAll, describe, expect, it } from 'vitest';
import { type Kek, kekId, readKekFile } from '../src/crypto/kek.ts';
import type { KeyAuditSink } from '../src/keys/audit.ts';
import {
  KeyActive,
  KeyManager,
  type KeyManagerOptions,
  type KeyRecord,
  RotationPending,
  UnknownKey,
} from '../src/keys/key-manager.ts';
import type { Storage } from '../src/storage/adapter.ts';
import { PostgresStorage } from '../src/storage/postgres.ts';
import { SqliteStorage } from '../src/storage/sqlite.ts';
import { tempDir } from './helpers.ts';
import { dropSchemas, PG_SKIP_REASON, PG_URL, uniqueSchema, urlWithSchema } from './storage-pg.ts';

const kekOf = (key = randomBytes(32), previous: Buffer[] = []): Kek => ({
  key,
  source: 'env',
  ...(previous.length ? { previous } : {}),
});

interface Engine {
  /** Two handles on one fresh store: two instances. */
  pair(): Promise<[Storage, Storage]>;
}

const dirs: Array<() => void> = [];
const schemas: string[] = [];
const engines: Array<[string, Engine | undefined]> = [
  [
    'sqlite',
    {
      async pair() {
        const d = tempDir();
        dirs.push(d.cleanup);
        const file = join(d.dir, 'pqid.sqlite');
        return [new SqliteStorage(file), new SqliteStorage(file)];
      },
    },
  ],
  [
    'postgres',
    PG_URL
      ? {
          async pair() {
            const schema = uniqueSchema('pqid_keys');
            schemas.push(schema);
            const url = urlWithSchema(schema);
            return [new PostgresStorage(url), new PostgresStorage(url)];
          },
        }
      : undefined,
  ],
];

afterAll(async () => {
  for (const c of dirs) c();
  if (PG_URL) await dropSchemas(schemas);
});

/** Audit lines as the sink receives them, and as text (to search for secrets). */
function recorder() {
  const lines: Array<Parameters<KeyAuditSink>[0]> = [];
  const sink: KeyAuditSink = (e) => lines.push(e);
  return { lines, sink, text: () => JSON.stringify(lines) };
}

function manager(storage: Storage, kek: Kek, opts: KeyManagerOptions = {}) {
  return new KeyManager(storage.adapter('SigningKey'), kek, {
    locks: storage.adapter('Lock'),
    prepublish: 600,
    retention: { tokens: 3600, cold: 86400 },
    lockOptions: { poll: 10 },
    ...opts,
  });
}

const sealedOf = async (s: Storage) =>
  (await s.adapter('SigningKey').list()).map((r) => (r.payload as KeyRecord).privateJwk?.kek);

describe.each(engines)('key lifecycle on %s', (_engine, e) => {
  if (!e) {
    it.skip(PG_SKIP_REASON, () => {});
    return;
  }

  it('two instances rotating the same algorithm at once produce one next key', async () => {
    const [s1, s2] = await e.pair();
    try {
      const kek = kekOf();
      const a = manager(s1, kek);
      const b = manager(s2, kek);
      await a.load();
      await a.ensure(['ML-DSA-44', 'ES256']);
      await b.load();
      for (let round = 0; round < 3; round++) {
        const results = await Promise.allSettled([a.rotate('ML-DSA-44'), b.rotate('ML-DSA-44')]);
        const ok = results.filter((r) => r.status === 'fulfilled');
        const refused = results.filter((r) => r.status === 'rejected');
        expect(ok).toHaveLength(1);
        expect(refused).toHaveLength(1);
        expect((refused[0] as PromiseRejectedResult).reason).toBeInstanceOf(RotationPending);
        await b.load();
        const next = b.list('oidc').filter((k) => k.alg === 'ML-DSA-44' && k.status === 'next');
        expect(next).toHaveLength(1);
        // Promote it (also under the lock) for the next round.
        await Promise.allSettled([a.rotate('ML-DSA-44', { immediate: true })]);
      }
    } finally {
      await s1.close();
      await s2.close();
    }
  }, 60_000);

  it('remove refuses the active key, removes a retired one from the JWKS, and says so in the audit', async () => {
    const [s1, s2] = await e.pair();
    const audit = recorder();
    try {
      const a = manager(s1, kekOf(), { audit: audit.sink });
      await a.load();
      const old = await a.signingKey('ES256');
      const token = await signJwt({ sub: 'x' }, old, { issuer: 'i', expiresIn: 3600 });
      await expect(a.remove(old.kid)).rejects.toBeInstanceOf(KeyActive);
      await expect(a.remove('no-such-kid')).rejects.toBeInstanceOf(UnknownKey);
      const [fresh] = await a.rotate('ES256', { immediate: true });
      // Until removed, the old key verifies what it signed.
      await expect(
        verifyJwt(token, await createLocalJWKSet(a.jwks()), { algorithms: ['ES256'] }),
      ).resolves.toBeTruthy();
      const removed = await a.remove(old.kid);
      expect(removed).toMatchObject([{ kid: old.kid, status: 'retired' }]);
      expect(a.jwks().keys.map((k) => k.kid)).toEqual([fresh?.kid]);
      await expect(
        verifyJwt(token, await createLocalJWKSet(a.jwks()), { algorithms: ['ES256'] }),
      ).rejects.toMatchObject({
        code: 'ERR_JWKS_NO_MATCHING_KEY',
      });
      // Another instance sees it gone; a staged (next) key can be removed too.
      const b = manager(s2, kekOf());
      await b.loadPublic();
      expect(b.list().map((k) => k.kid)).not.toContain(old.kid);
      const [staged] = await a.rotate('ES256');
      await a.remove(staged?.kid as string);
      expect(a.list().map((k) => k.kid)).not.toContain(staged?.kid);
      const ops = audit.lines.map((l) => [l.op, l.refused ?? l.status]);
      expect(ops).toEqual(
        expect.arrayContaining([
          ['key.refused', 'remove'],
          ['key.remove', 'retired'],
          ['key.remove', 'next'],
          ['key.create', 'next'],
        ]),
      );
    } finally {
      await s1.close();
      await s2.close();
    }
  }, 60_000);

  it('rekey re-seals every key under the new KEK; the old KEK can then go', async () => {
    const [s1, s2] = await e.pair();
    try {
      const oldKek = randomBytes(32);
      const newKek = randomBytes(32);
      const before = manager(s1, kekOf(oldKek));
      await before.load();
      await before.ensure(['ML-DSA-65', 'ES256', 'ML-DSA-44-Ed25519']);
      await before.ensure(['SLH-DSA-SHA2-128f'], 'root');
      expect(new Set(await sealedOf(s1))).toEqual(new Set([kekId(oldKek)]));
      // An instance upgraded first: the new KEK current, the old one previous. It opens both.
      const running = manager(s2, kekOf(newKek, [oldKek]));
      await running.load();
      const signer = await running.signingKey('ML-DSA-65');

      const audit = recorder();
      const operator = manager(s1, kekOf(newKek, [oldKek]), { audit: audit.sink, actor: 'cli' });
      await operator.load();
      const r = await operator.rekey();
      expect(r).toMatchObject({
        resealed: 4,
        current: 0,
        external: 0,
        from: [kekId(oldKek)],
        to: kekId(newKek),
      });
      expect(new Set(await sealedOf(s1))).toEqual(new Set([kekId(newKek)]));
      expect((await operator.rekey()).resealed).toBe(0); // idempotent
      // The running instance keeps signing with what it opened, and re-reads fine.
      await running.load();
      expect((await running.signingKey('ML-DSA-65')).kid).toBe(signer.kid);
      // The new KEK alone opens everything; the old one alone nothing.
      await expect(manager(s2, kekOf(newKek)).load()).resolves.toBeUndefined();
      await expect(manager(s2, kekOf(oldKek)).load()).rejects.toMatchObject({ code: 'ERR_KEK_MISMATCH' });
      expect(audit.lines.filter((l) => l.op === 'keys.rekey')).toMatchObject([
        { resealed: 4, from: [kekId(oldKek)], to: kekId(newKek), actor: 'cli' },
        { resealed: 0 },
      ]);
    } finally {
      await s1.close();
      await s2.close();
    }
  }, 60_000);

  it('rekey is all or nothing: a key no KEK here opens aborts it and changes nothing', async () => {
    const [s1, s2] = await e.pair();
    try {
      const k1 = randomBytes(32);
      const k2 = randomBytes(32);
      const k3 = randomBytes(32);
      await manager(s1, kekOf(k1)).ensure(['ES256', 'ML-DSA-44']);
      // A key sealed under a KEK the operator forgot to list.
      await manager(s1, kekOf(k3)).ensure(['ML-DSA-65']);
      const before = await s2.adapter('SigningKey').list();
      const operator = manager(s2, kekOf(k2, [k1]));
      await operator.loadPublic();
      await expect(operator.rekey()).rejects.toMatchObject({ code: 'ERR_KEK_MISMATCH' });
      expect(await s2.adapter('SigningKey').list()).toEqual(before);
    } finally {
      await s1.close();
      await s2.close();
    }
  }, 60_000);
});

describe('a KEK file is re-read: a running server takes a new KEK without a restart', () => {
  it('replace the file (new first, old second), rekey, drop the old line; the server follows each step', async () => {
    const d = tempDir();
    const file = join(d.dir, 'kek.key');
    const storage = new SqliteStorage(join(d.dir, 'pqid.sqlite'));
    const [oldKek, newKek] = [randomBytes(32), randomBytes(32)];
    const b64 = (k: Buffer) => k.toString('base64');
    try {
      writeFileSync(file, `${b64(oldKek)}\n`, { mode: 0o600 });
      const server = manager(storage, readKekFile(file), { reloadKek: () => readKekFile(file) });
      await server.load();
      await server.ensure(['ML-DSA-65']);
      expect(server.kekId).toBe(kekId(oldKek));
      // 1. The secret is replaced: new KEK first, the old one kept for opening.
      writeFileSync(file, `${b64(newKek)}\n${b64(oldKek)}\n`);
      await server.load(); // the periodic refresh
      expect(server.kekId).toBe(kekId(newKek));
      // 2. A rotation now seals under the new KEK; 3. the operator re-seals the rest.
      await server.rotate('ML-DSA-65', { immediate: true });
      await manager(storage, readKekFile(file)).rekey();
      // 4. The old line goes; the server still loads everything.
      writeFileSync(file, `${b64(newKek)}\n`);
      await server.load();
      await expect(manager(storage, readKekFile(file)).load()).resolves.toBeUndefined();
      expect(new Set(await sealedOf(storage))).toEqual(new Set([kekId(newKek)]));
    } finally {
      await storage.close();
      d.cleanup();
    }
  }, 60_000);
});

describe('audit lines', () => {
  it('cover every key operation and never carry key material, sealed blobs or a KEK', async () => {
    const d = tempDir();
    const storage = new SqliteStorage(join(d.dir, 'pqid.sqlite'));
    const audit = recorder();
    const [k1, k2] = [randomBytes(32), randomBytes(32)];
    let t = 1_000_000;
    try {
      const km = manager(storage, kekOf(k1), { audit: audit.sink, now: () => t });
      await km.load();
      await km.ensure(['ML-DSA-44', 'ES256', 'RS256']);
      await km.ensure(['ML-DSA-87'], 'root');
      await km.rotate('ES256');
      await km.rotate('ES256', { immediate: true });
      await expect(km.rotate(undefined, { set: 'nope' as never })).rejects.toThrow();
      await km.rotate('ML-DSA-44');
      await expect(km.rotate('ML-DSA-44')).rejects.toBeInstanceOf(RotationPending);
      const es = km.list().find((k) => k.alg === 'ES256' && k.status === 'retired');
      await km.remove(es?.kid as string);
      t += 7200;
      await km.rotate('RS256', { immediate: true });
      t += 7200;
      await km.purge();
      const rekeyer = manager(storage, kekOf(k2, [k1]), { audit: audit.sink, now: () => t });
      await rekeyer.load();
      await rekeyer.rekey();

      const ops = new Set(audit.lines.map((l) => l.op));
      for (const op of ['key.create', 'key.activate', 'key.remove', 'key.purge', 'key.refused', 'keys.rekey'])
        expect(ops).toContain(op);
      for (const l of audit.lines)
        expect(l).toMatchObject({ actor: 'server', host: expect.any(String), pid: process.pid });

      // Everything secret that existed during these operations.
      const secrets = [k1.toString('base64'), k2.toString('base64'), k1.toString('hex'), k2.toString('hex')];
      for (const row of await storage.adapter('SigningKey').list()) {
        const rec = row.payload as KeyRecord;
        if (rec.privateJwk) secrets.push(rec.privateJwk.ct, rec.privateJwk.iv, rec.privateJwk.tag);
        const jwk = JSON.parse(
          (await import('../src/crypto/kek.ts')).open(kekOf(k2), rec.privateJwk as never, rec.kid),
        ) as Record<string, string>;
        for (const m of ['priv', 'd', 'p', 'q', 'dp', 'dq', 'qi']) if (jwk[m]) secrets.push(jwk[m]);
      }
      const text = audit.text();
      for (const s of secrets) expect(text).not.toContain(s);
    } finally {
      await storage.close();
      d.cleanup();
    }
  }, 60_000);
});
