/** The example SAML SP (examples/saml-sp) registered at a test IdP and listening, for browser tests. */
import type { Server } from 'node:http';
// @ts-expect-error: the example is plain JavaScript, outside the TS projects.
import { createSp, idpCertificateFromMetadata } from '../../examples/saml-sp/sp.js';
import type { Idp } from '../../idp/src/app.ts';
import { registerSamlSp } from '../../idp/src/saml/sps.ts';

/**
 * Registers the SP at `idp` (ML-DSA-65, Response and Assertion signed, persistent NameID), starts
 * it on 127.0.0.1:`port` trusting the IdP's ML-DSA-65 metadata certificate. The IdP must listen.
 */
export async function startExampleSp(
  idp: Idp,
  issuer: string,
  port: number,
): Promise<{ url: string; close(): Promise<void> }> {
  const url = `http://127.0.0.1:${port}`;
  await registerSamlSp(idp.ctx, {
    entityId: `${url}/saml/metadata`,
    acsUrls: [`${url}/saml/acs`],
    sloUrl: `${url}/saml/slo`,
    signatureAlgorithm: 'ML-DSA-65',
    sign: 'both',
    nameIdFormat: 'persistent',
    name: 'Example SAML SP',
  });
  const metadata = await (await fetch(`${issuer}/saml/metadata`)).text();
  const sp = createSp({
    baseUrl: url,
    entityId: `${url}/saml/metadata`,
    idpSsoUrl: `${issuer}/saml/sso`,
    idpSloUrl: `${issuer}/saml/slo`,
    idpEntityId: `${issuer}/saml/metadata`,
    idpCert: await idpCertificateFromMetadata(metadata, 'ML-DSA-65'),
  });
  const server: Server = await new Promise((r) => {
    const s = sp.app.listen(port, '127.0.0.1', () => r(s));
  });
  return {
    url,
    close: async () => {
      sp.close();
      await new Promise((r) => server.close(r));
    },
  };
}
