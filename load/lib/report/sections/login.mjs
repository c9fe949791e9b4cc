/** "Login": the authorization-code flow through the login form, per algorithm. */
import { f } from '../format.mjs';
import { barChart } from '../plots.mjs';

/** @typedef {import('../../types.d.ts').Results} Results */
/** @typedef {import('../../types.d.ts').Section} Section */

/**
 * @param {Results} results
 * @returns {Section}
 */
export function loginSection(results) {
  const l = results.login;
  if (!l) return { md: [], charts: [] };
  const md = [
    '## Login (authorization code flow through the login form)',
    '',
    `${l.flows} flows at ${l.rate}/s for ${l.duration} s, algorithms round-robin (same conditions for each); errors ${f(l.errorRate * 100, 2)}%; server CPU ${f((l.serverCpuSeconds / Math.max(l.flows, 1)) * 1000, 1)} ms per flow (dominated by the scrypt password hash).`,
    '',
    '| alg | flows | flow p50 / p95 / p99 (ms) | code exchange p50 / p99 (ms) | errors |',
    '|---|---:|---|---|---:|',
    ...l.perAlg.map(
      (r) =>
        `| ${r.alg} | ${r.flows} | ${f(r.flowP50)} / ${f(r.flowP95)} / ${f(r.flowP99)} | ${f(r.exchangeP50)} / ${f(r.exchangeP99)} | ${f(r.errorRate * 100, 1)}% |`,
    ),
    '',
  ];
  // The whole flow (tens of ms, mostly the password hash) and the code exchange (a few ms) differ
  // by more than an order of magnitude: `auto` draws them on a log axis then.
  const chart = {
    name: 'login',
    caption: 'Login flow p50 and code-exchange p50 per algorithm.',
    spec: barChart(
      l.perAlg.flatMap((r) => [
        { alg: r.alg, series: 'whole flow p50', value: r.flowP50 },
        { alg: r.alg, series: 'code exchange p50', value: r.exchangeP50 },
      ]),
      { title: 'Login latency', y: 'value', yTitle: 'ms', color: 'series', sort: results.meta.algs },
    ),
  };
  return { md, charts: [chart] };
}
