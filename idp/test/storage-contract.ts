/**
 * The storage contract as tests: every engine (SQLite, PostgreSQL) runs exactly this suite, so
 * the OIDC code can rely on the same semantics whichever store is configured. Tests use real
 * time only where the engine's own clock is involved (PostgreSQL compares with `now()`).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ModelName, Payload, Storage } from '../src/storage/adapter.ts';

export interface ContractTarget {
  /** A fresh, empty store; `another()` opens a second handle on the same data (a second instance). */
  fresh(): Promise<{ storage: Storage; another(): Promise<Storage> }>;
  /** After the suite: drop whatever `fresh` created. */
  cleanup?(): Promise<void>;
}

const now = () => Math.floor(Date.now() / 1000);

/** A payload shaped like a stored ML-DSA-87 signing key (~8 KB of JSON). */
function bigKeyPayload(size: number): Payload {
  const b64 = (n: number, seed: number) =>
    Buffer.from(Array.from({ length: n }, (_, i) => (i * 31 + seed) & 0xff)).toString('base64url');
  return {
    kid: 'k-1',
    alg: 'ML-DSA-87',
    kty: 'AKP',
    use: 'sig',
    status: 'active',
    createdAt: 1_700_000_000,
    publicJwk: { kty: 'AKP', alg: 'ML-DSA-87', pub: b64(Math.floor(size / 3), 1) },
    privateJwk: { iv: b64(12, 2), tag: b64(16, 3), ct: b64(Math.floor(size / 2), 4) },
    note: 'ünïcödé ✓ 🔑 "quoted" \\ back\\slash \u0000 nul',
  };
}

