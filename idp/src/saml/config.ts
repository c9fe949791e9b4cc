/**
 * The `saml` configuration section. Placement is configuration: the cold-path root
 * (`keys.placement.cold`; `saml.rootAlg` is its older name) certifies the hot signing keys and
 * signs the metadata; `metadataAlgs` are the hot algorithms published in the metadata even
 * before an SP registers them (RS256 so that a legacy SP can be onboarded from the metadata alone).
 */
import { algorithms } from '@pqid/jose';
import { DEFAULT_SAML_LIMITS, type XmlLimits } from '@pqid/xmldsig';

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

export interface SamlConfig {
  /** Turn the SAML endpoints off entirely. */
  enabled: boolean;
  /** The IdP entityID; default `<issuer>/saml/metadata`. */
  entityId?: string;
  /**
   * Older name of `keys.placement.cold` (the root that certifies signing keys and signs the
   * metadata): set only when configured; loadConfig folds it into keys.placement.cold.
   */
  rootAlg?: string;
  /** Hot algorithms always published in the metadata (SP registrations add theirs). */
  metadataAlgs: SamlSigningAlg[];
  /** Default algorithm for SPs that register none. */
  defaultAlg: SamlSigningAlg;
  /** Seconds an assertion (Conditions, SubjectConfirmationData) stays valid. */
  assertionLifetime: number;
  /** Seconds an AuthnRequest/LogoutRequest may be old (IssueInstant); also the replay window. */
  requestMaxAge: number;
  /** Bytes an inflated or decoded request may have. */
  maxRequestBytes: number;
  /**
   * Shape limits on every AuthnRequest and LogoutRequest, checked before it is parsed: elements,
   * depth, children and attributes per element (bytes alone do not bound the work; see
   * docs/SAML.md, "Work limits"). Default: @pqid/xmldsig's DEFAULT_SAML_LIMITS.
   */
  requestLimits: XmlLimits;
  /** Validity of the certificates of the hot keys and of the root, days. */
  leafCertificateDays: number;
  rootCertificateDays: number;
  /** Seconds the signed metadata is valid (validUntil) and cached by SPs. */
  metadataValidity: number;
}

export const samlDefaults = (): SamlConfig => ({
  enabled: true,
  metadataAlgs: ['ML-DSA-65', 'RS256'],
  defaultAlg: 'ML-DSA-65',
  assertionLifetime: 300,
  requestMaxAge: 600,
  maxRequestBytes: 64 * 1024,
  requestLimits: { ...DEFAULT_SAML_LIMITS },
  leafCertificateDays: 730,
  rootCertificateDays: 3650,
  metadataValidity: 7 * 86400,
});

const NUMBERS = [
  'assertionLifetime',
  'requestMaxAge',
  'maxRequestBytes',
  'leafCertificateDays',
  'rootCertificateDays',
  'metadataValidity',
] as const;

export const isSamlSigningAlg = (a: unknown): a is SamlSigningAlg =>
  typeof a === 'string' && (SAML_SIGNING_ALGS as readonly string[]).includes(a);

export function parseSamlConfig(layers: unknown[], fail: (message: string) => never): SamlConfig {
  const cfg = samlDefaults();
  for (const raw of layers) {
    if (raw === undefined) continue;
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) fail('saml must be an object');
    for (const [k, v] of Object.entries(raw as Record<string, unknown>)) {
      if (k === 'enabled') {
        if (typeof v !== 'boolean') fail('saml.enabled must be a boolean');
        cfg.enabled = v as boolean;
      } else if (k === 'entityId') {
        if (typeof v !== 'string' || v === '') fail('saml.entityId must be a non-empty string');
        cfg.entityId = v as string;
      } else if (k === 'rootAlg') {
        if (v === undefined) continue;
        const ok = rootAlgs();
        if (typeof v !== 'string' || !ok.includes(v)) fail(`saml.rootAlg must be one of ${ok.join(', ')}`);
        cfg.rootAlg = v as string;
      } else if (k === 'defaultAlg') {
        if (!isSamlSigningAlg(v)) fail(`saml.defaultAlg must be one of ${SAML_SIGNING_ALGS.join(', ')}`);
        cfg.defaultAlg = v as SamlSigningAlg;
      } else if (k === 'metadataAlgs') {
        if (!Array.isArray(v) || !v.every(isSamlSigningAlg))
          fail(`saml.metadataAlgs must be a list of ${SAML_SIGNING_ALGS.join(', ')}`);
        cfg.metadataAlgs = [...new Set(v as SamlSigningAlg[])];
      } else if (k === 'requestLimits') {
        if (typeof v !== 'object' || v === null || Array.isArray(v))
          fail('saml.requestLimits must be an object');
        for (const [lk, lv] of Object.entries(v as Record<string, unknown>)) {
          if (!(lk in DEFAULT_SAML_LIMITS))
            fail(
              `saml.requestLimits: unknown limit "${lk}"; one of ${Object.keys(DEFAULT_SAML_LIMITS).join(', ')}`,
            );
          if (typeof lv !== 'number' || !Number.isSafeInteger(lv) || lv <= 0)
            fail(`saml.requestLimits.${lk} must be a positive integer`);
          cfg.requestLimits[lk as keyof XmlLimits] = lv as number;
        }
      } else if ((NUMBERS as readonly string[]).includes(k)) {
        if (typeof v !== 'number' || !Number.isInteger(v) || v <= 0)
          fail(`saml.${k} must be a positive integer`);
        cfg[k as (typeof NUMBERS)[number]] = v as number;
      } else {
        fail(`saml: unknown setting "${k}"`);
      }
    }
  }
  return cfg;
}
