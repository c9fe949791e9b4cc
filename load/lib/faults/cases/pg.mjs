/** The `pg` case: stop PostgreSQL at 30% of the run, keep it down a few seconds, start it again. */
import { failures, okCount, perSecond, quantile, statusCounts } from '../analysis.mjs';
import { pgCtl } from '../postgres.mjs';
import { eventsOf } from '../runs.mjs';

/** @typedef {import('../types.d.ts').FaultOptions} FaultOptions */
/** @typedef {import('../types.d.ts').FaultCase} FaultCase */
/** @typedef {import('../types.d.ts').RunOutcome} RunOutcome */
/** @typedef {import('../types.d.ts').Action} Action */
/** @typedef {import('../types.d.ts').Line} Line */
/** @typedef {import('../types.d.ts').K6Run} K6Run */
/** @typedef {import('../instance.mjs').Instance} Instance */
/** @typedef {{ instance: string, status: number, error?: string, retryAfter?: string | null, ms: number }} Probe */

/** @param {number | undefined} n @param {number} [d] */
const f = (n, d = 1) => (n !== undefined && Number.isFinite(n) ? n.toFixed(d) : '–');

/**
 * A token request straight to each instance while the database is down: how long to an answer.
 * @param {Instance[]} instances
 * @returns {Promise<Probe[]>}
 */
