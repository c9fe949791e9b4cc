/**
 * A small round-robin HTTP load balancer for the fault script (load/faults.mjs): what a real
 * one (HAProxy, nginx, a cloud LB) does in front of several pqid instances, reduced to what the
 * faults exercise.
 *
 * - One fresh upstream connection per request (no upstream keep-alive), so "could not connect"
 *   and "connected, then lost" are told apart without the keep-alive reuse race.
 * - Retries on the other instance only when the request cannot have been processed: the
 *   connection was refused or failed before it was established (HAProxy's `retry-on
 *   conn-failure`), or fastify answered its "closing" 503 (`Connection: close`, body
 *   `{"error":"Service Unavailable",…}`), which it sends without running the route. A
 *   connection lost after the request was sent is NOT retried (a token request is not
 *   idempotent): the client gets 502 and decides.
 * - Health checks GET /healthz every `healthIntervalMs`; an instance that refuses connections,
 *   whose health check fails to connect or times out, or whose /healthz says `draining` (503
 *   `{"status":"draining",…}`: it is stopping, and serves only until its shutdown delay ends) is
 *   taken out of rotation until a check passes. Any other /healthz 503 (`degraded`: storage
 *   down) keeps the instance in rotation: every instance shares the one database, so there is
 *   nowhere better to send the request, and the IdP's own fast 503 `temporarily_unavailable` is
 *   the right answer to pass on. A stopped instance therefore leaves the rotation within
 *   `healthIntervalMs + HEALTH_TIMEOUT_MS` of its signal (`outOfRotationMs`); with a shutdown
 *   delay longer than that, no request is sent to it after its listener closes.
 */
import http from 'node:http';

const CLOSING_BODY = '"error":"Service Unavailable"';
/** How long a health check may take before it counts as failed. */
export const HEALTH_TIMEOUT_MS = 2000;

/**
 * The longest time from an instance starting to report draining until this balancer stops
 * sending it requests: the next check is at most one interval away, and answers or times out.
 * @param {number} healthIntervalMs
 */
export const outOfRotationMs = (healthIntervalMs) => healthIntervalMs + HEALTH_TIMEOUT_MS;

/**
 * @typedef {object} Upstream
 * @property {string} name
 * @property {number} port
 * @property {boolean} healthy
 * @property {number} inflight
 * @property {number} served
 * @property {number} retriedAway
 * @property {number} failedAfterSend
 * @property {number} drainingSeen health checks that found it draining
 * @property {number} checksSent
 * @property {number} checkApplied the number of the latest check whose answer counted
 */

/** @typedef {{ requests: number, retries: number, noUpstream: number, lostInFlight: number }} Stats */

/**
 * @typedef {{ kind: 'response', res: http.IncomingMessage, body: Buffer } | { kind: 'connect-failed' } | { kind: 'lost' }} Forwarded
 */

/**
 * Round-robin over the healthy upstreams not tried yet; when all are marked down, any untried one.
 * @param {{ ups: Upstream[], rr: number }} state
 * @param {Set<Upstream>} exclude
 */
function pick(state, exclude) {
  const { ups } = state;
  for (let i = 0; i < ups.length; i++) {
    const u = ups[(state.rr + i) % ups.length];
    if (u?.healthy && !exclude.has(u)) {
      state.rr = (state.rr + i + 1) % ups.length;
      return u;
    }
  }
  return ups.find((u) => !exclude.has(u)); // all marked down: try anyway
}

/**
 * Forward once, on a fresh connection.
 * @param {Upstream} u
 * @param {http.IncomingMessage} req
 * @param {Buffer} body
 * @returns {Promise<Forwarded>}
 */
const forward = (u, req, body) =>
  new Promise((resolve) => {
    let connected = false;
    const headers = { ...req.headers, connection: 'close', 'x-forwarded-for': req.socket.remoteAddress };
    const up = http.request(
      { host: '127.0.0.1', port: u.port, method: req.method, path: req.url, headers, agent: false },
      (res) => {
        /** @type {Buffer[]} */
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () => resolve({ kind: 'response', res, body: Buffer.concat(chunks) }));
        res.on('error', () => resolve({ kind: 'lost' }));
      },
    );
    up.on('socket', (s) => s.on('connect', () => (connected = true)));
    up.on('error', () => resolve({ kind: connected ? 'lost' : 'connect-failed' }));
    up.end(body);
  });

/**
 * Fastify's "closing" 503: sent without running the route, so safe to retry elsewhere.
 * @param {Forwarded} r
 */
const isClosing = (r) =>
  r.kind === 'response' &&
  r.res.statusCode === 503 &&
  r.res.headers.connection === 'close' &&
  r.body.toString('utf8', 0, 64).includes(CLOSING_BODY);

/**
 * Pass an upstream's answer on.
 * @param {http.ServerResponse} res
 * @param {Upstream} u
 * @param {{ res: http.IncomingMessage, body: Buffer }} r
 */
function relay(res, u, r) {
  /** @type {http.OutgoingHttpHeaders} */
  const out = { ...r.res.headers, 'x-upstream': u.name };
  delete out.connection;
  delete out['transfer-encoding'];
  out['content-length'] = String(r.body.length);
  res.writeHead(r.res.statusCode ?? 502, out);
  res.end(r.body);
}

