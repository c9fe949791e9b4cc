#!/usr/bin/env node
/**
 * node-oidc-provider (npm `oidc-provider` 9.x) configured minimally for the comparison run:
 * client_credentials only, one client per algorithm (ES256 and ML-DSA-65) whose access tokens
 * are RFC 9068 JWTs signed with that algorithm (through a resource indicator's
 * `accessTokenFormat: 'jwt'`). ML-DSA needs Node >= 24.7. Prints `{"ready":true,...}` on stdout.
 */
import { generateKeyPairSync } from 'node:crypto';
import http from 'node:http';
import Provider from 'oidc-provider';

/** @type {{ port: number, algs?: string[] }} */
const opts = JSON.parse(process.argv[2] ?? '{}');
const { port, algs = ['ES256', 'ML-DSA-65'] } = opts;
const issuer = `http://127.0.0.1:${port}`;
const resource = 'urn:pqid:load:api';

/**
 * A fresh private JWK for `alg` (ES256, or an ML-DSA parameter set node:crypto knows).
 * @param {string} alg
 */
const keyFor = (alg) => {
  const { privateKey } =
    alg === 'ES256'
      ? generateKeyPairSync('ec', { namedCurve: 'P-256' })
      : generateKeyPairSync(/** @type {'ed25519'} */ (alg.toLowerCase()), {});
  return { ...privateKey.export({ format: 'jwk' }), alg, use: 'sig', kid: `op-${alg}` };
};

/** @param {string} clientId */
const clientAlg = (clientId) => clientId.replace(/^op-/, '');
const provider = new Provider(issuer, {
  jwks: { keys: algs.map(keyFor) },
  clients: algs.map((alg) => ({
    client_id: `op-${alg}`,
    client_secret: `secret-${alg}`,
    grant_types: ['client_credentials'],
    redirect_uris: [],
    response_types: [],
    token_endpoint_auth_method: 'client_secret_basic',
    id_token_signed_response_alg: alg,
    scope: 'api',
  })),
  scopes: ['api'],
  // ML-DSA is not in the default list of enabled JWS algorithms.
  enabledJWA: { idTokenSigningAlgValues: [...algs] },
  features: {
    devInteractions: { enabled: false },
    clientCredentials: { enabled: true },
    resourceIndicators: {
      enabled: true,
      defaultResource: () => resource,
      useGrantedResource: () => true,
      getResourceServerInfo: (
        /** @type {unknown} */ _ctx,
        /** @type {string} */ _resourceIndicator,
        /** @type {{ clientId: string }} */ client,
      ) => ({
        scope: 'api',
        audience: resource,
        accessTokenTTL: 3600,
        accessTokenFormat: 'jwt',
        jwt: { sign: { alg: clientAlg(client.clientId) } },
      }),
    },
  },
});

const server = http.createServer(provider.callback());
await /** @type {Promise<void>} */ (
  new Promise((resolve) => server.listen(port, '127.0.0.1', () => resolve()))
);
process.stdout.write(
  `${JSON.stringify({
    ready: true,
    pid: process.pid,
    issuer,
    port,
    clients: Object.fromEntries(
      algs.map((a) => [a, { confidential: { id: `op-${a}`, secret: `secret-${a}` } }]),
    ),
  })}\n`,
);
const stop = () => server.close(() => process.exit(0));
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
