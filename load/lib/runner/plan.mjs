/** How many progress steps a run has, counted from the same tables the runner schedules from. */
import { PHASES, variantsOf } from '../variants.mjs';

/** @typedef {import('../types.d.ts').RunOptions} RunOptions */

/**
 * Recorded k6 phases of a scenario's variants: grants × algorithms × PHASES each.
 * @param {string} scenario
 * @param {RunOptions} opts
 */
const phaseSteps = (scenario, opts) =>
  variantsOf(scenario, opts).reduce((n, v) => n + v.grants.length * v.algs(opts).length * PHASES.length, 0);

/**
 * Steps per scenario: its recorded phases plus the steps it reports on its own.
 * @type {Record<string, (opts: RunOptions) => number>}
 */
const STEPS = {
  // + the encrypted ID tokens' sizes and CPU
  sizes: () => 2,
  // + the per-operation sign costs
  throughput: (opts) => phaseSteps('throughput', opts) + 1,
  // + the cold path, + the placement summary
  placement: (opts) => phaseSteps('placement', opts) + 2,
  login: () => 1,
  // one per TLS round: A B in a smoke run, A B B A otherwise
  tls: (opts) => (opts.smoke ? 2 : 4),
};

/** @param {RunOptions} opts */
export const countSteps = (opts) => opts.scenarios.reduce((n, s) => n + (STEPS[s]?.(opts) ?? 0), 0);