/**
 * One client request: forwarded to an upstream, retried on another only when it cannot have
 * been processed (see the module comment).
 * @param {{ ups: Upstream[], rr: number, stats: Stats }} state
 * @param {http.IncomingMessage} req
 * @param {http.ServerResponse} res
 * @param {Buffer} body
 */
async function handle(state, req, res, body) {
  const { ups, stats } = state;
  stats.requests++;
  const tried = new Set();
  while (tried.size < ups.length) {
    const u = pick(state, tried);
    if (!u) break;
    tried.add(u);
    u.inflight++;
    const r = await forward(u, req, body).finally(() => u.inflight--);
    if (r.kind === 'connect-failed' || isClosing(r)) {
      u.healthy = false; // refused, or draining
      u.retriedAway++;
      stats.retries++;
      continue;
    }
    if (r.kind === 'lost') {
      u.failedAfterSend++;
      stats.lostInFlight++;
      res.writeHead(502, { 'content-type': 'application/json', 'x-balancer': 'lost-in-flight' });
      res.end(
        '{"error":"bad_gateway","error_description":"upstream connection lost after the request was sent"}',
      );
      return;
    }
    u.served++;
    relay(res, u, r);
    return;
  }
  stats.noUpstream++;
  res.writeHead(503, { 'content-type': 'application/json', 'retry-after': '1', 'x-balancer': 'no-upstream' });
  res.end('{"error":"temporarily_unavailable","error_description":"no instance reachable"}');
}

/**
 * Whether a /healthz answer keeps the instance in rotation: any answer means the process serves
 * (see the module comment on 503), except `draining`, which means it is about to stop.
 * @param {number | undefined} status
 * @param {string} body
 */
function inRotation(status, body) {
  if (status !== 503) return true;
  try {
    return JSON.parse(body)?.status !== 'draining';
  } catch {
    return true;
  }
}

/**
 * GET /healthz and mark the instance in or out of rotation. Checks overlap when one is slow;
 * only an answer newer than the last one that counted changes the mark, so a late "ok" sent
 * before the instance started draining cannot put it back.
 * @param {Upstream} u
 * @returns {Promise<void>}
 */
const check = (u) =>
  new Promise((resolve) => {
    const n = ++u.checksSent;
    /** @param {boolean} healthy */
    const mark = (healthy) => {
      if (n > u.checkApplied) {
        u.checkApplied = n;
        u.healthy = healthy;
      }
      resolve();
    };
    const r = http.get(
      { host: '127.0.0.1', port: u.port, path: '/healthz', agent: false, timeout: HEALTH_TIMEOUT_MS },
      (res) => {
        /** @type {Buffer[]} */
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('error', () => mark(false));
        res.on('end', () => {
          const keep = inRotation(res.statusCode, Buffer.concat(chunks).toString('utf8'));
          if (!keep) u.drainingSeen++;
          mark(keep);
        });
      },
    );
    r.on('timeout', () => r.destroy(new Error('timeout')));
    r.on('error', () => mark(false));
  });

/**
 * @param {{ port?: number, upstreams: {name: string, port: number}[], healthIntervalMs?: number }} opts
 */
export async function startBalancer({ port = 0, upstreams, healthIntervalMs = 500 }) {
  /** @type {Upstream[]} */
  const ups = upstreams.map((u) => ({
    ...u,
    healthy: true,
    inflight: 0,
    served: 0,
    retriedAway: 0,
    failedAfterSend: 0,
    drainingSeen: 0,
    checksSent: 0,
    checkApplied: 0,
  }));
  const state = { ups, rr: 0, stats: { requests: 0, retries: 0, noUpstream: 0, lostInFlight: 0 } };
  const server = http.createServer((req, res) => {
    /** @type {Buffer[]} */
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => handle(state, req, res, Buffer.concat(chunks)));
  });
  server.keepAliveTimeout = 30_000;
  const timer = setInterval(() => {
    for (const u of ups) check(u);
  }, healthIntervalMs);
  timer.unref();
  await /** @type {Promise<void>} */ (
    new Promise((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', resolve);
    })
  );
  const actual = /** @type {import('node:net').AddressInfo} */ (server.address()).port;
  return {
    port: actual,
    url: `http://127.0.0.1:${actual}`,
    upstreams: ups,
    stats: state.stats,
    /**
     * Resolves when `name` has a request in flight (so a fault hits work in progress), or after maxMs.
     * @param {string} name
     */
    async busy(name, maxMs = 2000) {
      const u = ups.find((x) => x.name === name);
      const t0 = Date.now();
      while (u && u.inflight === 0 && Date.now() - t0 < maxMs) await new Promise((r) => setImmediate(r));
      return u?.inflight ?? 0;
    },
    close() {
      clearInterval(timer);
      server.closeAllConnections();
      return /** @type {Promise<void>} */ (new Promise((resolve) => server.close(() => resolve())));
    },
  };
}

/** @typedef {Awaited<ReturnType<typeof startBalancer>>} Balancer */
