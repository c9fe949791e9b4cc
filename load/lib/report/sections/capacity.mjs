/**
 * "Throughput and capacity": one row per (target, grant, algorithm) with its capacity model,
 * the targets, the token taken apart, and the throughput, p99, retained-capacity and cost plots.
 */
import { LARGE_SPREAD } from '../../spread.mjs';
import { kindOf } from '../../variants.mjs';
import { decompositionSection } from '../decomposition.mjs';
import { f } from '../format.mjs';
import { barChart } from '../plots.mjs';
import { targetsSection } from '../targets.mjs';

/** @typedef {import('../../types.d.ts').Results} Results */
/** @typedef {import('../../types.d.ts').Derived} Derived */
/** @typedef {import('../../types.d.ts').Section} Section */
/** @typedef {import('../../types.d.ts').CapacityRow} CapacityRow */
/** @typedef {import('../../types.d.ts').Chart} Chart */

/**
 * Server CPU per token of each phase: the two estimates behind the pooled figure, marked when they
 * disagree by more than LARGE_SPREAD of it, or when only one phase ran.
 * @param {CapacityRow} r
 */
export function phaseSpread(r) {
  const by = Object.values(r.cpuMsPerTokenByPhase ?? {}).filter(Number.isFinite);
  if (by.length < 2) return `${by.map((x) => f(x, 3)).join('')} (**1 phase: no spread**)`;
  const rel = (Math.max(...by) - Math.min(...by)) / r.cpuMsPerToken;
  const text = by.map((x) => f(x, 3)).join(' / ');
  return rel > LARGE_SPREAD ? `${text} **⚠ ${Math.round(rel * 100)}%**` : text;
}

/** @param {CapacityRow} r */
const tableRow = (r) =>
  `| ${r.target} | ${r.grant} | ${r.alg} | ${r.jwt ? 'yes' : 'no'} | ${f(r.peakTokensPerSecond)} | ${f(r.throughputRatio, 2)} | ${f(r.p50)} / ${f(r.p95)} / ${f(r.p99)} / ${f(r.max)} | ${f(r.p99Ratio, 2)} | ${f(r.errorRate * 100, 2)}% | ${f(r.cpuMsPerToken, 3)} | ${phaseSpread(r)} | ${f(r.tokensPerCoreSecond, 0)} | ${f(r.retained, 3)} | ${f(r.infraMultiplier, 2)} | ${f(r.costPerMillion, 4)} |`;

/**
 * @param {CapacityRow[]} capacity
 * @returns {string[]}
 */
function capacityTable(capacity) {
  return [
    '## Throughput and capacity',
    '',
    `\`saturate\`: ramping arrival rate up to a ceiling the VUs cannot reach (achieved rate = peak). \`steady\`: constant arrival rate at 70% of that peak (latency below saturation). Capacity model from server CPU time over both phases: tokens per core-second → retained capacity vs ES256 (same target and grant) → infrastructure multiplier (1/retained) → cost per million tokens. The CPU per token of each phase is shown beside the pooled figure; ⚠ marks a row whose two estimates differ by more than ${Math.round(LARGE_SPREAD * 100)}% of it (something else ran: read that row with care).`,
    '',
    '| target | grant | alg | JWT AT | peak tok/s | vs ES256 | p50 / p95 / p99 / max @70% (ms) | p99 vs ES256 | errors | server CPU ms/token | saturate / steady | tokens/core-s | retained | infra × | $/M tokens |',
    '|---|---|---|---|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...capacity.map(tableRow),
    '',
  ];
}

/**
 * The four capacity plots. Throughput and p99 hold every row; retained capacity and cost only
 * whole token endpoints (a harness part is not a provider: no capacity or cost of its own).
 * @param {CapacityRow[]} capacity
 * @param {Results} results
 * @returns {Chart[]}
 */
function capacityCharts(capacity, results) {
  const order = [...results.meta.algs];
  // Encrypted-ID-token rows have no ES256 of their own: the encryption section compares them.
  const tokenRows = capacity.filter((r) => !['part', 'encrypted'].includes(kindOf(r.target)));
  /** @param {CapacityRow[]} rows @param {(r: CapacityRow) => number | undefined} value */
  const series = (rows, value) =>
    rows.map((r) => ({ alg: r.alg, series: `${r.target} ${r.grant}`, value: value(r) }));
  return [
    {
      name: 'throughput',
      caption:
        'Peak tokens per second (saturate phase), per algorithm and grant; node-oidc-provider for comparison.',
      spec: barChart(
        series(capacity, (r) => r.peakTokensPerSecond),
        { title: 'Peak token rate', y: 'value', yTitle: 'tokens/s', color: 'series', sort: order },
      ),
    },
    {
      name: 'p99',
      caption: "p99 latency at 70% of each algorithm's own peak (steady phase).",
      spec: barChart(
        series(capacity, (r) => r.p99),
        { title: 'p99 latency at 70% load', y: 'value', yTitle: 'ms', color: 'series', sort: order },
      ),
    },
    {
      name: 'retained',
      caption: 'Retained capacity vs ES256 (tokens per server core-second), with the 67% target.',
      spec: barChart(
        series(tokenRows, (r) => r.retained),
        {
          title: 'Retained capacity vs ES256',
          y: 'value',
          yTitle: 'fraction of ES256',
          color: 'series',
          sort: order,
          rule: [{ bytes: 0.67, label: '67% target' }],
          // Linear: the 67% line is the point. A slow signer's collapse (SLH-DSA rows near 0) has
          // its own log-scale plot in the placement study.
          scale: 'linear',
        },
      ),
    },
    {
      name: 'cost',
      caption: `Cost per million tokens at ${results.meta.pricePerVcpuHour} $/vCPU-hour, from measured server CPU time.`,
      spec: barChart(
        series(tokenRows, (r) => r.costPerMillion),
        {
          title: 'Cost per million tokens',
          y: 'value',
          yTitle: '$ per million',
          color: 'series',
          sort: order,
        },
      ),
    },
  ];
}

/**
 * @param {Results} results
 * @param {Derived} derived
 * @returns {Section}
 */
export function capacitySection(results, { capacity, decomposition }) {
  if (!capacity.length) return { md: [], charts: [] };
  const md = [
    ...capacityTable(capacity),
    ...targetsSection(capacity),
    ...decompositionSection(decomposition),
  ];
  const cost = capacity.find(
    (r) => r.target === 'pqid' && r.grant === 'client_credentials' && r.alg === 'ES256',
  );
  if (cost && cost.cpuMsPerToken > 3)
    md.push(
      `Note: client_credentials costs ${f(cost.cpuMsPerToken, 1)} ms of server CPU per token even for ES256 — the client secret is verified with scrypt (N=2^14) on every request, which dwarfs any signature. The refresh_token rows (public client, no secret) isolate signing.`,
      '',
    );
  return { md, charts: capacityCharts(capacity, results) };
}
