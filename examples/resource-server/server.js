#!/usr/bin/env node
/**
 * Start the example resource server against a pqid IdP whose configuration lists it in
 * `resourceServers` (see README.md, which lists the settings). Started before the IdP, it waits
 * for it.
 */
import { requireSupportedNode } from '../shared/node-version.js';
import { exitWith, waitForIdp, wholeNumber } from '../shared/wait-for-idp.js';
import { createResourceServer } from './rs.js';

requireSupportedNode(
  'example resource server',
  'npm run example:resource-server',
  new URL('package.json', import.meta.url),
);
const env = process.env;
const issuer = env.RS_ISSUER ?? 'http://localhost:3000';
const options = {
  issuer,
  port: wholeNumber('example resource server', 'RS_PORT', env.RS_PORT, 4000, 65535),
  ...(env.RS_RESOURCE ? { resource: env.RS_RESOURCE } : {}),
  ...(env.RS_ALGS ? { algorithms: env.RS_ALGS.split(',').map((s) => s.trim()) } : {}),
};
const rs = await waitForIdp(() => createResourceServer(options), {
  idp: issuer,
  label: 'example resource server',
  hint: 'start it with `npm start`, its configuration naming this API (README.md)',
  variable: 'RS_ISSUER',
  seconds: wholeNumber('example resource server', 'RS_WAIT_SECONDS', env.RS_WAIT_SECONDS, 60, 3600),
}).catch(exitWith('example resource server', 'RS_PORT'));
console.log(`example resource server on ${rs.url} (resource ${rs.resource}); try GET ${rs.url}/api/orders`);
