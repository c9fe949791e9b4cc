/** @pqid/jose — ML-DSA, composite ML-DSA and SLH-DSA JWS/JWT, classical algorithms through jose. */

export type {
  CompositeSigners,
  DelegatedSigner,
  KeySigners,
  SignerCapabilities,
  SignRequest,
} from './algorithms/delegate.ts';
export { algorithms, lookup as getAlgorithm, registry } from './algorithms/registry.ts';
export type { AlgorithmEntry, Family, Kty } from './algorithms/types.ts';
export { MLDSA_PARAMS, type MlDsaAlg, SLHDSA_PARAMS, type SlhDsaAlg } from './backends/params.ts';
export {
  BACKEND_NAMES,
  type BackendCapabilities,
  type BackendName,
  type BackendStatus,
} from './backends/types.ts';
export {
  COMPOSITE_MODES,
  type CompositeMode,
  configure,
  type NativeSigning,
  type PqidWarning,
  type Settings,
  settings,
} from './configure.ts';
export {
  accessTokenHash,
  DEFAULT_MAX_DPOP_PROOF_BYTES,
  DPOP_TYP,
  type DpopClaims,
  type DpopProof,
  htuOf,
  type SignDpopProofOptions,
  signDpopProof,
  type VerifyDpopProofOptions,
  verifyDpopProof,
} from './dpop.ts';
export * from './errors.ts';
export { defaultHpkeBackend, type HpkeBackend } from './hpke/suite.ts';
export { isJweAlgorithm, jweRegistry, lookupJweAlgorithm as getJweAlgorithm } from './jwe/algorithms.ts';
export { contentEncryptionRegistry } from './jwe/content.ts';
export {
  type DecryptionKeys,
  type DecryptOptions,
  type DecryptResult,
  decryptCompact,
  decryptFlattened,
} from './jwe/decrypt.ts';
export {
  type EncryptOptions,
  encryptCompact,
  encryptFlattened,
  type FlattenedEncryptOptions,
} from './jwe/encrypt.ts';
export { DecryptionKey, EncryptionKey } from './jwe/handles.ts';
export { encryptionKeysFor } from './jwe/jwks.ts';
export {
  exportEncryptionKey,
  type GenerateEncryptionKeyOptions,
  generateEncryptionKeyPair,
  type ImportEncryptionKeyOptions,
  type ImportedEncryptionKey,
  importEncryptionKey,
} from './jwe/keys.ts';
export {
  type DecryptAndVerifyJwtOptions,
  type DecryptAndVerifyJwtResult,
  decryptAndVerifyJwt,
  encryptJwt,
  signAndEncryptJwt,
} from './jwe/nested.ts';
export type { FlattenedJwe, JweHeader } from './jwe/parse.ts';
export { inspectJwe, type JweInspection } from './jwe/size.ts';
export type {
  ContentEncryptionEntry,
  HpkeSuite,
  JweAlgorithmEntry,
  JweKeyType,
  KeyManagementMode,
} from './jwe/types.ts';
export {
  createLocalJWKSet,
  createRemoteJWKSet,
  importJwks,
  type Jwks,
  type RemoteJwksOptions,
} from './jwks.ts';
export {
  type CompactSignOptions,
  type CompactVerifyOptions,
  decodeProtectedHeader,
  signCompact,
  verifyCompact,
} from './jws/compact.ts';
export {
  type GeneralJws,
  type Signer,
  signGeneral,
  type VerificationPolicy,
  verifyGeneral,
} from './jws/general.ts';
export { DEFAULT_MAX_TOKEN_BYTES, type JoseHeader } from './jws/parse.ts';
export type { KeySet, VerificationKey } from './jws/verification-keys.ts';
export { type JwtClaims, type SignJwtOptions, signJwt, type VerifyJwtOptions, verifyJwt } from './jwt.ts';
export { type KeyHandle, PrivateKey, PublicKey } from './keys/handles.ts';
export {
  exportJWK,
  type GenerateOptions,
  generateKeyPair,
  type ImportedKey,
  type ImportOptions,
  importJWK,
} from './keys/jwk.ts';
export { type SignMessageOptions, signMessage } from './keys/sign.ts';
export {
  createDelegatedKey,
  type DelegatedKeyOptions,
  type LocalSignerOptions,
  localSigner,
} from './keys/signer.ts';
export { calculateThumbprint } from './keys/thumbprint.ts';
export type { Jwk, KeyPairJwks, PrivateJwk, PublicJwk } from './lib/jwk.ts';
export {
  backends,
  type MlDsaSecretInput,
  MlDsaSecretKey,
  type MlDsaSignOptions,
  type MlDsaVerifyOptions,
  mldsa,
  preferredBackend,
} from './mldsa.ts';
export {
  chunkCookie,
  type InspectOptions,
  inspectToken,
  joinCookieChunks,
  LIMITS,
  type TokenInspection,
  transportFits,
} from './size.ts';
export { type SlhDsaSignOptions, type SlhDsaVerifyOptions, slhdsa } from './slhdsa.ts';
