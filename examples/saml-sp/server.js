#!/usr/bin/env node
/**
 * Run the example SP against a pqid IdP (`npm start` at the repository root):
 *
 *   node examples/saml-sp/server.js                 # ML-DSA-65, http://localhost:3002
 *   SP_ALG=RS256 node examples/saml-sp/server.js    # the legacy RSA-SHA256 SP, on :3003
 *
 * Settings from the environment (README.md lists them). Started before the IdP, it waits for its
 * metadata. Register it once (printed below): pqid saml-sps add --metadata <this SP>/saml/metadata
 * The IdP certificate is taken from the IdP metadata for convenience. In production, pin the
 * certificate you obtained out of band (or verify the metadata signature against the IdP's root).
 */
import { requireSupportedNode } from '../shared/node-version.js';
import { exitWith, fetchOk, waitForIdp, wholeNumber } from '../shared/wait-for-idp.js';
import { createSp, idpCertificateFromMetadata } from './sp.js';

requireSupportedNode('example SAML SP', 'npm run example:saml-sp', new URL('package.json', import.meta.url));
const env = process.env;
const idp = env.IDP_URL ?? 'http://localhost:3000';
const alg = env.SP_ALG ?? 'ML-DSA-65';
const port = wholeNumber('example SAML SP', 'SP_PORT', env.SP_PORT, alg === 'RS256' ? 3003 : 3002, 65535);
const baseUrl = env.SP_URL ?? `http://localhost:${port}`;
const fail = exitWith('example SAML SP', 'SP_PORT');

const metadata = await waitForIdp(async () => (await fetchOk(`${idp}/saml/metadata`)).text(), {
  idp,
  label: 'example SAML SP',
  hint: 'start it with `npm start` at the repository root',
  variable: 'IDP_URL',
  seconds: wholeNumber('example SAML SP', 'SP_WAIT_SECONDS', env.SP_WAIT_SECONDS, 60, 3600),
}).catch(fail);
const { app } = createSp({
  baseUrl,
  entityId: `${baseUrl}/saml/metadata`,
  idpSsoUrl: `${idp}/saml/sso`,
  idpSloUrl: `${idp}/saml/slo`,
  idpEntityId: /entityID="([^"]+)"/.exec(metadata)?.[1],
  idpCert: await idpCertificateFromMetadata(metadata, alg).catch(fail),
  pq: alg !== 'RS256',
});
app.listen(port, (/** @type {Error | undefined} */ error) => {
  if (error) fail(error);
  console.log(`example SAML SP (${alg}) on ${baseUrl}`);
  console.log(
    `register it once:  npm run pqid -- saml-sps add --metadata ${baseUrl}/saml/metadata --alg ${alg}`,
  );
});
