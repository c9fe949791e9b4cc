/**
 * HTTP endpoint fuzzing with fast-check: generated requests against every route of one IdP
 * (OIDC and SAML) through fastify inject — random methods, paths, query strings, form, JSON and
 * raw bodies, duplicated parameters, huge and unicode values, bogus base64/DEFLATE/XML for SAML,
 * bogus JWTs, bad Authorization headers, cookies and CSRF tokens, mixed with valid pieces (a
 * session, tokens, an interaction, SAML requests, client assertions) so that the generated
 * requests get past the first checks. Every response must be a 4xx/2xx/3xx, well formed for its
 * endpoint (an OAuth JSON error body on JSON endpoints, an HTML page on UI endpoints), carry the
 * security headers, and nothing may be logged at error level, thrown uncaught or left rejected.
 *
 * `PQID_FUZZ_RUNS=<n>` multiplies the number of runs (default 1: the file takes ~15 s; 10 for a long local run).
 * A failure prints fast-check's seed and path; replay with `{ seed, path }` in fc.assert.
 */
import { generateKeyPair, importJWK, type Jwk, type PrivateKey, signDpopProof, signJwt } from '@pqid/jose';
import { createRootCertificate, SIGNATURE_URIS } from '@pqid/xmldsig';
import fc from 'fast-check';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createIdp, type Idp, registerClient } from '../src/app.ts';
import { JWT_BEARER } from '../src/oidc/shared/client-auth.ts';
import { registerSamlSp } from '../src/saml/sps.ts';
import { basicAuth, browserLogin, DEMO_REDIRECT, form, KEK, pkce, tempDir, testConfig } from './helpers.ts';
import {
  authnRequestXml,
  logoutRequestXml,
  redirectParam,
  SP_ACS,
  SP_ENTITY,
  SP_SLO,
} from './saml-helpers.ts';

const RUNS = Math.max(1, Number(process.env.PQID_FUZZ_RUNS ?? 1));
const runs = (n: number) => ({ numRuns: n * RUNS, endOnFailure: true });
const ISSUER = 'http://localhost:3000';
const SIGNED_SP = 'https://signed-sp.example.test/metadata';
const INITIAL_ACCESS_TOKEN = 'fuzz-initial-access-token-0123456789';

type Kind = 'json' | 'ui' | 'xml' | 'text';
/** Every route: the methods it answers (HEAD for each GET) and what its answers look like. */
const ROUTES: Array<{ path: RegExp; methods: string[]; kind: Kind }> = [
  { path: /^\/authorize$/, methods: ['GET', 'POST'], kind: 'ui' },
  { path: /^\/token$/, methods: ['POST'], kind: 'json' },
  { path: /^\/par$/, methods: ['POST'], kind: 'json' },
  { path: /^\/register$/, methods: ['POST'], kind: 'json' },
  { path: /^\/register\/[^/]*$/, methods: ['GET', 'PUT', 'DELETE'], kind: 'json' },
  { path: /^\/userinfo$/, methods: ['GET', 'POST'], kind: 'json' },
  { path: /^\/introspect$/, methods: ['POST'], kind: 'json' },
  { path: /^\/revoke$/, methods: ['POST'], kind: 'json' },
  { path: /^\/end_session$/, methods: ['GET', 'POST'], kind: 'ui' },
  { path: /^\/end_session\/confirm$/, methods: ['POST'], kind: 'ui' },
  { path: /^\/interaction\/[^/]*$/, methods: ['GET'], kind: 'ui' },
  { path: /^\/interaction\/[^/]*\/(login|consent)$/, methods: ['POST'], kind: 'ui' },
  { path: /^\/jwks$/, methods: ['GET'], kind: 'json' },
  { path: /^\/\.well-known\/openid-configuration$/, methods: ['GET'], kind: 'json' },
  { path: /^\/saml\/(sso|slo)$/, methods: ['GET', 'POST'], kind: 'ui' },
  { path: /^\/saml\/continue\/[^/]*$/, methods: ['GET'], kind: 'ui' },
  { path: /^\/saml\/metadata$/, methods: ['GET'], kind: 'xml' },
  { path: /^\/healthz$/, methods: ['GET'], kind: 'json' },
  { path: /^\/metrics$/, methods: ['GET'], kind: 'text' },
];

interface FuzzRequest {
  method: string;
  path: string;
  query: string;
  headers: Record<string, string>;
  payload?: string;
}

// ---- the IdP and valid pieces to mix in -------------------------------------------------------

let idp: Idp;
let app: FastifyInstance;
let cleanup: () => void;
const errorLogs: string[] = [];
const crashes: unknown[] = [];
const onCrash = (e: unknown) => crashes.push(e);

interface Fixtures {
  session: string;
  accessToken: string;
  refreshToken: string;
  idToken: string;
  code: string;
  interaction: { uid: string; cookie: string; csrf: string };
  logoutCookie: string;
  logoutCsrf: string;
  assertions: string[];
  /** Valid-looking DPoP proofs for the token and userinfo endpoints (ML-DSA-44 and ES256 keys). */
  proofs: string[];
  registered: { clientId: string; token: string };
}
let fx: Fixtures;
let pkjwtKey: { privateJwk: Jwk; publicJwk: Jwk };

