/** SAML 2.0 identifiers used by the IdP, in one place (saml-core, saml-bindings, saml-metadata). */
export const NS = {
  samlp: 'urn:oasis:names:tc:SAML:2.0:protocol',
  saml: 'urn:oasis:names:tc:SAML:2.0:assertion',
  md: 'urn:oasis:names:tc:SAML:2.0:metadata',
  ds: 'http://www.w3.org/2000/09/xmldsig#',
} as const;

export const BINDING = {
  redirect: 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect',
  post: 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST',
} as const;

export const NAMEID_FORMAT = {
  persistent: 'urn:oasis:names:tc:SAML:2.0:nameid-format:persistent',
  transient: 'urn:oasis:names:tc:SAML:2.0:nameid-format:transient',
  emailAddress: 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress',
  unspecified: 'urn:oasis:names:tc:SAML:1.1:nameid-format:unspecified',
} as const;

export type NameIdFormatName = 'persistent' | 'transient' | 'emailAddress';
export const NAMEID_FORMAT_NAMES: readonly NameIdFormatName[] = ['persistent', 'transient', 'emailAddress'];

export function nameIdFormatName(uri: string): NameIdFormatName | undefined {
  return NAMEID_FORMAT_NAMES.find((n) => NAMEID_FORMAT[n] === uri);
}

export const STATUS = {
  success: 'urn:oasis:names:tc:SAML:2.0:status:Success',
  requester: 'urn:oasis:names:tc:SAML:2.0:status:Requester',
  responder: 'urn:oasis:names:tc:SAML:2.0:status:Responder',
  noPassive: 'urn:oasis:names:tc:SAML:2.0:status:NoPassive',
  invalidNameIdPolicy: 'urn:oasis:names:tc:SAML:2.0:status:InvalidNameIDPolicy',
  requestDenied: 'urn:oasis:names:tc:SAML:2.0:status:RequestDenied',
  noAuthnContext: 'urn:oasis:names:tc:SAML:2.0:status:NoAuthnContext',
} as const;

export const BEARER = 'urn:oasis:names:tc:SAML:2.0:cm:bearer';
export const AUTHN_CONTEXT = {
  unspecified: 'urn:oasis:names:tc:SAML:2.0:ac:classes:unspecified',
  password: 'urn:oasis:names:tc:SAML:2.0:ac:classes:Password',
  passwordProtectedTransport: 'urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport',
  /** REFEDS Single-Factor Authentication Profile; met by an MFA sign-in too. */
  refedsSfa: 'https://refeds.org/profile/sfa',
  /** REFEDS Multi-Factor Authentication Profile: the de facto SAML class for MFA. */
  refedsMfa: 'https://refeds.org/profile/mfa',
} as const;
export const ATTRNAME_BASIC = 'urn:oasis:names:tc:SAML:2.0:attrname-format:basic';
