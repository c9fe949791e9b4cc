/**
 * Several IdP instances over one PostgreSQL database share everything through it: codes,
 * refresh tokens, sessions, clients, signing keys (re-read every keys.refreshInterval), the
 * SAML replay cache and seen private_key_jwt `jti`s (atomic insert-if-absent). Two `createIdp` instances on one schema stand for two
 * processes behind a load balancer (requests go through fastify inject). Skipped without
 * PQID_TEST_DATABASE_URL locally; required in CI.
 */
import { createServer } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  createLocalJWKSet,
  generateKeyPair,
  importJWK,
  type Jwk,
  type PrivateKey,
  signDpopProof,
  signJwt,
  verifyJwt,
} from '@pqid/jose';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createIdp, type Idp, registerClient } from '../idp/src/app.ts';
import type { LoadConfigOptions } from '../idp/src/config/index.ts';
import { JWT_BEARER } from '../idp/src/oidc/shared/client-auth.ts';
import { recordId } from '../idp/src/policy/key-sets.ts';
import { SamlCertificates } from '../idp/src/saml/certificates.ts';
import { registerSamlSp } from '../idp/src/saml/sps.ts';
import { StorageUnavailable } from '../idp/src/storage/errors.ts';
import { basicAuth, DEMO_REDIRECT, form, KEK, pkce, tempDir, testConfig } from '../idp/test/helpers.ts';
import {
  csrfOf,
  demoAuthorize,
  enrolFirstPasskey,
  enrolmentCode,
  get,
  Jar,
  passkey,
  passkeyTokens,
  postForm,
  postJson,
  signInToAccount,
  startSignIn,
} from '../idp/test/passkey-helpers.ts';
import { authnRequestXml, redirectParam, reqId, SP_ACS, SP_ENTITY } from '../idp/test/saml-helpers.ts';
import {
  type DbProxy,
  dbProxy,
  dropSchemas,
  PG_SKIP_REASON,
  PG_URL,
  uniqueSchema,
  urlWithSchema,
} from '../idp/test/storage-pg.ts';
import { SoftAuthenticator } from '../idp/test/webauthn-authenticator.ts';

const ISSUER = 'http://localhost:3000';
const demoAuth = basicAuth('demo-client', 'demo-secret');
const schemas: string[] = [];
const cleanups: Array<() => void> = [];

async function startInstance(
  databaseUrl: string,
  overrides: LoadConfigOptions['overrides'] = {},
): Promise<Idp> {
  const { dir, cleanup } = tempDir();
  cleanups.push(cleanup);
  return createIdp(testConfig(dir, { databaseUrl, ...overrides }), {
    env: { PQID_KEK: KEK },
    warn: () => {},
  });
}

/** A fresh schema of the test database (dropped after the file). */
function freshUrl(prefix: string): string {
  const schema = uniqueSchema(prefix);
  schemas.push(schema);
  return urlWithSchema(schema);
}

const kidOf = (jwt: string): string =>
  JSON.parse(Buffer.from(jwt.split('.')[0] as string, 'base64url').toString()).kid as string;

const jwksKids = async (app: FastifyInstance): Promise<string[]> =>
  ((await app.inject('/jwks')).json().keys as Jwk[]).map((k) => String(k.kid)).sort();

/** Poll until `check` holds; returns the milliseconds it took (fails after `limitMs`). */
async function eventually(check: () => Promise<boolean>, limitMs: number): Promise<number> {
  const started = performance.now();
  while (!(await check())) {
    if (performance.now() - started > limitMs) throw new Error(`not within ${limitMs} ms`);
    await sleep(50);
  }
  return performance.now() - started;
}

