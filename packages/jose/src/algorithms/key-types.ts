/** The two key types every layer shares: a JWK as it travels, and the opaque material behind a key handle. */

/** A JWK as it travels: only string members matter to us. */
export type Jwk = { kty: string; alg?: string; kid?: string; [member: string]: unknown };

/** Opaque per-algorithm key material behind a key handle. */
export type Material = unknown;
