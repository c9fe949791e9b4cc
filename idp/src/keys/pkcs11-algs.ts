/**
 * The algorithms a PKCS#11 3.2 token signs for the pkcs11 signer: key types, mechanisms,
 * signature sizes, and how a token's public key becomes a JWK.
 */
import type { Jwk } from '@pqid/jose';
import { CustodyError } from './custody.ts';
import { type Attribute, CK } from './pkcs11-api.ts';

// PKCS#11 3.2 values pkcs11js 2.x does not define (OASIS pkcs11.h 3.2).
const CKK_ML_DSA = 0x4a;
const CKK_SLH_DSA = 0x4b;
const CKM_ML_DSA_KEY_PAIR_GEN = 0x1c;
const CKM_ML_DSA = 0x1d;
const CKM_SLH_DSA_KEY_PAIR_GEN = 0x2d;
const CKM_SLH_DSA = 0x2e;
const CKA_PARAMETER_SET = 0x61d;

export interface AlgSpec {
  keyType: number;
  genMechanism: number;
  signMechanism: number;
  /** CKA_PARAMETER_SET, or EC parameters (DER OID) for ECDSA. */
  parameterSet?: number;
  ecParams?: Buffer;
  signatureBytes: number;
  publicJwk(raw: Buffer, alg: string): Jwk;
}

const b64uEncode = (b: Buffer) => b.toString('base64url');
const akp = (raw: Buffer, alg: string): Jwk => ({ kty: 'AKP', alg, pub: b64uEncode(raw) });
/** prime256v1 (1.2.840.10045.3.1.7) as a DER OID. */
const P256_OID = Buffer.from('06082a8648ce3d030107', 'hex');

/** CKA_EC_POINT is a DER OCTET STRING holding 04‖X‖Y. */
function ecJwk(point: Buffer): Jwk {
  const q = point[0] === 0x04 && point[1] === point.length - 2 ? point.subarray(2) : point;
  if (q.length !== 65 || q[0] !== 0x04)
    throw new CustodyError('ERR_KEY_CUSTODY', 'unexpected EC point on the token');
  return {
    kty: 'EC',
    crv: 'P-256',
    x: b64uEncode(q.subarray(1, 33)),
    y: b64uEncode(q.subarray(33)),
    alg: 'ES256',
  };
}

/** A PKCS#11 3.2 post-quantum key type: its mechanisms, by parameter set; an AKP public key. */
const pqc =
  (keyType: number, genMechanism: number, signMechanism: number) =>
  (parameterSet: number, signatureBytes: number): AlgSpec => ({
    keyType,
    genMechanism,
    signMechanism,
    parameterSet,
    signatureBytes,
    publicJwk: akp,
  });
const mlDsa = pqc(CKK_ML_DSA, CKM_ML_DSA_KEY_PAIR_GEN, CKM_ML_DSA);
const slhDsa = pqc(CKK_SLH_DSA, CKM_SLH_DSA_KEY_PAIR_GEN, CKM_SLH_DSA);

const SPECS: Record<string, AlgSpec> = {
  'ML-DSA-44': mlDsa(1, 2420),
  'ML-DSA-65': mlDsa(2, 3309),
  'ML-DSA-87': mlDsa(3, 4627),
  'SLH-DSA-SHA2-128s': slhDsa(1, 7856),
  'SLH-DSA-SHAKE-128s': slhDsa(2, 7856),
  'SLH-DSA-SHA2-128f': slhDsa(3, 17088),
  ES256: {
    keyType: 0x3, // CKK_EC
    genMechanism: 0x1040, // CKM_EC_KEY_PAIR_GEN
    signMechanism: 0x1044, // CKM_ECDSA_SHA256
    ecParams: P256_OID,
    signatureBytes: 64,
    publicJwk: (raw) => ecJwk(raw),
  },
};

export const PKCS11_ALGS = Object.keys(SPECS);

export function spec(alg: string): AlgSpec {
  const s = SPECS[alg];
  if (!s)
    throw new CustodyError(
      'ERR_KEY_CUSTODY',
      `the PKCS#11 signer has no ${alg}; it signs ${PKCS11_ALGS.join(', ')}`,
    );
  return s;
}

/**
 * The templates of a new key pair labelled `label`: a token object, the private half never
 * leaving the token (not readable, not exportable, not even wrapped).
 */
export function keyPairTemplates(s: AlgSpec, label: string, id: Buffer): [Attribute[], Attribute[]] {
  const typeAttrs = s.ecParams
    ? [{ type: CK.CKA_EC_PARAMS, value: s.ecParams }]
    : [{ type: CKA_PARAMETER_SET, value: s.parameterSet as number }];
  return [
    [
      { type: CK.CKA_CLASS, value: CK.CKO_PUBLIC_KEY },
      { type: CK.CKA_KEY_TYPE, value: s.keyType },
      ...typeAttrs,
      { type: CK.CKA_TOKEN, value: true },
      { type: CK.CKA_VERIFY, value: true },
      { type: CK.CKA_LABEL, value: label },
      { type: CK.CKA_ID, value: id },
    ],
    [
      { type: CK.CKA_CLASS, value: CK.CKO_PRIVATE_KEY },
      { type: CK.CKA_KEY_TYPE, value: s.keyType },
      { type: CK.CKA_TOKEN, value: true },
      { type: CK.CKA_PRIVATE, value: true },
      { type: CK.CKA_SENSITIVE, value: true },
      { type: CK.CKA_EXTRACTABLE, value: false },
      { type: CK.CKA_SIGN, value: true },
      { type: CK.CKA_LABEL, value: label },
      { type: CK.CKA_ID, value: id },
    ],
  ];
}
