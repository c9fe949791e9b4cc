// What the benchmarks share: their command-line options, the median, and the machine they ran on.
import { readFileSync } from 'node:fs';
import os from 'node:os';

/** The value after `name` on the command line, or `fallback`. */
export const arg = (name, fallback) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : fallback;
};
/** `--quick`: fewer rounds and less work per block, for iterating (not for published numbers). */
export const QUICK = process.argv.includes('--quick');
/** `--rounds N` (default 3 quick, 9 otherwise). */
export const ROUNDS = Number(arg('--rounds', QUICK ? 3 : 9));

/** CPU model, the instruction-set flags that matter here, and the core count. */
export function machine() {
  const info = readFileSync('/proc/cpuinfo', 'utf8');
  const model = /model name\s*:\s*(.*)/.exec(info)?.[1] ?? os.cpus()[0]?.model ?? 'unknown';
  const have = new Set((/flags\s*:\s*(.*)/.exec(info)?.[1] ?? '').split(' '));
  const relevant = [
    'avx',
    'avx2',
    'bmi1',
    'bmi2',
    'popcnt',
    'adx',
    'aes',
    'sha_ni',
    'avx512f',
    'avx512bw',
    'avx512vl',
    'avx512ifma',
    'vaes',
  ];
  return { model, flags: relevant.filter((f) => have.has(f)).join(' '), cores: os.availableParallelism() };
}

/** The median of a list of numbers. */
export const median = (v) => {
  const s = [...v].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