function tokenRequest(app: FastifyInstance, data: Record<string, string>, authorization = demoAuth) {
  return app.inject({
    method: 'POST',
    url: '/token',
    headers: { authorization, 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams(data).toString(),
  });
}

const userinfoStatus = async (app: FastifyInstance, accessToken: string) =>
  (await app.inject({ url: '/userinfo', headers: { authorization: `Bearer ${accessToken}` } })).statusCode;

/**
 * A browser through authorize → login → consent (when asked) → redirect to the RP, by inject.
 * `apps` may switch instance between steps, as a load balancer without affinity would.
 */
async function browse(
  apps: FastifyInstance[],
  query: Record<string, string>,
  jar = new Map<string, string>(),
): Promise<URL> {
  const cookie = () => [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
  let step = 0;
  const app = () => apps[step++ % apps.length] as FastifyInstance;
  let r = await app().inject({
    url: `/authorize?${new URLSearchParams(query)}`,
    headers: { cookie: cookie() },
  });
  for (let hops = 0; hops < 8; hops++) {
    for (const c of r.cookies) {
      if (c.value === '' || c.maxAge === 0) jar.delete(c.name);
      else jar.set(c.name, c.value);
    }
    if (r.statusCode === 303) {
      const location = r.headers.location as string;
      if (/^https?:/.test(location) && !location.startsWith(ISSUER)) return new URL(location);
      r = await app().inject({ url: location.replace(ISSUER, ''), headers: { cookie: cookie() } });
      continue;
    }
    if (r.statusCode !== 200) throw new Error(`unexpected ${r.statusCode}: ${r.body.slice(0, 300)}`);
    const csrf = /name="csrf" value="([^"]+)"/.exec(r.body)?.[1];
    const action = /<form[^>]*action="([^"]+)"/.exec(r.body)?.[1]?.replaceAll('&amp;', '&');
    if (!csrf || !action) throw new Error(`no form on page: ${r.body.slice(0, 300)}`);
    const fields: Record<string, string> = action.endsWith('/consent')
      ? { csrf, decision: 'allow' }
      : { csrf, username: 'demo', password: 'demo' };
    r = await app().inject({
      method: 'POST',
      url: action.replace(ISSUER, ''),
      headers: { cookie: cookie(), 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams(fields).toString(),
    });
  }
  throw new Error('too many redirects');
}

async function codeAt(
  apps: FastifyInstance | FastifyInstance[],
  clientId = 'demo-client',
  redirectUri = DEMO_REDIRECT,
  jar = new Map<string, string>(),
) {
  const p = pkce();
  const location = await browse(
    Array.isArray(apps) ? apps : [apps],
    {
      client_id: clientId,
      redirect_uri: redirectUri,
      response_type: 'code',
      scope: 'openid profile offline_access',
      state: 's',
      nonce: 'n',
      code_challenge: p.challenge,
      code_challenge_method: 'S256',
    },
    jar,
  );
  const code = location.searchParams.get('code');
  if (!code) throw new Error(`no code: ${location}`);
  return { code, verifier: p.verifier, jar };
}

afterAll(async () => {
  if (PG_URL) await dropSchemas(schemas);
  for (const c of cleanups.splice(0)) c();
});

