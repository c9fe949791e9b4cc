#!/usr/bin/env node
/**
 * Start the example resource server against a running pqid IdP whose configuration lists it in
 * `resourceServers` (see README.md). Settings from the environment.
 */
import { createResourceServer } from './rs.js';

const env = process.env;
const rs = await createResourceServer({
  issuer: env.RS_ISSUER ?? 'http://localhost:3000',
  port: Number(env.RS_PORT ?? 4000),
  ...(env.RS_RESOURCE ? { resource: env.RS_RESOURCE } : {}),
  ...(env.RS_ALGS ? { algorithms: env.RS_ALGS.split(',').map((s) => s.trim()) } : {}),
});
console.log(`example resource server on ${rs.url} (resource ${rs.resource}); try GET ${rs.url}/api/orders`);
