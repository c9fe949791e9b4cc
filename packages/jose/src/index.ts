/** @pqid/jose — ML-DSA and composite ML-DSA JWS/JWT, classical algorithms through jose. */
export * from './errors.ts';
export { mldsa, backends, preferredBackend, type MlDsaSignOptions, type MlDsaVerifyOptions } from './mldsa.ts';
export { MLDSA_PARAMS, type MlDsaAlg } from './backends/params.ts';
export type { BackendName, BackendStatus, BackendCapabilities } from './backends/types.ts';
export { registry, algorithms, lookup as getAlgorithm } from './algorithms/registry.ts';
export type { AlgorithmEntry, Jwk, Family, Kty } from './algorithms/types.ts';
export { PublicKey, PrivateKey, type KeyHandle } from './keys/handles.ts';
export { importJWK, exportJWK, generateKeyPair, type GenerateOptions, type ImportOptions } from './keys/jwk.ts';
export { calculateThumbprint } from './keys/thumbprint.ts';
export type { KeySet, VerificationKey } from './keys/resolve.ts';
export { signCompact, verifyCompact, decodeProtectedHeader, type CompactSignOptions, type CompactVerifyOptions } from './jws/compact.ts';
export { signGeneral, verifyGeneral, type GeneralJws, type Signer, type VerificationPolicy } from './jws/general.ts';
export { DEFAULT_MAX_TOKEN_BYTES, type JoseHeader } from './jws/parse.ts';
export { signJwt, verifyJwt, type JwtClaims, type SignJwtOptions, type VerifyJwtOptions } from './jwt.ts';
export { createLocalJWKSet, createRemoteJWKSet, importJwks, type Jwks, type RemoteJwksOptions } from './jwks.ts';
export { inspectToken, chunkCookie, joinCookieChunks, LIMITS, type TokenInspection } from './size.ts';
