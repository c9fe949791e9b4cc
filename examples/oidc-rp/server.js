#!/usr/bin/env node
/**
 * Start the example RP against a pqid IdP (`npm start` at the repository root seeds the matching
 * demo client). Settings from the environment (README.md lists them); the defaults fit the demo.
 * Started before the IdP, it waits for it.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { algorithms, generateEncryptionKeyPair, isJweAlgorithm, jweRegistry } from '@pqid/jose';
import { dropExpectedExperimentalWarnings } from '../shared/experimental-warnings.js';
import { requireSupportedNode } from '../shared/node-version.js';
import { exitWith, waitForIdp, wholeNumber } from '../shared/wait-for-idp.js';
import { createRp, DPOP_ALGS } from './rp.js';

requireSupportedNode('example RP', 'npm run example:rp', new URL('package.json', import.meta.url));
// openid-client verifies ML-DSA through WebCrypto, which Node 24 calls experimental.
dropExpectedExperimentalWarnings();

const env = process.env;
const fail = exitWith('example RP');
const issuer = env.RP_ISSUER ?? 'http://localhost:3000';
const store = env.RP_STORE ?? 'session';
if (store !== 'session' && store !== 'cookie')
  fail(new Error(`RP_STORE must be session or cookie, not ${JSON.stringify(store)}`));
// A misspelt algorithm would otherwise show up only as a failed login.
const alg = env.RP_ALG ?? 'ML-DSA-65';
if (!algorithms().includes(alg))
  fail(new Error(`RP_ALG ${JSON.stringify(alg)}: choose one of ${algorithms().join(', ')}`));
// openid-client verifies an ML-DSA ID token through WebCrypto, which Node 22 lacks although pqid
// runs there: say so at start, not as a failed login.
if (/^ML-DSA-(44|65|87)$/.test(alg)) {
  const has = await crypto.subtle.generateKey({ name: alg }, false, ['sign']).then(
    () => true,
    () => false,
  );
  if (!has)
    fail(
      new Error(
        `openid-client verifies ${alg} ID tokens through WebCrypto, which Node ${process.version} does not have (Node 24.7 and newer do). To fix: npm run example:rp, which runs on the Node 24 that npm install put in node_modules/.bin`,
      ),
    );
}
const encAlg = env.RP_ID_TOKEN_ENCRYPTION || undefined; // empty: off, as unset
if (encAlg !== undefined && !isJweAlgorithm(encAlg))
  fail(
    new Error(
      `RP_ID_TOKEN_ENCRYPTION ${JSON.stringify(encAlg)}: choose one of ${jweRegistry()
        .map((e) => e.alg)
        .join(', ')}`,
    ),
  );
const dpopAlg = env.RP_DPOP_ALG || undefined; // empty: off, as unset
if (dpopAlg !== undefined && !DPOP_ALGS.includes(dpopAlg))
  fail(new Error(`RP_DPOP_ALG ${JSON.stringify(dpopAlg)}: choose one of ${DPOP_ALGS.join(', ')}`));
/**
 * RP_ID_TOKEN_ENCRYPTION=HPKE-9 (any JWE alg): ask for encrypted ID tokens. The private key is
 * kept in RP_ENCRYPTION_KEY_FILE, made on first start: a key that changed at every start would
 * not match the one the IdP cached from /jwks.
 */
async function encryptionKey(alg) {
  const file = env.RP_ENCRYPTION_KEY_FILE ?? join(tmpdir(), `pqid-example-rp-${alg}.jwk.json`);
  if (existsSync(file)) return JSON.parse(readFileSync(file, 'utf8'));
  const { privateJwk } = await generateEncryptionKeyPair(alg);
  writeFileSync(file, JSON.stringify(privateJwk), { mode: 0o600 });
  return privateJwk;
}
const options = {
  issuer,
  clientId: env.RP_CLIENT_ID ?? 'demo-client',
  clientSecret: env.RP_CLIENT_SECRET ?? 'demo-secret',
  alg,
  port: wholeNumber('example RP', 'RP_PORT', env.RP_PORT, 3001, 65535),
  store: /** @type {'session' | 'cookie'} */ (store),
  ...(encAlg ? { idTokenEncryption: { alg: encAlg, privateJwk: await encryptionKey(encAlg) } } : {}),
  ...(dpopAlg ? { dpopAlg } : {}),
};
const rp = await waitForIdp(() => createRp(options), {
  idp: issuer,
  label: 'example RP',
  hint: 'start it with `npm start` at the repository root',
  variable: 'RP_ISSUER',
  seconds: wholeNumber('example RP', 'RP_WAIT_SECONDS', env.RP_WAIT_SECONDS, 60, 3600),
}).catch(exitWith('example RP', 'RP_PORT'));
console.log(
  `example RP on ${rp.url} (redirect URI ${rp.redirectUri}${encAlg ? `; ${encAlg} encryption key at ${rp.url}/jwks` : ''}${dpopAlg ? `; access tokens DPoP-bound, one ${dpopAlg} key per login` : ''})`,
);