beforeAll(async () => {
  process.on('unhandledRejection', onCrash);
  process.on('uncaughtException', onCrash);
  const dir = tempDir();
  cleanup = dir.cleanup;
  idp = await createIdp(
    testConfig(dir.dir, {
      logLevel: 'error',
      registration: { mode: 'token', initialAccessToken: INITIAL_ACCESS_TOKEN },
      resourceServers: { 'https://api.example/': { scope: 'api:read', accessTokenSigningAlg: 'ES256' } },
    }),
    {
      env: { PQID_KEK: KEK },
      warn: () => {},
      logStream: { write: (line: string) => void errorLogs.push(line) },
    },
  );
  app = idp.app;
  pkjwtKey = await generateKeyPair('ES256');
  await registerClient(idp.ctx, {
    client_id: 'pkjwt',
    redirect_uris: ['https://rp.example/cb'],
    token_endpoint_auth_method: 'private_key_jwt',
    token_endpoint_auth_signing_alg: 'ES256',
    grant_types: ['client_credentials', 'authorization_code', 'refresh_token'],
    jwks: { keys: [pkjwtKey.publicJwk] },
  });
  await registerClient(idp.ctx, {
    client_id: 'public',
    redirect_uris: ['https://rp.example/cb'],
    post_logout_redirect_uris: ['https://rp.example/bye'],
    token_endpoint_auth_method: 'none',
    grant_types: ['authorization_code', 'refresh_token'],
  });
  await registerClient(idp.ctx, {
    client_id: 'post',
    client_secret: 'post-secret',
    redirect_uris: ['https://rp.example/cb'],
    token_endpoint_auth_method: 'client_secret_post',
    grant_types: ['authorization_code', 'refresh_token', 'client_credentials'],
    access_token_format: 'jwt',
    userinfo_signed_response_alg: 'ML-DSA-44',
  });
  // An SP that signs its requests, so bogus SigAlg/Signature values reach signature verification.
  const spKey = (await generateKeyPair('ES256')).privateJwk;
  await registerSamlSp(idp.ctx, {
    entityId: SIGNED_SP,
    acsUrls: ['https://signed-sp.example.test/acs'],
    sloUrl: 'https://signed-sp.example.test/slo',
    certificate: (await createRootCertificate({ subject: 'signed SP', key: spKey })).pem,
    signatureAlgorithm: 'ES256',
  });
  await registerSamlSp(idp.ctx, {
    entityId: SP_ENTITY,
    acsUrls: [SP_ACS],
    sloUrl: SP_SLO,
    signatureAlgorithm: 'ML-DSA-44',
  });

  const p = pkce();
  const query = {
    client_id: 'demo-client',
    redirect_uri: DEMO_REDIRECT,
    response_type: 'code',
    scope: 'openid profile offline_access',
    state: 's',
    nonce: 'n',
    code_challenge: p.challenge,
    code_challenge_method: 'S256',
  };
  const login = await browserLogin(app, query);
  const code = login.location.searchParams.get('code') as string;
  const tokens = (
    await app.inject({
      method: 'POST',
      url: '/token',
      ...form(
        { grant_type: 'authorization_code', code, redirect_uri: DEMO_REDIRECT, code_verifier: p.verifier },
        { authorization: basicAuth('demo-client', 'demo-secret') },
      ),
    })
  ).json();
  // A parked login (its uid, cookie and CSRF token), and a parked logout.
  const start = await app.inject(`/authorize?${new URLSearchParams({ ...query, prompt: 'login' })}`);
  const uid = decodeURIComponent(String(start.headers.location).split('/').pop() as string);
  const page = await app.inject({
    url: `/interaction/${uid}`,
    headers: { cookie: `pqid_interaction=${uid}` },
  });
  const logout = await app.inject({
    url: '/end_session',
    headers: { cookie: login.sessionCookie as string },
  });
  fx = {
    session: login.sessionCookie as string,
    accessToken: tokens.access_token,
    refreshToken: tokens.refresh_token,
    idToken: tokens.id_token,
    code,
    interaction: {
      uid,
      cookie: `pqid_interaction=${uid}`,
      csrf: /name="csrf" value="([^"]+)"/.exec(page.body)?.[1] as string,
    },
    logoutCookie: logout.cookies.map((c) => `${c.name}=${c.value}`).join('; '),
    logoutCsrf: /name="csrf" value="([^"]+)"/.exec(logout.body)?.[1] ?? '',
    proofs: [],
    registered: { clientId: '', token: '' },
    assertions: await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        signJwt({}, pkjwtKey.privateJwk, {
          issuer: 'pkjwt',
          subject: 'pkjwt',
          audience: `${ISSUER}/token`,
          expiresIn: 300,
          jti: `fuzz-${i}`,
        }),
      ),
    ),
  };
  expect(fx.interaction.csrf).toBeTypeOf('string');
});

