/**
 * The `sigterm` case: SIGTERM instance B at 30% of the run; restart it after it exits. B reports
 * draining for its shutdown delay (cluster.mjs), the balancer takes it out of rotation, then it
 * closes its listener and drains: no request may fail.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { failures, okCount, perSecond, statusCounts } from '../analysis.mjs';
import { eventsOf } from '../runs.mjs';

/** @typedef {import('../types.d.ts').FaultOptions} FaultOptions */
/** @typedef {import('../types.d.ts').FaultCase} FaultCase */
/** @typedef {import('../types.d.ts').RunOutcome} RunOutcome */
/** @typedef {import('../types.d.ts').Action} Action */
/** @typedef {import('../types.d.ts').K6Run} K6Run */
/** @typedef {import('../instance.mjs').Instance} Instance */
/** @typedef {import('../../balancer.mjs').Balancer} Balancer */
/** @typedef {{ exit?: { code: number | null, signal: NodeJS.Signals | null, at: number }, drainMs?: number, drainingSeen?: number }} Seen */

/**
 * @param {Instance} B
 * @param {Balancer} balancer
 * @param {number} D the run's seconds
 * @param {Seen} seen how it exited, and how long draining took
 * @returns {Action[]}
 */
const sigtermActions = (B, balancer, D, seen) => [
  {
    at: D * 0.3,
    run: async (mark) => {
      const inflight = await balancer.busy('B');
      B.kill('SIGTERM');
      const t = mark('SIGTERM B', { pid: B.pid, inflight }).t;
      const up = balancer.upstreams.find((u) => u.name === 'B');
      const before = up?.drainingSeen ?? 0;
      seen.exit = await B.exited;
      seen.drainMs = seen.exit.at - t;
      seen.drainingSeen = (up?.drainingSeen ?? 0) - before;
      mark('B exited', {
        code: seen.exit.code,
        signal: seen.exit.signal,
        drainMs: seen.drainMs,
        drainingSeen: seen.drainingSeen,
      });
    },
  },
  {
    at: D * 0.6,
    run: async (mark) => {
      mark('restart B');
      const readyMs = await B.start();
      mark('B ready', { pid: B.pid, readyMs });
    },
  },
];

/**
 * @param {K6Run} run
 * @param {Instance} B
 * @param {Balancer} balancer
 * @param {number} D the run's seconds
 * @param {FaultOptions} opts
 * @returns {Promise<FaultCase>}
 */
export async function sigtermCase(run, B, balancer, D, opts) {
  const pid0 = B.pid;
  /** @type {Seen} */
  const seen = {};
  const r = await run('sigterm', {
    rate: opts.rate,
    duration: D,
    vus: opts.vus,
    actions: sigtermActions(B, balancer, D, seen),
  });
  const { exit, drainMs } = seen;
  const fails = failures(r.rows);
  const log = readFileSync(join(B.logDir, 'idp-B.log'), 'utf8');
  const problems = [...r.grants.problems];
  if (fails.length) problems.push(`${fails.length} failed requests: ${JSON.stringify(statusCounts(fails))}`);
  if (exit?.code !== 0) problems.push(`exit ${exit?.code} signal ${exit?.signal}`);
  if (!log.includes('shutdown delay over')) problems.push('no shutdown delay line in the log');
  if (!log.includes('draining in-flight requests')) problems.push('no drain line in the log');
  if (!seen.drainingSeen) problems.push('the balancer never saw /healthz say draining');
  const inflight = r.events.find((e) => e.what === 'SIGTERM B')?.inflight;
  return {
    case: 'sigterm',
    fault: 'one instance SIGTERMed mid-load (k6), restarted after it exited',
    expected:
      'its /healthz says draining and the balancer takes it out of rotation while it still serves; then it drains in-flight requests and exits 0; zero failed requests',
    requests: r.rows.length,
    okRequests: okCount(r.rows),
    failures: fails.length,
    failureKinds: statusCounts(fails),
    exitCode: exit?.code,
    exitSignal: exit?.signal,
    drainMs,
    pid: pid0,
    grants: r.grants,
    events: eventsOf(r),
    perSecond: perSecond(r.rows, r.start, r.end),
    problems,
    pass: problems.length === 0,
    inflightAtSignal: inflight,
    observed: `SIGTERM at ${opts.rate} req/s with ${inflight} requests in flight on it: /healthz draining seen by ${seen.drainingSeen ?? 0} balancer checks; exit code ${exit?.code} after ${drainMs} ms (shutdown delay included), ${fails.length} failed of ${r.rows.length} requests; grants: ${r.grants.problems.length} problems`,
  };
}
