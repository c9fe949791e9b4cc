/** The two key types every algorithm shares: a JWK as it travels, and the opaque material behind a key handle. */

export type { Jwk } from '../lib/jwk.ts';

/** Opaque per-algorithm key material behind a key handle. */
export type Material = unknown;
