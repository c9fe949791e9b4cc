#!/usr/bin/env node
/**
 * Start the example RP against a running pqid IdP (`npm start` at the repository root seeds the
 * matching demo client). Settings from the environment, defaults fit the demo.
 */
import { createRp } from './rp.js';

const env = process.env;
const rp = await createRp({
  issuer: env.RP_ISSUER ?? 'http://localhost:3000',
  clientId: env.RP_CLIENT_ID ?? 'demo-client',
  clientSecret: env.RP_CLIENT_SECRET ?? 'demo-secret',
  alg: env.RP_ALG ?? 'ML-DSA-65',
  port: Number(env.RP_PORT ?? 3001),
  store: env.RP_STORE === 'cookie' ? 'cookie' : 'session',
});
console.log(`example RP on ${rp.url} (redirect URI ${rp.redirectUri})`);
