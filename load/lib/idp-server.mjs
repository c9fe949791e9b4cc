#!/usr/bin/env node
/**
 * The IdP under load, as a child process of the runner (so its CPU time can be read from
 * /proc/<pid>/stat): a fresh pqid provider built with the exported createIdp/registerClient,
 * one confidential client (client_credentials) and one public client (authorization code +
 * refresh) per algorithm, a client that signs request objects (JAR, pushed through PAR) with a
 * key of that algorithm, public clients that ask for encrypted ID tokens (one per requested
 * algorithm and JWE configuration, each with its own encryption key pair), N users, and optional HTTPS listeners with hybrid (X25519MLKEM768)
 * and classical (X25519) key exchange. Prints one JSON line `{"ready":true,...}` on stdout.
 *
 * Input: a JSON object in argv[2] (see run.mjs#startIdp).
 */
import { execFileSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync } from 'node:fs';
import https from 'node:https';
import { join } from 'node:path';
import { createIdp, loadConfig, registerClient } from '@pqid/idp';
import { backends, generateEncryptionKeyPair, generateKeyPair, signJwt } from '@pqid/jose';

/**
 * @typedef {object} Options
 * @property {number} port
 * @property {string} dataDir
 * @property {string[]} algs
 * @property {number} [users]
 * @property {string} [password]
 * @property {{ name: string, ecdhCurve: string, port: number }[]} [tls]
 * @property {string} [logLevel]
 * @property {Record<string, unknown>} [config]
 * @property {string[]} [floorAlgs]
 * @property {{ alg: string, jwe: import('./types.d.ts').JweConfig }[]} [encryptedIdTokens]
 */
/** @typedef {{ alg?: string, set?: 'oidc' | 'saml' }} HarnessQuery */

/** @type {Options} */
const opts = JSON.parse(process.argv[2] ?? '{}');
const {
  port,
  dataDir,
  algs,
  users = 8,
  password = 'load-password',
  tls = [],
  logLevel = 'warn',
  // Extra configuration (the placement study's IdP: an SLH-DSA root, a signed JWKS, SLH-DSA clients).
  config: extra = {},
  // Algorithms whose token responses the HTTP-floor route replays (none unless asked).
  floorAlgs = [],
  // Public clients whose ID tokens are encrypted (lib/variants.mjs encryptedIdTokenClients).
  encryptedIdTokens = [],
} = opts;
const issuer = `http://127.0.0.1:${port}`;
mkdirSync(dataDir, { recursive: true });

const config = loadConfig({
  env: {},
  cwd: dataDir,
  overrides: /** @type {NonNullable<Parameters<typeof loadConfig>[0]>['overrides']} */ ({
    port,
    host: '127.0.0.1',
    issuer,
    dataDir,
    logLevel,
    demo: { enabled: false },
    ...extra,
  }),
});
const idp = await createIdp(config, {
  env: { PQID_KEK: randomBytes(32).toString('base64') },
  warn: (m) => process.stderr.write(`idp warning: ${m}\n`),
});

