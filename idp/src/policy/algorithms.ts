/**
 * Which algorithm may sign what: a fact of the algorithm registry (@pqid/jose), not of any one
 * feature, so configuration, clients, SAML and the key manager all ask here. SLH-DSA is the
 * cold-path algorithm: at tens (-128f) to hundreds (-128s) of milliseconds per signature it would
 * cap a core at a few tokens per second, so it signs per request only where the operator allowed
 * it (`keys.allowSlhDsaHotPath`, docs/KEYS.md).
 */
import { algorithms, getAlgorithm } from '@pqid/jose';

/**
 * Algorithms too slow to sign per request: SLH-DSA (hundreds of milliseconds per signature for
 * the small variants, tens for the fast ones, against well under one for ML-DSA). They belong on
 * the cold path; the hot path takes them only with `keys.allowSlhDsaHotPath` (docs/KEYS.md).
 */
export const isSlowSigner = (alg: string): boolean => {
  try {
    return getAlgorithm(alg).family === 'slh-dsa';
  } catch {
    return false;
  }
};

/**
 * What may sign per token or response: every algorithm of the registry, SLH-DSA only when the
 * operator accepted its cost. Both what is offered (CLI help, discovery, error messages) and what
 * is accepted come from here, so the two cannot drift apart.
 */
export const hotPathAlgorithms = (allowSlow: boolean): string[] =>
  algorithms().filter((a) => allowSlow || !isSlowSigner(a));

/** The refusal for a hot-path SLH-DSA request, shared by client and SP registration. */
export function slowHotPathRefusal(what: string, alg: string): string {
  return `${what} ${alg} is refused: SLH-DSA signs at tens to hundreds of milliseconds per signature, so every token or response would pay it. It is the cold-path algorithm here (SAML root, signed metadata and JWKS). An operator can allow it with keys.allowSlhDsaHotPath (docs/KEYS.md, "SLH-DSA on the hot path")`;
}

/** XML-DSig algorithms an SP may choose (the JOSE names @pqid/xmldsig maps to URIs). */
export const SAML_SIGNING_ALGS = ['ML-DSA-44', 'ML-DSA-65', 'ML-DSA-87', 'RS256', 'ES256'] as const;
export type SamlSigningAlg = (typeof SAML_SIGNING_ALGS)[number];

/**
 * SLH-DSA for an SP's Responses: a signature per login, so only with keys.allowSlhDsaHotPath
 * (docs/KEYS.md, "SLH-DSA on the hot path").
 */
export const SAML_SLOW_SIGNING_ALGS = [
  'SLH-DSA-SHA2-128f',
  'SLH-DSA-SHA2-128s',
  'SLH-DSA-SHAKE-128s',
] as const;
export type SamlResponseAlg = SamlSigningAlg | (typeof SAML_SLOW_SIGNING_ALGS)[number];

export const isSlowSamlSigningAlg = (a: unknown): a is (typeof SAML_SLOW_SIGNING_ALGS)[number] =>
  typeof a === 'string' &&
  (SAML_SLOW_SIGNING_ALGS as readonly string[]).includes(a) &&
  algorithms().includes(a);

/**
 * Cold-path root algorithms: they sign X.509 certificates (RFC 9881, RFC 9909), XML metadata and
 * the signed JWKS, so each must be all three. SLH-DSA-SHA2-128s is the cold-path choice.
 */
export const SAML_ROOT_ALGS = [
  'SLH-DSA-SHA2-128s',
  'SLH-DSA-SHAKE-128s',
  'SLH-DSA-SHA2-128f',
  'ML-DSA-87',
  'ML-DSA-65',
  'ML-DSA-44',
  'ES256',
  'RS256',
] as const;

/** The root algorithms this runtime can sign with. */
export const rootAlgs = (): string[] => SAML_ROOT_ALGS.filter((a) => algorithms().includes(a));

export const isSamlSigningAlg = (a: unknown): a is SamlSigningAlg =>
  typeof a === 'string' && (SAML_SIGNING_ALGS as readonly string[]).includes(a);
