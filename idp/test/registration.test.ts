/**
 * Dynamic client registration (RFC 7591) and management (RFC 7592), fastify inject: the initial
 * access token, registration access tokens stored as digests, AKP (ML-DSA, composite) keys in
 * `jwks`, RFC 7591 error codes, and the same validation as `pqid clients add --metadata`.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { generateKeyPair, type Jwk, signJwt } from '@pqid/jose';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerClient } from '../src/app.ts';
import { clients as clientsCommand } from '../src/cli/clients.ts';
import { runCli } from '../src/cli/run.ts';
import { JWT_BEARER } from '../src/oidc/shared/client-auth.ts';
import {
  answerConsent,
  basicAuth,
  captureOutput,
  cookieHeader,
  form,
  KEK,
  pkce,
  startTestIdp,
  tempDir,
} from './helpers.ts';

const ISSUER = 'http://localhost:3000';
const IAT = 'initial-access-token-0123456789';
const RP = 'https://rp.example/cb';

describe('dynamic client registration (inject)', () => {
  let t: Awaited<ReturnType<typeof startTestIdp>>;
  let app: FastifyInstance;

  beforeAll(async () => {
    t = await startTestIdp({ registration: { mode: 'token', initialAccessToken: IAT } });
    app = t.idp.app;
  });
  afterAll(() => t.close());

  const register = (body: unknown, token: string | null = IAT, contentType = 'application/json') =>
    app.inject({
      method: 'POST',
      url: '/register',
      headers: { 'content-type': contentType, ...(token ? { authorization: `Bearer ${token}` } : {}) },
      payload: typeof body === 'string' ? body : JSON.stringify(body),
    });
  const manage = (method: 'GET' | 'PUT' | 'DELETE', clientId: string, token: string, body?: unknown) =>
    app.inject({
      method,
      url: `/register/${encodeURIComponent(clientId)}`,
      headers: {
        authorization: `Bearer ${token}`,
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      },
      ...(body !== undefined ? { payload: JSON.stringify(body) } : {}),
    });

  it('advertises the registration endpoint', async () => {
    const doc = (await app.inject('/.well-known/openid-configuration')).json();
    expect(doc.registration_endpoint).toBe(`${ISSUER}/register`);
  });

  it('needs the initial access token in token mode', async () => {
    for (const token of [null, 'wrong-token', `${IAT}x`]) {
      const r = await register({ redirect_uris: [RP] }, token);
      expect(r.statusCode).toBe(401);
      expect(r.json().error).toBe('invalid_token');
      expect(r.headers['www-authenticate']).toMatch(/^Bearer error="invalid_token"/);
    }
  });

  it('registers, answers RFC 7591 members, stores only digests, ignores a chosen client_id', async () => {
    const r = await register({
      client_id: 'i-choose',
      client_secret: 'and-my-secret',
      redirect_uris: [RP],
      client_name: 'Registered RP',
      id_token_signed_response_alg: 'ML-DSA-87-ES384',
      unknown_member: 'ignored',
    });
    expect(r.statusCode, r.body).toBe(201);
    expect(r.headers['cache-control']).toBe('no-store');
    const body = r.json();
    expect(body.client_id).not.toBe('i-choose');
    expect(body).toMatchObject({
      client_name: 'Registered RP',
      redirect_uris: [RP],
      id_token_signed_response_alg: 'ML-DSA-87-ES384',
      token_endpoint_auth_method: 'client_secret_basic',
      client_secret_expires_at: 0,
      registration_client_uri: `${ISSUER}/register/${body.client_id}`,
    });
    expect(body.client_secret).not.toBe('and-my-secret');
    expect(body.client_secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(body.registration_access_token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(body.client_id_issued_at).toBeGreaterThan(Date.now() / 1000 - 60);
    expect(body.unknown_member).toBeUndefined();
    expect(body.client_secret_hash).toBeUndefined();
    expect(body.registration_access_token_hash).toBeUndefined();
    const stored = JSON.stringify(await t.idp.ctx.storage.adapter('Client').find(body.client_id));
    expect(stored).not.toContain(body.registration_access_token);
    expect(stored).not.toContain(body.client_secret);
    // Its key is published before it can get a token.
    const algs = ((await app.inject('/jwks')).json().keys as Jwk[]).map((k) => k.alg);
    expect(algs).toContain('ML-DSA-87-ES384');
    // And the secret works at the token endpoint.
    const cc = await app.inject({
      method: 'POST',
      url: '/token',
      ...form(
        { grant_type: 'refresh_token', refresh_token: 'x' },
        { authorization: basicAuth(body.client_id, body.client_secret) },
      ),
    });
    expect(cc.json().error).toBe('invalid_grant');
  });

  it('registers a private_key_jwt client with ML-DSA and composite AKP keys, which then authenticates', async () => {
    const mldsa = await generateKeyPair('ML-DSA-65');
    const composite = await generateKeyPair('ML-DSA-44-Ed25519');
    const r = await register({
      redirect_uris: [],
      grant_types: ['client_credentials'],
      token_endpoint_auth_method: 'private_key_jwt',
      token_endpoint_auth_signing_alg: 'ML-DSA-65',
      jwks: { keys: [mldsa.publicJwk, composite.publicJwk] },
    });
    expect(r.statusCode, r.body).toBe(201);
    const { client_id } = r.json();
    expect(r.json().client_secret).toBeUndefined();
    const assertion = await signJwt({ jti: crypto.randomUUID() }, mldsa.privateJwk, {
      issuer: client_id,
      subject: client_id,
      audience: `${ISSUER}/token`,
      expiresIn: 60,
    });
    const tok = await app.inject({
      method: 'POST',
      url: '/token',
      ...form({
        grant_type: 'client_credentials',
        client_assertion_type: JWT_BEARER,
        client_assertion: assertion,
      }),
    });
    expect(tok.statusCode, tok.body).toBe(200);
  });

  it('a machine client gets machine defaults: no response types, no PKCE', async () => {
    const r = await register({ redirect_uris: [], grant_types: ['client_credentials'], scope: 'profile' });
    // A machine client: the code flow's defaults do not apply (RFC 7591 §2.1 pairs no response type
    // with client_credentials); the code grant without the code response type is refused.
    expect(r.json()).toMatchObject({ response_types: [], require_pkce: false });
    const mixed = await register({
      redirect_uris: [RP],
      grant_types: ['authorization_code'],
      response_types: [],
    });
    expect(mixed.json()).toMatchObject({
      error: 'invalid_client_metadata',
      error_description: 'the authorization_code grant needs response_types ["code"]',
    });
  });

  it('a registered client introspects only its own tokens (RFC 7662 §2.2, §4)', async () => {
    // Registering is not being a resource server the operator authorised: without this, any
    // registrant could read the subject, scope and audience of any access token it holds.
    const r = await register({ redirect_uris: [], grant_types: ['client_credentials'], scope: 'profile' });
    const { client_id, client_secret } = r.json();
    const { clientSecret: opSecret } = await registerClient(t.idp.ctx, {
      client_id: 'operator-svc',
      redirect_uris: [],
      grant_types: ['client_credentials'],
      scope: 'profile',
    });
    const cc = async (authorization: string) =>
      (
        await app.inject({
          method: 'POST',
          url: '/token',
          ...form({ grant_type: 'client_credentials', scope: 'profile' }, { authorization }),
        })
      ).json().access_token as string;
    const mine = await cc(basicAuth(client_id, client_secret));
    const theirs = await cc(basicAuth('operator-svc', opSecret as string));
    const introspect = async (token: string, authorization: string) =>
      (
        await app.inject({ method: 'POST', url: '/introspect', ...form({ token }, { authorization }) })
      ).json();
    expect(await introspect(mine, basicAuth(client_id, client_secret))).toMatchObject({
      active: true,
      client_id,
    });
    expect(await introspect(theirs, basicAuth(client_id, client_secret))).toEqual({ active: false });
    // A client the operator registered (a resource server) still sees every token.
    expect(await introspect(mine, basicAuth('operator-svc', opSecret as string))).toMatchObject({
      active: true,
    });
  });

  it('answers invalid_redirect_uri and invalid_client_metadata (RFC 7591 §3.2.2)', async () => {
    const es = await generateKeyPair('ES256');
    const cases: Array<[unknown, string]> = [
      [{ redirect_uris: ['/relative'] }, 'invalid_redirect_uri'],
      [{ redirect_uris: ['javascript:alert(1)'] }, 'invalid_redirect_uri'],
      [{ redirect_uris: ['https://rp.example/cb#frag'] }, 'invalid_redirect_uri'],
      [{ redirect_uris: 'https://rp.example/cb' }, 'invalid_redirect_uri'],
      [{ redirect_uris: [] }, 'invalid_redirect_uri'],
      [{ redirect_uris: [RP], id_token_signed_response_alg: 'HS256' }, 'invalid_client_metadata'],
      [{ redirect_uris: [RP], id_token_signed_response_alg: 'none' }, 'invalid_client_metadata'],
      [{ redirect_uris: [RP], require_pkce: 'yes' }, 'invalid_client_metadata'],
      [{ redirect_uris: [RP], grant_types: ['implicit'] }, 'invalid_client_metadata'],
      [{ redirect_uris: [RP], response_types: ['code id_token'] }, 'invalid_client_metadata'],
      [{ redirect_uris: [RP], token_endpoint_auth_method: 'tls_client_auth' }, 'invalid_client_metadata'],
      [
        {
          redirect_uris: [RP],
          token_endpoint_auth_method: 'private_key_jwt',
          token_endpoint_auth_signing_alg: 'ES256',
        },
        'invalid_client_metadata',
      ],
      [{ redirect_uris: [RP], jwks: { keys: [es.privateJwk] } }, 'invalid_client_metadata'],
      [
        { redirect_uris: [RP], jwks: { keys: [{ kty: 'AKP', alg: 'ML-DSA-65', pub: 'AAAA' }] } },
        'invalid_client_metadata',
      ],
      [{ redirect_uris: [RP], jwks_uri: 'http://keys.example/jwks' }, 'invalid_client_metadata'],
      [
        { redirect_uris: [RP], jwks: { keys: [es.publicJwk] }, jwks_uri: 'https://keys.example/jwks' },
        'invalid_client_metadata',
      ],
      [
        { redirect_uris: [RP], backchannel_logout_uri: 'http://rp.example/logout' },
        'invalid_client_metadata',
      ],
      [
        { redirect_uris: [RP], token_endpoint_auth_method: 'none', grant_types: ['client_credentials'] },
        'invalid_client_metadata',
      ],
      [{ redirect_uris: [RP], scope: 'openid "quoted"' }, 'invalid_client_metadata'],
      [[RP], 'invalid_client_metadata'],
    ];
    for (const [metadata, error] of cases) {
      const r = await register(metadata);
      expect(r.statusCode, JSON.stringify(metadata)).toBe(400);
      expect(r.json().error, JSON.stringify(metadata)).toBe(error);
    }
    const notJson = await register('redirect_uris=x', IAT, 'application/x-www-form-urlencoded');
    expect(notJson.statusCode).toBe(400);
    // Too many keys is said as such, not as a malformed set.
    const many = { keys: Array.from({ length: 17 }, (_, i) => ({ ...es.publicJwk, kid: `k${i}` })) };
    const tooMany = await register({ redirect_uris: [RP], jwks: many });
    expect(tooMany.json()).toEqual({
      error: 'invalid_client_metadata',
      error_description: 'jwks may hold at most 16 keys',
    });
  });

  it('validates exactly like `pqid clients add --metadata`', async () => {
    const dir = tempDir();
    const saved = { ...process.env };
    Object.assign(process.env, { PQID_DATA_DIR: dir.dir, PQID_KEK: KEK, PQID_DEMO: 'false' });
    delete process.env.PQID_CONFIG;
    delete process.env.PQID_DATABASE_URL;
    const cli = async (metadata: unknown) => {
      const file = join(dir.dir, 'client.json');
      writeFileSync(file, JSON.stringify(metadata));
      const {
        result: code,
        stdout,
        stderr,
      } = await captureOutput(() =>
        runCli(['clients', 'add', '--metadata', file, '--yes'], [clientsCommand]),
      );
      return { code, stderr, stdout };
    };
    try {
      const bad: unknown[] = [
        { redirect_uris: ['javascript:alert(1)'] },
        { redirect_uris: [RP], userinfo_signed_response_alg: 'HS512' },
        { redirect_uris: [RP], request_object_signing_alg: 'ML-DSA-65' },
        { redirect_uris: [RP], dpop_bound_access_tokens: 'true' },
        { redirect_uris: [RP], default_acr_values: ['urn:example:gold'] },
        { redirect_uris: [RP], default_acr_values: 'urn:pqid:acr:mfa' },
      ];
      for (const metadata of bad) {
        const viaApi = (await register(metadata)).json().error_description as string;
        const viaCli = await cli(metadata);
        expect(viaCli.code, JSON.stringify(metadata)).toBe(2);
        expect(viaCli.stderr, JSON.stringify(metadata)).toContain(viaApi);
      }
      const good = {
        redirect_uris: [RP],
        id_token_signed_response_alg: 'ML-DSA-44',
        dpop_bound_access_tokens: true,
        default_acr_values: ['urn:pqid:acr:mfa'],
      };
      const registered = await register(good);
      expect(registered.statusCode).toBe(201);
      expect(registered.json().default_acr_values).toEqual(['urn:pqid:acr:mfa']);
      const added = await cli(good);
      expect(added.code).toBe(0);
      expect(JSON.parse(added.stdout).default_acr_values).toEqual(['urn:pqid:acr:mfa']);
    } finally {
      process.env = saved;
      dir.cleanup();
    }
  });

  describe('RFC 7592 management', () => {
    async function registered() {
      const r = await register({
        redirect_uris: [RP],
        client_name: 'Managed',
        id_token_signed_response_alg: 'ML-DSA-44',
      });
      expect(r.statusCode).toBe(201);
      return r.json() as { client_id: string; client_secret: string; registration_access_token: string };
    }

    it('reads with the registration access token; any other token, or client, gets the same 401', async () => {
      const a = await registered();
      const b = await registered();
      const read = await manage('GET', a.client_id, a.registration_access_token);
      expect(read.statusCode).toBe(200);
      expect(read.json()).toMatchObject({ client_id: a.client_id, client_name: 'Managed' });
      expect(read.json().client_secret).toBeUndefined();
      expect(read.json().registration_access_token).toBeUndefined();
      for (const [id, token] of [
        [a.client_id, b.registration_access_token],
        [a.client_id, IAT],
        ['no-such-client', a.registration_access_token],
        [a.client_id, ''],
      ] as const) {
        const r = await manage('GET', id, token);
        expect(r.statusCode, `${id} ${token}`).toBe(401);
        expect(r.json().error).toBe('invalid_token');
      }
    });

    it('replaces metadata (validated again), keeping the secret', async () => {
      const a = await registered();
      const put = await manage('PUT', a.client_id, a.registration_access_token, {
        client_id: a.client_id,
        redirect_uris: ['https://rp.example/new'],
        id_token_signed_response_alg: 'ML-DSA-65-Ed25519',
      });
      expect(put.statusCode, put.body).toBe(200);
      expect(put.json()).toMatchObject({
        redirect_uris: ['https://rp.example/new'],
        id_token_signed_response_alg: 'ML-DSA-65-Ed25519',
      });
      expect(put.json().client_secret).toBeUndefined();
      // A PUT replaces, it does not merge: the name given at registration is gone, and people
      // are shown the default, the client_id.
      expect(put.json().client_name).toBe(a.client_id);
      const stored = await t.idp.ctx.clients.find(a.client_id);
      expect(stored && (await t.idp.ctx.clients.checkSecret(stored, a.client_secret))).toBe(true);
      expect(((await app.inject('/jwks')).json().keys as Jwk[]).map((k) => k.alg)).toContain(
        'ML-DSA-65-Ed25519',
      );
      // The same token still manages it.
      expect((await manage('GET', a.client_id, a.registration_access_token)).statusCode).toBe(200);

      const mismatched = await manage('PUT', a.client_id, a.registration_access_token, {
        client_id: 'other',
        redirect_uris: [RP],
      });
      expect(mismatched.json().error).toBe('invalid_client_metadata');
      const wrongSecret = await manage('PUT', a.client_id, a.registration_access_token, {
        client_id: a.client_id,
        client_secret: 'guess',
        redirect_uris: [RP],
      });
      expect(wrongSecret.json().error).toBe('invalid_client_metadata');
      const invalid = await manage('PUT', a.client_id, a.registration_access_token, {
        client_id: a.client_id,
        redirect_uris: ['javascript:x'],
      });
      expect(invalid.json().error).toBe('invalid_redirect_uri');
    });

    it('deletes the client: its token and its registration access token stop working', async () => {
      const a = await registered();
      expect((await manage('DELETE', a.client_id, a.registration_access_token)).statusCode).toBe(204);
      expect((await manage('GET', a.client_id, a.registration_access_token)).statusCode).toBe(401);
      const tok = await app.inject({
        method: 'POST',
        url: '/token',
        ...form(
          { grant_type: 'refresh_token', refresh_token: 'x' },
          { authorization: basicAuth(a.client_id, a.client_secret) },
        ),
      });
      expect(tok.json().error).toBe('invalid_client');
    });
  });

  it('a dynamically registered client gets no code without the user’s consent to its scopes', async () => {
    // Anyone may register in open mode: such a client is a third party, never trusted silently.
    const open = await startTestIdp({ registration: { mode: 'open' } });
    try {
      const a = open.idp.app;
      const reg = await a.inject({
        method: 'POST',
        url: '/register',
        headers: { 'content-type': 'application/json' },
        payload: JSON.stringify({ redirect_uris: [RP], scope: 'openid profile email' }),
      });
      const { client_id } = reg.json();
      const query = (scope: string, extra: Record<string, string> = {}) =>
        `/authorize?${new URLSearchParams({ client_id, redirect_uri: RP, response_type: 'code', scope, code_challenge: pkce().challenge, code_challenge_method: 'S256', ...extra })}`;
      // Signing in leads to the consent page, not straight back to the client with a code.
      const r1 = await a.inject(query('openid profile'));
      const login = r1.headers.location as string;
      const cookie = cookieHeader(r1.cookies);
      const page = await a.inject({ url: login, headers: { cookie } });
      const csrf = /name="csrf" value="([^"]+)"/.exec(page.body)?.[1] as string;
      const r2 = await a.inject({
        method: 'POST',
        url: `${login}/login`,
        ...form({ csrf, username: 'demo', password: 'demo' }, { cookie }),
      });
      expect(r2.headers.location).toMatch(/^\/interaction\//);
      const session = `pqid_session=${r2.cookies.find((c) => c.name === 'pqid_session')?.value}`;
      // Without an answer, prompt=none cannot get a code either.
      const silent = await a.inject({
        url: query('openid profile', { prompt: 'none' }),
        headers: { cookie: session },
      });
      expect(new URL(silent.headers.location as string).searchParams.get('error')).toBe('consent_required');
      const interaction = cookieHeader(r2.cookies.filter((c) => c.name === 'pqid_interaction'));
      const back = new URL(
        await answerConsent(a, r2.headers.location as string, `${interaction}; ${session}`, 'allow'),
      );
      expect(back.searchParams.get('code')).toBeTruthy();
      // Consent is remembered for the scopes allowed; a scope beyond them is asked again.
      const again = await a.inject({
        url: query('openid profile', { prompt: 'none' }),
        headers: { cookie: session },
      });
      expect(new URL(again.headers.location as string).searchParams.get('code')).toBeTruthy();
      const more = await a.inject({
        url: query('openid email', { prompt: 'none' }),
        headers: { cookie: session },
      });
      expect(new URL(more.headers.location as string).searchParams.get('error')).toBe('consent_required');
    } finally {
      await open.close();
    }
  });

  it('open mode grants no client_credentials: anyone could mint tokens for any resource scope', async () => {
    const API = 'https://api.example/';
    const open = await startTestIdp({
      registration: { mode: 'open' },
      resourceServers: { [API]: { scope: 'admin:write' } },
    });
    try {
      const a = open.idp.app;
      const post = (body: unknown, url = '/register', method: 'POST' | 'PUT' = 'POST', token?: string) =>
        a.inject({
          method,
          url,
          headers: {
            'content-type': 'application/json',
            ...(token ? { authorization: `Bearer ${token}` } : {}),
          },
          payload: JSON.stringify(body),
        });
      const machine = await post({
        redirect_uris: [],
        grant_types: ['client_credentials'],
        scope: 'admin:write',
      });
      expect(machine.statusCode).toBe(400);
      expect(machine.json().error).toBe('invalid_client_metadata');
      // Nor by a later replacement (RFC 7592) of an ordinary registration.
      const web = (await post({ redirect_uris: [RP] })).json();
      const put = await post(
        {
          client_id: web.client_id,
          redirect_uris: [RP],
          grant_types: ['authorization_code', 'client_credentials'],
        },
        `/register/${web.client_id}`,
        'PUT',
        web.registration_access_token,
      );
      expect(put.statusCode).toBe(400);
      expect(put.json().error).toBe('invalid_client_metadata');
      const cc = await a.inject({
        method: 'POST',
        url: '/token',
        ...form(
          { grant_type: 'client_credentials', resource: API },
          { authorization: basicAuth(web.client_id, web.client_secret) },
        ),
      });
      expect(cc.json().error).toBe('unauthorized_client');
    } finally {
      await open.close();
    }
  });

  it('open mode needs no token; off mode has no endpoint', async () => {
    const open = await startTestIdp({ registration: { mode: 'open' } });
    const off = await startTestIdp();
    try {
      const r = await open.idp.app.inject({
        method: 'POST',
        url: '/register',
        headers: { 'content-type': 'application/json' },
        payload: JSON.stringify({ redirect_uris: [RP] }),
      });
      expect(r.statusCode).toBe(201);
      const none = await off.idp.app.inject({
        method: 'POST',
        url: '/register',
        headers: { 'content-type': 'application/json' },
        payload: JSON.stringify({ redirect_uris: [RP] }),
      });
      expect(none.statusCode).toBe(404);
      expect(
        (await off.idp.app.inject('/.well-known/openid-configuration')).json().registration_endpoint,
      ).toBeUndefined();
    } finally {
      await open.close();
      await off.close();
    }
  });
  it('open mode: a budget of requests per address, counted in the shared store, refused ones not counted; token mode has none', async () => {
    const limits = { maxPerAddress: 3, window: 60 };
    const open = await startTestIdp({ registration: { mode: 'open', ...limits } });
    const token = 'initial-access-token-0123456789';
    const withToken = await startTestIdp({
      registration: { mode: 'token', initialAccessToken: token, ...limits },
    });
    try {
      const register = (app: FastifyInstance, address: string, body: unknown, bearer?: string) =>
        app.inject({
          method: 'POST',
          url: '/register',
          remoteAddress: address,
          headers: {
            'content-type': 'application/json',
            ...(bearer ? { authorization: `Bearer ${bearer}` } : {}),
          },
          payload: JSON.stringify(body),
        });
      const a = open.idp.app;
      // Bad metadata spends the budget too: validating it is the work being limited.
      const statuses = [
        (await register(a, '203.0.113.7', { redirect_uris: ['http://evil.example/cb'] })).statusCode,
        (await register(a, '203.0.113.7', { redirect_uris: [RP] })).statusCode,
        (await register(a, '203.0.113.7', { redirect_uris: [RP] })).statusCode,
      ];
      expect(statuses).toEqual([400, 201, 201]);
      const refused = await register(a, '203.0.113.7', { redirect_uris: [RP] });
      expect(refused.statusCode).toBe(429);
      expect(refused.json()).toMatchObject({ error: 'temporarily_unavailable' });
      expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(60);
      // IPv6 per /64: another host of the same /64 shares the budget, another address has its own.
      for (let i = 0; i < 3; i++)
        expect((await register(a, `2001:db8:5:6::${i + 1}`, { redirect_uris: [RP] })).statusCode).toBe(201);
      expect((await register(a, '2001:db8:5:6:ffff::9', { redirect_uris: [RP] })).statusCode).toBe(429);
      expect((await register(a, '198.51.100.2', { redirect_uris: [RP] })).statusCode).toBe(201);
      // The count lives in the store: it is one budget for every instance using it.
      const stored = await open.idp.ctx.storage.loginFailures.recent(
        'register:ip:203.0.113.7',
        Date.now(),
        60_000,
      );
      expect(stored).toHaveLength(3);
      // With an initial access token, the operator's, there is no per-address budget.
      for (let i = 0; i < 5; i++)
        expect(
          (await register(withToken.idp.app, '203.0.113.7', { redirect_uris: [RP] }, token)).statusCode,
        ).toBe(201);
    } finally {
      await open.close();
      await withToken.close();
    }
  });
});
