/**
 * How often a 32-byte seed was expanded into a key (FIPS 204 KeyGen) by any backend. Expanding
 * costs about as much as a signature, so a hot path must prepare its keys once; tests sign many
 * tokens and assertions and check that this count stays put.
 */
let seedExpansions = 0;

export function countSeedExpansion(): void {
  seedExpansions++;
}

/**
 * How composite signatures were made: `whole` in one backend call (one native pool task, both
 * halves), `split` as an ML-DSA half on the backend and a traditional half through node:crypto,
 * `delegated` through external signers (a KMS/HSM half). A local key must never take the last.
 */
const compositeSigns = { whole: 0, split: 0, delegated: 0 };
export type CompositePath = keyof typeof compositeSigns;

export function countCompositeSign(path: CompositePath): void {
  compositeSigns[path]++;
}

export function expansionStats(): { seedExpansions: number; compositeSigns: Record<CompositePath, number> } {
  return { seedExpansions, compositeSigns: { ...compositeSigns } };
}
