/** The body of load/faults.mjs (its header says what it does), loaded once pqid is built. */
import { createWriteStream, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os, { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { backends, preferredBackend } from '@pqid/jose';
import { readCommandLine } from '../args.mjs';
import { killCase } from '../faults/cases/kill.mjs';
import { pgCase } from '../faults/cases/pg.mjs';
import { sigtermCase } from '../faults/cases/sigterm.mjs';
import { soak } from '../faults/cases/soak.mjs';
import { Cluster } from '../faults/cluster.mjs';
import { parseArgs, USAGE } from '../faults/options.mjs';
import { summaryTable, writeFaultReport } from '../faults/report.mjs';
import { k6Run } from '../faults/runs.mjs';
import { machine } from '../machine.mjs';
import { LOAD_DIR, REPO_DIR, stamp } from '../paths.mjs';
import { findK6 } from '../proc.mjs';

/** @typedef {import('../faults/types.d.ts').FaultOptions} FaultOptions */
/** @typedef {import('../faults/types.d.ts').FaultResults} FaultResults */
/** @typedef {import('../faults/types.d.ts').FaultCase} FaultCase */
/** @typedef {import('../faults/types.d.ts').K6Run} K6Run */

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
      /** @type {import('../faults/instance.mjs').Instance} */ (c.instances[0]),
      /** @type {import('../balancer.mjs').Balancer} */ (c.balancer),
      D,
      opts,
    ),
  pg: (run, c, D, opts) => pgCase(run, c.pgPort, c.instances, D, opts),
  sigterm: (run, c, D, opts) =>
    sigtermCase(
      run,
      /** @type {import('../faults/instance.mjs').Instance} */ (c.instances[1]),
      /** @type {import('../balancer.mjs').Balancer} */ (c.balancer),
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
async function main(argv) {
  const opts = readCommandLine(parseArgs, argv, 'pqid faults', 'npm run faults -- --help');
  if (!opts) return 2;
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

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (e) => {
    process.stderr.write(`pqid faults: ${e.stack ?? e}\n`);
    process.exit(1);
  },
);
