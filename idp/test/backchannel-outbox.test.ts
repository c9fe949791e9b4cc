/**
 * The back-channel logout outbox, on SQLite and PostgreSQL: two `createIdp` instances on one
 * store stand for two processes (or one process before and after a restart). A notice survives
 * a crash of the instance that took it (its lease runs out, another instance sweeps and sends
 * it), two instances deliver every notice exactly once, retries keep their attempt count over a
 * shutdown and restart, a purge leaves pending notices alone, an expired token is re-signed and a
 * notice older than a day is given up. The RPs are real HTTP servers on loopback.
 */
import { createLocalJWKSet, verifyJwt } from '@pqid/jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createIdp, type Idp, registerClient } from '../src/app.ts';
import { BackchannelLogout } from '../src/oidc/logout/backchannel.ts';
import { DELIVERY_MAX_AGE, type DeliveryRecord, deliveryId, leaseId } from '../src/oidc/logout/outbox.ts';
import { rememberSessionClient } from '../src/oidc/logout/session-clients.ts';
import { KEK, tempDir, testConfig } from './helpers.ts';
import { RpStub } from './rp-stub.ts';
import { type FreshStore, freshStores, PG_SKIP_REASON } from './storage-pg.ts';

const ISSUER = 'http://localhost:3000';
const cleanups: Array<() => void> = [];
const { engines, dispose } = freshStores('pqid_bcl');

afterAll(async () => {
  for (const c of cleanups) c();
  await dispose();
});

interface Instance {
  idp: Idp;
  logs: () => Array<Record<string, unknown>>;
  metric: (outcome: string) => Promise<number>;
}

/** One IdP instance on the store `databaseUrl`. Sweeps run at start and when a test asks. */
async function instance(databaseUrl: string, open: Idp[], retryDelay = 0.05): Promise<Instance> {
  const { dir, cleanup } = tempDir();
  cleanups.push(cleanup);
  const lines: string[] = [];
  const idp = await createIdp(
    testConfig(dir, {
      databaseUrl,
      logLevel: 'info',
      backchannelLogout: { concurrency: 2, attempts: 3, retryDelay, timeout: 2, sweepInterval: 3600 },
    }),
    { env: { PQID_KEK: KEK }, warn: () => {}, logStream: { write: (m) => void lines.push(m) } },
  );
  open.push(idp);
  return {
    idp,
    logs: () =>
      lines
        .join('')
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l)),
    async metric(outcome) {
      const text = (await idp.app.inject('/metrics')).body;
      const m = new RegExp(`pqid_backchannel_logout_deliveries_total\\{outcome="${outcome}"\\} (\\d+)`).exec(
        text,
      );
      return Number(m?.[1] ?? 0);
    },
  };
}

const claimsOf = (jwt: string) =>
  JSON.parse(Buffer.from(jwt.split('.')[1] as string, 'base64url').toString()) as Record<string, unknown>;

