/** An unmodified node-saml SP configured the way a passport-saml app would be. */
import { SAML } from '@node-saml/node-saml';
import { ACS, IDP, SP } from './fixtures.ts';

export interface SpOptions {
  idpCert: string | string[];
  wantAssertionsSigned?: boolean;
  wantAuthnResponseSigned?: boolean;
}

export function sp(opts: SpOptions): SAML {
  return new SAML({
    callbackUrl: ACS,
    entryPoint: `${IDP}/sso`,
    issuer: SP,
    audience: SP,
    idpIssuer: IDP,
    idpCert: opts.idpCert,
    wantAssertionsSigned: opts.wantAssertionsSigned ?? true,
    wantAuthnResponseSigned: opts.wantAuthnResponseSigned ?? true,
    acceptedClockSkewMs: 5_000,
  });
}

export function post(saml: SAML, xml: string) {
  return saml.validatePostResponseAsync({ SAMLResponse: Buffer.from(xml, 'utf8').toString('base64') });
}