describe.skipIf(!PG_URL)('two instances on one PostgreSQL database', () => {
  let a: Idp;
  let b: Idp;

  beforeAll(async () => {
    const schema = uniqueSchema('pqid_mi');
    schemas.push(schema);
    const url = urlWithSchema(schema);
    // One after the other, as a rolling deploy does: A migrates, seeds and generates the key;
    // B finds all of it.
    a = await startInstance(url);
    b = await startInstance(url);
    expect(a.ctx.storage.kind).toBe('postgres');
    expect(b.createdKeys).toEqual([]);
    expect(b.seed).toMatchObject({ createdUser: false, createdClient: false });
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
  });

  it('publishes the same keys on both', async () => {
    expect((await b.app.inject('/jwks')).json()).toEqual((await a.app.inject('/jwks')).json());
  });

  it('redeems at B a code issued by A; a replay at A is refused and revokes the grant', async () => {
    const { code, verifier } = await codeAt(a.app);
    const r = await tokenRequest(b.app, {
      grant_type: 'authorization_code',
      code,
      redirect_uri: DEMO_REDIRECT,
      code_verifier: verifier,
    });
    expect(r.statusCode, r.body).toBe(200);
    const tokens = r.json();
    const jwks = await createLocalJWKSet((await a.app.inject('/jwks')).json());
    const { claims } = await verifyJwt(tokens.id_token, jwks, {
      algorithms: ['ML-DSA-65'],
      issuer: ISSUER,
      audience: 'demo-client',
    });
    expect(claims.nonce).toBe('n');
    // The access token issued by B opens userinfo at A.
    expect(await userinfoStatus(a.app, tokens.access_token)).toBe(200);

    const replay = await tokenRequest(a.app, {
      grant_type: 'authorization_code',
      code,
      redirect_uri: DEMO_REDIRECT,
      code_verifier: verifier,
    });
    expect(replay.statusCode).toBe(400);
    expect(replay.json().error).toBe('invalid_grant');
    expect(await userinfoStatus(b.app, tokens.access_token)).toBe(401);
  });

  it('redeems a code exactly once when A and B race for it', async () => {
    const { code, verifier } = await codeAt(b.app);
    const body = {
      grant_type: 'authorization_code',
      code,
      redirect_uri: DEMO_REDIRECT,
      code_verifier: verifier,
    };
    const results = await Promise.all([tokenRequest(a.app, body), tokenRequest(b.app, body)]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 400]);
  });

  it('keeps a code A issued unspent by failed redemptions at B, racing or not', async () => {
    for (let round = 0; round < 3; round++) {
      const { code, verifier } = await codeAt(a.app);
      const body = { grant_type: 'authorization_code', code, redirect_uri: DEMO_REDIRECT };
      const wrong = () => tokenRequest(b.app, { ...body, code_verifier: pkce().verifier });
      expect((await wrong()).json().error_description).toBe('PKCE verification failed');
      const results = await Promise.all([
        wrong(),
        tokenRequest(a.app, { ...body, code_verifier: verifier }),
        wrong(),
        tokenRequest(b.app, { ...body, code_verifier: verifier }),
      ]);
      expect([results[0], results[2]].map((r) => r?.statusCode)).toEqual([400, 400]);
      // Of the two right ones, on A and B, exactly one wins; the other is a replay.
      expect([results[1], results[3]].map((r) => r?.statusCode).sort()).toEqual([200, 400]);
    }
  });

  it('lets two concurrent refreshes of one token at A and B succeed once, and revokes the grant', async () => {
    for (let round = 0; round < 3; round++) {
      const { code, verifier } = await codeAt(a.app);
      const first = (
        await tokenRequest(a.app, {
          grant_type: 'authorization_code',
          code,
          redirect_uri: DEMO_REDIRECT,
          code_verifier: verifier,
        })
      ).json();
      expect(first.refresh_token).toBeTypeOf('string');
      const body = { grant_type: 'refresh_token', refresh_token: first.refresh_token };
      const results = await Promise.all([tokenRequest(a.app, body), tokenRequest(b.app, body)]);
      const ok = results.filter((r) => r.statusCode === 200);
      const refused = results.filter((r) => r.statusCode !== 200);
      expect(ok).toHaveLength(1);
      expect(refused).toHaveLength(1);
      expect(refused[0]?.statusCode).toBe(400);
      expect(refused[0]?.json().error).toBe('invalid_grant');
      // Reuse detection: the grant is revoked, including what the winner was just given.
      const winner = ok[0]?.json();
      expect(await userinfoStatus(a.app, first.access_token)).toBe(401);
      expect(await userinfoStatus(b.app, winner.access_token)).toBe(401);
      const next = await tokenRequest(b.app, {
        grant_type: 'refresh_token',
        refresh_token: winner.refresh_token,
      });
      expect(next.json().error).toBe('invalid_grant');
    }
  });

  it('serves at B a client registered at A, and a login session made at A', async () => {
    const redirect = 'https://rp.example/cb';
    const { clientSecret } = await registerClient(a.ctx, {
      client_id: 'rp-multi',
      client_secret: 'rp-multi-secret',
      token_endpoint_auth_method: 'client_secret_basic',
      redirect_uris: [redirect],
      grant_types: ['authorization_code', 'client_credentials'],
      id_token_signed_response_alg: 'ML-DSA-65',
    });
    const auth = basicAuth('rp-multi', clientSecret ?? 'rp-multi-secret');
    const cc = await tokenRequest(b.app, { grant_type: 'client_credentials' }, auth);
    expect(cc.statusCode, cc.body).toBe(200);

    // Every step of the login at a different instance; then back at B with the session cookie
    // alone: no login page, straight to a code.
    const { code, verifier, jar } = await codeAt([a.app, b.app], 'rp-multi', redirect);
    expect(jar.has('pqid_session')).toBe(true);
    const redeemed = await tokenRequest(
      b.app,
      { grant_type: 'authorization_code', code, redirect_uri: redirect, code_verifier: verifier },
      auth,
    );
    expect(redeemed.statusCode, redeemed.body).toBe(200);
    const p = pkce();
    const silent = await b.app.inject({
      url: `/authorize?${new URLSearchParams({
        client_id: 'rp-multi',
        redirect_uri: redirect,
        response_type: 'code',
        scope: 'openid profile offline_access',
        prompt: 'none',
        code_challenge: p.challenge,
        code_challenge_method: 'S256',
      })}`,
      headers: { cookie: `pqid_session=${jar.get('pqid_session')}` },
    });
    expect(silent.statusCode).toBe(303);
    const location = new URL(silent.headers.location as string);
    expect(location.searchParams.get('error')).toBeNull();
    expect(location.searchParams.get('code')).toBeTypeOf('string');
  });

  it('locks an account at B after failures spread over A and B, also when they race', async () => {
    const limit = a.ctx.config.loginLimits.maxFailuresPerAccount;
    const wrong = async () => undefined;
    const right = async () => ({ sub: 'demo' });
    // Sequential, alternating instances: the lock holds on both.
    for (let i = 0; i < limit; i++) {
      const at = i % 2 ? a : b;
      expect(
        await at.ctx.loginLimiter.attempt({ username: 'spread', address: `192.0.2.${i}` }, wrong),
      ).toMatchObject({
        locked: false,
      });
    }
    for (const at of [a, b])
      expect(
        await at.ctx.loginLimiter.attempt({ username: 'spread', address: '198.51.100.1' }, right),
      ).toMatchObject({
        ok: false,
        locked: true,
      });
    // All at once on both instances: every failure is a row of its own, so none is lost.
    await Promise.all(
      Array.from({ length: limit }, (_, i) =>
        (i % 2 ? a : b).ctx.loginLimiter.attempt({ username: 'racing', address: `203.0.113.${i}` }, wrong),
      ),
    );
    expect(
      await a.ctx.loginLimiter.attempt({ username: 'racing', address: '198.51.100.2' }, right),
    ).toMatchObject({
      locked: true,
    });
  });

  it('signs at B with the key A generated for a new algorithm, before B re-reads the store', async () => {
    const redirect = 'https://rp44.example/cb';
    await registerClient(a.ctx, {
      client_id: 'rp-44',
      client_secret: 'rp-44-secret',
      token_endpoint_auth_method: 'client_secret_basic',
      redirect_uris: [redirect],
      grant_types: ['authorization_code'],
      id_token_signed_response_alg: 'ML-DSA-44',
    });
    const fromA = a.ctx.keys.list().filter((k) => k.alg === 'ML-DSA-44');
    expect(fromA).toHaveLength(1);
    // B has no ML-DSA-44 key in memory (its re-read interval is 60 s here): it takes the
    // generation lock, re-reads the store and finds A's key instead of making a second one.
    expect(b.ctx.keys.list().some((k) => k.alg === 'ML-DSA-44')).toBe(false);
    const { code, verifier } = await codeAt(b.app, 'rp-44', redirect);
    const r = await tokenRequest(
      b.app,
      { grant_type: 'authorization_code', code, redirect_uri: redirect, code_verifier: verifier },
      basicAuth('rp-44', 'rp-44-secret'),
    );
    expect(r.statusCode, r.body).toBe(200);
    expect(kidOf(r.json().id_token)).toBe(fromA[0]?.kid);
    const stored = (await a.ctx.storage.adapter('SigningKey').list()).filter(
      (k) => k.payload.alg === 'ML-DSA-44',
    );
    expect(stored).toHaveLength(1);
  });

  it('refuses at B a SAML AuthnRequest ID already accepted by A (shared replay cache)', async () => {
    await registerSamlSp(a.ctx, { entityId: SP_ENTITY, acsUrls: [SP_ACS], signatureAlgorithm: 'ML-DSA-65' });
    const sso = (id: string) =>
      `/saml/sso?SAMLRequest=${encodeURIComponent(redirectParam(authnRequestXml({ id })))}`;
    const replayed = (r: { statusCode: number; body: string }) =>
      r.statusCode === 400 && r.body.includes('<code>replay</code>');
    const id = reqId();
    const first = await a.app.inject(sso(id));
    // Accepted: parked for the login page.
    expect(first.statusCode, first.body).toBe(303);
    expect(replayed(await b.app.inject(sso(id)))).toBe(true);
    expect(replayed(await a.app.inject(sso(id)))).toBe(true);
    // The same request sent to both at once: exactly one is accepted.
    for (let round = 0; round < 5; round++) {
      const raced = reqId();
      const results = await Promise.all([a.app.inject(sso(raced)), b.app.inject(sso(raced))]);
      expect(results.map((r) => r.statusCode).sort()).toEqual([303, 400]);
      expect(results.filter(replayed)).toHaveLength(1);
    }
  });

  it('accepts a private_key_jwt assertion once when A and B race for it (jti single use)', async () => {
    const key = await generateKeyPair('ML-DSA-65');
    await registerClient(a.ctx, {
      client_id: 'pkjwt-multi',
      redirect_uris: ['https://rp.example/cb'],
      token_endpoint_auth_method: 'private_key_jwt',
      token_endpoint_auth_signing_alg: 'ML-DSA-65',
      grant_types: ['client_credentials'],
      jwks: { keys: [key.publicJwk] },
    });
    const assertion = (jti: string) =>
      signJwt({}, key.privateJwk, {
        issuer: 'pkjwt-multi',
        subject: 'pkjwt-multi',
        audience: `${ISSUER}/token`,
        expiresIn: 60,
        jti,
      });
    const token = (app: FastifyInstance, clientAssertion: string) =>
      app.inject({
        method: 'POST',
        url: '/token',
        ...form({
          grant_type: 'client_credentials',
          client_assertion_type: JWT_BEARER,
          client_assertion: clientAssertion,
        }),
      });
    for (let round = 0; round < 6; round++) {
      const jwt = await assertion(`multi-${round}`);
      // Several copies on each instance at once.
      const results = await Promise.all(
        Array.from({ length: 6 }, (_, i) => token(i % 2 ? b.app : a.app, jwt)),
      );
      const ok = results.filter((r) => r.statusCode === 200);
      expect(ok, results.map((r) => r.body).join('\n')).toHaveLength(1);
      for (const r of results.filter((x) => x.statusCode !== 200)) {
        expect(r.statusCode).toBe(401);
        expect(r.json().error).toBe('invalid_client');
      }
      // And later, at either instance: still refused.
      expect((await token(round % 2 ? a.app : b.app, jwt)).statusCode).toBe(401);
    }
  });

  it('runs a passkey ceremony across instances; a challenge is consumed once when A and B race', async () => {
    const ivan = await a.ctx.accounts.create({ username: 'ivan', password: 'pw ivan' });
    // Registration: the enrolment code issued through A's store, redeemed at B; options at A,
    // the credential posted at B.
    const jar = new Jar();
    await signInToAccount(a.app, jar, 'ivan', 'pw ivan');
    const code = await enrolmentCode(a.ctx, ivan.sub);
    const enrolCsrf = csrfOf((await get(b.app, jar, '/account')).body);
    expect((await postForm(b.app, jar, '/account/enrol', { csrf: enrolCsrf, code })).headers.location).toBe(
      '/account?done=enrolled',
    );
    const csrf = csrfOf((await get(b.app, jar, '/account')).body);
    const options = (await postJson(a.app, jar, '/account/passkeys/options', { csrf })).json();
    const authenticator = new SoftAuthenticator({ origin: ISSUER });
    const credential = JSON.stringify(await authenticator.create(options, 'ML-DSA-65'));
    expect((await postForm(b.app, jar, '/account/passkeys', { csrf, credential })).headers.location).toBe(
      '/account?done=added',
    );
    const query = new URLSearchParams({
      client_id: 'demo-client',
      redirect_uri: DEMO_REDIRECT,
      response_type: 'code',
      scope: 'openid',
      code_challenge: pkce().challenge,
      code_challenge_method: 'S256',
    });
    for (let round = 0; round < 4; round++) {
      // Sign-in: the page and the challenge from A, the same assertion posted to A and B at once.
      const j = new Jar();
      const page = await startSignIn(a.app, j, `/authorize?${query}`);
      const opts = (await postJson(a.app, j, `${page.url}/passkey/options`, { csrf: page.csrf })).json();
      const assertion = JSON.stringify(await authenticator.get(opts));
      const results = await Promise.all(
        [a.app, b.app, b.app, a.app].map((app) =>
          app.inject({
            method: 'POST',
            url: `${page.url}/passkey`,
            ...form({ csrf: page.csrf, credential: assertion }, { cookie: j.header }),
          }),
        ),
      );
      const codes = results.map((r) => r.statusCode);
      expect(
        codes.filter((c) => c === 303),
        codes.join(),
      ).toHaveLength(1);
      expect(codes.every((c) => c === 303 || c === 401 || c === 400)).toBe(true);
    }
  });

  it('a passkey removed at A ends the session it signed in at B and revokes its refresh token there', async () => {
    const account = await a.ctx.accounts.create({ username: 'walter', password: 'pw walter' });
    const authenticator = new SoftAuthenticator({ origin: ISSUER });
    expect(
      (await enrolFirstPasskey(a, account, 'pw walter', authenticator, 'ML-DSA-44')).headers.location,
    ).toBe('/account?done=added');
    // Signed in at B with the passkey: a session, and a refresh token from B's token endpoint.
    const { jar: j, tokens } = await passkeyTokens(b.app, authenticator);
    const silent = async () =>
      new URL(
        (await get(b.app, j, demoAuthorize({ prompt: 'none' }).url)).headers.location as string,
      ).searchParams.has('code');
    expect(await silent()).toBe(true);
    // Removed at A, from another session the passkey signed in there.
    const manager = new Jar();
    expect(
      (await passkey(a.app, manager, await startSignIn(a.app, manager, '/account'), authenticator)).headers
        .location,
    ).toBe('/account');
    const csrf = csrfOf((await get(a.app, manager, '/account')).body);
    const removed = await postForm(a.app, manager, '/account/passkeys/remove', {
      csrf,
      id: authenticator.credential().b64,
    });
    expect(removed.headers.location).toBe('/account?done=removed');
    // B honours nothing it made.
    expect(await silent()).toBe(false);
    const refreshed = await b.app.inject({
      method: 'POST',
      url: '/token',
      ...form(
        { grant_type: 'refresh_token', refresh_token: tokens.refresh_token },
        { authorization: demoAuth },
      ),
    });
    expect(refreshed.statusCode).toBe(400);
    expect(refreshed.json().error).toBe('invalid_grant');
  });

  it('accepts a DPoP proof once when A and B race for it (shared jti replay cache)', async () => {
    const key = (await importJWK((await generateKeyPair('ML-DSA-44')).privateJwk)) as PrivateKey;
    const { clientSecret } = await registerClient(a.ctx, {
      client_id: 'dpop-multi',
      redirect_uris: [],
      grant_types: ['client_credentials'],
    });
    const auth = basicAuth('dpop-multi', clientSecret as string);
    for (let round = 0; round < 4; round++) {
      const dpop = await signDpopProof(key, { htm: 'POST', htu: `${ISSUER}/token` });
      const results = await Promise.all(
        Array.from({ length: 6 }, (_, i) =>
          (i % 2 ? b.app : a.app).inject({
            method: 'POST',
            url: '/token',
            ...form({ grant_type: 'client_credentials' }, { authorization: auth, dpop }),
          }),
        ),
      );
      const ok = results.filter((r) => r.statusCode === 200);
      expect(ok, results.map((r) => r.body).join('\n')).toHaveLength(1);
      expect(ok[0]?.json().token_type).toBe('DPoP');
      for (const r of results.filter((x) => x.statusCode !== 200))
        expect(r.json().error).toBe('invalid_dpop_proof');
    }
  });

  it('redeems at B a request_uri pushed at A, once', async () => {
    const p = pkce();
    const params = {
      client_id: 'demo-client',
      redirect_uri: DEMO_REDIRECT,
      response_type: 'code',
      scope: 'openid',
      code_challenge: p.challenge,
      code_challenge_method: 'S256',
    };
    const pushed = await a.app.inject({
      method: 'POST',
      url: '/par',
      ...form(params, { authorization: demoAuth }),
    });
    expect(pushed.statusCode, pushed.body).toBe(201);
    const { request_uri } = pushed.json() as { request_uri: string };
    const ask = (app: FastifyInstance) =>
      app.inject(`/authorize?${new URLSearchParams({ client_id: 'demo-client', request_uri })}`);
    const [first, second] = await Promise.all([ask(b.app), ask(a.app)]);
    const statuses = [first.statusCode, second.statusCode].sort();
    // One goes on to the login page (303), the other finds it used (400).
    expect(statuses).toEqual([303, 400]);
  });

  it('sends back-channel logout from B for a session whose codes A issued', async () => {
    const received: string[] = [];
    let arrived: () => void = () => {};
    const delivered = new Promise<void>((r) => {
      arrived = r;
    });
    const rp = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => {
        body += c;
      });
      req.on('end', () => {
        received.push(new URLSearchParams(body).get('logout_token') ?? '');
        res.writeHead(200).end();
        arrived();
      });
    });
    await new Promise<void>((r) => rp.listen(0, '127.0.0.1', r));
    try {
      const { clientSecret } = await registerClient(a.ctx, {
        client_id: 'bcl-multi',
        redirect_uris: [DEMO_REDIRECT],
        id_token_signed_response_alg: 'ML-DSA-65',
        backchannel_logout_uri: `http://127.0.0.1:${(rp.address() as { port: number }).port}/bcl`,
      });
      const jar = new Map<string, string>();
      const { code, verifier } = await codeAt(a.app, 'bcl-multi', DEMO_REDIRECT, jar);
      const tokens = await tokenRequest(
        a.app,
        { grant_type: 'authorization_code', code, redirect_uri: DEMO_REDIRECT, code_verifier: verifier },
        basicAuth('bcl-multi', clientSecret as string),
      );
      const idToken = tokens.json().id_token as string;
      const sid = JSON.parse(Buffer.from(idToken.split('.')[1] as string, 'base64url').toString()).sid;
      const out = await b.app.inject({
        url: `/end_session?${new URLSearchParams({ id_token_hint: idToken })}`,
        headers: { cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; ') },
      });
      expect(out.statusCode).toBe(200);
      await delivered;
      const claims = JSON.parse(
        Buffer.from((received[0] as string).split('.')[1] as string, 'base64url').toString(),
      );
      expect(claims).toMatchObject({ sid, aud: 'bcl-multi' });
    } finally {
      await new Promise((r) => rp.close(r));
    }
  });
});

