/**
 * OpenID Connect Back-Channel Logout 1.0: when a browser session ends here, every client that
 * got a code in it and registered a `backchannel_logout_uri` receives a logout token — a JWT
 * (`typ` logout+jwt) naming the user (`sub`) and the session (`sid`), signed like that client's
 * ID tokens, so with ML-DSA or a composite when that is what it verifies.
 *
 * Delivery never holds up the user: the sign-out page answers first, the POSTs run behind it
 * with at most `backchannelLogout.concurrency` in flight, each with a timeout, retried with
 * doubling delays on network errors, timeouts, 429 and 5xx (a 4xx other than 429 is the RP's
 * final word). Every outcome is logged and counted in /metrics. Deliveries live in this
 * instance's memory: a crash loses the ones still queued.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Client } from '../clients/clients.ts';
import type { IdpContext } from '../context.ts';
import { randomToken } from '../crypto/secrets.ts';
import { metricsFor } from '../metrics.ts';
import { takeSessionClients } from './session-clients.ts';
import { signToken } from './signing.ts';

export const BACKCHANNEL_LOGOUT_EVENT = 'http://schemas.openid.net/event/backchannel-logout';
/** Long enough for retries to reuse the token, short enough to be useless if it leaks. */
const LOGOUT_TOKEN_LIFETIME = 120;

interface Job {
  client: Client;
  sub: string;
  sid: string;
  attempt: number;
  token?: string;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The back-channel logout deliveries of this instance (tests wait for `idle()`). */
    backchannelLogout: BackchannelLogout;
  }
}

export class BackchannelLogout {
  readonly #ctx: IdpContext;
  readonly #log: FastifyBaseLogger;
  readonly #queue: Job[] = [];
  readonly #retries = new Set<NodeJS.Timeout>();
  readonly #fanOuts = new Set<Promise<void>>();
  #active = 0;
  #closed = false;
  #idle: Array<() => void> = [];

  constructor(ctx: IdpContext, log: FastifyBaseLogger) {
    this.#ctx = ctx;
    this.#log = log;
  }

