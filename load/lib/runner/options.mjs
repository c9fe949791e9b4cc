/** The load runner's command line: `npm run load -- <scenario…|all> [--smoke] [options]`. */
import { list, parseCommandLine, positive, UsageError } from '../args.mjs';
import { ALL_ALGS } from '../variants.mjs';

/** @typedef {import('../types.d.ts').RunOptions} RunOptions */

export const SCENARIOS = ['sizes', 'throughput', 'placement', 'login', 'tls'];

export const USAGE = `usage: npm run load -- <${SCENARIOS.join('|')}|all>… [--smoke] [options]
  --smoke              every scenario for a few seconds (CI)
  --algs A,B,…         algorithms (default: ${ALL_ALGS.join(',')})
  --duration S         seconds per throughput phase (default 10, smoke 1)
  --vus N              virtual users for the throughput phases (default 8, smoke 4)
  --price USD          $ per vCPU-hour for the cost model (default 0.04)
  --no-compare         skip node-oidc-provider
  --out DIR            report directory (default load/reports/<timestamp>)
  --cpu-prof DIR       write a V8 CPU profile of the (first) IdP to DIR (node --cpu-prof; profiling
                       slows it: read the frames, not that run's numbers)
  budgets: --cookie 4096 --header-line 8190 --node-headers 16384 --url-conservative 2048 --url 8000`;

/** @type {{ type: 'string' }} */
const str = { type: 'string' };
/** @type {{ type: 'boolean' }} */
const bool = { type: 'boolean' };
/** @type {import('node:util').ParseArgsOptionsConfig} */
const OPTIONS = {
  smoke: bool,
  algs: str,
  duration: str,
  vus: str,
  price: str,
  'no-compare': bool,
  out: str,
  'cpu-prof': str,
  cookie: str,
  'header-line': str,
  'node-headers': str,
  'url-conservative': str,
  url: str,
  help: { type: 'boolean', short: 'h' },
};

/**
 * @param {string[]} argv
 * @returns {RunOptions}
 */
export function parseArgs(argv) {
  const { values: v, positionals } = parseCommandLine(argv, OPTIONS, { positionals: true });
  for (const p of positionals)
    if (p !== 'all' && !SCENARIOS.includes(p))
      throw new UsageError(`unknown scenario ${p}; choose from ${SCENARIOS.join(', ')} or all`);
  const smoke = v.smoke === true;
  const algs = list(v.algs) ?? ALL_ALGS;
  const unknown = algs.filter((a) => !ALL_ALGS.includes(a));
  if (unknown.length)
    throw new UsageError(`unknown algorithm(s) ${unknown.join(', ')}; choose from ${ALL_ALGS.join(', ')}`);
  /** @type {RunOptions} */
  const o = {
    scenarios: SCENARIOS.filter((s) => positionals.includes(s) || positionals.includes('all')),
    smoke,
    // ES256 is the baseline of every ratio.
    algs: algs.includes('ES256') ? algs : ['ES256', ...algs],
    price: positive(v.price, 'price') ?? 0.04,
    compare: v['no-compare'] !== true,
    budgets: {
      cookie: positive(v.cookie, 'cookie') ?? 4096,
      headerLine: positive(v['header-line'], 'header-line') ?? 8190,
      nodeHeaders: positive(v['node-headers'], 'node-headers') ?? 16384,
      urlConservative: positive(v['url-conservative'], 'url-conservative') ?? 2048,
      url: positive(v.url, 'url') ?? 8000,
    },
    help: v.help === true,
    duration: positive(v.duration, 'duration') ?? (smoke ? 1 : 10),
    vus: positive(v.vus, 'vus') ?? (smoke ? 4 : 8),
  };
  if (typeof v.out === 'string') o.out = v.out;
  if (typeof v['cpu-prof'] === 'string') o.cpuProf = v['cpu-prof'];
  return o;
}