/** Proofs and a dynamically registered client, added to the fixtures. */
beforeAll(async () => {
  const keys = await Promise.all(
    ['ML-DSA-44', 'ES256', 'ML-DSA-44-Ed25519'].map(async (alg) =>
      importJWK((await generateKeyPair(alg)).privateJwk),
    ),
  );
  const proofs: string[] = [];
  for (const key of keys as PrivateKey[])
    for (const [htm, htu] of [
      ['POST', `${ISSUER}/token`],
      ['POST', `${ISSUER}/par`],
      ['GET', `${ISSUER}/userinfo`],
    ] as const) {
      proofs.push(await signDpopProof(key, { htm, htu }));
      proofs.push(await signDpopProof(key, { htm, htu, accessToken: fx.accessToken }));
    }
  const reg = await app.inject({
    method: 'POST',
    url: '/register',
    headers: { authorization: `Bearer ${INITIAL_ACCESS_TOKEN}`, 'content-type': 'application/json' },
    payload: JSON.stringify({ redirect_uris: ['https://rp.example/cb'] }),
  });
  fx.proofs = proofs;
  fx.registered = { clientId: reg.json().client_id, token: reg.json().registration_access_token };
});

afterAll(async () => {
  process.off('unhandledRejection', onCrash);
  process.off('uncaughtException', onCrash);
  await idp?.close();
  cleanup?.();
});

// ---- generators ----------------------------------------------------------------------------

const b64u = (s: string) => Buffer.from(s).toString('base64url');

const jsonish = fc.oneof(
  fc.jsonValue({ maxDepth: 2 }).map((v) => JSON.stringify(v)),
  fc.string({ maxLength: 30 }),
  fc.constantFrom(
    '{',
    '{"alg":"none"}',
    '{"alg":"ES256","kid":"x"}',
    '{"alg":"ML-DSA-65","crit":["x"]}',
    'null',
  ),
);
/** Three-part JWTs whose parts are anything from valid JSON to garbage. */
const bogusJwt = fc
  .tuple(jsonish, jsonish, fc.oneof(fc.base64String({ maxLength: 60 }), fc.constant('')))
  .map(([h, p, s]) => `${b64u(h)}.${b64u(p)}.${s.replaceAll('=', '')}`);
const claimsJwt = fc
  .record({
    iss: fc.constantFrom('pkjwt', 'demo-client', ISSUER, ''),
    sub: fc.constantFrom('pkjwt', 'demo-client', 'nobody'),
    aud: fc.constantFrom(`${ISSUER}/token`, ISSUER, 'x'),
    exp: fc.integer({ min: -1, max: 4_000_000_000 }),
    jti: fc.string({ maxLength: 300 }),
  })
  .map((c) => `${b64u('{"alg":"ES256","typ":"JWT"}')}.${b64u(JSON.stringify(c))}.${b64u('sig')}`);

const randomBytesB64 = fc.uint8Array({ maxLength: 400 }).map((b) => Buffer.from(b).toString('base64'));
const xmlish = fc.oneof(
  fc.constantFrom(
    authnRequestXml(),
    authnRequestXml({ id: '' }),
    authnRequestXml({ instant: 'yesterday' }),
    authnRequestXml({ acs: 'https://evil.example/acs' }),
    authnRequestXml({ issuer: 'https://unknown.example' }),
    authnRequestXml({ issuer: SIGNED_SP, acs: 'https://signed-sp.example.test/acs' }),
    logoutRequestXml({
      issuer: SIGNED_SP,
      nameId: 'x',
      format: 'urn:oasis:names:tc:SAML:2.0:nameid-format:persistent',
    }),
    `<samlp:AuthnRequest xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="_s" Version="2.0" IssueInstant="2020-01-01T00:00:00Z"><saml:Issuer>${SIGNED_SP}</saml:Issuer><ds:Signature xmlns:ds="http://www.w3.org/2000/09/xmldsig#"><ds:SignedInfo><ds:SignatureMethod Algorithm="http://www.w3.org/2001/04/xmldsig-more#ecdsa-sha256"/><ds:Reference URI="#_s"/></ds:SignedInfo><ds:SignatureValue>AAAA</ds:SignatureValue></ds:Signature></samlp:AuthnRequest>`,
    authnRequestXml({ format: 'urn:oasis:names:tc:SAML:1.1:nameid-format:unspecified', isPassive: true }),
    logoutRequestXml({ nameId: 'x', format: 'urn:oasis:names:tc:SAML:2.0:nameid-format:persistent' }),
    '<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "aaaa">]><x>&a;</x>',
    '<samlp:AuthnRequest xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol"/>',
    '<a><b><c>',
    '',
  ),
  fc.string({ maxLength: 200 }),
  fc.string({ unit: 'grapheme', maxLength: 50 }).map((s) => authnRequestXml({ id: `_${s}` })),
  fc.integer().map((n) => authnRequestXml({ id: `_fuzz${n}_${Date.now()}` })),
);
/** SAMLRequest values: bogus base64, DEFLATE of anything, valid requests, bombs. */
const samlRequest = fc.oneof(
  randomBytesB64,
  fc.string({ maxLength: 80 }),
  xmlish.map((x) => redirectParam(x)),
  xmlish.map((x) => Buffer.from(x).toString('base64')),
  fc.constantFrom(
    redirectParam('A'.repeat(2_000_000)),
    Buffer.from([0xff, 0xfe, 0x00, 0x3c]).toString('base64'),
    '====',
    'QQ',
    'QUFB\nQUFB',
  ),
);

