/** FIPS 204 parameter sets: the byte sizes every backend must agree on. */
export const MLDSA_PARAMS = {
  'ML-DSA-44': { publicKey: 1312, secretKey: 2560, signature: 2420, oid: '2.16.840.1.101.3.4.3.17' },
  'ML-DSA-65': { publicKey: 1952, secretKey: 4032, signature: 3309, oid: '2.16.840.1.101.3.4.3.18' },
  'ML-DSA-87': { publicKey: 2592, secretKey: 4896, signature: 4627, oid: '2.16.840.1.101.3.4.3.19' },
} as const;

export type MlDsaAlg = keyof typeof MLDSA_PARAMS;
export const MLDSA_ALGS = Object.keys(MLDSA_PARAMS) as MlDsaAlg[];
export const SEED_BYTES = 32;
export const RND_BYTES = 32;
export const MAX_CONTEXT_BYTES = 255;

export const isMlDsaAlg = (a: unknown): a is MlDsaAlg => typeof a === 'string' && a in MLDSA_PARAMS;