describe.skipIf(!PG_URL)('key rotation across instances', () => {
  const REFRESH = 1;
  const PREPUBLISH = 3;
  let a: Idp;
  let b: Idp;

  beforeAll(async () => {
    const url = freshUrl('pqid_rot');
    const keys = { refreshInterval: REFRESH, prepublish: PREPUBLISH };
    a = await startInstance(url, { keys });
    b = await startInstance(url, { keys });
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
  });

  /** The kid of an ID token issued by `app` (a login and a code redemption there). */
  async function idTokenKid(app: FastifyInstance): Promise<string> {
    const { code, verifier } = await codeAt(app);
    const r = await tokenRequest(app, {
      grant_type: 'authorization_code',
      code,
      redirect_uri: DEMO_REDIRECT,
      code_verifier: verifier,
    });
    expect(r.statusCode, r.body).toBe(200);
    return kidOf(r.json().id_token);
  }

  it('publishes at B, within keys.refreshInterval, a key rotated in at A; B signs with it once active', async () => {
    const before = await idTokenKid(b.app);
    const [next] = await a.ctx.keys.rotate('ML-DSA-65');
    expect(next?.status).toBe('next');
    const kid = next?.kid as string;
    expect(await jwksKids(a.app)).toContain(kid);
    // B learns of it by re-reading the store, without a restart: bounded by refreshInterval.
    const seenAfter = await eventually(async () => (await jwksKids(b.app)).includes(kid), 3000);
    expect(seenAfter).toBeLessThan(REFRESH * 1000 + 1000);
    expect(await jwksKids(b.app)).toEqual(await jwksKids(a.app));
    // Published, not yet signing (prepublish): both still sign with the current key.
    expect(await idTokenKid(b.app)).toBe(before);
    // Once activateAt has passed, both sign with the new key; the old one stays published.
    await sleep(Math.max(0, ((next?.activateAt as number) + 1) * 1000 - Date.now()));
    expect(await idTokenKid(b.app)).toBe(kid);
    expect(await idTokenKid(a.app)).toBe(kid);
    expect(await jwksKids(b.app)).toContain(before);
  });

  it('signs at B with a key activated at once at A (pqid keys rotate --now) within the bound', async () => {
    const [now] = await a.ctx.keys.rotate('ML-DSA-65', { immediate: true });
    expect(now?.status).toBe('active');
    const kid = now?.kid as string;
    expect(await idTokenKid(a.app)).toBe(kid);
    const took = await eventually(async () => (await jwksKids(b.app)).includes(kid), 3000);
    expect(took).toBeLessThan(REFRESH * 1000 + 1000);
    expect(await idTokenKid(b.app)).toBe(kid);
  });
});

