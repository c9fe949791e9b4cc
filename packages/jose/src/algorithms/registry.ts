/** The algorithm registry: one entry per JOSE `alg`. Everything else looks algorithms up here. */
import { MLDSA_ALGS, SLHDSA_ALGS } from '../backends/params.ts';
import { UnsupportedAlgorithm } from '../errors.ts';
import { classicalEntries } from './classical.ts';
import { compositeEntries } from './composite.ts';
import { mldsaEntry } from './mldsa.ts';
import { slhDsaEntry } from './slhdsa.ts';
import type { AlgorithmEntry } from './types.ts';

const ENTRIES: readonly AlgorithmEntry[] = [
  ...MLDSA_ALGS.map(mldsaEntry),
  ...compositeEntries(),
  ...SLHDSA_ALGS.map(slhDsaEntry),
  ...classicalEntries(),
];
const BY_ALG = new Map(ENTRIES.map((e) => [e.alg, e]));

/** Every registered algorithm, including ones this runtime cannot run (see `unavailable()`). */
export const registry = (): readonly AlgorithmEntry[] => ENTRIES;

/** Algorithms usable on this runtime. */
export const algorithms = (): string[] => ENTRIES.filter((e) => !e.unavailable()).map((e) => e.alg);

export function lookup(alg: unknown): AlgorithmEntry {
  const e = typeof alg === 'string' ? BY_ALG.get(alg) : undefined;
  if (!e) throw new UnsupportedAlgorithm(`unsupported algorithm: ${JSON.stringify(alg)}`);
  const why = e.unavailable();
  if (why) throw new UnsupportedAlgorithm(`${e.alg} is unavailable: ${why}`);
  return e;
}

export const isRegistered = (alg: unknown): alg is string => typeof alg === 'string' && BY_ALG.has(alg);

/** Ed25519 keys serve both the legacy `EdDSA` and the fully specified `Ed25519` identifiers. */
export function keyServesAlg(keyAlg: string, alg: string): boolean {
  return (
    keyAlg === alg || (keyAlg === 'EdDSA' && alg === 'Ed25519') || (keyAlg === 'Ed25519' && alg === 'EdDSA')
  );
}
