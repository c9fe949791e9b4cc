/**
 * OpenID Connect Back-Channel Logout 1.0: when a browser session ends here, every client that
 * got a code in it and registered a `backchannel_logout_uri` receives a logout token — a JWT
 * (`typ` logout+jwt) naming the user (`sub`) and the session (`sid`), signed like that client's
 * ID tokens, so with ML-DSA or a composite when that is what it verifies.
 *
 * Deliveries are durable: the sign-out writes one `LogoutDelivery` record per client to the
 * shared store (the outbox) before it answers, and every later state change goes through the
 * store — delivered or final: the record is removed; retry: the record is rewritten with its
 * attempt and next time. The POSTs never hold up the user: they run behind the answer with at
 * most `backchannelLogout.concurrency` in flight, each with a timeout, retried with doubling
 * delays on network errors, timeouts, 429 and 5xx (a 4xx other than 429 is the RP's final word).
 *
 * Each try is made under a lease (a `Lock` record taken with insertIfAbsent, expiring after the
 * POST timeout plus a margin), and the record is re-read under it, so instances sharing a store
 * never deliver one notice twice at once. Every instance sweeps the outbox at start and every
 * `sweepInterval` seconds for due deliveries nobody holds: what a crashed instance left (or what
 * an instance shut down with) is resumed by another one, or by itself after a restart. Delivery
 * is at least once: a crash between the RP's answer and the removal of the record sends the
 * notice again (with the same token and `jti` while that token lives). Every outcome is logged
 * and counted in /metrics.
 */
import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { type Client, trustOf } from '../../clients/clients.ts';
import { OutboundRefused } from '../../clients/outbound.ts';
import type { IdpContext } from '../../context.ts';
import { randomToken, tokenId } from '../../crypto/secrets.ts';
import { metricsFor } from '../../metrics.ts';
import type { Adapter } from '../../storage/adapter.ts';
import { signToken } from '../shared/signing.ts';
import { takeLoggedInClients } from './session-clients.ts';

export const BACKCHANNEL_LOGOUT_EVENT = 'http://schemas.openid.net/event/backchannel-logout';
/** Long enough for retries to reuse the token, short enough to be useless if it leaks. */
const LOGOUT_TOKEN_LIFETIME = 120;
/**
 * A notice not delivered within a day (every instance down, or failing, that long) is given up:
 * the RP's own sessions have most likely ended by then, and the outbox stays bounded.
 */
export const DELIVERY_MAX_AGE = 86_400;
/** The record outlives DELIVERY_MAX_AGE a little, so a sweep sees it and gives it up in the log. */
const RECORD_GRACE = 3600;
/** Lease beyond the POST timeout: signing, the store writes, and clock differences. */
const LEASE_MARGIN = 30;
/** Seconds a stored token must still live when resent: the POST's timeout plus clock skew. */
const TOKEN_SKEW = 30;
/** Records loaded per sweep (oldest first); a full batch makes the next sweep follow at once. */
export const SWEEP_BATCH = 500;
/** Timers and clocks are not exact: a try up to a second before its time is fine. */
const DUE_SLACK_MS = 1000;

/** One pending notice in the outbox (`LogoutDelivery` model), keyed by sid and client. */
export interface DeliveryRecord {
  [member: string]: unknown;
  clientId: string;
  sub: string;
  sid: string;
  /** The number of the next try (1 = not tried yet). */
  attempt: number;
  /** Epoch ms of the next try. */
  due: number;
  /** Epoch ms when the session ended. */
  created: number;
  /** The signed logout token, once signed: a retry resends it while it lives. */
  token?: string;
  /** The token's `exp` (epoch seconds). */
  tokenExp?: number;
}

/** The outbox record id: one notice per (sid, client), so writing it twice stores it once. */
export const deliveryId = (sid: string, clientId: string) => tokenId(`logout\0${sid}\0${clientId}`);
/** The lease of one delivery, in the `Lock` model. */
export const leaseId = (id: string) => `logout-delivery:${id}`;

declare module 'fastify' {
  interface FastifyInstance {
    /** The back-channel logout deliveries of this instance (tests wait for `idle()`). */
    backchannelLogout: BackchannelLogout;
  }
}

type Outcome = 'done' | 'waiting';

