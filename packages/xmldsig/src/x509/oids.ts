/** Object identifiers for the certificate algorithms this package knows. */
import { MLDSA_PARAMS, type MlDsaAlg, SLHDSA_PARAMS, type SlhDsaAlg } from '@pqid/jose';

/** RFC 9881: id-ml-dsa-44/65/87, used both as signature and as public-key algorithm, parameters absent. */
export const MLDSA_OIDS: Record<MlDsaAlg, string> = {
  'ML-DSA-44': MLDSA_PARAMS['ML-DSA-44'].oid,
  'ML-DSA-65': MLDSA_PARAMS['ML-DSA-65'].oid,
  'ML-DSA-87': MLDSA_PARAMS['ML-DSA-87'].oid,
};

/**
 * RFC 9909: id-slh-dsa-* (2.16.840.1.101.3.4.3.20 onward), likewise for both uses with parameters
 * absent; pure SLH-DSA with the empty context over the DER TBSCertificate.
 */
export const SLHDSA_OIDS: Record<SlhDsaAlg, string> = Object.fromEntries(
  (Object.keys(SLHDSA_PARAMS) as SlhDsaAlg[]).map((a) => [a, SLHDSA_PARAMS[a].oid]),
) as Record<SlhDsaAlg, string>;

export const OID = {
  ecPublicKey: '1.2.840.10045.2.1',
  prime256v1: '1.2.840.10045.3.1.7',
  ecdsaWithSha256: '1.2.840.10045.4.3.2',
  rsaEncryption: '1.2.840.113549.1.1.1',
  sha256WithRsa: '1.2.840.113549.1.1.11',
  commonName: '2.5.4.3',
  organization: '2.5.4.10',
  organizationalUnit: '2.5.4.11',
  country: '2.5.4.6',
} as const;