  get #cfg() {
    return this.#ctx.config.backchannelLogout;
  }

  /** A session ended: tell its clients, in the background. Returns at once. */
  sessionEnded(session: { sid: string; accountId: string }): void {
    if (this.#closed) return;
    const p = this.#fanOut(session)
      .catch((err: unknown) =>
        this.#log.error({ err }, 'back-channel logout: could not read the session clients'),
      )
      .finally(() => {
        this.#fanOuts.delete(p);
        this.#checkIdle();
      });
    this.#fanOuts.add(p);
  }

  async #fanOut({ sid, accountId }: { sid: string; accountId: string }): Promise<void> {
    const taken = await takeSessionClients(this.#ctx, sid);
    for (const clientId of taken?.clients ?? []) {
      const client = await this.#ctx.clients.find(clientId);
      if (client?.backchannel_logout_uri) this.#enqueue({ client, sub: accountId, sid, attempt: 1 });
    }
  }

  #enqueue(job: Job): void {
    if (this.#closed) return;
    if (job.attempt === 1) metricsFor(this.#ctx).logoutPending.inc();
    this.#queue.push(job);
    this.#pump();
  }

  #pump(): void {
    while (this.#active < this.#cfg.concurrency && this.#queue.length > 0) {
      const job = this.#queue.shift() as Job;
      this.#active++;
      this.#deliver(job)
        .catch((err: unknown) =>
          this.#log.error({ err, clientId: job.client.client_id }, 'back-channel logout failed'),
        )
        .finally(() => {
          this.#active--;
          this.#pump();
          this.#checkIdle();
        });
    }
  }

  /** The logout token (OIDC Back-Channel Logout §2.4), signed like the client's ID tokens. */
  #sign(job: Job): Promise<string> {
    const ctx = this.#ctx;
    return signToken(
      ctx,
      'logout_token',
      job.client.id_token_signed_response_alg,
      { sid: job.sid, events: { [BACKCHANNEL_LOGOUT_EVENT]: {} }, jti: randomToken(16) },
      {
        typ: 'logout+jwt',
        issuer: ctx.config.issuer,
        subject: job.sub,
        audience: job.client.client_id,
        expiresIn: LOGOUT_TOKEN_LIFETIME,
      },
    );
  }

  async #deliver(job: Job): Promise<void> {
    const m = metricsFor(this.#ctx);
    const uri = job.client.backchannel_logout_uri as string;
    const clientId = job.client.client_id;
    job.token ??= await this.#sign(job);
    const started = performance.now();
    let status: number | undefined;
    let reason: string;
    try {
      const r = await fetch(uri, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'cache-control': 'no-store' },
        body: new URLSearchParams({ logout_token: job.token }),
        // A redirect is not a delivery; an RP that moved must register its new URI.
        redirect: 'manual',
        signal: AbortSignal.timeout(this.#cfg.timeout * 1000),
      });
      status = r.status;
      await r.body?.cancel();
      reason = `HTTP ${r.status}`;
    } catch (e) {
      reason =
        (e as Error).name === 'TimeoutError' ? `timeout after ${this.#cfg.timeout} s` : (e as Error).message;
    }
    const seconds = (performance.now() - started) / 1000;
    const fields = { clientId, attempt: job.attempt, status, seconds: Math.round(seconds * 1000) / 1000 };
    // OIDC Back-Channel Logout §2.8: 200 OK, or 204 from frameworks that answer empty bodies so.
    if (status === 200 || status === 204) {
      m.logoutDeliveries.inc({ outcome: 'delivered' });
      m.logoutDeliverySeconds.observe({ outcome: 'delivered' }, seconds);
      m.logoutPending.dec();
      this.#log.info(fields, 'back-channel logout delivered');
      return;
    }
    const retryable = status === undefined || status === 429 || status >= 500;
    if (retryable && job.attempt < this.#cfg.attempts && !this.#closed) {
      m.logoutDeliveries.inc({ outcome: 'retry' });
      m.logoutDeliverySeconds.observe({ outcome: 'retry' }, seconds);
      const delay = this.#cfg.retryDelay * 1000 * 2 ** (job.attempt - 1);
      this.#log.warn({ ...fields, reason, retryInMs: delay }, 'back-channel logout failed; will retry');
      const timer = setTimeout(() => {
        this.#retries.delete(timer);
        this.#enqueue({ ...job, attempt: job.attempt + 1 });
      }, delay);
      timer.unref();
      this.#retries.add(timer);
      return;
    }
    m.logoutDeliveries.inc({ outcome: 'failed' });
    m.logoutDeliverySeconds.observe({ outcome: 'failed' }, seconds);
    m.logoutPending.dec();
    this.#log.warn({ ...fields, reason }, 'back-channel logout failed; giving up');
  }

  /** POSTs in flight right now (never more than `backchannelLogout.concurrency`). */
  get inFlight(): number {
    return this.#active;
  }

  #busy(): boolean {
    return this.#active > 0 || this.#queue.length > 0 || this.#retries.size > 0 || this.#fanOuts.size > 0;
  }

  #checkIdle(): void {
    if (this.#busy()) return;
    for (const resolve of this.#idle.splice(0)) resolve();
  }

  /** Resolves once nothing is queued, in flight or waiting for a retry. */
  idle(): Promise<void> {
    if (!this.#busy()) return Promise.resolve();
    return new Promise((resolve) => this.#idle.push(resolve));
  }

  /** Shutdown: drop queued deliveries and pending retries (logged), let the ones in flight end. */
  async close(): Promise<void> {
    this.#closed = true;
    const dropped = this.#queue.length + this.#retries.size;
    for (const t of this.#retries) clearTimeout(t);
    this.#retries.clear();
    this.#queue.length = 0;
    if (dropped > 0) {
      metricsFor(this.#ctx).logoutPending.dec(dropped);
      this.#log.warn({ dropped }, 'back-channel logout: shutting down with deliveries not made');
    }
    this.#checkIdle();
    await Promise.allSettled([...this.#fanOuts]);
    await this.idle();
  }
}
