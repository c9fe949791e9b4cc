#!/usr/bin/env node
/**
 * pqid fault and soak script: `npm run faults -- [--long] | --soak [--minutes 10]`.
 *
 * Starts its own throw-away PostgreSQL cluster (scripts/pg-test.sh on its own port and
 * directory, so restarting it never disturbs the cluster other tests use), two IdP instances
 * (child processes of idp/dist/main.js on one database, one KEK, one issuer) behind a
 * round-robin balancer (load/lib/balancer.mjs), and drives token traffic with k6
 * (load/scenarios/soak.js: refresh_token rotations on per-VU chains plus client_credentials).
 *
 * Faults, one k6 run each, each with a verdict (load/lib/faults/cases/):
 *   kill     SIGKILL one instance mid-load, restart it later
 *   pg       stop PostgreSQL under load, keep it down a few seconds, start it again
 *   sigterm  SIGTERM one instance mid-load: it drains and exits 0; restart it later
 * After every run the database is checked against what k6 saw (the grant invariant,
 * load/lib/faults/grants.mjs), and every surviving refresh token is redeemed once (200) and
 * then again (400).
 *
 * Soak: measure capacity (a short ramp, or --capacity), then --minutes at 70% of it, sampling
 * each instance's RSS from /proc and k6's p99 per 30 s window.
 *
 * Writes load/reports/<timestamp>-faults/ (or -soak/): results.json, report.md, *.svg, logs.
 */
