/**
 * The soak: measure capacity (a short ramp, or --capacity), then --minutes at --load of it,
 * sampling each instance's RSS and k6's p99 per 30 s window.
 */
import os from 'node:os';
import { failures, perSecond, quantile, statusCounts } from '../analysis.mjs';

/** @typedef {import('../types.d.ts').FaultOptions} FaultOptions */
/** @typedef {import('../types.d.ts').FaultCase} FaultCase */
/** @typedef {import('../types.d.ts').RunOutcome} RunOutcome */
/** @typedef {import('../types.d.ts').RssSample} RssSample */
/** @typedef {import('../types.d.ts').K6Run} K6Run */
/** @typedef {import('../instance.mjs').Instance} Instance */

/** Window length for p99 and RSS, ms. */
const W = 30_000;

/** @param {number | undefined} n @param {number} [d] */
const f = (n, d = 1) => (n !== undefined && Number.isFinite(n) ? n.toFixed(d) : '–');

/** @param {number[]} a */
const med = (a) =>
  quantile(
    [...a].sort((x, y) => x - y),
    0.5,
  );

/**
 * Capacity: the best 10 consecutive seconds of a 30 s ramp (after its first 30%).
 * @param {K6Run} run
 * @param {(line: string) => void} log
 */
async function measureCapacity(run, log) {
  const duration = 30;
  const r = await run('capacity', { phase: 'saturate', ceiling: 3000, duration, vus: 64 });
  const sec = perSecond(r.rows, r.start, r.end);
  const oks = sec.map((s) => s.ok);
  let best = 0;
  for (let i = Math.round(duration * 0.3); i + 10 <= oks.length; i++)
    best = Math.max(best, oks.slice(i, i + 10).reduce((a, b) => a + b, 0) / 10);
  log(`capacity: ${f(best)} token requests/s across two instances (best 10 s of a ${duration} s ramp)`);
  return {
    capacity: best,
    ramp: { duration, perSecond: sec, failures: failures(r.rows).length, grants: r.grants.problems },
  };
}

/**
 * Requests, errors, latency and mean RSS per 30 s window of the soak run.
 * @param {RunOutcome} r
 * @param {RssSample[]} rss the samples of this run
 */
function windowsOf(r, rss) {
  const windows = [];
  for (let w = r.start; w < r.end - 5000; w += W) {
    const rows = r.rows.filter((x) => x.t >= w && x.t < w + W);
    const ms = rows
      .filter((x) => x.status === 200)
      .map((x) => x.ms)
      .sort((a, b) => a - b);
    const rs = rss.filter((s) => s.t >= w && s.t < w + W);
    /** @param {string} name */
    const rssOf = (name) => {
      const v = rs.filter((s) => s.instance === name).map((s) => s.rssMiB);
      return v.length ? v.reduce((a, b) => a + b, 0) / v.length : Number.NaN;
    };
    windows.push({
      minute: (w - r.start) / 60_000,
      requests: rows.length,
      rate: rows.length / (W / 1000),
      errors: rows.filter((x) => x.status !== 200).length,
      p50: quantile(ms, 0.5),
      p99: quantile(ms, 0.99),
      max: ms[ms.length - 1],
      rssA: rssOf('A'),
      rssB: rssOf('B'),
    });
  }
  return windows;
}

/**
 * Early against late windows: p99 and each instance's RSS (the first window, JIT warm-up, skipped).
 * @param {ReturnType<typeof windowsOf>} windows
 */
function drift(windows) {
  const full = windows.filter((w) => w.requests > 0);
  const third = Math.max(1, Math.floor(full.length / 3));
  const early = full.slice(1, 1 + third);
  const late = full.slice(-third);
  const rssGrowth = /** @type {const} */ (['A', 'B']).map((n) => {
    const e = med(early.map((w) => w[`rss${n}`]));
    const l = med(late.map((w) => w[`rss${n}`]));
    return { instance: n, earlyMiB: e, lateMiB: l, growthMiB: l - e, growthPct: ((l - e) / e) * 100 };
  });
  return { p99Early: med(early.map((w) => w.p99)), p99Late: med(late.map((w) => w.p99)), rssGrowth };
}

/**
 * @param {K6Run} run
 * @param {Instance[]} instances
 * @param {FaultOptions} opts
 * @param {RssSample[]} rss the cluster's samples so far (the sampler keeps adding)
 * @param {(line: string) => void} log
 */
export async function soak(run, instances, opts, rss, log) {
  const measured = opts.capacity ? undefined : await measureCapacity(run, log);
  const capacity = opts.capacity ?? measured?.capacity ?? 0;
  const rate = Math.max(1, Math.round(capacity * opts.load));
  const duration = Math.round(opts.minutes * 60);
  const rssFrom = rss.length;
  log(`soak: ${duration} s at ${rate} req/s (${Math.round(opts.load * 100)}% of ${f(capacity)})`);
  const vus = Math.max(opts.vus, Math.ceil(rate / 20));
  const r = await run('soak', { rate, duration, vus, actions: [] });
  const samples = rss.slice(rssFrom);
  const windows = windowsOf(r, samples);
  const { p99Early, p99Late, rssGrowth } = drift(windows);
  const fails = failures(r.rows);
  const problems = [...r.grants.problems];
  if (fails.length) problems.push(`${fails.length} failed requests: ${JSON.stringify(statusCounts(fails))}`);
  if (p99Late > p99Early * 2) problems.push(`p99 rose from ${f(p99Early)} to ${f(p99Late)} ms`);
  for (const g of rssGrowth)
    if (g.growthMiB > 64 && g.growthPct > 25)
      problems.push(`RSS of ${g.instance} grew ${f(g.growthMiB)} MiB`);
  const all = r.rows
    .filter((x) => x.status === 200)
    .map((x) => x.ms)
    .sort((a, b) => a - b);
  /** @type {FaultCase} */
  const verdict = {
    case: 'soak',
    fault: `soak: ${f(duration / 60, 0)} min at ${Math.round(opts.load * 100)}% of measured capacity across two instances`,
    expected: 'zero errors; RSS and p99 stable',
    pass: problems.length === 0,
    problems,
    observed: `${r.rows.length} requests at ${rate}/s (capacity ${f(capacity)}/s), ${fails.length} errors; p99 per 30 s window: median ${f(p99Early)} ms early → ${f(p99Late)} ms late (overall p50 ${f(quantile(all, 0.5))} / p99 ${f(quantile(all, 0.99))} ms); RSS ${rssGrowth.map((g) => `${g.instance} ${f(g.earlyMiB, 0)} → ${f(g.lateMiB, 0)} MiB`).join(', ')}; grants: ${r.grants.problems.length} problems`,
  };
  return {
    capacity,
    capacityMeasured: measured?.ramp ?? null,
    rate,
    durationSeconds: duration,
    vus,
    requests: r.rows.length,
    errors: fails.length,
    overall: { p50: quantile(all, 0.5), p99: quantile(all, 0.99), max: all[all.length - 1] },
    windows,
    p99Early,
    p99Late,
    rssGrowth,
    grants: r.grants,
    rssSamples: samples.map((s) => ({ ...s, minute: (s.t - r.start) / 60_000 })),
    verdict,
    loadavgAtEnd: os.loadavg(),
    instances: instances.map((i) => ({ name: i.name, pid: i.pid, starts: i.starts })),
  };
}

/** @typedef {Awaited<ReturnType<typeof soak>>} SoakResult */