export function defineStorageContract(engine: string, target: ContractTarget): void {
  describe(`storage contract: ${engine}`, () => {
    let storage: Storage;
    let another: () => Promise<Storage>;
    const extra: Storage[] = [];

    beforeEach(async () => {
      ({ storage, another } = await target.fresh());
    });
    afterEach(async () => {
      for (const s of extra.splice(0)) await s.close();
      await storage.close();
    });
    afterAll(async () => {
      await target.cleanup?.();
    });

    const second = async () => {
      const s = await another();
      extra.push(s);
      return s;
    };

    it('upserts, replaces, finds, finds by uid, lists and destroys', async () => {
      const a = storage.adapter('Account');
      await a.upsert('s1', { uid: 'alice', name: 'Alice' });
      await a.upsert('s1', { uid: 'alice', name: 'Alice B' });
      expect(await a.find('s1')).toEqual({ uid: 'alice', name: 'Alice B' });
      expect(await a.findByUid('alice')).toEqual({ uid: 'alice', name: 'Alice B' });
      expect(await a.find('nope')).toBeUndefined();
      expect(await a.findByUid('nobody')).toBeUndefined();
      expect((await a.list()).map((r) => r.id)).toEqual(['s1']);
      await a.destroy('s1');
      expect(await a.find('s1')).toBeUndefined();
      expect(await a.findByUid('alice')).toBeUndefined();
      await a.destroy('s1'); // destroying an absent record is a no-op
    });

    it('keeps models apart', async () => {
      await storage.adapter('AccessToken').upsert('x', { v: 1, uid: 'u' });
      expect(await storage.adapter('RefreshToken').find('x')).toBeUndefined();
      expect(await storage.adapter('RefreshToken').findByUid('u')).toBeUndefined();
      expect(await storage.adapter('RefreshToken').list()).toEqual([]);
      await storage.adapter('RefreshToken').destroy('x');
      expect(await storage.adapter('AccessToken').find('x')).toEqual({ v: 1, uid: 'u' });
    });

    it('round-trips JSON values exactly', async () => {
      const payload: Payload = {
        s: 'text',
        n: 42,
        f: 0.1,
        neg: -1.5e-7,
        big: Number.MAX_SAFE_INTEGER,
        t: true,
        nul: null,
        arr: [1, 'two', { three: [3] }],
        nested: { a: { b: { c: 'd' } } },
        empty: {},
      };
      await storage.adapter('Client').upsert('c', payload);
      expect(await storage.adapter('Client').find('c')).toEqual(payload);
    });

    it('returns copies: mutating a found payload does not change the record', async () => {
      const a = storage.adapter('Client');
      await a.upsert('c', { list: [1] });
      const found = (await a.find('c')) as { list: number[] };
      found.list.push(2);
      expect(await a.find('c')).toEqual({ list: [1] });
    });

    it('stores large payloads (PQ keys are 4–8 KB of JSON, and more)', async () => {
      const keys = storage.adapter('SigningKey');
      for (const size of [4096, 8192, 65536]) {
        const payload = bigKeyPayload(size);
        expect(JSON.stringify(payload).length).toBeGreaterThan(size);
        await keys.upsert(`k-${size}`, payload);
        expect(await keys.find(`k-${size}`)).toEqual(payload);
      }
      expect((await keys.list()).map((r) => r.id)).toEqual(['k-4096', 'k-8192', 'k-65536']);
    });

    it('lists live records in insertion order; replacing keeps the position', async () => {
      const c = storage.adapter('Client');
      await c.upsert('b', { v: 1 });
      await c.upsert('a', { v: 2 });
      await c.upsert('c', { v: 3 }, 0);
      await c.upsert('d', { v: 4 }, 3600);
      await c.upsert('b', { v: 5 });
      expect(await c.list()).toEqual([
        { id: 'b', payload: { v: 5 } },
        { id: 'a', payload: { v: 2 } },
        { id: 'd', payload: { v: 4 } },
      ]);
      // A bounded list takes the oldest live ones.
      expect((await c.list(2)).map((r) => r.id)).toEqual(['b', 'a']);
      expect((await c.list(10)).map((r) => r.id)).toEqual(['b', 'a', 'd']);
    });

    it('lists by uid: live records of that uid and model only, oldest first, seen by another instance', async () => {
      const creds = storage.adapter('WebAuthnCredential');
      await creds.upsert('cred-b', { uid: 'acct-1', n: 1 });
      await creds.upsert('cred-a', { uid: 'acct-1', n: 2 });
      await creds.upsert('cred-x', { uid: 'acct-2', n: 3 });
      await creds.upsert('cred-gone', { uid: 'acct-1', n: 4 }, 0);
      await storage.adapter('Account').upsert('other-model', { uid: 'acct-1' });
      await creds.insertIfAbsent('cred-c', { uid: 'acct-1', n: 5 });
      await creds.consume('cred-c');
      const expected = [
        { id: 'cred-b', payload: { uid: 'acct-1', n: 1 } },
        { id: 'cred-a', payload: { uid: 'acct-1', n: 2 } },
        { id: 'cred-c', payload: { uid: 'acct-1', n: 5, consumed: expect.any(Number) } },
      ];
      expect(await creds.listByUid('acct-1')).toEqual(expected);
      expect(await (await second()).adapter('WebAuthnCredential').listByUid('acct-1')).toEqual(expected);
      expect(await creds.listByUid('nobody')).toEqual([]);
      // Replacing a record keeps its position; destroying one drops it.
      await creds.upsert('cred-b', { uid: 'acct-1', n: 6 });
      await creds.destroy('cred-a');
      expect((await creds.listByUid('acct-1')).map((r) => r.id)).toEqual(['cred-b', 'cred-c']);
    });

    it('hides expired records from every read', async () => {
      const codes = storage.adapter('AuthorizationCode');
      await codes.upsert('gone', { uid: 'u-gone', grantId: 'g' }, 0);
      await codes.upsert('live', { uid: 'u-live' }, 60);
      await codes.upsert('forever', { uid: 'u-forever' });
      expect(await codes.find('gone')).toBeUndefined();
      expect(await codes.findByUid('u-gone')).toBeUndefined();
      expect(await codes.listByUid('u-gone')).toEqual([]);
      expect(await codes.consume('gone')).toBe(false);
      expect(await codes.find('live')).toEqual({ uid: 'u-live' });
      expect(await codes.findByUid('u-live')).toEqual({ uid: 'u-live' });
      expect(await codes.find('forever')).toEqual({ uid: 'u-forever' });
      expect((await codes.list()).map((r) => r.id)).toEqual(['live', 'forever']);
      // Re-upserting with a new lifetime brings a record back.
      await codes.upsert('gone', { uid: 'u-gone' }, 60);
      expect(await codes.find('gone')).toEqual({ uid: 'u-gone' });
    });

    it('expires records on the clock once their lifetime passes', async () => {
      const s = storage.adapter('Session');
      await s.upsert('short', { v: 1 }, 1);
      expect(await s.find('short')).toEqual({ v: 1 });
      // Up to 2 s: engines may count lifetimes in whole seconds.
      await sleep(2100);
      expect(await s.find('short')).toBeUndefined();
      expect(await s.consume('short')).toBe(false);
    });

    it('purges expired records in bounded batches, leaving live records and live tombstones', async () => {
      const codes = storage.adapter('AuthorizationCode');
      const sessions = storage.adapter('Session');
      for (let i = 0; i < 7; i++) await codes.upsert(`old-${i}`, { i }, 0);
      await sessions.upsert('old-s', { v: 1 }, 0);
      await codes.upsert('live', { v: 1 }, 60);
      await sessions.upsert('forever', { v: 2 });
      await storage.revokeGrant('g-revoked');
      expect(await storage.purgeExpired(3)).toBe(3);
      expect(await storage.purgeExpired(3)).toBe(3);
      expect(await storage.purgeExpired(3)).toBe(2);
      expect(await storage.purgeExpired(3)).toBe(0);
      expect(await codes.find('live')).toEqual({ v: 1 });
      expect(await sessions.find('forever')).toEqual({ v: 2 });
      expect((await codes.list()).map((r) => r.id)).toEqual(['live']);
      // The revocation tombstone is still live: a late record of that grant is still dropped.
      await codes.upsert('late', { grantId: 'g-revoked' }, 60);
      expect(await codes.find('late')).toBeUndefined();
      // A purged id is free again.
      await codes.upsert('old-0', { again: true }, 60);
      expect(await codes.find('old-0')).toEqual({ again: true });
    });

    it('shares failed-login timestamps between instances, windowed and cleared per key', async () => {
      const other = await second();
      const t = 1_700_000_000_000;
      const w = 60_000;
      // Concurrent failures on two instances: every one is counted (one row each, no lost update).
      await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          (i % 2 ? storage : other).loginFailures.add('acct:alice', t + i, w),
        ),
      );
      await storage.loginFailures.add('ip:192.0.2.1', t, w);
      expect(await other.loginFailures.recent('acct:alice', t + 10, w)).toEqual(
        Array.from({ length: 10 }, (_, i) => t + i),
      );
      // Only failures newer than now - window count.
      expect(await storage.loginFailures.recent('acct:alice', t + w + 4, w)).toEqual([
        t + 5,
        t + 6,
        t + 7,
        t + 8,
        t + 9,
      ]);
      // One of two failures at the same instant goes; the other, and the rest, stay.
      await storage.loginFailures.add('acct:alice', t + 9, w);
      await other.loginFailures.remove('acct:alice', t + 9);
      expect(await storage.loginFailures.recent('acct:alice', t + 10, w)).toEqual(
        Array.from({ length: 10 }, (_, i) => t + i),
      );
      await other.loginFailures.remove('acct:alice', t + 123);
      expect(await storage.loginFailures.recent('acct:alice', t + 10, w)).toHaveLength(10);
      await other.loginFailures.clear('acct:alice');
      expect(await storage.loginFailures.recent('acct:alice', t + 10, w)).toEqual([]);
      expect(await storage.loginFailures.recent('ip:192.0.2.1', t + 10, w)).toEqual([t]);
    });

    it('consumes exactly once and reports when', async () => {
      const codes = storage.adapter('AuthorizationCode');
      await codes.upsert('c', { v: 1, consumed: 5 }, 60);
      // `consumed` is the store's to set, never the caller's.
      expect(await codes.find('c')).toEqual({ v: 1 });
      expect(await codes.consume('c')).toBe(true);
      expect(await codes.consume('c')).toBe(false);
      const found = await codes.find('c');
      expect(found?.v).toBe(1);
      expect(found?.consumed).toBeTypeOf('number');
      expect(Math.abs((found?.consumed as number) - now())).toBeLessThanOrEqual(5);
      expect((await codes.list())[0]?.payload.consumed).toBe(found?.consumed);
      expect(await codes.consume('absent')).toBe(false);
      // Replacing a record starts it unconsumed again.
      await codes.upsert('c', { v: 2 }, 60);
      expect(await codes.find('c')).toEqual({ v: 2 });
      expect(await codes.consume('c')).toBe(true);
    });

    it('consumes exactly once under concurrency, also across instances', async () => {
      const other = await second();
      for (let round = 0; round < 5; round++) {
        const id = `code-${round}`;
        await storage.adapter('AuthorizationCode').upsert(id, { round }, 60);
        const results = await Promise.all(
          Array.from({ length: 16 }, (_, i) =>
            (i % 2 ? other : storage).adapter('AuthorizationCode').consume(id),
          ),
        );
        expect(results.filter(Boolean)).toHaveLength(1);
      }
    });

    it('inserts if absent: a live record (consumed or not) blocks, an expired one does not', async () => {
      const seen = storage.adapter('ClientAssertion');
      expect(await seen.insertIfAbsent('j1', { clientId: 'c', consumed: 7 }, 60)).toBe(true);
      // `consumed` is the store's to set, never the caller's.
      expect(await seen.find('j1')).toEqual({ clientId: 'c' });
      expect(await seen.insertIfAbsent('j1', { clientId: 'other' }, 60)).toBe(false);
      expect(await seen.find('j1')).toEqual({ clientId: 'c' });
      expect(await seen.consume('j1')).toBe(true);
      expect(await seen.insertIfAbsent('j1', { clientId: 'other' }, 60)).toBe(false);
      // Never expiring, then gone.
      expect(await seen.insertIfAbsent('forever', { v: 1 })).toBe(true);
      expect(await seen.insertIfAbsent('forever', { v: 2 })).toBe(false);
      await seen.destroy('forever');
      expect(await seen.insertIfAbsent('forever', { v: 3 }, 60)).toBe(true);
      expect(await seen.find('forever')).toEqual({ v: 3 });
      // An expired record is replaced, and the replacement starts unconsumed.
      await seen.upsert('old', { v: 'old', uid: 'u-old' }, 0);
      expect(await seen.insertIfAbsent('old', { v: 'new' }, 60)).toBe(true);
      expect(await seen.find('old')).toEqual({ v: 'new' });
      expect(await seen.findByUid('u-old')).toBeUndefined();
      expect(await seen.consume('old')).toBe(true);
      // Per model: the same id elsewhere is not in the way.
      expect(await storage.adapter('Lock').insertIfAbsent('j1', { v: 1 }, 60)).toBe(true);
      // Grant records go through upsert only (revocation).
      await expect(seen.insertIfAbsent('g', { grantId: 'g1' }, 60)).rejects.toThrow(/grant/);
    });

    it('inserts if absent exactly once under concurrency, also across instances and over an expired record', async () => {
      const other = await second();
      for (let round = 0; round < 6; round++) {
        const id = `jti-${round}`;
        // Odd rounds race over an expired record of the same id.
        if (round % 2) await storage.adapter('ClientAssertion').upsert(id, { stale: true }, 0);
        const results = await Promise.all(
          Array.from({ length: 16 }, (_, i) =>
            (i % 2 ? other : storage).adapter('ClientAssertion').insertIfAbsent(id, { i }, 60),
          ),
        );
        expect(results.filter(Boolean)).toHaveLength(1);
        const winner = results.indexOf(true);
        expect(await other.adapter('ClientAssertion').find(id)).toEqual({ i: winner });
      }
    });

    it('sees writes of another instance immediately', async () => {
      const other = await second();
      await storage.adapter('Client').upsert('c1', { client_id: 'c1', uid: 'c1' });
      expect(await other.adapter('Client').find('c1')).toEqual({ client_id: 'c1', uid: 'c1' });
      await other.adapter('Client').destroy('c1');
      expect(await storage.adapter('Client').find('c1')).toBeUndefined();
    });

    it('rewrites records all at once: only the model, only what the transform returns, expiry kept', async () => {
      const keys = storage.adapter('SigningKey');
      await keys.upsert('a', { v: 1, uid: 'ua' });
      await keys.upsert('b', { v: 1 }, 3600);
      await keys.upsert('c', { v: 1 });
      await storage.adapter('Client').upsert('a', { v: 1 });
      const seen: string[] = [];
      const n = await keys.rewriteAll((id, p) => {
        seen.push(id);
        return id === 'c' ? undefined : { ...p, v: 2 };
      });
      expect(n).toBe(2);
      expect(seen).toEqual(['a', 'b', 'c']);
      expect((await keys.list()).map((r) => [r.id, r.payload.v])).toEqual([
        ['a', 2],
        ['b', 2],
        ['c', 1],
      ]);
      expect(await keys.findByUid('ua')).toEqual({ v: 2, uid: 'ua' });
      expect(await storage.adapter('Client').find('a')).toEqual({ v: 1 });
      // The expiry is kept: an expired record stays invisible to the transform.
      await keys.upsert('gone', { v: 1 }, -1);
      await keys.rewriteAll((id) => {
        if (id === 'gone') throw new Error('an expired record was offered');
        return undefined;
      });
    });

    it('rewrites all or nothing: a transform that throws midway leaves every record as it was', async () => {
      const keys = storage.adapter('SigningKey');
      for (const id of ['a', 'b', 'c']) await keys.upsert(id, { v: 1 });
      await expect(
        keys.rewriteAll((id, p) => {
          if (id === 'c') throw new Error('cannot re-seal c');
          return { ...p, v: 2 };
        }),
      ).rejects.toThrow('cannot re-seal c');
      expect((await keys.list()).map((r) => r.payload.v)).toEqual([1, 1, 1]);
      // The store is usable afterwards (no transaction left open), also from another instance.
      expect(await keys.rewriteAll((_id, p) => ({ ...p, v: 3 }))).toBe(3);
      expect((await (await second()).adapter('SigningKey').list()).map((r) => r.payload.v)).toEqual([
        3, 3, 3,
      ]);
    });

    it('rewrites atomically against another instance writing the same records', async () => {
      const other = await second();
      const mine = storage.adapter('SigningKey');
      const theirs = other.adapter('SigningKey');
      for (let i = 0; i < 20; i++) await mine.upsert(`k${i}`, { n: 0 });
      // Each rewrite adds 1 to every record; run on both instances at once, none may be lost.
      const bump = (_id: string, p: Payload) => ({ ...p, n: (p.n as number) + 1 });
      await Promise.all([
        mine.rewriteAll(bump),
        theirs.rewriteAll(bump),
        mine.rewriteAll(bump),
        theirs.rewriteAll(bump),
      ]);
      expect(new Set((await mine.list()).map((r) => r.payload.n))).toEqual(new Set([4]));
    });

    it('revokes by grant id, per model and across models', async () => {
      const models: ModelName[] = ['AuthorizationCode', 'AccessToken', 'RefreshToken'];
      for (const m of models) {
        await storage.adapter(m).upsert(`${m}-1`, { grantId: 'g1' }, 600);
        await storage.adapter(m).upsert(`${m}-2`, { grantId: 'g2' }, 600);
      }
      await storage.adapter('Session').upsert('s', { accountId: 'x' });
      await storage.adapter('AccessToken').revokeByGrantId('g1');
      expect(await storage.adapter('AccessToken').find('AccessToken-1')).toBeUndefined();
      expect(await storage.adapter('RefreshToken').find('RefreshToken-1')).toBeDefined();
      await storage.revokeGrant('g1');
      for (const m of models) {
        expect(await storage.adapter(m).find(`${m}-1`)).toBeUndefined();
        expect(await storage.adapter(m).find(`${m}-2`)).toEqual({ grantId: 'g2' });
      }
      expect(await storage.adapter('Session').find('s')).toEqual({ accountId: 'x' });
      expect(await storage.revokeGrant('never-issued')).toBe(false); // a no-op
    });

    it('says whether the grant was still alive: not when revoked before, expired, or never stored', async () => {
      const rt = storage.adapter('RefreshToken');
      const other = await second();
      await rt.upsert('live-1', { grantId: 'alive' }, 600);
      expect(await storage.revokeGrant('alive')).toBe(true);
      expect(await storage.revokeGrant('alive')).toBe(false);
      expect(await other.revokeGrant('alive')).toBe(false);
      // Every record expired (not yet purged): ended already.
      await rt.upsert('gone-1', { grantId: 'expired' }, 0);
      await storage.adapter('AuthorizationCode').upsert('gone-2', { grantId: 'expired' }, 0);
      expect(await storage.revokeGrant('expired')).toBe(false);
      // One live record among expired ones is enough; a consumed one is live until it expires.
      await rt.upsert('old-1', { grantId: 'mixed' }, 0);
      await storage.adapter('AuthorizationCode').upsert('code-1', { grantId: 'mixed' }, 600);
      expect(await storage.adapter('AuthorizationCode').consume('code-1')).toBe(true);
      expect(await other.revokeGrant('mixed')).toBe(true);
      // Racing revocations of one grant on two instances: exactly one finds it alive.
      for (let round = 0; round < 5; round++) {
        const grantId = `twice-${round}`;
        await rt.upsert(`${grantId}-rt`, { grantId }, 600);
        const both = await Promise.all([storage.revokeGrant(grantId), other.revokeGrant(grantId)]);
        expect(both.filter(Boolean)).toHaveLength(1);
      }
    });

    it("deletes a revoked grant's expired records too, not only its live ones", async () => {
      const rt = storage.adapter('RefreshToken');
      await rt.upsert('spent', { grantId: 'g' }, 0);
      await rt.upsert('current', { grantId: 'g' }, 600);
      await storage.adapter('Session').upsert('unrelated', { v: 1 }, 0);
      expect(await storage.revokeGrant('g')).toBe(true);
      // Nothing of the grant is left for the purge: only the record outside it.
      expect(await storage.purgeExpired()).toBe(1);
    });

    it('revokes a consumed record too (reuse detection after rotation)', async () => {
      const rt = storage.adapter('RefreshToken');
      await rt.upsert('old', { grantId: 'g' }, 600);
      expect(await rt.consume('old')).toBe(true);
      await rt.upsert('new', { grantId: 'g' }, 600);
      await storage.revokeGrant('g');
      expect(await rt.find('old')).toBeUndefined();
      expect(await rt.find('new')).toBeUndefined();
    });

    it('keeps a revoked grant revoked: later upserts of its records are dropped', async () => {
      const at = storage.adapter('AccessToken');
      await at.upsert('before', { grantId: 'g' }, 600);
      await storage.revokeGrant('g');
      await at.upsert('after', { grantId: 'g' }, 600);
      await (await second()).adapter('RefreshToken').upsert('elsewhere', { grantId: 'g' }, 600);
      expect(await at.find('before')).toBeUndefined();
      expect(await at.find('after')).toBeUndefined();
      expect(await storage.adapter('RefreshToken').find('elsewhere')).toBeUndefined();
      // Other grants, and records without a grant, are unaffected.
      await at.upsert('other', { grantId: 'g2' }, 600);
      await at.upsert('plain', { v: 1 }, 600);
      expect(await at.find('other')).toEqual({ grantId: 'g2' });
      expect(await at.find('plain')).toEqual({ v: 1 });
    });

    it('leaves nothing of a grant revoked while another instance is still issuing for it', async () => {
      const other = await second();
      for (let round = 0; round < 5; round++) {
        const grantId = `race-${round}`;
        const issuing = Array.from({ length: 12 }, (_, i) =>
          (i % 2 ? other : storage)
            .adapter(i % 3 ? 'AccessToken' : 'RefreshToken')
            .upsert(`${grantId}-${i}`, { grantId }, 600),
        );
        await Promise.all([...issuing.slice(0, 6), storage.revokeGrant(grantId), ...issuing.slice(6)]);
        for (let i = 0; i < 12; i++)
          expect(
            await storage.adapter(i % 3 ? 'AccessToken' : 'RefreshToken').find(`${grantId}-${i}`),
          ).toBeUndefined();
      }
    });

    it('answers ping, and close is idempotent', async () => {
      expect(await storage.ping()).toBe(true);
      const other = await another();
      expect(await other.ping()).toBe(true);
      await other.close();
      await other.close();
      expect(await other.ping().catch(() => false)).toBe(false);
      // Using a closed store fails (synchronously or not; SQLite throws from adapter()).
      await expect((async () => other.adapter('Client').find('x'))()).rejects.toThrow();
      // Closing one handle leaves the other working.
      expect(await storage.ping()).toBe(true);
    });
  });
}
