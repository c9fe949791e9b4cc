/**
 * A run's shared state: options, k6, the work and report directories, the k6 log, progress, the
 * results being collected and the child processes to stop at the end (or on Ctrl-C).
 */
import { createWriteStream, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { machine } from '../machine.mjs';
import { REPO_DIR } from '../paths.mjs';
import { stopChild } from '../proc.mjs';
import { countSteps } from './plan.mjs';
import { Progress } from './progress.mjs';

/** @typedef {import('../types.d.ts').RunOptions} RunOptions */
/** @typedef {import('../types.d.ts').Results} Results */

/**
 * @typedef {object} RunContext
 * @property {RunOptions} opts
 * @property {string} k6 the k6 binary
 * @property {string} outDir the report directory
 * @property {string} work a temporary directory for k6 configs, summaries and IdP data
 * @property {import('node:fs').WriteStream} log every k6 run's output (k6.log in the report directory)
 * @property {Progress} progress
 * @property {Results} results
 * @property {import('node:child_process').ChildProcess[]} children
 */

/**
 * @param {RunOptions} opts
 * @param {string} k6
 * @param {string} outDir
 * @returns {RunContext}
 */
export function createRun(opts, k6, outDir) {
  mkdirSync(outDir, { recursive: true });
  return {
    opts,
    k6,
    outDir,
    work: mkdtempSync(join(tmpdir(), 'pqid-load-')),
    log: createWriteStream(join(outDir, 'k6.log')),
    progress: new Progress(countSteps(opts)),
    children: [],
    results: {
      meta: {
        started: new Date().toISOString(),
        mode: opts.smoke ? 'smoke' : 'full',
        scenarios: opts.scenarios,
        algs: opts.algs,
        duration: opts.duration,
        vus: opts.vus,
        pricePerVcpuHour: opts.price,
        budgets: opts.budgets,
        machine: machine(),
        k6: k6.startsWith(REPO_DIR) ? relative(REPO_DIR, k6) : k6,
      },
    },
  };
}

/**
 * Stop every child and remove the work directory.
 * @param {RunContext} ctx
 */
export async function cleanup(ctx) {
  for (const c of ctx.children) await stopChild(c).catch(() => {});
  rmSync(ctx.work, { recursive: true, force: true });
}

/**
 * Clean up and exit 130 on SIGINT/SIGTERM until the returned function is called.
 * @param {() => Promise<void>} clean
 */
export function onSignals(clean) {
  const onSignal = () => {
    clean().finally(() => process.exit(130));
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  return () => {
    process.removeListener('SIGINT', onSignal);
    process.removeListener('SIGTERM', onSignal);
  };
}
