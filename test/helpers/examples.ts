/**
 * The example apps against a test IdP, for the tests that drive them: each registered at the IdP
 * as its README says and listening on 127.0.0.1. The IdP must be listening already.
 */
import type { Server } from 'node:http';
// @ts-expect-error: the example is plain JavaScript with JSDoc types, outside the TS projects.
import { createRp } from '../../examples/oidc-rp/rp.js';
// @ts-expect-error: the example is plain JavaScript, outside the TS projects.
import { createSp, idpCertificateFromMetadata } from '../../examples/saml-sp/sp.js';
import { type Idp, registerClient } from '../../idp/src/app.ts';
import { registerSamlSp } from '../../idp/src/saml/sps.ts';

/** The example RP (examples/oidc-rp) as client `example-rp` with ML-DSA-65 ID tokens. */
export async function startExampleRp(
  idp: Idp,
  issuer: string,
  port: number,
): Promise<{ url: string; close(): Promise<void> }> {
  const url = `http://127.0.0.1:${port}`;
  const { clientSecret } = await registerClient(idp.ctx, {
    client_id: 'example-rp',
    client_name: 'Example RP',
    redirect_uris: [`${url}/callback`],
    id_token_signed_response_alg: 'ML-DSA-65',
  });
  return createRp({ issuer, clientId: 'example-rp', clientSecret, port, baseUrl: url });
}

/**
 * The example SAML SP (examples/saml-sp): registers it at `idp` (ML-DSA-65, Response and Assertion signed, persistent NameID), starts
 * it on 127.0.0.1:`port` trusting the IdP's ML-DSA-65 metadata certificate.
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