import { createWriteStream, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os, { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { requireSupportedNode } from '@pqid/idp/node-version';
import { backends, preferredBackend } from '@pqid/jose';
import { UsageError, usageLine } from './lib/args.mjs';
import { killCase } from './lib/faults/cases/kill.mjs';
import { pgCase } from './lib/faults/cases/pg.mjs';
import { sigtermCase } from './lib/faults/cases/sigterm.mjs';
import { soak } from './lib/faults/cases/soak.mjs';
import { Cluster } from './lib/faults/cluster.mjs';
import { parseArgs, USAGE } from './lib/faults/options.mjs';
import { summaryTable, writeFaultReport } from './lib/faults/report.mjs';
import { k6Run } from './lib/faults/runs.mjs';
import { machine } from './lib/machine.mjs';
import { LOAD_DIR, REPO_DIR, stamp } from './lib/paths.mjs';
import { findK6 } from './lib/proc.mjs';

export { parseArgs } from './lib/faults/options.mjs';

/** @typedef {import('./lib/faults/types.d.ts').FaultOptions} FaultOptions */
/** @typedef {import('./lib/faults/types.d.ts').FaultResults} FaultResults */
/** @typedef {import('./lib/faults/types.d.ts').FaultCase} FaultCase */
/** @typedef {import('./lib/faults/types.d.ts').K6Run} K6Run */

/** @param {string} m */
const say = (m) => process.stdout.write(`${m}\n`);

/**
 * What each fault case does to the cluster, by name (CASES in lib/faults/options.mjs).
 * @type {Record<string, (run: K6Run, c: Cluster, seconds: number, opts: FaultOptions) => Promise<FaultCase>>}
 */
const CASE_RUNS = {
  kill: (run, c, D, opts) =>
    killCase(
      run,
      /** @type {import('./lib/faults/instance.mjs').Instance} */ (c.instances[0]),
      /** @type {import('./lib/balancer.mjs').Balancer} */ (c.balancer),
      D,
      opts,
    ),
  pg: (run, c, D, opts) => pgCase(run, c.pgPort, c.instances, D, opts),
  sigterm: (run, c, D, opts) =>
    sigtermCase(
      run,
      /** @type {import('./lib/faults/instance.mjs').Instance} */ (c.instances[1]),
      /** @type {import('./lib/balancer.mjs').Balancer} */ (c.balancer),
      D,
      opts,
    ),
};

/**
 * @param {FaultOptions} opts
 * @param {string} k6
 * @returns {FaultResults}
 */
const newResults = (opts, k6) => ({
  meta: {
    mode: opts.soak ? 'soak' : opts.long ? 'long' : 'short',
    started: new Date().toISOString(),
    options: { ...opts, help: undefined },
    machine: machine(),
    k6: relative(REPO_DIR, k6),
    runnerMldsaBackend: preferredBackend(),
    nativeAvailable: backends().find((b) => b.name === 'native')?.available,
  },
  cases: [],
});

/**
 * The fault cases one after another (with the balancer's counters around each), or the soak.
 * @param {K6Run} run
 * @param {Cluster} c
 * @param {FaultOptions} opts
 * @param {FaultResults} results
 */
async function runCases(run, c, opts, results) {
  /** @param {FaultCase} v */
  const report = (v) => {
    results.cases.push(v);
    say(`${v.pass ? 'PASS' : 'FAIL'}  ${v.case}: ${v.observed}`);
    for (const p of v.problems) say(`      - ${p}`);
  };
  if (opts.soak) {
    results.soak = await soak(run, c.instances, opts, c.rss, say);
    return report(results.soak.verdict);
  }
  const D = opts.long ? 60 : 16;
  for (const name of opts.cases) {
    const before = c.stats();
    const verdict = await CASE_RUNS[name]?.(run, c, D, opts);
    if (!verdict) throw new Error(`no fault case ${name}`);
    verdict.balancer = { before, after: c.stats() };
    report(verdict);
  }
}

/**
 * @param {string[]} argv
 * @returns {Promise<number>} the exit code: 0 when every case passed
 */
export async function main(argv) {
  let opts;
  try {
    opts = parseArgs(argv);
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    process.stderr.write(`${usageLine('pqid faults', 'npm run faults -- --help', e)}\n`);
    return 2;
  }
  if (opts.help) {
    say(USAGE);
    return 0;
  }
  const k6 = findK6(LOAD_DIR);
  if (!k6) {
    process.stderr.write('k6 not found: run `bash load/scripts/install-k6.sh`\n');
    return 3;
  }
  const outDir = opts.out ?? join(LOAD_DIR, 'reports', `${stamp()}-${opts.soak ? 'soak' : 'faults'}`);
  mkdirSync(outDir, { recursive: true });
  const work = mkdtempSync(join(tmpdir(), 'pqid-faults-'));
  const log = createWriteStream(join(outDir, 'k6.log'));
  const results = newResults(opts, k6);
  say(`pqid faults: ${results.meta.mode} mode, report in ${relative(process.cwd(), outDir)}`);
  const cluster = new Cluster(opts, work, outDir, say);
  const cleanup = async () => {
    await cluster.stop();
    rmSync(work, { recursive: true, force: true });
  };
  const onSignal = () => {
    cleanup().finally(() => process.exit(130));
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    const startMs = await cluster.start();
    const [A, B] = cluster.instances;
    const health = A?.health ?? {};
    results.meta.idp = { mldsaBackend: health.mldsaBackend, storage: health.storage, startMs };
    say(
      `instances A :${A?.port} (pid ${A?.pid}) and B :${B?.port} (pid ${B?.pid}) ready in ${startMs.join(' / ')} ms, ML-DSA backend ${health.mldsaBackend}; balancer ${cluster.issuer}`,
    );
    cluster.sampleRss();
    /** @type {K6Run} */
    const run = (name, spec) => k6Run(cluster, { k6, work, log }, name, spec);
    await runCases(run, cluster, opts, results);
    results.meta.finished = new Date().toISOString();
    results.meta.elapsedSeconds = (Date.now() - Date.parse(results.meta.started)) / 1000;
    results.meta.loadavgAtEnd = os.loadavg();
    results.rss = cluster.rss;
    const files = await writeFaultReport(outDir, results);
    say(`\n${summaryTable(results.cases)}`);
    say(`report: ${relative(process.cwd(), files.md)} (${results.meta.elapsedSeconds.toFixed(0)} s)`);
    return results.cases.every((c) => c.pass) ? 0 : 1;
  } finally {
    log.end();
    await cleanup();
    process.removeListener('SIGINT', onSignal);
    process.removeListener('SIGTERM', onSignal);
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  // Before anything needs a newer Node: one line naming the versions, not a stack trace.
  requireSupportedNode('pqid faults');
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (e) => {
      process.stderr.write(`pqid faults: ${e.stack ?? e}\n`);
      process.exit(1);
    },
  );
}
