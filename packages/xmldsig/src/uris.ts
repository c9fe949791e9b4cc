/**
 * Every XML-DSig identifier @pqid/xmldsig uses, in one place.
 *
 * The ML-DSA identifiers come from draft-eastlake-rfc9231bis-xmlsec-uris, revision -09 (the
 * successor of RFC 9231), whose namespace `http://www.w3.org/2026/08/xmldsig-more#` the W3C has
 * allocated. They are a DRAFT: if a later revision changes them, this object is the only place to
 * edit. Only pure ML-DSA (FIPS 204, empty context) and pure SLH-DSA (FIPS 205) are named by the
 * draft; there is no HashML-DSA / HashSLH-DSA and no composite identifier.
 */
export const MLDSA_URI_DRAFT = 'draft-eastlake-rfc9231bis-xmlsec-uris-09' as const;
// The same draft names SLH-DSA (FIPS 205, pure, empty context) for all twelve parameter sets,
// `…#slh-dsa-sha2-128s` and so on; we register the three @pqid/jose has.

const DRAFT_NS = 'http://www.w3.org/2026/08/xmldsig-more#';

export const SIGNATURE_URIS = {
  'ML-DSA-44': `${DRAFT_NS}ml-dsa-44`,
  'ML-DSA-65': `${DRAFT_NS}ml-dsa-65`,
  'ML-DSA-87': `${DRAFT_NS}ml-dsa-87`,
  'SLH-DSA-SHA2-128s': `${DRAFT_NS}slh-dsa-sha2-128s`,
  'SLH-DSA-SHA2-128f': `${DRAFT_NS}slh-dsa-sha2-128f`,
  'SLH-DSA-SHAKE-128s': `${DRAFT_NS}slh-dsa-shake-128s`,
  /** RFC 9231 (RFC 4051): the signature value is r‖s, not DER. */
  ES256: 'http://www.w3.org/2001/04/xmldsig-more#ecdsa-sha256',
  RS256: 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256',
} as const;

/** The JOSE names of the signature algorithms above: the key's `alg` picks the XML algorithm. */
export type XmlSignatureAlg = keyof typeof SIGNATURE_URIS;
export type SignatureUri = (typeof SIGNATURE_URIS)[XmlSignatureAlg];

export const C14N_EXCLUSIVE = 'http://www.w3.org/2001/10/xml-exc-c14n#' as const;
export const TRANSFORM_ENVELOPED = 'http://www.w3.org/2000/09/xmldsig#enveloped-signature' as const;
export const DIGEST_SHA256 = 'http://www.w3.org/2001/04/xmlenc#sha256' as const;
export const XMLDSIG_NS = 'http://www.w3.org/2000/09/xmldsig#' as const;

export const isSignatureUri = (u: unknown): u is SignatureUri =>
  typeof u === 'string' && (Object.values(SIGNATURE_URIS) as string[]).includes(u);

export function algForUri(uri: SignatureUri): XmlSignatureAlg {
  const hit = (Object.keys(SIGNATURE_URIS) as XmlSignatureAlg[]).find((a) => SIGNATURE_URIS[a] === uri);
  // isSignatureUri guarantees a hit; the throw keeps the types honest.
  if (!hit) throw new Error(`unknown signature URI ${uri}`);
  return hit;
}

export const SLH_DSA_URIS = [
  SIGNATURE_URIS['SLH-DSA-SHA2-128s'],
  SIGNATURE_URIS['SLH-DSA-SHA2-128f'],
  SIGNATURE_URIS['SLH-DSA-SHAKE-128s'],
] as const;

export const ML_DSA_URIS = [
  SIGNATURE_URIS['ML-DSA-44'],
  SIGNATURE_URIS['ML-DSA-65'],
  SIGNATURE_URIS['ML-DSA-87'],
] as const;