const HUGE = ['x'.repeat(5000), 'é'.repeat(40_000), '%'.repeat(3000), 'a'.repeat(70_000)];

const PARAMS = [
  'client_id',
  'redirect_uri',
  'response_type',
  'response_mode',
  'scope',
  'state',
  'nonce',
  'code_challenge',
  'code_challenge_method',
  'prompt',
  'max_age',
  'login_hint',
  'request',
  'request_uri',
  'grant_type',
  'code',
  'code_verifier',
  'refresh_token',
  'client_secret',
  'client_assertion',
  'client_assertion_type',
  'token',
  'token_type_hint',
  'access_token',
  'id_token_hint',
  'post_logout_redirect_uri',
  'csrf',
  'username',
  'password',
  'decision',
  'logout',
  'resource',
  'dpop_jkt',
  'SAMLRequest',
  'RelayState',
  'SigAlg',
  'Signature',
  '__proto__',
  'constructor',
];

function arbitraries() {
  const valid = fc.constantFrom(
    fx.accessToken,
    fx.refreshToken,
    fx.idToken,
    fx.code,
    fx.interaction.csrf,
    fx.logoutCsrf,
    'demo-client',
    'pkjwt',
    'public',
    'post',
    'post-secret',
    'demo',
    DEMO_REDIRECT,
    'https://rp.example/cb',
    'https://rp.example/bye',
    'https://evil.example/cb',
    ...PARAMS,
  );
  const enumValue = fc.constantFrom(
    'authorization_code',
    'refresh_token',
    'client_credentials',
    'password',
    'urn:ietf:params:oauth:grant-type:device_code',
    JWT_BEARER,
    'S256',
    'plain',
    'code',
    'token id_token',
    'query',
    'form_post',
    'fragment',
    'none',
    'login',
    'consent',
    'none login',
    'openid',
    'openid profile email offline_access',
    'allow',
    'deny',
    'yes',
    'no',
    'access_token',
    '0',
    '-1',
    '99999999999999999999',
    'http://www.w3.org/2000/09/xmldsig#rsa-sha1',
    'urn:ietf:params:xml:ns:pqid:ml-dsa-65',
    ...Object.values(SIGNATURE_URIS),
    SIGNED_SP,
  );
  const value: fc.Arbitrary<string> = fc.oneof(
    { weight: 4, arbitrary: fc.string({ maxLength: 30 }) },
    { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: 30 }) },
    { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 20 }) },
    { weight: 1, arbitrary: fc.constantFrom(...HUGE) },
    { weight: 4, arbitrary: valid },
    { weight: 4, arbitrary: enumValue },
    { weight: 2, arbitrary: bogusJwt },
    { weight: 1, arbitrary: claimsJwt },
    { weight: 2, arbitrary: fc.constantFrom(...fx.assertions) },
    { weight: 2, arbitrary: samlRequest },
  );
  const name = fc.oneof({ weight: 6, arbitrary: fc.constantFrom(...PARAMS) }, fc.string({ maxLength: 12 }));
  /** Name/value pairs, duplicates allowed; encoded or raw (malformed percent-escapes). */
  const pairs = fc.array(fc.tuple(name, value), { maxLength: 8 });
  const encode = (ps: Array<[string, string]>) =>
    ps.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&');
  const rawPairs = fc
    .array(fc.tuple(name, value), { maxLength: 5 })
    .map((ps) => ps.map(([k, v]) => `${k}=${v}`).join('&'));
  const queryString = fc.oneof(
    { weight: 6, arbitrary: pairs.map(encode) },
    { weight: 1, arbitrary: rawPairs },
    {
      weight: 1,
      arbitrary: fc.constantFrom('%', '%E0%A4%A', '&&==&', 'a[b]=1&a[c]=2', '=x', '%00=%00', '+'),
    },
  );
  const body: fc.Arbitrary<{ type?: string; payload?: string }> = fc.oneof(
    { weight: 2, arbitrary: fc.constant({}) },
    {
      weight: 6,
      arbitrary: queryString.map((p) => ({ type: 'application/x-www-form-urlencoded', payload: p })),
    },
    {
      weight: 2,
      arbitrary: fc
        .oneof(
          fc.dictionary(name, fc.oneof(value, fc.jsonValue({ maxDepth: 2 })), { maxKeys: 6 }),
          fc.jsonValue({ maxDepth: 3 }),
        )
        .map((v) => ({ type: 'application/json', payload: JSON.stringify(v) ?? 'null' })),
    },
    {
      weight: 1,
      arbitrary: fc
        .tuple(
          fc.constantFrom(
            'application/json',
            'text/plain',
            'application/xml',
            'multipart/form-data; boundary=x',
            'application/x-www-form-urlencoded; charset=utf-16',
            'APPLICATION/X-WWW-FORM-URLENCODED',
            'application/octet-stream',
            ';;;',
          ),
          fc.oneof(fc.string({ maxLength: 200 }), fc.constantFrom(...HUGE)),
        )
        .map(([type, payload]) => ({ type, payload })),
    },
  );
  const authorization = fc.oneof(
    { weight: 3, arbitrary: fc.constant(undefined) },
    fc.constant(basicAuth('demo-client', 'demo-secret')),
    fc.constant(basicAuth('pkjwt', 'x')),
    fc.constant(`Bearer ${fx.accessToken}`),
    fc.tuple(fc.string({ maxLength: 20 }), fc.string({ maxLength: 20 })).map(([i, s]) => basicAuth(i, s)),
    randomBytesB64.map((b) => `Basic ${b}`),
    fc.string({ maxLength: 30 }).map((s) => `Basic ${Buffer.from(s).toString('base64')}`),
    fc.constantFrom(
      'Basic',
      'Basic ',
      'Basic %%%',
      'Bearer',
      'Bearer  ',
      'Bearer a b',
      'Digest x',
      'basic Og==',
    ),
    bogusJwt.map((j) => `Bearer ${j}`),
    fc.string({ maxLength: 40 }),
  );
  const cookie = fc.oneof(
    { weight: 3, arbitrary: fc.constant(undefined) },
    fc.constant(fx.session),
    fc.constant(fx.interaction.cookie),
    fc.constant(`${fx.session}; ${fx.interaction.cookie}`),
    fc.constant(fx.logoutCookie),
    fc.string({ maxLength: 40 }).map((s) => `pqid_session=${encodeURIComponent(s)}`),
    fc.string({ maxLength: 40 }).map((s) => `pqid_interaction=${s}`),
    fc.constantFrom(
      'pqid_session=%E0%A4%A',
      'pqid_session',
      '=;=;',
      'a=b; a=c; pqid_session=x; pqid_session=y',
    ),
    fc.string({ maxLength: 60 }),
  );
  const uidSegment = fc.oneof(
    { weight: 3, arbitrary: fc.constant(encodeURIComponent(fx.interaction.uid)) },
    fc.string({ maxLength: 70 }).map(encodeURIComponent),
    fc.constantFrom('%', '%ZZ', '..', 'x'.repeat(300), '%00', '%F0%9F%94%91'),
  );
  const paths = fc.oneof(
    fc.constantFrom(
      '/authorize',
      '/token',
      '/par',
      '/register',
      '/userinfo',
      '/introspect',
      '/revoke',
      '/end_session',
      '/end_session/confirm',
      '/jwks',
      '/.well-known/openid-configuration',
      '/saml/sso',
      '/saml/slo',
      '/saml/metadata',
      '/healthz',
      '/metrics',
      '/authorize/',
      '//token',
      '/nope',
      '/saml',
    ),
    uidSegment.map((u) => `/interaction/${u}`),
    fc
      .tuple(uidSegment, fc.constantFrom('login', 'consent', 'other'))
      .map(([u, s]) => `/interaction/${u}/${s}`),
    uidSegment.map((u) => `/saml/continue/${u}`),
    // Encoded: inject (like any HTTP client) cannot send a raw space or backslash in a path.
    fc.string({ maxLength: 30 }).map((s) => `/${encodeURI(s)}`),
  );
  const method = fc.oneof(
    { weight: 8, arbitrary: fc.constantFrom('GET', 'POST') },
    fc.constantFrom('HEAD', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'),
  );
  const request = (pathArb: fc.Arbitrary<string>, methodArb = method): fc.Arbitrary<FuzzRequest> =>
    fc
      .record({
        method: methodArb,
        path: pathArb,
        query: fc.oneof({ weight: 1, arbitrary: fc.constant('') }, { weight: 2, arbitrary: queryString }),
        body,
        authorization,
        cookie,
        extra: fc.option(
          fc.tuple(
            fc.constantFrom('origin', 'x-forwarded-for', 'accept', 'content-length'),
            fc.string({ maxLength: 20 }),
          ),
        ),
      })
      .map(({ method, path, query, body, authorization, cookie, extra }) => {
        const headers: Record<string, string> = {};
        if (authorization !== undefined) headers.authorization = authorization;
        if (cookie !== undefined) headers.cookie = cookie;
        if (body.type !== undefined) headers['content-type'] = body.type;
        if (extra && extra[0] !== 'content-length') headers[extra[0]] = extra[1];
        return {
          method,
          path,
          query,
          headers,
          ...(body.payload !== undefined && method !== 'GET' && method !== 'HEAD'
            ? { payload: body.payload }
            : {}),
        };
      });
  return { request, paths, pairs, encode, value, samlRequest, queryString };
}

