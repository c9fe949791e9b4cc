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

/**
 * FIPS 205 parameter sets with a JOSE identifier (draft-ietf-cose-sphincs-plus, see
 * docs/CHOOSING-AN-ALGORITHM.md): pure SLH-DSA, keys and signatures as in FIPS 205 and RFC 9909.
 * `n` is the security parameter: pk = PK.seed‖PK.root (2n), sk = SK.seed‖SK.prf‖PK.seed‖PK.root (4n).
 */
export const SLHDSA_PARAMS = {
  'SLH-DSA-SHA2-128s': {
    n: 16,
    publicKey: 32,
    secretKey: 64,
    signature: 7856,
    oid: '2.16.840.1.101.3.4.3.20',
  },
  'SLH-DSA-SHA2-128f': {
    n: 16,
    publicKey: 32,
    secretKey: 64,
    signature: 17088,
    oid: '2.16.840.1.101.3.4.3.21',
  },
  'SLH-DSA-SHAKE-128s': {
    n: 16,
    publicKey: 32,
    secretKey: 64,
    signature: 7856,
    oid: '2.16.840.1.101.3.4.3.26',
  },
} as const;

export type SlhDsaAlg = keyof typeof SLHDSA_PARAMS;
export const SLHDSA_ALGS = Object.keys(SLHDSA_PARAMS) as SlhDsaAlg[];
export const isSlhDsaAlg = (a: unknown): a is SlhDsaAlg => typeof a === 'string' && a in SLHDSA_PARAMS;

/** The key-generation seed SK.seed‖SK.prf‖PK.seed (3n bytes) of FIPS 205 slh_keygen_internal. */
export const slhDsaSeedBytes = (alg: SlhDsaAlg): number => 3 * SLHDSA_PARAMS[alg].n;
