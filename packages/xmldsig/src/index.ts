/** @pqid/xmldsig — ML-DSA, SLH-DSA and ECDSA XML signatures for SAML, X.509 certificates for their keys. */

export { InvalidArgument } from '@pqid/jose';
export {
  checkSamlResponseAddressing,
  type NodeSamlProfileXml,
  type SamlResponseXml,
} from './addressing.ts';
export {
  type AlgorithmOptions,
  algorithmFor,
  ecdsaSha256Algorithm,
  type KeyFilter,
  mlDsaAlgorithm,
  rsaSha256Algorithm,
  type SignatureAlgorithmClass,
  signatureAlgorithmMap,
  slhDsaAlgorithm,
} from './algorithms/signature-algorithms.ts';
export * from './errors.ts';
export { algOfJwk, algOfKey, type Jwk, type KeyLike, publicJwkOf, type SigningKey } from './keys.ts';
export {
  installNodeSamlIntegration,
  type NodeSamlIntegration,
  type NodeSamlIntegrationOptions,
} from './node-saml.ts';
export {
  SAML_NS,
  SAMLP_NS,
  type VerifiedSamlResponse,
  type VerifySamlResponseOptions,
  verifySamlResponse,
} from './saml.ts';
export {
  DEFAULT_MAX_SAML_MESSAGE_BYTES,
  type DecodedSamlMessage,
  type DecodeSamlMessageOptions,
  decodeSamlMessage,
  decodeSamlMessageDocument,
} from './saml-message.ts';
export { type SignXmlOptions, signXml, signXmlAsync } from './sign.ts';
export {
  type CheckedSamlMessage,
  checkSamlHttpMessage,
  type SamlHttpRequest,
  type SamlHttpRules,
} from './sp-guard.ts';
export {
  type NodeSamlCacheProvider,
  type RecommendedNodeSamlOptions,
  type RecommendedNodeSamlOptionsInput,
  recommendedNodeSamlOptions,
} from './sp-policy.ts';
export * from './uris.ts';
export { type VerifiedXml, type VerifyXmlOptions, verifyXml } from './verify.ts';
export {
  createRootCertificate,
  type IssueCertificateOptions,
  type IssuedCertificate,
  issueCertificate,
  type RootCertificateOptions,
  type ValidityPeriod,
} from './x509/issue.ts';
export type { DistinguishedName } from './x509/name.ts';
export { type ParsedCertificate, parseCertificate } from './x509/parse.ts';
export { certificateBase64, certificateDer, derToPem } from './x509/pem.ts';
export { CERTIFICATE_SIGNATURE_ALGORITHMS, type CertificateSignatureAlgorithm } from './x509/signers.ts';
export type { CertificatePublicKey } from './x509/spki.ts';
export { isCertificateCurrent, verifyCertificateSignature } from './x509/verify.ts';
export {
  checkXmlLimits,
  DEFAULT_SAML_LIMITS,
  samlLimits,
  type XmlLimits,
  type XmlShape,
} from './xml/limits.ts';
export { DEFAULT_MAX_XML_BYTES, parseXml } from './xml/parse.ts';