// ---- checking one response -----------------------------------------------------------------

function kindOf(method: string, path: string): Kind | undefined {
  const m = method === 'HEAD' ? 'GET' : method;
  let decoded: string;
  try {
    // As the request line reaches the router: dot segments resolved, then percent-decoded.
    decoded = decodeURI(new URL(path, 'http://localhost').pathname).replace(/\/+$/, '') || '/';
  } catch {
    return undefined;
  }
  return ROUTES.find((r) => r.path.test(decoded) && r.methods.includes(m))?.kind;
}

function check(req: FuzzRequest, r: LightMyRequestResponse): void {
  const what = `${req.method} ${req.path}?${req.query.slice(0, 200)} → ${r.statusCode} ${r.body.slice(0, 300)}`;
  expect(r.statusCode, what).toBeGreaterThanOrEqual(200);
  expect(r.statusCode, what).toBeLessThan(500);
  expect(r.headers['x-content-type-options'], what).toBe('nosniff');
  expect(r.headers['referrer-policy'], what).toBe('no-referrer');
  const type = String(r.headers['content-type'] ?? '');
  if (r.statusCode === 303 || r.statusCode === 302) {
    expect(r.headers.location, what).toBeTypeOf('string');
    return;
  }
  if (req.method === 'HEAD') return;
  if (type.startsWith('application/json')) {
    const body = JSON.parse(r.body) as Record<string, unknown>;
    if (r.statusCode >= 400) expect(body.error, what).toBeTypeOf('string');
  }
  // 404 (no route for this method) and 414 (a path segment over maxParamLength) come from the
  // router, before any route: JSON like every other unrouted answer.
  const kind = r.statusCode === 404 || r.statusCode === 414 ? undefined : kindOf(req.method, req.path);
  if (kind === 'ui') {
    expect(type, what).toMatch(/^text\/html; charset=utf-8/);
    expect(r.body, what).toMatch(/^<!doctype html>/);
    expect(String(r.headers['content-security-policy']), what).toContain("frame-ancestors 'none'");
  } else if (kind === 'json' && r.statusCode === 200 && r.body === '') {
    // Revocation answers 200 with no body (RFC 7009 §2.2).
    expect(req.path.replace(/\/+$/, ''), what).toBe('/revoke');
  } else if (kind === 'json' || (kind === undefined && r.statusCode >= 400)) {
    // application/jwt: a signed userinfo response.
    expect(type, what).toMatch(/^application\/(json|jwt|jwk-set\+json)/);
    if (r.statusCode >= 400) expect(JSON.parse(r.body).error, what).toBeTypeOf('string');
  } else if (kind === 'xml' && r.statusCode < 400) {
    expect(type, what).toMatch(/^application\/samlmetadata\+xml/);
  }
}

