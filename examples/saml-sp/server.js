#!/usr/bin/env node
/**
 * Run the example SP against a running pqid IdP (`npm start` at the repository root):
 *
 *   node examples/saml-sp/server.js                 # ML-DSA-65, http://localhost:4000
 *   SP_ALG=RS256 SP_PORT=4001 node examples/saml-sp/server.js   # the legacy RSA-SHA256 SP
 *
 * Register it first (printed below): pqid saml-sps add --metadata http://localhost:4000/saml/metadata --alg ML-DSA-65
 * The IdP certificate is taken from the IdP metadata for convenience. In production, pin the
 * certificate you obtained out of band (or verify the metadata signature against the IdP's root).
 */
import { createSp, idpCertificateFromMetadata } from './sp.js';

const idp = process.env.IDP_URL ?? 'http://localhost:3000';
const alg = process.env.SP_ALG ?? 'ML-DSA-65';
const port = Number(process.env.SP_PORT ?? (alg === 'RS256' ? 4001 : 4000));
const baseUrl = process.env.SP_URL ?? `http://localhost:${port}`;

const metadata = await (await fetch(`${idp}/saml/metadata`)).text();
const entityId = /entityID="([^"]+)"/.exec(metadata)?.[1];
const { app } = createSp({
  baseUrl,
  entityId: `${baseUrl}/saml/metadata`,
  idpSsoUrl: `${idp}/saml/sso`,
  idpSloUrl: `${idp}/saml/slo`,
  idpEntityId: entityId,
  idpCert: await idpCertificateFromMetadata(metadata, alg),
  pq: alg !== 'RS256',
});
app.listen(port, () => {
  console.log(`example SAML SP (${alg}) on ${baseUrl}`);
  console.log(
    `register it once:  npm run pqid -- saml-sps add --metadata ${baseUrl}/saml/metadata --alg ${alg}`,
  );
});
