/** What the numbers were measured on. */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import { dirname, join } from 'node:path';
import { type BackendStatus, backends } from '../src/index.ts';

export interface Machine {
  cpu: string;
  /** The instruction-set extensions that decide which code runs (AVX2 ML-DSA, SHA/AES, …). */
  cpuFlags: string;
  cores: number;
  memoryGiB: number;
  os: string;
  node: string;
  openssl: string;
  v8: string;
  loadavg: [number, number, number];
  packages: Record<string, string>;
  backends: BackendStatus[];
}

/** Flags that matter here, as the kernel reports them (x86: /proc/cpuinfo). */
const FLAGS = [
  'avx2',
  'avx512f',
  'avx512ifma',
  'bmi2',
  'adx',
  'popcnt',
  'aes',
  'sha_ni',
  'vaes',
  'asimd',
  'sha2',
  'sha3',
];
function cpuFlags(): string {
  try {
    const m = /^(?:flags|Features)\s*:\s*(.+)$/m.exec(readFileSync('/proc/cpuinfo', 'utf8'));
    const have = new Set(m?.[1]?.split(/\s+/) ?? []);
    const on = FLAGS.filter((f) => have.has(f));
    const off = FLAGS.filter((f) => !have.has(f) && (f.startsWith('avx') || f === 'bmi2' || f === 'sha_ni'));
    return `${on.join(' ') || 'none of interest'}${off.length ? ` (no ${off.join(', ')})` : ''}`;
  } catch {
    return 'unknown';
  }
}

function cpuModel(): string {
  try {
    const m = /^model name\s*:\s*(.+)$/m.exec(readFileSync('/proc/cpuinfo', 'utf8'));
    if (m?.[1]) return m[1].trim();
  } catch {
    /* not Linux */
  }
  return os.cpus()[0]?.model ?? 'unknown';
}

/** A dependency's version, found by walking up from its resolved entry point. */
function packageVersion(name: string): string {
  try {
    const require = createRequire(import.meta.url);
    let dir = dirname(require.resolve(name));
    for (let i = 0; i < 8; i++) {
      try {
        const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as {
          name?: string;
          version?: string;
        };
        if (pkg.name === name && pkg.version) return pkg.version;
      } catch {
        /* keep walking */
      }
      dir = dirname(dir);
    }
  } catch {
    /* not installed */
  }
  return 'unknown';
}

export function machine(): Machine {
  return {
    cpu: cpuModel(),
    cpuFlags: cpuFlags(),
    cores: os.availableParallelism(),
    memoryGiB: Math.round((os.totalmem() / 2 ** 30) * 10) / 10,
    os: `${os.type()} ${os.release()} ${os.arch()}`,
    node: process.version,
    openssl: process.versions.openssl ?? 'unknown',
    v8: process.versions.v8,
    loadavg: os.loadavg().map((l) => Math.round(l * 100) / 100) as [number, number, number],
    packages: { jose: packageVersion('jose'), '@noble/post-quantum': packageVersion('@noble/post-quantum') },
    backends: backends(),
  };
}