/** `PQID_FUZZ_STATS=1`: print how often each route answered each status (is the fuzzer reaching deep?). */
const stats = new Map<string, number>();
afterAll(() => {
  if (!process.env.PQID_FUZZ_STATS) return;
  const rows = [...stats].sort(([a], [b]) => a.localeCompare(b)).map(([k, n]) => `${k.padEnd(40)} ${n}`);
  console.log(`fuzz: responses by route and status\n${rows.join('\n')}`);
});

async function send(req: FuzzRequest): Promise<void> {
  const url = `${req.path}${req.query ? `?${req.query}` : ''}`;
  const r = await app.inject({
    method: req.method as 'GET',
    url,
    headers: req.headers,
    ...(req.payload !== undefined ? { payload: req.payload } : {}),
  });
  check(req, r);
  if (process.env.PQID_FUZZ_STATS) {
    const route = kindOf(req.method, req.path)
      ? req.path.replace(/^\/(interaction|saml\/continue)\/[^/]*/, '/$1/:uid')
      : '(unrouted)';
    const key = `${req.method} ${route.slice(0, 30)} ${r.statusCode}`;
    stats.set(key, (stats.get(key) ?? 0) + 1);
  }
}

function noCrashes() {
  expect(crashes).toEqual([]);
  expect(errorLogs.map((l) => JSON.parse(l).msg)).toEqual([]);
}

// ---- the properties --------------------------------------------------------------------------

