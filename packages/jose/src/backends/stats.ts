/**
 * How often a 32-byte seed was expanded into a key (FIPS 204 KeyGen) by any backend. Expanding
 * costs about as much as a signature, so a hot path must prepare its keys once; tests sign many
 * tokens and assertions and check that this count stays put.
 */
let seedExpansions = 0;

export function countSeedExpansion(): void {
  seedExpansions++;
}

export function expansionStats(): { seedExpansions: number } {
  return { seedExpansions };
}