describe.each(engines)('back-channel logout outbox on %s', (_engine, fresh) => {
  if (!fresh) {
    it.skip(PG_SKIP_REASON, () => {});
    return;
  }
  let rp: RpStub;
  /** Instances still open at the end of a test, closed then (a "crashed" one included). */
  const open: Idp[] = [];

  beforeAll(async () => {
    rp = await new RpStub().start();
    return async () => {
      await rp.close();
    };
  });

  async function closeAll() {
    rp.otherwise = 200;
    rp.release();
    for (const idp of open.splice(0)) await idp.close();
  }

  /** A store with one back-channel client, and an instance on it. */
  async function setup(clientId = 'rp-o', retryDelay?: number) {
    const url = fresh as FreshStore;
    const databaseUrl = url();
    const a = await instance(databaseUrl, open, retryDelay);
    rp.received.length = 0;
    rp.answers.length = 0;
    await registerClient(a.idp.ctx, {
      client_id: clientId,
      redirect_uris: ['https://rp.example/cb'],
      id_token_signed_response_alg: 'ML-DSA-44',
      backchannel_logout_uri: rp.url,
    });
    return { databaseUrl, a };
  }

  /** A browser session at `inst` in which `clientId` got a code, then ended there. */
  async function endSession(inst: Instance, sid: string, clientId = 'rp-o') {
    await rememberSessionClient(inst.idp.ctx, sid, `user-${sid}`, clientId);
    await inst.idp.app.backchannelLogout.sessionEnded({ sid, accountId: `user-${sid}` });
  }

  it('resumes at another instance a delivery whose instance died mid-POST, once its lease ran out', async () => {
    try {
      const { databaseUrl, a } = await setup();
      rp.otherwise = 'hold';
      await endSession(a, 'sid-crash');
      await rp.got(1); // A's POST hangs: A "dies" here and never answers or cleans up
      const id = deliveryId('sid-crash', 'rp-o');
      const b = await instance(databaseUrl, open);
      const outbox = b.idp.ctx.storage.adapter('LogoutDelivery');
      // A purge leaves the pending notice alone.
      await b.idp.ctx.storage.purgeExpired();
      const pending = (await outbox.find(id)) as unknown as DeliveryRecord;
      expect(pending).toMatchObject({ clientId: 'rp-o', sid: 'sid-crash', attempt: 1 });
      // B's start-up sweep sees it, but A's lease is live: B leaves it alone.
      await b.idp.app.ready();
      await b.idp.app.backchannelLogout.idle();
      expect(rp.received.length).toBe(1);
      expect(await b.idp.app.backchannelLogout.sweep()).toBe(1);
      await b.idp.app.backchannelLogout.idle();
      expect(rp.received.length).toBe(1);
      // The lease runs out (a dead holder never renews it): the next sweep at B delivers.
      await b.idp.ctx.storage.adapter('Lock').upsert(leaseId(id), { owner: 'dead' }, 0);
      rp.otherwise = 200;
      expect(await b.idp.app.backchannelLogout.sweep()).toBe(1);
      await b.idp.app.backchannelLogout.idle();
      expect(rp.received.length).toBe(2);
      // The token A stored before its POST is resent, same jti, and it verifies.
      expect(rp.received[1]?.token).toBe(rp.received[0]?.token);
      const jwks = await createLocalJWKSet((await b.idp.app.inject('/jwks')).json());
      const { claims } = await verifyJwt(rp.received[1]?.token as string, jwks, {
        algorithms: ['ML-DSA-44'],
        issuer: ISSUER,
        audience: 'rp-o',
        typ: 'logout+jwt',
      });
      expect(claims).toMatchObject({ sid: 'sid-crash', sub: 'user-sid-crash' });
      expect(await outbox.find(id)).toBeUndefined();
      expect(await b.metric('delivered')).toBe(1);
      expect(
        b
          .logs()
          .some((l) => l.msg === 'back-channel logout delivered' && l.clientId === 'rp-o' && l.attempt === 1),
      ).toBe(true);
    } finally {
      await closeAll();
    }
  });

  it('drops a pending notice of a removed client, also once a client is registered again under its id', async () => {
    try {
      const { databaseUrl, a } = await setup();
      rp.otherwise = 'hold';
      await endSession(a, 'sid-removed');
      await rp.got(1); // A's POST hangs, and A dies with it
      const id = deliveryId('sid-removed', 'rp-o');
      await a.idp.ctx.clients.remove('rp-o');
      // The same id, the same back-channel URI: but not the client the notice was for.
      await registerClient(a.idp.ctx, {
        client_id: 'rp-o',
        redirect_uris: ['https://rp.example/cb'],
        id_token_signed_response_alg: 'ML-DSA-44',
        backchannel_logout_uri: rp.url,
      });
      const b = await instance(databaseUrl, open);
      await b.idp.ctx.storage.adapter('Lock').upsert(leaseId(id), { owner: 'dead' }, 0);
      rp.otherwise = 200;
      await b.idp.app.ready();
      await b.idp.app.backchannelLogout.sweep();
      await b.idp.app.backchannelLogout.idle();
      expect(rp.received.length).toBe(1);
      expect(await b.idp.ctx.storage.adapter('LogoutDelivery').find(id)).toBeUndefined();
      expect(b.logs().some((l) => String(l.msg).startsWith('back-channel logout dropped'))).toBe(true);
    } finally {
      await closeAll();
    }
  });

  it('delivers every notice exactly once with two instances taking from one outbox', async () => {
    try {
      const { databaseUrl, a } = await setup();
      const b = await instance(databaseUrl, open);
      await Promise.all([a.idp.app.ready(), b.idp.app.ready()]);
      rp.otherwise = 'hold';
      const sids = Array.from({ length: 6 }, (_, i) => `sid-x${i}`);
      // Sessions end at both instances while both sweep: every notice is due everywhere at once.
      await Promise.all([
        ...sids.map((sid, i) => endSession(i % 2 === 0 ? a : b, sid)),
        a.idp.app.backchannelLogout.sweep(),
        b.idp.app.backchannelLogout.sweep(),
      ]);
      await Promise.all([a.idp.app.backchannelLogout.sweep(), b.idp.app.backchannelLogout.sweep()]);
      // Concurrency 2 on each: four POSTs held, two notices waiting; none sent twice.
      await rp.got(4);
      expect(rp.held.length).toBe(4);
      rp.otherwise = 200;
      rp.release();
      for (let round = 0; round < 3; round++) {
        await Promise.all([a.idp.app.backchannelLogout.idle(), b.idp.app.backchannelLogout.idle()]);
        await Promise.all([a.idp.app.backchannelLogout.sweep(), b.idp.app.backchannelLogout.sweep()]);
      }
      await Promise.all([a.idp.app.backchannelLogout.idle(), b.idp.app.backchannelLogout.idle()]);
      const told = rp.received.map((r) => claimsOf(r.token).sid).sort();
      expect(told).toEqual([...sids].sort());
      expect(await a.idp.ctx.storage.adapter('LogoutDelivery').list()).toEqual([]);
      expect((await a.metric('delivered')) + (await b.metric('delivered'))).toBe(6);
    } finally {
      await closeAll();
    }
  });

  it('keeps a retry over a shutdown: the next instance goes on with its attempt count', async () => {
    try {
      // A millisecond's delay: the retry is due by the time B starts.
      const { databaseUrl, a } = await setup('rp-o', 0.001);
      rp.otherwise = 'hold';
      await endSession(a, 'sid-retry');
      await rp.got(1);
      // A shuts down (as on SIGTERM) while its first try is in flight; the RP then answers 503.
      const draining = a.idp.app.backchannelLogout.close();
      rp.otherwise = 503;
      rp.release(503);
      await draining;
      await a.idp.close();
      open.splice(open.indexOf(a.idp), 1);
      const id = deliveryId('sid-retry', 'rp-o');
      const b = await instance(databaseUrl, open, 0.001);
      const left = (await b.idp.ctx.storage.adapter('LogoutDelivery').find(id)) as unknown as DeliveryRecord;
      expect(left).toMatchObject({ attempt: 2 });
      expect(left.due).toBeLessThanOrEqual(Date.now());
      expect(left.token).toBe(rp.received[0]?.token);
      // B starts, sweeps, tries #2 (503) and #3 (500): the third is the last of `attempts`.
      rp.answers.push(503, 500);
      await b.idp.app.ready();
      await rp.got(3);
      await b.idp.app.backchannelLogout.idle();
      expect(rp.received.length).toBe(3);
      expect(new Set(rp.received.map((r) => r.token)).size).toBe(1); // one token throughout
      expect(await b.metric('retry')).toBe(1);
      expect(await b.metric('failed')).toBe(1);
      const logs = b.logs();
      expect(logs.some((l) => l.msg === 'back-channel logout failed; will retry' && l.attempt === 2)).toBe(
        true,
      );
      expect(
        logs.some(
          (l) => l.msg === 'back-channel logout failed; giving up' && l.attempt === 3 && l.status === 500,
        ),
      ).toBe(true);
      expect(await b.idp.ctx.storage.adapter('LogoutDelivery').find(id)).toBeUndefined();
    } finally {
      await closeAll();
    }
  });

  it('leaves notices queued at shutdown in the outbox for the next start', async () => {
    try {
      const { databaseUrl, a } = await setup();
      rp.otherwise = 'hold';
      // Concurrency 2: two POSTs held, the third notice queued when A shuts down.
      await Promise.all(['sid-q0', 'sid-q1', 'sid-q2'].map((sid) => endSession(a, sid)));
      await rp.got(2);
      const draining = a.idp.app.backchannelLogout.close();
      rp.otherwise = 200;
      rp.release();
      await draining;
      await a.idp.close();
      open.splice(open.indexOf(a.idp), 1);
      expect(rp.received.length).toBe(2);
      const b = await instance(databaseUrl, open);
      const outbox = b.idp.ctx.storage.adapter('LogoutDelivery');
      expect((await outbox.list()).map((r) => (r.payload as unknown as DeliveryRecord).attempt)).toEqual([1]);
      await b.idp.app.ready();
      await b.idp.app.backchannelLogout.idle();
      expect(rp.received.map((r) => claimsOf(r.token).sid).sort()).toEqual(['sid-q0', 'sid-q1', 'sid-q2']);
      expect(await outbox.list()).toEqual([]);
    } finally {
      await closeAll();
    }
  });

  it('loads a bounded batch per sweep, and goes on at once through a larger backlog', async () => {
    try {
      const { a } = await setup();
      rp.otherwise = 200;
      // Five notices a dead instance left behind, none tried yet.
      const outbox = a.idp.ctx.storage.adapter('LogoutDelivery');
      const sids = Array.from({ length: 5 }, (_, i) => `sid-b${i}`);
      for (const sid of sids) {
        const record: DeliveryRecord = {
          clientId: 'rp-o',
          sub: 'u',
          sid,
          attempt: 1,
          due: Date.now(),
          created: Date.now(),
        };
        await outbox.insertIfAbsent(deliveryId(sid, 'rp-o'), record, 3600);
      }
      const queue = new BackchannelLogout(a.idp.ctx, a.idp.app.log, { sweepBatch: 2 });
      try {
        expect(await queue.sweep()).toBe(2);
        await queue.idle();
        expect(rp.received.map((r) => claimsOf(r.token).sid).sort()).toEqual(sids);
        expect(await outbox.list()).toEqual([]);
        expect(
          a.logs().filter((l) => l.msg === 'back-channel logout: resuming a delivery from the outbox'),
        ).toHaveLength(5);
      } finally {
        await queue.close();
      }
    } finally {
      await closeAll();
    }
  });

  it('re-signs a token that would arrive expired (new jti and iat), and gives up a notice older than a day', async () => {
    try {
      const { databaseUrl, a } = await setup();
      rp.otherwise = 'hold';
      await endSession(a, 'sid-old');
      await endSession(a, 'sid-ancient');
      await rp.got(2);
      // A dies; time passes: one token is past its exp, the other notice is two days old.
      const b = await instance(databaseUrl, open);
      const outbox = b.idp.ctx.storage.adapter('LogoutDelivery');
      const locks = b.idp.ctx.storage.adapter('Lock');
      const now = Date.now();
      for (const [sid, change] of [
        ['sid-old', { tokenExp: Math.floor(now / 1000) - 1 }],
        ['sid-ancient', { created: now - 2 * DELIVERY_MAX_AGE * 1000 }],
      ] as const) {
        const id = deliveryId(sid, 'rp-o');
        const r = (await outbox.find(id)) as unknown as DeliveryRecord;
        await outbox.upsert(id, { ...r, ...change }, 3600);
        await locks.upsert(leaseId(id), { owner: 'dead' }, 0);
      }
      const first = claimsOf(rp.received.find((r) => claimsOf(r.token).sid === 'sid-old')?.token as string);
      rp.otherwise = 200;
      await b.idp.app.ready();
      await b.idp.app.backchannelLogout.idle();
      // sid-old went again, with a fresh token; sid-ancient did not.
      expect(rp.received.length).toBe(3);
      const again = claimsOf(rp.received[2]?.token as string);
      expect(again.sid).toBe('sid-old');
      expect(again.jti).not.toBe(first.jti);
      expect(again.exp as number).toBeGreaterThan(Math.floor(now / 1000));
      expect(await outbox.list()).toEqual([]);
      expect(
        b.logs().some((l) => l.msg === 'back-channel logout failed; giving up' && l.reason === 'too old'),
      ).toBe(true);
    } finally {
      await closeAll();
    }
  });
});