const REDIRECT_URI = 'http://127.0.0.1:9/cb';
/** @type {import('./types.d.ts').IdpInfo['clients']} */
const clients = {};
for (const alg of algs) {
  /** @type {Partial<import('@pqid/idp').ClientInput>} */
  const common = {
    id_token_signed_response_alg: alg,
    access_token_format: 'jwt',
    access_token_signed_response_alg: alg,
  };
  // No client_secret in the input: the IdP generates one, as for any production client.
  const { clientSecret: secret } = await registerClient(idp.ctx, {
    ...common,
    client_id: `cc-${alg}`,
    token_endpoint_auth_method: 'client_secret_basic',
    redirect_uris: [],
    grant_types: ['client_credentials'],
    scope: 'api',
  });
  await registerClient(idp.ctx, {
    ...common,
    client_id: `rp-${alg}`,
    token_endpoint_auth_method: 'none',
    redirect_uris: [REDIRECT_URI],
    post_logout_redirect_uris: ['http://127.0.0.1:9/bye'],
    grant_types: ['authorization_code', 'refresh_token'],
    scope: 'openid profile email offline_access',
  });
  // Signs its request objects with its own key of this algorithm (JAR), pushed through PAR.
  const jarKey = await generateKeyPair(alg);
  const { clientSecret: jarSecret } = await registerClient(idp.ctx, {
    client_id: `jar-${alg}`,
    id_token_signed_response_alg: alg,
    token_endpoint_auth_method: 'client_secret_basic',
    redirect_uris: [REDIRECT_URI],
    jwks: { keys: [jarKey.publicJwk] },
    request_object_signing_alg: alg,
    scope: 'openid profile email',
  });
  if (!secret || !jarSecret) throw new Error(`no client secret generated for ${alg}`);
  clients[alg] = {
    confidential: { id: `cc-${alg}`, secret },
    public: { id: `rp-${alg}` },
    jar: { id: `jar-${alg}`, secret: jarSecret, privateJwk: jarKey.privateJwk },
    encrypted: {},
  };
}
// The refresh_token client of `alg`, asking for its ID tokens encrypted to its own key: the
// runner decrypts a sample with the private half.
for (const { alg, jwe } of encryptedIdTokens) {
  const entry = clients[alg];
  if (!entry) continue;
  const { publicJwk, privateJwk } = await generateEncryptionKeyPair(jwe.alg);
  const id = `rp-${alg}-${jwe.alg}`;
  await registerClient(idp.ctx, {
    client_id: id,
    id_token_signed_response_alg: alg,
    access_token_format: 'jwt',
    access_token_signed_response_alg: alg,
    token_endpoint_auth_method: 'none',
    redirect_uris: [REDIRECT_URI],
    grant_types: ['authorization_code', 'refresh_token'],
    scope: 'openid profile email offline_access',
    jwks: { keys: [publicJwk] },
    id_token_encrypted_response_alg: jwe.alg,
    ...(jwe.enc ? { id_token_encrypted_response_enc: jwe.enc } : {}),
  });
  entry.encrypted[jwe.alg] = { id, jwe, privateJwk };
}
const usernames = [];
for (let i = 0; i < users; i++) {
  const username = `load-${i}`;
  if (!(await idp.ctx.accounts.findByUsername(username))) {
    await idp.ctx.accounts.create({
      username,
      password,
      name: `Load User ${i}`,
      email: `load-${i}@example.com`,
      emailVerified: true,
    });
  }
  usernames.push(username);
}

// Two small routes of the load harness (not part of the IdP): a trivial endpoint for TLS
// handshake measurements, and the process's own CPU time.
idp.app.get('/__load/ping', async (_req, reply) => reply.header('cache-control', 'no-store').send('ok'));
idp.app.get('/__load/cpu', async () => process.cpuUsage());
// Rotate a key set at once (the placement study): the signed JWKS and the SAML metadata must then
// be re-signed by the cold-path root on their next fetch, which the runner times.
idp.app.post('/__load/rotate', async (req) => {
  const { set, alg } = /** @type {HarnessQuery} */ (req.query);
  const rotated = await idp.ctx.keys.rotate(alg || undefined, { immediate: true, set });
  return rotated.map((k) => ({ kid: k.kid, alg: k.alg, set: k.set }));
});
// The HTTP floor of the token endpoint: a real client_credentials response per algorithm, minted
// once, answered again for every request with the token endpoint's headers. The runner drives it
// with the same k6 requests to measure what a token costs before authentication, signing and
// storage (Node's HTTP, fastify, body parsing, hooks, the response bytes).
/** @type {Record<string, unknown>} */
const floorBodies = {};
// Routes first: fastify takes none after its first request (the inject below).
idp.app.post('/__load/floor', async (req, reply) => {
  const body = floorBodies[/** @type {HarnessQuery} */ (req.query).alg ?? ''];
  if (!body) return reply.code(404).send({ error: 'not_found' });
  return reply.headers({ 'cache-control': 'no-store', pragma: 'no-cache' }).send(body);
});
// The token endpoint's own parts, one at a time, for the decomposition in the load report: the
// same k6 requests and response shape as /token, with no client authentication, grant checks or
// metrics (the form body is parsed, as for every route, but not validated or read).
// `sign-floor` builds and signs a fresh client_credentials access token as issue.ts does (its
// signToken is not exported, so this calls @pqid/jose's signJwt with the same claims, options
// and key-manager key); `store-floor` also writes the access-token record under the token's
// digest before answering, as issue.ts does. Their differences to /__load/floor and to /token
// are the signature, the storage write and the protocol work, measured on the same server in
// the same run.
const harnessJti = pooledTokens(16);
/**
 * A fresh client_credentials access token of `alg`'s confidential client, signed as /token signs it.
 * @param {string} alg
 */
async function harnessToken(alg) {
  const { ctx } = idp;
  const clientId = clients[alg]?.confidential.id ?? '';
  const { issuer: iss, ttl } = ctx.config;
  const key = await ctx.keys.signerFor('access_token', alg);
  const jwt = await signJwt({ client_id: clientId, scope: 'api', jti: harnessJti() }, key, {
    typ: 'at+jwt',
    issuer: iss,
    subject: clientId,
    audience: iss,
    expiresIn: ttl.accessToken,
  });
  return { clientId, jwt };
}
/**
 * Answer with a token response of the token endpoint's shape.
 * @param {import('fastify').FastifyReply} reply
 * @param {string} jwt
 */
