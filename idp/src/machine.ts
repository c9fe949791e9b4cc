/**
 * The machine a measurement ran on, as every report of pqid prints it: the CPU model and the
 * instruction-set extensions that pick code paths (AVX2 ML-DSA and Keccak, SHA-NI, AES). A
 * CPU-time figure means little without them. The load reports import this module too.
 */
import { readFileSync } from 'node:fs';
import os from 'node:os';

/** The extensions that decide which code runs, as Linux /proc/cpuinfo names them (x86 and Arm). */
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

function cpuinfo(): string {
  try {
    return readFileSync('/proc/cpuinfo', 'utf8');
  } catch {
    return ''; // not Linux
  }
}

/** The FLAGS this CPU has, space-separated, or 'unknown'. */
export function cpuFlags(): string {
  const have = new Set((/^(?:flags|Features)\s*:\s*(.*)$/m.exec(cpuinfo())?.[1] ?? '').split(/\s+/));
  return FLAGS.filter((f) => have.has(f)).join(' ') || 'unknown';
}

/** The CPU's model name, e.g. "Intel(R) Xeon(R) Platinum 8370C CPU @ 2.80GHz". */
export function cpuModel(): string {
  return /^model name\s*:\s*(.+)$/m.exec(cpuinfo())?.[1]?.trim() ?? os.cpus()[0]?.model?.trim() ?? 'unknown';
}

/** One line for a report: "<model> (<flags>), <n> cores, Node <v>, OpenSSL <v>". */
export function machineLine(): string {
  return `${cpuModel()} (${cpuFlags()}), ${os.availableParallelism()} cores, Node ${process.versions.node}, OpenSSL ${process.versions.openssl ?? 'unknown'}`;
}