export class BackchannelLogout {
  readonly #ctx: IdpContext;
  readonly #log: FastifyBaseLogger;
  readonly #outbox: Adapter;
  readonly #locks: Adapter;
  /** Delivery ids waiting for a free slot. */
  readonly #queue: string[] = [];
  /** Every id this instance holds: queued, in flight, or waiting for its retry timer. */
  readonly #known = new Set<string>();
  readonly #retries = new Set<NodeJS.Timeout>();
  readonly #fanOuts = new Set<Promise<void>>();
  #sweeping: Promise<number> | undefined;
  #sweepTimer: NodeJS.Timeout | undefined;
  /** Ids queued by a sweep rather than by a sign-out here (logged when taken over). */
  readonly #swept = new Set<string>();
  /** The last sweep found a full batch: sweep again once the queue is empty, if tries were made. */
  #more = false;
  #claimed = 0;
  #active = 0;
  #closed = false;
  #idle: Array<() => void> = [];
  /** Records loaded per sweep. */
  readonly #batch: number;

  constructor(ctx: IdpContext, log: FastifyBaseLogger, { sweepBatch = SWEEP_BATCH } = {}) {
    this.#ctx = ctx;
    this.#log = log;
    this.#batch = sweepBatch;
    this.#outbox = ctx.storage.adapter('LogoutDelivery');
    this.#locks = ctx.storage.adapter('Lock');
  }

