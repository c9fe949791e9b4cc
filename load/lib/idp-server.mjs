#!/usr/bin/env node
/**
 * The IdP under load, as a child process of the runner (so its CPU time can be read from
 * /proc/<pid>/stat): a fresh pqid provider built with the exported createIdp/registerClient,
 * one confidential client (client_credentials) and one public client (authorization code +
 * refresh) per algorithm, a client that signs request objects (JAR, pushed through PAR) with a
 * key of that algorithm, N users, and optional HTTPS listeners with hybrid (X25519MLKEM768)
 * and classical (X25519) key exchange. Prints one JSON line `{"ready":true,...}` on stdout.
 *
 * Input: a JSON object in argv[2] (see run.mjs#startIdp).
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync } from 'node:fs';
import https from 'node:https';
import { join } from 'node:path';
import { createIdp, loadConfig, registerClient } from '@pqid/idp';
import { generateKeyPair } from '@pqid/jose';

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
} = opts;
const issuer = `http://127.0.0.1:${port}`;
mkdirSync(dataDir, { recursive: true });

const config = loadConfig({
  env: {},
  cwd: dataDir,
  overrides: { port, host: '127.0.0.1', issuer, dataDir, logLevel, demo: { enabled: false }, ...extra },
});
const idp = await createIdp(config, {
  env: { PQID_KEK: randomBytes(32).toString('base64') },
  warn: (m) => process.stderr.write(`idp warning: ${m}\n`),
});

const REDIRECT_URI = 'http://127.0.0.1:9/cb';
const clients = {};
for (const alg of algs) {
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
  clients[alg] = {
    confidential: { id: `cc-${alg}`, secret },
    public: { id: `rp-${alg}` },
    jar: { id: `jar-${alg}`, secret: jarSecret, privateJwk: jarKey.privateJwk },
  };
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
  const { set, alg } = req.query;
  const rotated = await idp.ctx.keys.rotate(alg || undefined, { immediate: true, set });
  return rotated.map((k) => ({ kid: k.kid, alg: k.alg, set: k.set }));
});
// The HTTP floor of the token endpoint: a real client_credentials response per algorithm, minted
// once, answered again for every request with the token endpoint's headers. The runner drives it
// with the same k6 requests to measure what a token costs before authentication, signing and
// storage (Node's HTTP, fastify, body parsing, hooks, the response bytes).
const floorBodies = {};
// Routes first: fastify takes none after its first request (the inject below).
idp.app.post('/__load/floor', async (req, reply) => {
  const body = floorBodies[req.query.alg];
  if (!body) return reply.code(404).send({ error: 'not_found' });
  return reply.headers({ 'cache-control': 'no-store', pragma: 'no-cache' }).send(body);
});
for (const alg of floorAlgs.filter((a) => clients[a])) {
  const { id, secret } = clients[alg].confidential;
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
const tlsPorts = {};
if (tls.length) {
  const { key, cert } = selfSigned(dataDir);
  for (const { name, ecdhCurve, port: tlsPort } of tls) {
    const server = https.createServer({ key, cert, ecdhCurve, minVersion: 'TLSv1.3' }, (req, res) =>
      idp.app.server.emit('request', req, res),
    );
    await new Promise((resolve, reject) => {
      server.once('error', reject);
      server.listen(tlsPort, '127.0.0.1', resolve);
    });
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

/** A throwaway P-256 certificate for 127.0.0.1, made with the openssl CLI at run time. */
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
