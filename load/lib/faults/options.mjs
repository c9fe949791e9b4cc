/** The fault script's command line: `npm run faults -- [--long] | --soak [--minutes 10]`. */
import { list, parseCommandLine, positive } from '../args.mjs';

/** @typedef {import('./types.d.ts').FaultOptions} FaultOptions */

export const USAGE = `usage: npm run faults -- [--long] [options]      fault cases (short: CI, ~90 s; --long: minutes)
       npm run faults -- --soak [--minutes 10] [options]
  --only kill,pg,sigterm  run only these fault cases
  --rate N                offered token requests/s during the fault runs (default: short 80, long 120)
  --vus N                 k6 virtual users = refresh chains in use (default 12)
  --alg ALG               signing algorithm of the test clients (default ML-DSA-65)
  --minutes M             soak length (default 10)
  --capacity N            skip the capacity ramp, take N requests/s as capacity (soak)
  --load F                soak at this fraction of capacity (default 0.7)
  --pg-port P             port of the script's own PostgreSQL cluster (default: a free port)
  --out DIR               report directory (default load/reports/<timestamp>-faults|-soak)`;

/** The fault cases, in the order they run. */
export const CASES = ['kill', 'pg', 'sigterm'];

/** @type {{ type: 'string' }} */
const str = { type: 'string' };
/** @type {{ type: 'boolean' }} */
const bool = { type: 'boolean' };

/**
 * @param {string[]} argv
 * @returns {FaultOptions}
 */
export function parseArgs(argv) {
  const { values: v } = parseCommandLine(argv, {
    long: bool,
    soak: bool,
    only: str,
    rate: str,
    vus: str,
    alg: str,
    minutes: str,
    capacity: str,
    load: str,
    'pg-port': str,
    out: str,
    help: { type: 'boolean', short: 'h' },
  });
  const long = v.long === true;
  const only = list(v.only);
  /** @type {FaultOptions} */
  const o = {
    long,
    soak: v.soak === true,
    minutes: positive(v.minutes, 'minutes') ?? 10,
    load: positive(v.load, 'load') ?? 0.7,
    alg: typeof v.alg === 'string' ? v.alg : 'ML-DSA-65',
    help: v.help === true,
    cases: only ? CASES.filter((c) => only.includes(c)) : CASES,
    rate: positive(v.rate, 'rate') ?? (long ? 120 : 80),
    vus: Math.round(positive(v.vus, 'vus') ?? 12),
  };
  const capacity = positive(v.capacity, 'capacity');
  if (capacity !== undefined) o.capacity = capacity;
  const pgPort = positive(v['pg-port'], 'pg-port');
  if (pgPort !== undefined) o.pgPort = Math.round(pgPort);
  if (typeof v.out === 'string') o.out = v.out;
  return o;
}
