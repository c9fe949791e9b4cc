#!/usr/bin/env node
/**
 * A client for the example: a client_credentials token for the resource (RFC 8707), bound to a
 * fresh DPoP key of CALL_DPOP_ALG (default ML-DSA-65; `none` for a bearer token), then
 * GET /api/orders with it. Prints the sizes that travel and the answer. Settings from the
 * environment (README.md lists them).
 */
import { algorithms, generateKeyPair, importJWK, registry, signDpopProof } from '@pqid/jose';
import { requireSupportedNode } from '../shared/node-version.js';
import { exitWith, fetchOk, notAnswering } from '../shared/wait-for-idp.js';

requireSupportedNode(
  'call',
  'npm run call -w examples/resource-server',
  new URL('package.json', import.meta.url),
);
const env = process.env;
const issuer = env.RS_ISSUER ?? 'http://localhost:3000';
const rsUrl = env.RS_URL ?? 'http://localhost:4000';
const resource = env.RS_RESOURCE ?? `${rsUrl}/`;
const clientId = env.CALL_CLIENT_ID ?? 'orders-client';
const secret = env.CALL_CLIENT_SECRET;
const dpopAlg = env.CALL_DPOP_ALG ?? 'ML-DSA-65';
const fail = exitWith('call');
if (!secret)
  fail(
    new Error('set CALL_CLIENT_SECRET (and CALL_CLIENT_ID) to a client_credentials client: see README.md'),
  );
// Any registry algorithm but SLH-DSA, whose proofs (7.8–17 KB, hundreds of ms) are not for requests.
const slh = new Set(registry().flatMap((e) => (e.family === 'slh-dsa' ? [e.alg] : [])));
const proofAlgs = algorithms().filter((a) => !slh.has(a));
if (dpopAlg !== 'none' && !proofAlgs.includes(dpopAlg))
  fail(new Error(`CALL_DPOP_ALG ${JSON.stringify(dpopAlg)}: choose none or one of ${proofAlgs.join(', ')}`));

/**
 * The request, or one line saying which server did not answer and how to start it.
 * @template T @param {Promise<T>} request @param {string} what @param {string} url @param {string} how
 */
const reach = (request, what, url, how) =>
  request.catch((e) => {
    const reason = notAnswering(e);
    throw reason ? new Error(`cannot reach ${what} at ${url} (${reason}): ${how}`) : e;
  });

const key = dpopAlg === 'none' ? undefined : await importJWK((await generateKeyPair(dpopAlg)).privateJwk);
const meta = await reach(
  fetchOk(`${issuer}/.well-known/openid-configuration`).then((r) => r.json()),
  'the IdP',
  issuer,
  'start it with `npm start`, or set RS_ISSUER',
).catch(fail);
const tokenResponse = await fetch(meta.token_endpoint, {
  method: 'POST',
  headers: {
    'content-type': 'application/x-www-form-urlencoded',
    authorization: `Basic ${Buffer.from(`${encodeURIComponent(clientId)}:${encodeURIComponent(secret)}`).toString('base64')}`,
    ...(key ? { dpop: await signDpopProof(key, { htm: 'POST', htu: meta.token_endpoint }) } : {}),
  },
  body: new URLSearchParams({ grant_type: 'client_credentials', resource, scope: 'orders:read' }),
});
const tokens = await tokenResponse.json();
if (!tokenResponse.ok)
  fail(new Error(`the IdP refused the token request: ${tokens.error}: ${tokens.error_description ?? ''}`));
const alg = JSON.parse(Buffer.from(tokens.access_token.split('.')[0], 'base64url').toString()).alg;
const url = `${rsUrl}/api/orders`;
const headers = {
  authorization: `${tokens.token_type} ${tokens.access_token}`,
  ...(key
    ? { dpop: await signDpopProof(key, { htm: 'GET', htu: url, accessToken: tokens.access_token }) }
    : {}),
};
console.log(`access token: ${alg}, ${tokens.access_token.length} bytes, ${tokens.token_type}`);
if (headers.dpop) console.log(`DPoP proof: ${dpopAlg}, ${headers.dpop.length} bytes`);
const answer = await reach(
  fetch(url, { headers }),
  'the resource server',
  rsUrl,
  'start it with `npm run example:resource-server`, or set RS_URL',
).catch(fail);
console.log(`GET ${url} -> ${answer.status}`);
console.log(JSON.stringify(await answer.json(), null, 2));