describe.skipIf(!PG_URL)('instances starting together on an empty database', () => {
  const started: Idp[] = [];
  afterAll(async () => {
    for (const i of started.splice(0)) await i.close();
  });

  it('end up with one set of signing keys, one demo user and client, one pairwise salt', async () => {
    for (let round = 0; round < 3; round++) {
      const url = freshUrl('pqid_race');
      const instances = await Promise.all([startInstance(url), startInstance(url), startInstance(url)]);
      started.push(...instances);
      const [a, b, c] = instances as [Idp, Idp, Idp];
      // Every algorithm of every key set has exactly one key, created by one instance, and all agree on it.
      const byKid = (i: Idp) =>
        i.ctx.keys.list().sort((x, y) => x.kid.localeCompare(y.kid) || x.set.localeCompare(y.set));
      const keys = byKid(a);
      const algs = keys.map((k) => `${k.set} ${k.alg}`);
      expect(new Set(algs).size).toBe(algs.length);
      expect(keys.every((k) => k.status === 'active')).toBe(true);
      const stored = await a.ctx.storage.adapter('SigningKey').list();
      expect(stored.map((r) => r.id).sort()).toEqual(keys.map((k) => recordId(k.set, k.kid)).sort());
      const created = instances.flatMap((i) => i.createdKeys);
      // No key is reported as created by two instances (SAML keys are made by the SAML routes).
      expect(new Set(created).size).toBe(created.length);
      for (const kid of created) expect(keys.map((k) => k.kid)).toContain(kid);
      for (const other of [b, c]) {
        expect(await jwksKids(other.app)).toEqual(await jwksKids(a.app));
        expect(byKid(other)).toEqual(keys);
      }
      // The demo user and client once.
      const accounts = await a.ctx.storage.adapter('Account').list();
      expect(accounts.filter((r) => r.payload.uid === 'demo')).toHaveLength(1);
      expect(instances.filter((i) => i.seed.createdUser)).toHaveLength(1);
      expect(instances.filter((i) => i.seed.createdClient)).toHaveLength(1);
      expect((await a.ctx.storage.adapter('Client').list()).map((r) => r.id)).toEqual(['demo-client']);
      // Tokens issued at one verify with the keys published by another.
      const cc = await tokenRequest(c.app, { grant_type: 'client_credentials' });
      expect(cc.statusCode, cc.body).toBe(200);
      // SAML: the first pairwise-NameID salt made wins on every instance.
      const salts = await Promise.all(instances.map((i) => new SamlCertificates(i.ctx).pairwiseSalt()));
      expect(salts.map((x) => x.toString('hex'))).toEqual(Array(3).fill(salts[0]?.toString('hex')));
    }
  });
});

