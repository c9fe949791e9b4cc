/** The body of load/run.mjs (its header says what it does), loaded once pqid is built. */
import os from 'node:os';
import { join, relative } from 'node:path';
import { readCommandLine } from '../args.mjs';
import { LOAD_DIR, stamp } from '../paths.mjs';
import { findK6 } from '../proc.mjs';
import { writeReport } from '../report/index.mjs';
import { cleanup, createRun, onSignals } from '../runner/context.mjs';
import { parseArgs, USAGE } from '../runner/options.mjs';
import { fmt } from '../runner/progress.mjs';
import { login } from '../runner/scenarios/login.mjs';
import { placement } from '../runner/scenarios/placement.mjs';
import { sizes } from '../runner/scenarios/sizes.mjs';
import { throughput } from '../runner/scenarios/throughput.mjs';
import { tls } from '../runner/scenarios/tls.mjs';
import { startMainIdp } from '../runner/servers.mjs';

/** @typedef {import('../runner/context.mjs').RunContext} RunContext */
/** @typedef {import('../types.d.ts').Server<import('../types.d.ts').IdpInfo>} Idp */

/**
 * What runs each scenario of SCENARIOS (lib/runner/options.mjs).
 * @type {Record<string, (ctx: RunContext, idp: Idp) => Promise<void>>}
 */
const SCENARIO_RUNS = { sizes, throughput, placement, login, tls };

/**
 * @param {string[]} argv
 * @returns {Promise<number>} the exit code
 */
async function main(argv) {
  const opts = readCommandLine(parseArgs, argv, 'pqid load', 'npm run load -- --help');
  if (!opts) return 2;
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