  get #cfg() {
    return this.#ctx.config.backchannelLogout;
  }

  /** Start recovering: one sweep now, then one every `sweepInterval` seconds. */
  start(): void {
    if (this.#closed || this.#sweepTimer) return;
    this.#sweepTimer = setInterval(() => void this.sweep(), this.#cfg.sweepInterval * 1000);
    this.#sweepTimer.unref();
    void this.sweep();
  }

  /**
   * A session ended: put a notice for each of its clients in the outbox. Resolves once they are
   * stored (before the sign-out answers); the POSTs run in the background. Never throws: the
   * user is signed out either way, and a failure here is logged. `clients`: the session's
   * clients when the caller has read them already (the end-session endpoint does, for
   * front-channel logout), else they are read here.
   */
  async sessionEnded(session: { sid: string; accountId: string; clients?: Client[] }): Promise<void> {
    const p = this.#fanOut(session)
      .catch((err: unknown) =>
        this.#log.error({ err }, 'back-channel logout: could not queue the deliveries of an ended session'),
      )
      .finally(() => {
        this.#fanOuts.delete(p);
        this.#checkIdle();
      });
    this.#fanOuts.add(p);
    await p;
  }

  async #fanOut({ sid, accountId, clients }: { sid: string; accountId: string; clients?: Client[] }) {
    const ids = await Promise.all(
      (clients ?? (await takeLoggedInClients(this.#ctx, sid))).map(async (client) => {
        if (!client.backchannel_logout_uri) return undefined;
        const id = deliveryId(sid, client.client_id);
        const now = Date.now();
        const record: DeliveryRecord = {
          clientId: client.client_id,
          sub: accountId,
          sid,
          attempt: 1,
          due: now,
          created: now,
        };
        // A second write of the same notice (never expected) leaves the first one alone.
        await this.#outbox.insertIfAbsent(id, record, DELIVERY_MAX_AGE + RECORD_GRACE);
        return id;
      }),
    );
    // Written even while shutting down: the next start (or another instance) delivers them.
    for (const id of ids) if (id !== undefined) this.#enqueue(id);
  }

  /**
   * Look at the oldest `sweepBatch` records of the outbox and queue those that are due and not
   * held here. Those another instance is working on are skipped when their lease is tried.
   * Returns how many were queued. Sweeps of one instance never overlap.
   */
  sweep(): Promise<number> {
    if (this.#closed) return Promise.resolve(0);
    this.#sweeping ??= this.#sweepOnce()
      .catch((err: unknown) => {
        this.#log.warn({ err }, 'back-channel logout: reading the outbox failed; will retry');
        return 0;
      })
      .finally(() => {
        this.#sweeping = undefined;
        this.#checkIdle();
      });
    return this.#sweeping;
  }

  async #sweepOnce(): Promise<number> {
    const rows = await this.#outbox.list(this.#batch);
    this.#more = rows.length === this.#batch;
    this.#claimed = 0;
    const now = Date.now();
    let queued = 0;
    for (const { id, payload } of rows) {
      if (this.#known.has(id) || (payload as DeliveryRecord).due > now) continue;
      this.#swept.add(id);
      this.#enqueue(id);
      queued++;
    }
    return queued;
  }

  #enqueue(id: string): void {
    if (this.#closed) return;
    if (!this.#known.has(id)) {
      this.#known.add(id);
      metricsFor(this.#ctx).logoutPending.inc();
    }
    this.#queue.push(id);
    this.#pump();
  }

  #forget(id: string): void {
    this.#swept.delete(id);
    if (this.#known.delete(id)) metricsFor(this.#ctx).logoutPending.dec();
  }

  #pump(): void {
    while (this.#active < this.#cfg.concurrency && this.#queue.length > 0) {
      const id = this.#queue.shift() as string;
      this.#active++;
      this.#leased(id)
        .catch((err: unknown): Outcome => {
          // The record stays in the outbox: a later sweep tries again.
          this.#log.error({ err }, 'back-channel logout failed');
          return 'done';
        })
        .then((outcome) => {
          if (outcome === 'done') this.#forget(id);
        })
        .finally(() => {
          this.#active--;
          this.#pump();
          // More than one batch is due (a backlog after an outage): go on at once, but only
          // while tries are being made, never in a loop over deliveries others hold.
          if (this.#more && this.#claimed > 0 && this.#queue.length === 0 && !this.#closed) {
            this.#more = false;
            void this.sweep();
          }
          this.#checkIdle();
        });
    }
  }

  /**
   * One try, under the delivery's lease. The record is re-read under the lease: another
   * instance may have delivered it (gone) or rescheduled it (not due) since it was queued.
   */
  async #leased(id: string): Promise<Outcome> {
    const lease = leaseId(id);
    const owner = randomUUID();
    const ttl = Math.ceil(this.#cfg.timeout) + LEASE_MARGIN;
    if (!(await this.#locks.insertIfAbsent(lease, { owner }, ttl))) return 'done'; // another instance has it
    try {
      const record = (await this.#outbox.find(id)) as DeliveryRecord | undefined;
      if (!record || record.due > Date.now() + DUE_SLACK_MS) return 'done';
      this.#claimed++;
      if (this.#swept.delete(id))
        this.#log.info(
          { clientId: record.clientId, attempt: record.attempt },
          'back-channel logout: resuming a delivery from the outbox',
        );
      return await this.#deliver(id, record);
    } finally {
      // Only our own lease: after an overrun another instance may hold it by now.
      const held = await this.#locks.find(lease).catch(() => undefined);
      if (held?.owner === owner) await this.#locks.destroy(lease).catch(() => {});
    }
  }

  /** The logout token (OIDC Back-Channel Logout §2.4), signed like the client's ID tokens. */
  async #sign(record: DeliveryRecord, alg: string): Promise<{ token: string; exp: number }> {
    const ctx = this.#ctx;
    const exp = Math.floor(Date.now() / 1000) + LOGOUT_TOKEN_LIFETIME;
    const token = await signToken(
      ctx,
      'logout_token',
      alg,
      { sid: record.sid, events: { [BACKCHANNEL_LOGOUT_EVENT]: {} }, jti: randomToken(16) },
      {
        typ: 'logout+jwt',
        issuer: ctx.config.issuer,
        subject: record.sub,
        audience: record.clientId,
        expiresIn: LOGOUT_TOKEN_LIFETIME,
      },
    );
    return { token, exp };
  }

  /** Seconds the record has left in the store (its expiry stays where it was set). */
  #keep(record: DeliveryRecord): number {
    const end = record.created + (DELIVERY_MAX_AGE + RECORD_GRACE) * 1000;
    return Math.max(1, Math.ceil((end - Date.now()) / 1000));
  }

  async #deliver(id: string, record: DeliveryRecord): Promise<Outcome> {
    const m = metricsFor(this.#ctx);
    const { clientId, attempt } = record;
    const client = await this.#ctx.clients.find(clientId);
    const uri = client?.backchannel_logout_uri;
    if (client === undefined || uri === undefined) {
      await this.#outbox.destroy(id);
      this.#log.warn(
        { clientId, attempt },
        'back-channel logout dropped: the client is gone or no longer has a backchannel_logout_uri',
      );
      return 'done';
    }
    if (Date.now() - record.created > DELIVERY_MAX_AGE * 1000) {
      await this.#outbox.destroy(id);
      m.logoutDeliveries.inc({ outcome: 'failed' });
      this.#log.warn({ clientId, attempt, reason: 'too old' }, 'back-channel logout failed; giving up');
      return 'done';
    }
    // A stored token is resent while the RP can still accept it, so an RP that got an earlier
    // try after all sees the same `jti` (§2.6 lets it drop replays). Once it would be expired on
    // arrival (§2.6: the RP validates `exp`, so it would refuse it) the notice is not given up but
    // signed afresh, with a new `jti` and `iat`: the event (this sid ended) is still true, and
    // a new `jti` keeps an RP that remembers seen ones from refusing it as a replay.
    let { token } = record;
    const nowS = Math.floor(Date.now() / 1000);
    if (token === undefined || (record.tokenExp ?? 0) - nowS < Math.ceil(this.#cfg.timeout) + TOKEN_SKEW) {
      const signed = await this.#sign(record, client.id_token_signed_response_alg);
      token = signed.token;
      record = { ...record, token, tokenExp: signed.exp };
      // Stored before it is sent: after a crash the retry resends this very token.
      await this.#outbox.upsert(id, record, this.#keep(record));
    }
    const started = performance.now();
    let status: number | undefined;
    let reason: string;
    let refused = false;
    try {
      // Through the outbound guard: a dynamically registered client's URI reaches public
      // addresses only. A redirect is not a delivery (never followed); an RP that moved must
      // register its new URI.
      const r = await this.#ctx.outbound.fetch(trustOf(client), uri, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'cache-control': 'no-store' },
        body: new URLSearchParams({ logout_token: token }),
        timeout: this.#cfg.timeout * 1000,
      });
      status = r.status;
      await r.body?.cancel();
      reason = `HTTP ${r.status}`;
    } catch (e) {
      refused = e instanceof OutboundRefused;
      reason =
        (e as Error).name === 'TimeoutError'
          ? `timeout after ${this.#cfg.timeout} s`
          : refused
            ? `refused by the outbound policy: ${(e as Error).message}`
            : (e as Error).message;
    }
    const seconds = (performance.now() - started) / 1000;
    const fields = { clientId, attempt, status, seconds: Math.round(seconds * 1000) / 1000 };
    // OIDC Back-Channel Logout §2.8: 200 OK, or 204 from frameworks that answer empty bodies so.
    if (status === 200 || status === 204) {
      await this.#outbox.destroy(id);
      m.logoutDeliveries.inc({ outcome: 'delivered' });
      m.logoutDeliverySeconds.observe({ outcome: 'delivered' }, seconds);
      this.#log.info(fields, 'back-channel logout delivered');
      return 'done';
    }
    // A refusal by the policy is final: trying again would be refused again.
    const retryable = !refused && (status === undefined || status === 429 || status >= 500);
    if (retryable && attempt < this.#cfg.attempts) {
      const delay = this.#cfg.retryDelay * 1000 * 2 ** (attempt - 1);
      await this.#outbox.upsert(
        id,
        { ...record, attempt: attempt + 1, due: Date.now() + delay },
        this.#keep(record),
      );
      m.logoutDeliveries.inc({ outcome: 'retry' });
      m.logoutDeliverySeconds.observe({ outcome: 'retry' }, seconds);
      this.#log.warn({ ...fields, reason, retryInMs: delay }, 'back-channel logout failed; will retry');
      // Shutting down: the retry stays in the outbox for the next start or another instance.
      if (this.#closed) return 'done';
      const timer = setTimeout(() => {
        this.#retries.delete(timer);
        if (this.#closed) return;
        this.#queue.push(id);
        this.#pump();
      }, delay);
      timer.unref();
      this.#retries.add(timer);
      return 'waiting';
    }
    await this.#outbox.destroy(id);
    m.logoutDeliveries.inc({ outcome: 'failed' });
    m.logoutDeliverySeconds.observe({ outcome: 'failed' }, seconds);
    this.#log.warn({ ...fields, reason }, 'back-channel logout failed; giving up');
    return 'done';
  }

  /** POSTs in flight right now (never more than `backchannelLogout.concurrency`). */
  get inFlight(): number {
    return this.#active;
  }

  #busy(): boolean {
    return (
      this.#active > 0 ||
      this.#queue.length > 0 ||
      this.#retries.size > 0 ||
      this.#fanOuts.size > 0 ||
      this.#sweeping !== undefined
    );
  }

  #checkIdle(): void {
    if (this.#busy()) return;
    for (const resolve of this.#idle.splice(0)) resolve();
  }

  /** Resolves once nothing is queued, in flight, waiting for a retry, or being swept. */
  idle(): Promise<void> {
    if (!this.#busy()) return Promise.resolve();
    return new Promise((resolve) => this.#idle.push(resolve));
  }

  /**
   * Shutdown: stop sweeping, let the tries in flight end (their outcome is recorded), and leave
   * whatever is queued or waiting for a retry in the outbox, for the next start or another
   * instance. Call before the store closes.
   */
  async close(): Promise<void> {
    this.#closed = true;
    clearInterval(this.#sweepTimer);
    for (const t of this.#retries) clearTimeout(t);
    this.#retries.clear();
    this.#queue.length = 0;
    await Promise.allSettled([...this.#fanOuts, this.#sweeping]);
    this.#checkIdle();
    await this.idle();
    const left = this.#known.size;
    for (const id of [...this.#known]) this.#forget(id);
    if (left > 0)
      this.#log.info({ left }, 'back-channel logout: shutting down; deliveries not made stay in the outbox');
  }
}