describe.skipIf(!PG_URL)('PostgreSQL outage', () => {
  let proxy: DbProxy;
  let idp: Idp;

  beforeAll(async () => {
    const schema = uniqueSchema('pqid_out');
    schemas.push(schema);
    proxy = await dbProxy();
    idp = await startInstance(`${proxy.url(schema)}&connect_timeout_ms=1000`);
  });
  afterAll(async () => {
    await idp?.close();
    await proxy?.close();
  });

  it('refuses to start while the database is unreachable', async () => {
    const u = new URL(urlWithSchema(uniqueSchema('pqid_never')));
    u.port = '1';
    const started = performance.now();
    await expect(startInstance(u.href)).rejects.toBeInstanceOf(StorageUnavailable);
    expect(performance.now() - started).toBeLessThan(3000);
  });

  const cc = () => tokenRequest(idp.app, { grant_type: 'client_credentials' });

  async function whileDown<T>(fn: () => Promise<T>): Promise<T> {
    expect((await cc()).statusCode).toBe(200);
    await proxy.down();
    try {
      return await fn();
    } finally {
      await proxy.up();
    }
  }

  async function recovered(): Promise<number> {
    let status = 0;
    for (let i = 0; i < 20 && status !== 200; i++) {
      status = (await cc()).statusCode;
      if (status !== 200) await new Promise((r) => setTimeout(r, 100));
    }
    return status;
  }

  it('fails fast while PostgreSQL is down and recovers without a restart', async () => {
    expect((await idp.app.inject('/healthz')).statusCode).toBe(200);
    const { failed, elapsed, health } = await whileDown(async () => {
      const started = performance.now();
      const failed = await cc();
      const elapsed = performance.now() - started;
      return { failed, elapsed, health: await idp.app.inject('/healthz') };
    });
    expect(elapsed).toBeLessThan(2000);
    expect(failed.statusCode).toBeGreaterThanOrEqual(500);
    expect(failed.json().error).toBeTypeOf('string');
    expect(health.statusCode).toBe(503);
    // The public answer (the detail, storage kind included, needs the operator token).
    expect(health.json()).toEqual({ status: 'degraded', storage: { ok: false } });
    // Same process, same pool: it reconnects on its own.
    expect(await recovered()).toBe(200);
    expect((await idp.app.inject('/healthz')).statusCode).toBe(200);
  });

  // A database outage is not a server bug: the OAuth error handler maps StorageUnavailable to 503.
  it('answers 503 temporarily_unavailable with Retry-After while PostgreSQL is down', async () => {
    const failed = await whileDown(cc);
    await recovered();
    expect(failed.statusCode).toBe(503);
    expect(failed.json()).toMatchObject({ error: 'temporarily_unavailable' });
    expect(failed.headers['retry-after']).toBeDefined();
  });
});

if (!PG_URL) {
  describe('multi-instance on PostgreSQL', () => {
    it.skip(PG_SKIP_REASON, () => {});
  });
}
