/** The SAML endpoint URLs and the IdP entityID, derived from the issuer like the OIDC ones. */
import { certificateBase64 } from '@pqid/xmldsig';
import type { Config } from '../config/index.ts';

export interface SamlEndpoints {
  entityId: string;
  metadata: string;
  sso: string;
  slo: string;
}

export function samlEndpoints(config: Config): SamlEndpoints {
  const base = `${config.issuer}/saml`;
  return {
    entityId: config.saml.entityId ?? `${base}/metadata`,
    metadata: `${base}/metadata`,
    sso: `${base}/sso`,
    slo: `${base}/slo`,
  };
}

/** The single-line base64 DER that goes into ds:X509Certificate. */
export const certificateBody = (pem: string): string => certificateBase64(pem);