const tokenResponse = (reply, jwt) =>
  reply.headers({ 'cache-control': 'no-store', pragma: 'no-cache' }).send({
    access_token: jwt,
    token_type: 'Bearer',
    expires_in: idp.ctx.config.ttl.accessToken,
    scope: 'api',
  });
idp.app.post('/__load/sign-floor', async (req, reply) => {
  const alg = /** @type {HarnessQuery} */ (req.query).alg ?? '';
  if (!clients[alg]) return reply.code(404).send({ error: 'not_found' });
  const { jwt } = await harnessToken(alg);
  return tokenResponse(reply, jwt);
});
idp.app.post('/__load/store-floor', async (req, reply) => {
  const alg = /** @type {HarnessQuery} */ (req.query).alg ?? '';
  if (!clients[alg]) return reply.code(404).send({ error: 'not_found' });
  const { clientId, jwt } = await harnessToken(alg);
  const ttl = idp.ctx.config.ttl.accessToken;
  const iat = Math.floor(Date.now() / 1000);
  await idp.ctx.storage
    .adapter('AccessToken')
    .upsert(
      createHash('sha256').update(jwt).digest('base64url'),
      { clientId, scope: 'api', iat, exp: iat + ttl, format: 'jwt' },
      ttl,
    );
  return tokenResponse(reply, jwt);
});
for (const alg of floorAlgs) {
  const client = clients[alg];
  if (!client) continue;
  const { id, secret } = client.confidential;
  const r = await idp.app.inject({
    method: 'POST',
    url: new URL('/token', `${issuer}/`).pathname,
    headers: {
      authorization: `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`,
      'content-type': 'application/x-www-form-urlencoded',
    },
    payload: 'grant_type=client_credentials&scope=api',
  });
  if (r.statusCode === 200) floorBodies[alg] = r.json();
}
await idp.app.listen({ port, host: '127.0.0.1' });

// HTTPS listeners in front of the same fastify instance: the request is handed to fastify's own
// request listener, so everything after the handshake is identical for both key exchanges.
/** @type {Record<string, { port: number, ecdhCurve: string }>} */
const tlsPorts = {};
if (tls.length) {
  const { key, cert } = selfSigned(dataDir);
  for (const { name, ecdhCurve, port: tlsPort } of tls) {
    const server = https.createServer({ key, cert, ecdhCurve, minVersion: 'TLSv1.3' }, (req, res) =>
      idp.app.server.emit('request', req, res),
    );
    await /** @type {Promise<void>} */ (
      new Promise((resolve, reject) => {
        server.once('error', reject);
        server.listen(tlsPort, '127.0.0.1', () => resolve());
      })
    );
    tlsPorts[name] = { port: tlsPort, ecdhCurve };
  }
}

process.stdout.write(
  `${JSON.stringify({
    ready: true,
    pid: process.pid,
    issuer,
    port,
    clients,
    users: usernames,
    password,
    redirectUri: REDIRECT_URI,
    tls: tlsPorts,
    node: process.version,
    openssl: process.versions.openssl,
    // What /healthz shows only to the operator: the ML-DSA backends this process can use.
    mldsaBackends: backends()
      .filter((b) => b.available)
      .map((b) => b.name),
  })}\n`,
);

const stop = () => {
  idp.close().then(
    () => process.exit(0),
    () => process.exit(1),
  );
};
process.once('SIGTERM', stop);
process.once('SIGINT', stop);

/**
 * Random base64url handles cut from one CSPRNG buffer, as the IdP's randomToken does.
 * @param {number} bytes
 */
function pooledTokens(bytes) {
  let pool = Buffer.alloc(0);
  let at = 0;
  return () => {
    if (at + bytes > pool.length) {
      pool = randomBytes(bytes * 256);
      at = 0;
    }
    at += bytes;
    return pool.toString('base64url', at - bytes, at);
  };
}

/**
 * A throwaway P-256 certificate for 127.0.0.1, made with the openssl CLI at run time.
 * @param {string} dir
 */
function selfSigned(dir) {
  const keyPath = join(dir, 'tls-key.pem');
  const certPath = join(dir, 'tls-cert.pem');
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-keyout',
      keyPath,
      '-out',
      certPath,
      '-days',
      '1',
      '-subj',
      '/CN=127.0.0.1',
      '-addext',
      'subjectAltName=IP:127.0.0.1',
    ],
    { stdio: 'ignore' },
  );
  return { key: readFileSync(keyPath), cert: readFileSync(certPath) };
}
