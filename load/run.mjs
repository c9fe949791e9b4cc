#!/usr/bin/env node
/**
 * pqid load and size suite runner: `npm run load -- <scenario…|all> [--smoke] [options]`.
 *
 * Starts a fresh pqid IdP (child process, temp data dir, one client per algorithm), runs the k6
 * scenarios in load/scenarios against it, reads the IdP's CPU time from /proc/<pid>/stat around
 * every k6 run, starts node-oidc-provider for the comparison, and writes
 * load/reports/<timestamp>/{report.md,report.html,results.json} with SVG plots.
 *
 * What runs is in tables: the server variants and phases in lib/variants.mjs, the server
 * processes in lib/runner/servers.mjs, the scenarios below (lib/runner/scenarios/).
 */
import os from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { requireSupportedNode } from '@pqid/idp/node-version';
import { UsageError, usageLine } from './lib/args.mjs';
import { LOAD_DIR, stamp } from './lib/paths.mjs';
import { findK6 } from './lib/proc.mjs';
import { writeReport } from './lib/report/index.mjs';
import { cleanup, createRun, onSignals } from './lib/runner/context.mjs';
import { parseArgs, USAGE } from './lib/runner/options.mjs';
import { fmt } from './lib/runner/progress.mjs';
import { login } from './lib/runner/scenarios/login.mjs';
import { placement } from './lib/runner/scenarios/placement.mjs';
import { sizes } from './lib/runner/scenarios/sizes.mjs';
import { throughput } from './lib/runner/scenarios/throughput.mjs';
import { tls } from './lib/runner/scenarios/tls.mjs';
import { startMainIdp } from './lib/runner/servers.mjs';

export { parseArgs } from './lib/runner/options.mjs';

/** @typedef {import('./lib/runner/context.mjs').RunContext} RunContext */
/** @typedef {import('./lib/types.d.ts').Server<import('./lib/types.d.ts').IdpInfo>} Idp */

/**
 * What runs each scenario of SCENARIOS (lib/runner/options.mjs).
 * @type {Record<string, (ctx: RunContext, idp: Idp) => Promise<void>>}
 */
const SCENARIO_RUNS = { sizes, throughput, placement, login, tls };

/**
 * @param {string[]} argv
 * @returns {Promise<number>} the exit code
 */
export async function main(argv) {
  let opts;
  try {
    opts = parseArgs(argv);
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    process.stderr.write(`${usageLine('pqid load', 'npm run load -- --help', e)}\n`);
    return 2;
  }
  if (opts.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  if (opts.scenarios.length === 0) {
    // Nothing asked: the usage, as an error (like a bare `pqid`).
    process.stderr.write(`${USAGE}\n`);
    return 2;
  }
  const k6 = findK6(LOAD_DIR);
  if (!k6) {
    process.stderr.write(
      'k6 not found: run `bash load/scripts/install-k6.sh` (installs the pinned k6 into load/bin)\n',
    );
    return 3;
  }
  const ctx = createRun(opts, k6, opts.out ?? join(LOAD_DIR, 'reports', stamp()));
  const { results } = ctx;
  process.stdout.write(
    `pqid load: ${opts.scenarios.join(', ')} (${results.meta.mode}), ${opts.algs.length} algorithms, k6 ${results.meta.k6}\n`,
  );
  const stopSignals = onSignals(() => cleanup(ctx));
  try {
    const idp = await startMainIdp(ctx);
    process.stdout.write(
      `IdP ready at ${idp.info.issuer} (pid ${idp.info.pid}), ML-DSA backends: ${results.meta.idp?.mldsaBackends.join(', ') || '?'}\n`,
    );
    // opts.scenarios is in SCENARIOS order, whatever order the command line named them in.
    for (const name of opts.scenarios) {
      const run = SCENARIO_RUNS[name];
      if (!run) throw new Error(`scenario ${name} has no runner`);
      await run(ctx, idp);
    }
    results.meta.finished = new Date().toISOString();
    results.meta.elapsedSeconds = (Date.now() - Date.parse(results.meta.started)) / 1000;
    results.meta.loadavgAtEnd = os.loadavg();
    const files = await writeReport(ctx.outDir, results);
    process.stdout.write(
      `\nreport: ${relative(process.cwd(), files.md)}\n        ${relative(process.cwd(), files.html)}\n(${fmt(results.meta.elapsedSeconds, 0)} s)\n`,
    );
    return 0;
  } finally {
    ctx.log.end();
    await cleanup(ctx);
    stopSignals();
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  // Before anything needs a newer Node: one line naming the versions, not a stack trace.
  requireSupportedNode('pqid load');
  // HPKE's ML-KEM and SHA-3 through node:crypto Web Crypto warn "experimental" once per method:
  // noise between the progress lines. Other warnings still print.
  process.removeAllListeners('warning');
  process.on('warning', (w) => {
    if (w.name !== 'ExperimentalWarning' || !/Web Crypto API/.test(w.message))
      process.stderr.write(`${w.name}: ${w.message}\n`);
  });
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (e) => {
      process.stderr.write(`pqid load: ${e.stack ?? e}\n`);
      process.exit(1);
    },
  );
}
