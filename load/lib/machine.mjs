/** The machine a run measures on, as every report prints it: CPU model and the flags that pick code paths. */

import { readFileSync } from 'node:fs';
import os from 'node:os';

/** The instruction-set extensions that decide which code runs (liboqs AVX2, SHA-NI, AES, …). */
const FLAGS = [
  'avx2',
  'avx512f',
  'avx512ifma',
  'bmi2',
  'adx',
  'aes',
  'vaes',
  'sha_ni',
  'asimd',
  'sha2',
  'sha3',
];

/** The FLAGS this CPU has (Linux /proc/cpuinfo), or 'unknown'. */
export function cpuFlags() {
  try {
    const info = readFileSync('/proc/cpuinfo', 'utf8');
    const have = new Set((/^(?:flags|Features)\s*:\s*(.*)$/m.exec(info)?.[1] ?? '').split(/\s+/));
    return FLAGS.filter((f) => have.has(f)).join(' ') || 'unknown';
  } catch {
    return 'unknown'; // not Linux
  }
}

/** @returns {import('./types.d.ts').Machine} */
export function machine() {
  return {
    cpus: os.cpus().length,
    cpuModel: os.cpus()[0]?.model,
    cpuFlags: cpuFlags(),
    memoryGiB: Math.round(os.totalmem() / 2 ** 30),
    loadavgAtStart: os.loadavg(),
    kernel: os.release(),
    node: process.version,
    openssl: process.versions.openssl,
  };
}
