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
 * - Health checks GET /healthz every `healthIntervalMs`; an instance that refuses connections
 *   or whose health check fails to connect is taken out of rotation until a check passes. A
 *   /healthz 503 (storage down) keeps the instance in rotation: every instance shares the one
 *   database, so there is nowhere better to send the request, and the IdP's own fast 503
 *   `temporarily_unavailable` is the right answer to pass on.
 */
import http from 'node:http';

const CLOSING_BODY = '"error":"Service Unavailable"';

/**
 * @param {{ port?: number, upstreams: {name: string, port: number}[], healthIntervalMs?: number }} opts
 */
export async function startBalancer({ port = 0, upstreams, healthIntervalMs = 500 }) {
  const ups = upstreams.map((u) => ({
    ...u,
    healthy: true,
    inflight: 0,
    served: 0,
    retriedAway: 0,
    failedAfterSend: 0,
  }));
  const stats = { requests: 0, retries: 0, noUpstream: 0, lostInFlight: 0 };
  let rr = 0;

  const pick = (exclude) => {
    for (let i = 0; i < ups.length; i++) {
      const u = ups[(rr + i) % ups.length];
      if (u.healthy && !exclude.has(u)) {
        rr = (rr + i + 1) % ups.length;
        return u;
      }
    }
    return ups.find((u) => !exclude.has(u)); // all marked down: try anyway
  };

  /** Forward once; resolves {kind: 'response', res, body} | {kind: 'connect-failed'} | {kind: 'lost'}. */
  const forward = (u, req, body) =>
    new Promise((resolve) => {
      let connected = false;
      const headers = { ...req.headers, connection: 'close', 'x-forwarded-for': req.socket.remoteAddress };
      const up = http.request(
        { host: '127.0.0.1', port: u.port, method: req.method, path: req.url, headers, agent: false },
        (res) => {
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

  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', async () => {
      stats.requests++;
      const body = Buffer.concat(chunks);
      const tried = new Set();
      while (tried.size < ups.length) {
        const u = pick(tried);
        if (!u) break;
        tried.add(u);
        u.inflight++;
        const r = await forward(u, req, body).finally(() => u.inflight--);
        if (r.kind === 'connect-failed') {
          u.healthy = false;
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
        if (
          r.res.statusCode === 503 &&
          r.res.headers.connection === 'close' &&
          r.body.toString('utf8', 0, 64).includes(CLOSING_BODY)
        ) {
          u.healthy = false; // draining
          u.retriedAway++;
          stats.retries++;
          continue;
        }
        u.served++;
        const out = { ...r.res.headers, 'x-upstream': u.name };
        delete out.connection;
        delete out['transfer-encoding'];
        out['content-length'] = String(r.body.length);
        res.writeHead(r.res.statusCode ?? 502, out);
        res.end(r.body);
        return;
      }
      stats.noUpstream++;
      res.writeHead(503, {
        'content-type': 'application/json',
        'retry-after': '1',
        'x-balancer': 'no-upstream',
      });
      res.end('{"error":"temporarily_unavailable","error_description":"no instance reachable"}');
    });
  });
  server.keepAliveTimeout = 30_000;

  const check = (u) =>
    new Promise((resolve) => {
      const r = http.get(
        { host: '127.0.0.1', port: u.port, path: '/healthz', agent: false, timeout: 2000 },
        (res) => {
          res.resume();
          // Any HTTP answer means the process serves; see the header comment on 503.
          u.healthy = true;
          resolve();
        },
      );
      r.on('timeout', () => r.destroy(new Error('timeout')));
      r.on('error', () => {
        u.healthy = false;
        resolve();
      });
    });
  const timer = setInterval(() => {
    for (const u of ups) check(u);
  }, healthIntervalMs);
  timer.unref();

  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', resolve);
  });
  const actual = server.address().port;
  return {
    port: actual,
    url: `http://127.0.0.1:${actual}`,
    upstreams: ups,
    stats,
    /** Resolves when `name` has a request in flight (so a fault hits work in progress), or after maxMs. */
    async busy(name, maxMs = 2000) {
      const u = ups.find((x) => x.name === name);
      const t0 = Date.now();
      while (u && u.inflight === 0 && Date.now() - t0 < maxMs) await new Promise((r) => setImmediate(r));
      return u?.inflight ?? 0;
    },
    close() {
      clearInterval(timer);
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
