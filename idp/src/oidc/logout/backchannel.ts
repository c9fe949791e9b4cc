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
import type { FastifyBaseLogger } from 'fastify';
import type { Client } from '../../clients/clients.ts';
import type { EndedSession, IdpContext } from '../../context.ts';
import { metricsFor } from '../../metrics.ts';
import type { Adapter } from '../../storage/adapter.ts';
import { LockTimeout, withLock } from '../../storage/lock.ts';
import type { Model } from '../../storage/model.ts';
import { signLogoutToken } from './logout-token.ts';
import { DELIVERY_MAX_AGE, type DeliveryRecord, keepFor, leaseId, outbox, queueNotices } from './outbox.ts';
import { type Attempt, postLogoutToken } from './post.ts';

/** Lease beyond the POST timeout: signing, the store writes, and clock differences. */
const LEASE_MARGIN = 30;
/** Seconds a stored token must still live when resent: the POST's timeout plus clock skew. */
const TOKEN_SKEW = 30;
/** Records loaded per sweep (oldest first); a full batch makes the next sweep follow at once. */
export const SWEEP_BATCH = 500;
/** Timers and clocks are not exact: a try up to a second before its time is fine. */
const DUE_SLACK_MS = 1000;

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
  readonly #outbox: Model<DeliveryRecord>;
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
    this.#outbox = outbox(ctx);
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

  /**
   * Sessions ended without a sign-out (a passkey removed, a password changed): their clients'
   * notices, as for `sessionEnded`.
   */
  async sessionsEnded(sessions: readonly EndedSession[]): Promise<void> {
    for (const session of sessions) await this.sessionEnded(session);
  }

  async #fanOut(session: { sid: string; accountId: string; clients?: Client[] }) {
    const ids = await queueNotices(this.#ctx, session);
    // Written even while shutting down: the next start (or another instance) delivers them.
    for (const id of ids) this.#enqueue(id);
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
      if (this.#known.has(id) || payload.due > now) continue;
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
   * One try, under the delivery's lease (tried once: another instance holding it is working on
   * it). The record is re-read under the lease: another instance may have delivered it (gone) or
   * rescheduled it (not due) since it was queued.
   */
  async #leased(id: string): Promise<Outcome> {
    const ttl = Math.ceil(this.#cfg.timeout) + LEASE_MARGIN;
    try {
      return await withLock(this.#locks, leaseId(id), () => this.#tryDue(id), { ttl, wait: 0 });
    } catch (e) {
      if (e instanceof LockTimeout) return 'done'; // another instance has it
      throw e;
    }
  }

  async #tryDue(id: string): Promise<Outcome> {
    const record = await this.#outbox.find(id);
    if (!record || record.due > Date.now() + DUE_SLACK_MS) return 'done';
    this.#claimed++;
    if (this.#swept.delete(id))
      this.#log.info(
        { clientId: record.clientId, attempt: record.attempt },
        'back-channel logout: resuming a delivery from the outbox',
      );
    return this.#deliver(id, record);
  }

  /**
   * The token to send. A stored one is resent while the RP can still accept it, so an RP that got
   * an earlier try after all sees the same `jti` (§2.6 lets it drop replays). Once it would be
   * expired on arrival (§2.6: the RP validates `exp`, so it would refuse it) the notice is not
   * given up but signed afresh, with a new `jti` and `iat`: the event (this sid ended) is still
   * true, and a new `jti` keeps an RP that remembers seen ones from refusing it as a replay.
   */
  async #withToken(
    id: string,
    record: DeliveryRecord,
    client: Client,
  ): Promise<DeliveryRecord & { token: string }> {
    const { token } = record;
    const nowS = Math.floor(Date.now() / 1000);
    if (token !== undefined && (record.tokenExp ?? 0) - nowS >= Math.ceil(this.#cfg.timeout) + TOKEN_SKEW)
      return { ...record, token };
    const signed = await signLogoutToken(this.#ctx, record, client.id_token_signed_response_alg);
    const fresh = { ...record, token: signed.token, tokenExp: signed.exp };
    // Stored before it is sent: after a crash the retry resends this very token.
    await this.#outbox.upsert(id, fresh, keepFor(fresh));
    return fresh;
  }

  /** The client is gone, or no longer has a back-channel URI: nothing to deliver to. */
  async #drop(id: string, { clientId, attempt }: DeliveryRecord): Promise<Outcome> {
    await this.#outbox.destroy(id);
    this.#log.warn(
      { clientId, attempt },
      'back-channel logout dropped: the client is gone or no longer has a backchannel_logout_uri',
    );
    return 'done';
  }

  /** Past DELIVERY_MAX_AGE: given up without a try. */
  async #tooOld(id: string, { clientId, attempt }: DeliveryRecord): Promise<Outcome> {
    await this.#outbox.destroy(id);
    metricsFor(this.#ctx).logoutDeliveries.inc({ outcome: 'failed' });
    this.#log.warn({ clientId, attempt, reason: 'too old' }, 'back-channel logout failed; giving up');
    return 'done';
  }

  async #deliver(id: string, stored: DeliveryRecord): Promise<Outcome> {
    if (Date.now() - stored.created > DELIVERY_MAX_AGE * 1000) return this.#tooOld(id, stored);
    // The registration the notice was queued for: not a client registered since under its id.
    const client = await this.#ctx.clients.holderOf(stored.clientId, Math.floor(stored.created / 1000));
    const uri = client?.backchannel_logout_uri;
    if (client === undefined || uri === undefined) return this.#drop(id, stored);
    const record = await this.#withToken(id, stored, client);
    return this.#settle(id, record, await postLogoutToken(this.#ctx, client, uri, record.token));
  }

  /** Record what the try came to: delivered, to be retried, or given up. */
  async #settle(
    id: string,
    record: DeliveryRecord,
    { status, reason, refused, seconds }: Attempt,
  ): Promise<Outcome> {
    const m = metricsFor(this.#ctx);
    const { clientId, attempt } = record;
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
        keepFor(record),
      );
      m.logoutDeliveries.inc({ outcome: 'retry' });
      m.logoutDeliverySeconds.observe({ outcome: 'retry' }, seconds);
      this.#log.warn({ ...fields, reason, retryInMs: delay }, 'back-channel logout failed; will retry');
      return this.#retryLater(id, delay);
    }
    await this.#outbox.destroy(id);
    m.logoutDeliveries.inc({ outcome: 'failed' });
    m.logoutDeliverySeconds.observe({ outcome: 'failed' }, seconds);
    this.#log.warn({ ...fields, reason }, 'back-channel logout failed; giving up');
    return 'done';
  }

  /** Queue the delivery again after `delay` ms; shutting down, it stays in the outbox instead. */
  #retryLater(id: string, delay: number): Outcome {
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
