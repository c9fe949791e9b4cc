import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { info, scheme } from '../index.js';
import { type KeccakImplementation, keccakImplementations, onKeccak } from '../internal.js';

/**
 * The reference vectors the repository carries (`test/vectors/`, see its PROVENANCE.md), or
 * `PQID_VECTORS` if set.
 */
export const VECTORS: string =
  process.env.PQID_VECTORS ?? fileURLToPath(new URL('../../test/vectors/', import.meta.url));
if (!existsSync(join(VECTORS, 'SCHEMAS.md'))) {
  throw new Error(`test vectors not found at ${VECTORS} (set PQID_VECTORS to a vectors directory)`);
}
export const ACVP = join(VECTORS, 'acvp-v1.1.0.43');

export const hex = (s: string): Uint8Array => Uint8Array.from(Buffer.from(s, 'hex'));
export const toHex = (b: Uint8Array): string => Buffer.from(b).toString('hex').toUpperCase();
/**
 * Reads a vector file, or its `.gz` copy (the large ACVP files are stored gzipped). A
 * decompressed ACVP file must match the upstream checksum in `SHA256SUMS.upstream-mirror`.
 */
export function readJson<T>(path: string): T {
  if (existsSync(path)) return JSON.parse(readFileSync(path, 'utf8')) as T;
  const bytes = gunzipSync(readFileSync(`${path}.gz`));
  const name = `${basename(dirname(path))}/${basename(path)}`;
  const sums = readFileSync(join(ACVP, 'SHA256SUMS.upstream-mirror'), 'utf8');
  const want = sums
    .split('\n')
    .find((l) => l.endsWith(`  ${name}`))
    ?.split(' ')[0];
  const got = createHash('sha256').update(bytes).digest('hex');
  if (want !== got) throw new Error(`${name}: sha256 ${got} does not match upstream ${want}`);
  return JSON.parse(bytes.toString('utf8')) as T;
}

/** Flips bits of one byte in place (a tampering helper that needs no non-null assertion). */
export function flip(bytes: Uint8Array, index: number, mask = 1): void {
  bytes[index] = (bytes[index] ?? 0) ^ mask;
}

/** The ACVP ML-DSA fields the tests read; every file's groups and cases are a subset of these. */
export interface AcvpGroup {
  tgId: number;
  parameterSet: string;
  signatureInterface?: 'external' | 'internal';
  preHash?: string;
  externalMu?: boolean;
  keyFormat?: string;
  deterministic?: boolean;
}
export interface AcvpTest {
  tcId: number;
  seed: string;
  sk: string;
  pk: string;
  rnd: string;
  message: string;
  /** External-μ groups: the 64-byte μ instead of the message. */
  mu: string;
  context: string;
  signature: string;
}
export interface AcvpExpected {
  tcId: number;
  pk: string;
  sk: string;
  signature: string;
  testPassed: boolean;
}
interface AcvpFile<G, T> {
  testGroups: (G & { tests: T[] })[];
}

/** Joins prompt and expectedResults of an ACVP vector set on (tgId, tcId). */
export function acvp(dir: string): { group: AcvpGroup; test: AcvpTest; expected: AcvpExpected }[] {
  const prompt = readJson<AcvpFile<AcvpGroup, AcvpTest>>(join(ACVP, dir, 'prompt.json'));
  const results = readJson<AcvpFile<{ tgId: number }, AcvpExpected>>(join(ACVP, dir, 'expectedResults.json'));
  const byId = new Map<string, AcvpExpected>();
  for (const g of results.testGroups) for (const t of g.tests) byId.set(`${g.tgId}:${t.tcId}`, t);
  const out: { group: AcvpGroup; test: AcvpTest; expected: AcvpExpected }[] = [];
  for (const g of prompt.testGroups) {
    for (const t of g.tests) {
      const expected = byId.get(`${g.tgId}:${t.tcId}`);
      if (!expected) throw new Error(`${dir}: no expected result for tg ${g.tgId} tc ${t.tcId}`);
      out.push({ group: g, test: t, expected });
    }
  }
  return out;
}

/**
 * The implementation `auto` must pick on this CPU, from the CPU flags alone: the native
 * mldsa-native build needs AVX2, BMI2 and POPCNT on x86-64 (what it is compiled for) and NEON
 * on AArch64. A check against this fails if dispatch silently fell back to `ref`.
 */
export function expectedNative(): string {
  const { cpu } = info();
  if (process.arch === 'x64') return cpu.avx2 && cpu.bmi2 && cpu.popcnt ? 'x86_64-avx2' : 'ref';
  if (process.arch === 'arm64') return cpu.neon ? 'aarch64-neon' : 'ref';
  return 'ref';
}

/**
 * The Keccak implementation the addon must pick on this CPU, from the kernel's view of the CPU
 * (/proc/cpuinfo lists a feature only when the kernel enabled the state it needs), not from
 * the addon's own detection; elsewhere from info().cpu. A check against this fails if the
 * AVX-512VL or AVX2 Keccak silently did not run.
 */
export function expectedKeccak(): KeccakImplementation {
  if (process.arch !== 'x64') return 'portable';
  let flags: Set<string>;
  if (existsSync('/proc/cpuinfo')) {
    const line = readFileSync('/proc/cpuinfo', 'utf8')
      .split('\n')
      .find((l) => l.startsWith('flags'));
    flags = new Set(line?.split(':')[1]?.trim().split(/\s+/) ?? []);
  } else {
    const { cpu } = info();
    flags = new Set([...(cpu.avx2 ? ['avx2'] : []), ...(cpu.avx512vl ? ['avx512f', 'avx512vl'] : [])]);
  }
  if (flags.has('avx2') && flags.has('avx512f') && flags.has('avx512vl')) return 'avx512vl';
  return flags.has('avx2') ? 'avx2' : 'portable';
}

/** One way to run the vectors: an ML-DSA build (`auto`, `ref`) on one Keccak implementation. */
export interface Variant {
  implementation: 'auto' | 'ref';
  keccak: KeccakImplementation;
  label: string;
}

/**
 * The native ML-DSA build (auto) on every Keccak implementation this CPU runs, and the portable
 * one (ref) on the Keccak the addon picked: every code path the dispatch can choose here.
 */
export function variants(): Variant[] {
  const native = scheme('ML-DSA-44').implementation;
  return [
    ...keccakImplementations().map((keccak) => ({
      implementation: 'auto' as const,
      keccak,
      label: `auto: ${native}, Keccak ${keccak}`,
    })),
    { implementation: 'ref', keccak: expectedKeccak(), label: `ref, Keccak ${expectedKeccak()}` },
  ];
}

/**
 * Runs `fn` on the variant's Keccak and checks, with the permutation counters, that its hashes
 * ran there and nowhere else (so a silent fallback fails the test).
 */
export async function onVariant<T>(v: Variant, fn: () => T | Promise<T>): Promise<T> {
  const { result, ran } = await onKeccak(v.keccak, fn);
  for (const [k, n] of Object.entries(ran)) {
    if (k === v.keccak ? n.x1 + n.x4 === 0 : n.x1 + n.x4 > 0) {
      throw new Error(`${v.label}: Keccak permutations ran ${JSON.stringify(ran)}`);
    }
  }
  return result;
}