async function probe(instances) {
  const probes = [];
  for (const inst of instances) {
    const t0 = Date.now();
    try {
      const res = await fetch(`http://127.0.0.1:${inst.port}/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'grant_type=refresh_token&client_id=faults-rp&refresh_token=probe',
        signal: AbortSignal.timeout(30_000),
      });
      const body = /** @type {{ error?: string }} */ (await res.json().catch(() => ({})));
      probes.push({
        instance: inst.name,
        status: res.status,
        error: body.error,
        retryAfter: res.headers.get('retry-after'),
        ms: Date.now() - t0,
      });
    } catch (e) {
      probes.push({ instance: inst.name, status: 0, error: String(e), ms: Date.now() - t0 });
    }
  }
  return probes;
}

/**
 * @param {number} pgPort
 * @param {Instance[]} instances
 * @param {number} D the run's seconds
 * @param {number} outage seconds
 * @param {Probe[]} probes filled during the outage
 * @returns {Action[]}
 */
const pgActions = (pgPort, instances, D, outage, probes) => [
  {
    at: D * 0.3,
    run: async (mark) => {
      mark('pg stop');
      pgCtl(pgPort, 'stop');
      mark('pg down');
      probes.push(...(await probe(instances)));
    },
  },
  {
    at: D * 0.3 + outage,
    run: async (mark) => {
      mark('pg start');
      pgCtl(pgPort, 'start');
      mark('pg up');
    },
  },
];

/**
 * The run's requests around the outage: what failed during it and how, and what came after.
 * @param {RunOutcome} r
 * @param {number} tStop
 * @param {number} tUp
 */
function aroundOutage(r, tStop, tUp) {
  const fails = failures(r.rows);
  const failedDuring = r.rows.filter((x) => x.t + x.wall >= tStop && x.t <= tUp && x.status !== 200);
  /** @param {Line} x */
  const is503 = (x) => x.status === 503 && x.error === 'temporarily_unavailable';
  // A 503 means "not done"; the rotation of a refresh token is two statements (consume, then
  // write the new token), so a 503 between them leaves the token consumed: the client's retry
  // is then a reuse and revokes the grant. Counted, and checked to follow a 503 on that token.
  const uncertain = new Set(fails.filter((x) => x.status >= 500 || x.status === 0).map((x) => x.old));
  const revokedAfter503 = fails.filter(
    (x) => x.status === 400 && x.error === 'invalid_grant' && uncertain.has(x.old),
  );
  return {
    fails,
    nonConforming: failedDuring.filter(
      (x) => !is503(x) && !(x.status === 400 && x.error === 'invalid_grant'),
    ),
    walls: failedDuring
      .filter(is503)
      .map((x) => x.wall)
      .sort((a, b) => a - b),
    firstOkAfter: r.rows.find((x) => x.t >= tUp && x.status === 200),
    lastFail: [...fails].reverse().find((x) => x.t >= tUp),
    failsBefore: fails.filter((x) => x.t + x.wall < tStop),
    failsAfter: fails.filter((x) => x.t > tUp + 2000 && !revokedAfter503.includes(x)),
    revokedAfter503,
  };
}

/**
 * @param {RunOutcome} r
 * @param {Probe[]} probes
 * @param {{ pids: (number | undefined)[], instances: Instance[], outage: number }} context
 * @param {FaultOptions} opts
 * @returns {FaultCase}
 */
function verdict(r, probes, { pids, instances, outage }, opts) {
  const ev = (/** @type {string} */ w) => r.events.find((e) => e.what === w)?.t ?? Number.NaN;
  const tStop = ev('pg stop');
  const tUp = ev('pg up');
  const o = aroundOutage(r, tStop, tUp);
  const problems = [...r.grants.problems];
  if (o.failsBefore.length) problems.push(`${o.failsBefore.length} failures before the outage`);
  if (o.nonConforming.length)
    problems.push(
      `failures during the outage that are not 503 temporarily_unavailable: ${JSON.stringify(statusCounts(o.nonConforming))}`,
    );
  const maxWall = o.walls.length ? (o.walls[o.walls.length - 1] ?? Number.NaN) : Number.NaN;
  if (!(maxWall <= 3000)) problems.push(`slowest 503 took ${maxWall} ms (limit 3000)`);
  if (probes.some((p) => p.status !== 503 || p.error !== 'temporarily_unavailable' || p.retryAfter === null))
    problems.push(`direct probes: ${JSON.stringify(probes)}`);
  if (!o.firstOkAfter) problems.push('no successful request after PostgreSQL came back');
  if (o.failsAfter.length)
    problems.push(
      `${o.failsAfter.length} failures more than 2 s after PostgreSQL was back: ${JSON.stringify(statusCounts(o.failsAfter))}`,
    );
  if (instances.some((i, k) => i.pid !== pids[k] || !i.alive()))
    problems.push('an instance restarted or died');
  const recoverMs = o.firstOkAfter ? o.firstOkAfter.t + o.firstOkAfter.wall - tUp : Number.NaN;
  const p50 = quantile(o.walls, 0.5);
  return {
    case: 'pg',
    fault: `PostgreSQL stopped under load (${outage} s outage, fast shutdown) and started again`,
    expected:
      'fast 503 + OAuth error body during the outage (≤ 3 s, never a hang), recovery without restarting the IdP',
    requests: r.rows.length,
    okRequests: okCount(r.rows),
    failures: o.fails.length,
    failureKinds: statusCounts(o.fails),
    outageSeconds: (tUp - tStop) / 1000,
    failed503: o.walls.length,
    timeToFailMs: { p50, p99: quantile(o.walls, 0.99), max: maxWall },
    directProbes: probes,
    recoveryMs: recoverMs,
    lastFailureAfterUpMs: o.lastFail ? o.lastFail.t - tUp : null,
    chainsRevokedAfter503: o.revokedAfter503.length,
    idpRestarted: false,
    grants: r.grants,
    events: eventsOf(r),
    perSecond: perSecond(r.rows, r.start, r.end),
    problems,
    pass: problems.length === 0,
    observed: `${f((tUp - tStop) / 1000)} s outage at ${opts.rate} req/s: ${o.walls.length} requests answered 503 temporarily_unavailable, time-to-fail p50 ${f(p50, 0)} ms / max ${f(maxWall, 0)} ms (direct probes ${probes.map((p) => `${p.status} in ${p.ms} ms`).join(', ')}), ${o.nonConforming.length} other failures; first 200 ${f(recoverMs, 0)} ms after PostgreSQL was up, same IdP processes; ${o.revokedAfter503.length} grants revoked by the retry of a rotation cut by the outage; grants: ${r.grants.problems.length} problems (max probe ${Math.max(...probes.map((p) => p.ms))} ms)`,
  };
}

/**
 * @param {K6Run} run
 * @param {number} pgPort
 * @param {Instance[]} instances
 * @param {number} D the run's seconds
 * @param {FaultOptions} opts
 */
export async function pgCase(run, pgPort, instances, D, opts) {
  const outage = opts.long ? 10 : 3;
  const pids = instances.map((i) => i.pid);
  /** @type {Probe[]} */
  const probes = [];
  const actions = pgActions(pgPort, instances, D, outage, probes);
  const r = await run('pg', { rate: opts.rate, duration: D, vus: opts.vus, actions });
  return verdict(r, probes, { pids, instances, outage }, opts);
}