describe('HTTP fuzzing: never a 5xx, never a crash, always a well-formed answer', () => {
  it('any route, any method', async () => {
    const { request, paths } = arbitraries();
    await fc.assert(fc.asyncProperty(request(paths), send), runs(1200));
    noCrashes();
  });

  it('/authorize and the login/consent interaction', async () => {
    const { request, pairs, encode } = arbitraries();
    const { uid } = fx.interaction;
    const path = fc.constantFrom(
      '/authorize',
      `/interaction/${uid}`,
      `/interaction/${uid}/login`,
      `/interaction/${uid}/consent`,
    );
    // Valid authorization requests with one parameter altered, so validation runs deep.
    const base = {
      client_id: 'demo-client',
      redirect_uri: DEMO_REDIRECT,
      response_type: 'code',
      scope: 'openid',
      code_challenge: pkce().challenge,
      code_challenge_method: 'S256',
    };
    const nearlyValid = pairs.map((ps) => {
      const q = new URLSearchParams(base);
      for (const [k, v] of ps) q.set(k, v);
      return q.toString();
    });
    const arb = fc
      .tuple(request(path, fc.constantFrom('GET', 'POST')), fc.oneof(nearlyValid, pairs.map(encode)))
      .map(([r, q]) =>
        r.path === '/authorize' && r.method === 'POST'
          ? {
              ...r,
              query: '',
              payload: q,
              headers: { ...r.headers, 'content-type': 'application/x-www-form-urlencoded' },
            }
          : r.path === '/authorize'
            ? { ...r, query: q }
            : r,
      );
    await fc.assert(fc.asyncProperty(arb, send), runs(800));
    noCrashes();
  });

  it('login and consent forms on fresh interactions: bad CSRF tokens, cookies and fields', async () => {
    const { value } = arbitraries();
    /** A parked login (no session, prompt=login) or consent (session, prompt=consent). */
    async function park(stage: 'login' | 'consent') {
      const q = new URLSearchParams({
        client_id: 'demo-client',
        redirect_uri: DEMO_REDIRECT,
        response_type: 'code',
        scope: 'openid profile',
        code_challenge: pkce().challenge,
        code_challenge_method: 'S256',
        prompt: stage,
      });
      const r = await app.inject({
        url: `/authorize?${q}`,
        headers: stage === 'consent' ? { cookie: fx.session } : {},
      });
      const location = String(r.headers.location);
      const cookie = r.cookies.map((c) => `${c.name}=${c.value}`).join('; ');
      const page = await app.inject({ url: location, headers: { cookie } });
      const csrf = /name="csrf" value="([^"]+)"/.exec(page.body)?.[1] ?? '';
      return { location, cookie, csrf };
    }
    const arb = fc.record({
      stage: fc.constantFrom('login' as const, 'consent' as const),
      target: fc.constantFrom('login', 'consent', 'page'),
      // Mostly the right cookie and token, so the forms get past the first checks.
      cookie: fc.oneof(
        { weight: 6, arbitrary: fc.constant('fresh') },
        fc.constantFrom('none', 'other', 'garbage', 'fresh+session'),
      ),
      csrf: fc.oneof(
        { weight: 6, arbitrary: fc.constant('fresh') },
        fc.constantFrom('absent', 'twice', 'empty'),
        value,
      ),
      fields: fc.oneof(
        fc.constant<Array<[string, string]>>([
          ['username', 'demo'],
          ['password', 'demo'],
          ['decision', 'allow'],
        ]),
        fc.array(
          fc.tuple(
            fc.constantFrom('username', 'password', 'decision', 'csrf', 'x'),
            fc.oneof(fc.constantFrom('demo', 'allow', 'deny'), value),
          ),
          { maxLength: 3 },
        ),
      ),
      json: fc.boolean(),
    });
    await fc.assert(
      fc.asyncProperty(arb, async (a) => {
        const it = await park(a.stage);
        const cookie = {
          fresh: it.cookie,
          none: undefined,
          other: fx.interaction.cookie,
          garbage: 'pqid_interaction=%ZZ; pqid_interaction=x',
          'fresh+session': `${it.cookie}; ${fx.session}`,
        }[a.cookie];
        const body: Array<[string, string]> = [];
        if (a.csrf === 'fresh' || a.csrf === 'twice') body.push(['csrf', it.csrf]);
        if (a.csrf === 'twice') body.push(['csrf', it.csrf]);
        else if (a.csrf === 'empty') body.push(['csrf', '']);
        else if (a.csrf !== 'absent' && a.csrf !== 'fresh') body.push(['csrf', a.csrf]);
        body.push(...a.fields);
        const payload = a.json
          ? JSON.stringify(Object.fromEntries(body))
          : body.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&');
        const req: FuzzRequest =
          a.target === 'page'
            ? { method: 'GET', path: it.location, query: '', headers: cookie ? { cookie } : {} }
            : {
                method: 'POST',
                path: `${it.location}/${a.target}`,
                query: '',
                headers: {
                  ...(cookie ? { cookie } : {}),
                  'content-type': a.json ? 'application/json' : 'application/x-www-form-urlencoded',
                },
                payload,
              };
        await send(req);
      }),
      runs(400),
    );
    noCrashes();
  });

  it('/token with every grant type and client authentication method', async () => {
    const { value } = arbitraries();
    const auth = fc.constantFrom('basic', 'basic-bad', 'post', 'pkjwt', 'none', 'several', 'nothing');
    const grant = fc.constantFrom(
      'authorization_code',
      'refresh_token',
      'client_credentials',
      'password',
      '',
    );
    const arb = fc
      .record({
        auth,
        grant,
        clientId: fc.constantFrom('demo-client', 'pkjwt', 'public', 'post', 'nobody'),
        code: fc.oneof(fc.constant(fx.code), value),
        refresh: fc.oneof(fc.constant(fx.refreshToken), value),
        assertion: fc.oneof(fc.constantFrom(...fx.assertions), value),
        extra: fc.array(
          fc.tuple(
            fc.constantFrom('scope', 'redirect_uri', 'code_verifier', 'grant_type', 'client_id'),
            value,
          ),
          {
            maxLength: 3,
          },
        ),
      })
      .map(({ auth, grant, clientId, code, refresh, assertion, extra }) => {
        const body: Array<[string, string]> = [['grant_type', grant]];
        const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded' };
        if (grant === 'authorization_code') body.push(['code', code], ['redirect_uri', DEMO_REDIRECT]);
        if (grant === 'refresh_token') body.push(['refresh_token', refresh]);
        if (auth === 'basic' || auth === 'several')
          headers.authorization = basicAuth(clientId, 'demo-secret');
        if (auth === 'basic-bad') headers.authorization = `Basic ${Buffer.from(clientId).toString('base64')}`;
        if (auth === 'post' || auth === 'several')
          body.push(['client_id', clientId], ['client_secret', 'post-secret']);
        if (auth === 'pkjwt')
          body.push(['client_assertion_type', JWT_BEARER], ['client_assertion', assertion]);
        if (auth === 'none') body.push(['client_id', clientId]);
        body.push(...extra);
        return {
          method: 'POST',
          path: '/token',
          query: '',
          headers,
          payload: body.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&'),
        };
      });
    await fc.assert(fc.asyncProperty(arb, send), runs(800));
    noCrashes();
  });

  it('/userinfo, /introspect, /revoke and /end_session', async () => {
    const { request } = arbitraries();
    const path = fc.constantFrom(
      '/userinfo',
      '/introspect',
      '/revoke',
      '/end_session',
      '/end_session/confirm',
    );
    await fc.assert(fc.asyncProperty(request(path, fc.constantFrom('GET', 'POST')), send), runs(800));
    noCrashes();
  });

  it('DPoP headers at /token, /userinfo and /par; /par and /register bodies', async () => {
    const { request, value } = arbitraries();
    const dpop = fc.oneof(
      { weight: 3, arbitrary: fc.constantFrom(...fx.proofs) },
      { weight: 2, arbitrary: bogusJwt },
      { weight: 1, arbitrary: value },
      {
        weight: 1,
        arbitrary: fc
          .jsonValue({ maxDepth: 2 })
          .map(
            (jwk) => `${b64u(JSON.stringify({ alg: 'ML-DSA-44', typ: 'dpop+jwt', jwk }))}.${b64u('{}')}.AAAA`,
          ),
      },
      { weight: 1, arbitrary: fc.constant('x'.repeat(20_000)) },
      // Any text as the algorithm: it is echoed in error descriptions and challenge headers.
      {
        weight: 1,
        arbitrary: fc
          .string({ unit: 'grapheme', maxLength: 12 })
          .map((alg) => `${b64u(JSON.stringify({ alg, typ: 'dpop+jwt' }))}.${b64u('{}')}.AAAA`),
      },
    );
    const metadata = fc.dictionary(
      fc.constantFrom(
        'redirect_uris',
        'grant_types',
        'response_types',
        'token_endpoint_auth_method',
        'id_token_signed_response_alg',
        'jwks',
        'jwks_uri',
        'scope',
        'client_id',
        'client_secret',
        'dpop_bound_access_tokens',
        'require_pushed_authorization_requests',
        'request_object_signing_alg',
        'backchannel_logout_uri',
        'post_logout_redirect_uris',
      ),
      fc.oneof(value, fc.jsonValue({ maxDepth: 2 }), fc.array(value, { maxLength: 3 })),
      { maxKeys: 6 },
    );
    const registration = fc.record({
      method: fc.constantFrom('POST', 'GET', 'PUT', 'DELETE'),
      path: fc.constantFrom(
        '/register',
        `/register/${encodeURIComponent(fx.registered.clientId)}`,
        '/register/nobody',
      ),
      token: fc.constantFrom(INITIAL_ACCESS_TOKEN, fx.registered.token, 'wrong', ''),
      body: fc.oneof(
        metadata.map((m) => JSON.stringify(m)),
        fc.string({ maxLength: 40 }),
      ),
    });
    const arb = fc.oneof(
      fc
        .tuple(
          request(fc.constantFrom('/token', '/userinfo', '/par'), fc.constantFrom('GET', 'POST')),
          dpop,
          fc.boolean(),
        )
        .map(([req, proof, dpopScheme]) => ({
          ...req,
          headers: {
            ...req.headers,
            dpop: proof,
            ...(dpopScheme ? { authorization: `DPoP ${fx.accessToken}` } : {}),
          },
        })),
      registration.map(({ method, path, token, body }) => ({
        method,
        path,
        query: '',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        ...(method === 'GET' || method === 'DELETE' ? {} : { payload: body }),
      })),
    );
    await fc.assert(fc.asyncProperty(arb, send), runs(600));
    noCrashes();
  });

  it('SAML /saml/sso, /saml/slo (Redirect and POST bindings), /saml/continue and metadata', async () => {
    const { request, samlRequest, value } = arbitraries();
    const path = fc.constantFrom('/saml/sso', '/saml/slo', '/saml/metadata', '/saml/continue/x');
    const params = fc.record(
      {
        SAMLRequest: samlRequest,
        RelayState: value,
        SigAlg: value,
        Signature: fc.oneof(value, randomBytesB64),
      },
      { requiredKeys: ['SAMLRequest'] },
    );
    const arb = fc.tuple(request(path, fc.constantFrom('GET', 'POST')), params).map(([r, p]) => {
      const q = new URLSearchParams(p as Record<string, string>).toString();
      return r.method === 'POST'
        ? {
            ...r,
            query: '',
            payload: q,
            headers: { ...r.headers, 'content-type': 'application/x-www-form-urlencoded' },
          }
        : { ...r, query: q };
    });
    await fc.assert(fc.asyncProperty(arb, send), runs(800));
    noCrashes();
  });
});
