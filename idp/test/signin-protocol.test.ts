/**
 * Where sign-in (passkeys, step-up, acr/amr) meets the protocol extensions (DPoP, PAR,
 * JAR, resource indicators, `sid` and back-channel logout, dynamic registration),
 * fastify inject: `default_acr_values` through dynamic registration, validated like
 * `pqid clients add --acr`; step-up demanded by a pushed request and by a signed request
 * object's `claims`; acr/amr in DPoP-bound, resource-restricted access tokens; one `sid` across
 * a passkey step-up, so back-channel logout reaches every client of the session.
 */
import { createServer, type Server } from 'node:http';
import {
  calculateThumbprint,
  createLocalJWKSet,
  exportJWK,
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
import { registerClient } from '../src/app.ts';
import { BACKCHANNEL_LOGOUT_EVENT } from '../src/oidc/logout/logout-token.ts';
import { ACR } from '../src/signin/auth-context.ts';
import { SESSION_COOKIE } from '../src/signin/session.ts';
import { basicAuth, form, pkce, startTestIdp } from './helpers.ts';
import {
  enrolFirstPasskey,
  get,
  Jar,
  ORIGIN,
  openInteraction,
  passkey,
  password,
  postForm,
  startSignIn,
} from './passkey-helpers.ts';
import { SoftAuthenticator } from './webauthn-authenticator.ts';

const MFA = ACR.multiFactor;
const ONE = ACR.oneFactor;
const RP = 'https://rp.example/cb';
const API = 'https://api.example/';
const TOKEN = `${ORIGIN}/token`;

/** A relying party's back-channel logout endpoint on loopback: the logout tokens it received. */
class LogoutReceiver {
  readonly tokens: string[] = [];
  url = '';
  #waiters: Array<{ n: number; resolve: () => void }> = [];
  readonly #server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => {
      body += c;
    });
    req.on('end', () => {
      this.tokens.push(new URLSearchParams(body).get('logout_token') ?? '');
      for (const w of this.#waiters.filter((x) => this.tokens.length >= x.n)) w.resolve();
      res.writeHead(200).end();
    });
  });
  async start(): Promise<this> {
    await new Promise<void>((r) => this.#server.listen(0, '127.0.0.1', r));
    this.url = `http://127.0.0.1:${(this.#server.address() as { port: number }).port}/logout`;
    return this;
  }
  got(n: number): Promise<void> {
    if (this.tokens.length >= n) return Promise.resolve();
    return new Promise((resolve) => this.#waiters.push({ n, resolve }));
  }
  close() {
    return new Promise((r) => this.#server.close(r));
  }
}

let t: Awaited<ReturnType<typeof startTestIdp>>;
let app: FastifyInstance;
const secrets = new Map<string, string>();
const receivers = new Map<string, LogoutReceiver>();
let clientKey: PrivateKey;
let n = 0;

beforeAll(async () => {
  t = await startTestIdp({
    registration: { mode: 'open' },
    resourceServers: { [API]: { scope: 'api:read', accessTokenSigningAlg: 'ML-DSA-44' } },
    backchannelLogout: { concurrency: 2, attempts: 1, retryDelay: 0.02, timeout: 2 },
  });
  app = t.idp.app;
  const pair = await generateKeyPair('ML-DSA-65');
  clientKey = (await importJWK(pair.privateJwk)) as PrivateKey;
  for (const id of ['bcl-a', 'bcl-b']) receivers.set(id, await new LogoutReceiver().start());
  const clients: Array<[string, Record<string, unknown>]> = [
    // Only through PAR; its JWT access tokens carry the sign-in's context.
    [
      'pushed',
      {
        require_pushed_authorization_requests: true,
        access_token_format: 'jwt',
        scope: 'openid api:read',
        jwks: { keys: [pair.publicJwk] },
      },
    ],
    ['bcl-a', { backchannel_logout_uri: receivers.get('bcl-a')?.url }],
    ['bcl-b', { backchannel_logout_uri: receivers.get('bcl-b')?.url, default_acr_values: [MFA] }],
  ];
  for (const [id, extra] of clients) {
    const { clientSecret } = await registerClient(t.idp.ctx, {
      client_id: id,
      redirect_uris: [RP],
      id_token_signed_response_alg: 'ML-DSA-65',
      ...extra,
    });
    secrets.set(id, clientSecret as string);
  }
});
afterAll(async () => {
  await t?.close();
  for (const r of receivers.values()) await r.close();
});

const auth = (id: string) => basicAuth(id, secrets.get(id) as string);
const claimsOf = (jwt: string) =>
  JSON.parse(Buffer.from(jwt.split('.')[1] as string, 'base64url').toString()) as Record<string, unknown>;
const paramsOf = (location: string) => Object.fromEntries(new URL(location).searchParams);

async function verified(jwt: string, audience: string, alg = 'ML-DSA-65') {
  const jwks = await createLocalJWKSet((await app.inject('/jwks')).json() as { keys: Jwk[] });
  return (await verifyJwt(jwt, jwks, { algorithms: [alg], issuer: ORIGIN, audience })).claims;
}

/** A user with a password and, when asked, a device-bound ML-DSA-65 passkey. */
async function user(withPasskey: boolean) {
  const username = `meets${n++}`;
  const pw = `pw ${username}`;
  const account = await t.idp.ctx.accounts.create({ username, password: pw });
  const authenticator = new SoftAuthenticator({ origin: ORIGIN, backupEligible: false });
  if (withPasskey) {
    const r = await enrolFirstPasskey(t.idp, account, pw, authenticator, 'ML-DSA-65');
    expect(r.statusCode).toBe(303);
  }
  return { sub: account.sub, username, pw, authenticator };
}

function query(clientId: string, extra: Record<string, string> = {}) {
  const { verifier, challenge } = pkce();
  return {
    verifier,
    params: {
      client_id: clientId,
      redirect_uri: RP,
      response_type: 'code',
      scope: 'openid',
      state: 'st',
      code_challenge: challenge,
      code_challenge_method: 'S256',
      ...extra,
    },
  };
}

async function redeem(
  clientId: string,
  location: string,
  verifier: string,
  extra: { dpop?: string; resource?: string } = {},
) {
  const code = paramsOf(location).code;
  expect(code, location).toBeTruthy();
  const r = await app.inject({
    method: 'POST',
    url: '/token',
    ...form(
      {
        grant_type: 'authorization_code',
        code: code as string,
        redirect_uri: RP,
        code_verifier: verifier,
        ...(extra.resource ? { resource: extra.resource } : {}),
      },
      { authorization: auth(clientId), ...(extra.dpop ? { dpop: extra.dpop } : {}) },
    ),
  });
  expect(r.statusCode, r.body).toBe(200);
  return r.json() as { id_token: string; access_token: string; token_type: string };
}

/** Password first, then the passkey the need asks for: the redirect back to the client. */
async function passwordThenPasskey(jar: Jar, url: string, u: Awaited<ReturnType<typeof user>>) {
  const login = await startSignIn(app, jar, url);
  expect(login.html).toContain('asks for two factors');
  const afterPassword = await password(app, jar, login, u.username, u.pw);
  // The password alone goes to the second factor, never to the client.
  expect(afterPassword.headers.location).toMatch(/^\/interaction\//);
  const second = await openInteraction(app, jar, afterPassword.headers.location as string);
  expect(second.html).toContain('Confirm with your passkey');
  return (await passkey(app, jar, second, u.authenticator)).headers.location as string;
}

describe('default_acr_values through dynamic registration', () => {
  const register = (body: unknown) =>
    app.inject({
      method: 'POST',
      url: '/register',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify(body),
    });

  it('is validated exactly like pqid clients add --acr: invalid_client_metadata for what cannot be met', async () => {
    for (const bad of [['urn:example:gold'], [MFA, 'gold'], [], MFA, [7], null]) {
      const r = await register({ redirect_uris: [RP], default_acr_values: bad });
      expect(r.statusCode, JSON.stringify(bad)).toBe(400);
      expect(r.json().error).toBe('invalid_client_metadata');
      expect(r.json().error_description).toContain('default_acr_values');
    }
  });

  it('a registered MFA minimum is kept, shown, replaced, and enforced at sign-in', async () => {
    const r = await register({ redirect_uris: [RP], default_acr_values: [MFA] });
    expect(r.statusCode, r.body).toBe(201);
    const registered = r.json() as {
      client_id: string;
      client_secret: string;
      registration_access_token: string;
      default_acr_values: string[];
    };
    expect(registered.default_acr_values).toEqual([MFA]);
    const manage = (method: 'GET' | 'PUT', body?: unknown) =>
      app.inject({
        method,
        url: `/register/${registered.client_id}`,
        headers: {
          authorization: `Bearer ${registered.registration_access_token}`,
          ...(body ? { 'content-type': 'application/json' } : {}),
        },
        ...(body ? { payload: JSON.stringify(body) } : {}),
      });
    expect((await manage('GET')).json().default_acr_values).toEqual([MFA]);

    // A password alone does not reach the client: the passkey is asked, and the token says mfa.
    const u = await user(true);
    const jar = new Jar();
    const { params, verifier } = query(registered.client_id);
    const afterPasskey = await passwordThenPasskey(jar, `/authorize?${new URLSearchParams(params)}`, u);
    // A dynamically registered client is a third party: the user allows it once, after signing in.
    const consent = await openInteraction(app, jar, afterPasskey);
    expect(consent.html).toContain('Allow access?');
    const back = (
      await postForm(app, jar, `${consent.url}/consent`, { csrf: consent.csrf, decision: 'allow' })
    ).headers.location as string;
    secrets.set(registered.client_id, registered.client_secret);
    const { id_token } = await redeem(registered.client_id, back, verifier);
    expect(claimsOf(id_token)).toMatchObject({ acr: MFA, amr: ['pwd', 'hwk', 'mfa'] });

    // RFC 7592 PUT goes through the same check, and a lower minimum takes effect.
    const invalid = await manage('PUT', {
      client_id: registered.client_id,
      redirect_uris: [RP],
      default_acr_values: ['gold'],
    });
    expect(invalid.statusCode).toBe(400);
    expect(invalid.json().error).toBe('invalid_client_metadata');
    const put = await manage('PUT', {
      client_id: registered.client_id,
      redirect_uris: [RP],
      default_acr_values: [ONE],
    });
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json().default_acr_values).toEqual([ONE]);
    const jar2 = new Jar();
    const again = query(registered.client_id);
    const r2 = await password(
      app,
      jar2,
      await startSignIn(app, jar2, `/authorize?${new URLSearchParams(again.params)}`),
      u.username,
      u.pw,
    );
    expect(r2.headers.location).toMatch(/^https:\/\/rp\.example\/cb\?code=/);
  });
});

describe('step-up through PAR and signed request objects', () => {
  const push = (body: Record<string, string>, dpop?: string) =>
    app.inject({
      method: 'POST',
      url: '/par',
      ...form(body, { authorization: auth('pushed'), ...(dpop ? { dpop } : {}) }),
    });
  const authorizeUrl = (requestUri: string) =>
    `/authorize?${new URLSearchParams({ client_id: 'pushed', request_uri: requestUri })}`;

  it('a pushed request for MFA: password, passkey, then DPoP-bound resource tokens that carry acr/amr', async () => {
    const u = await user(true);
    const dpopKey = (await importJWK((await generateKeyPair('ML-DSA-44')).privateJwk)) as PrivateKey;
    const jkt = calculateThumbprint(exportJWK(dpopKey.publicKey));
    const { params, verifier } = query('pushed', {
      acr_values: MFA,
      scope: 'openid api:read',
      resource: API,
    });
    // DPoP at PAR binds the code to the key (RFC 9449 §10).
    const pushed = await push(params, await signDpopProof(dpopKey, { htm: 'POST', htu: `${ORIGIN}/par` }));
    expect(pushed.statusCode, pushed.body).toBe(201);
    const jar = new Jar();
    const before = Math.floor(Date.now() / 1000);
    const back = await passwordThenPasskey(jar, authorizeUrl(pushed.json().request_uri), u);
    const tokens = await redeem('pushed', back, verifier, {
      dpop: await signDpopProof(dpopKey, { htm: 'POST', htu: TOKEN }),
      resource: API,
    });
    expect(tokens.token_type).toBe('DPoP');
    const id = await verified(tokens.id_token, 'pushed');
    expect(id).toMatchObject({ sub: u.sub, acr: MFA, amr: ['pwd', 'hwk', 'mfa'] });
    expect(id.sid).toEqual(expect.any(String));
    expect(id.auth_time as number).toBeGreaterThanOrEqual(before);
    // The access token is for the resource, signed with its algorithm, bound to the DPoP key,
    // and still says how the user signed in (RFC 9068 §2.2.1).
    const at = await verified(tokens.access_token, API, 'ML-DSA-44');
    expect(at).toMatchObject({
      acr: MFA,
      amr: ['pwd', 'hwk', 'mfa'],
      auth_time: id.auth_time,
      cnf: { jkt },
      scope: 'api:read',
    });
  });

  it('a pushed request for MFA by a user without a passkey ends in unmet_authentication_requirements', async () => {
    const u = await user(false);
    const { params } = query('pushed', { acr_values: MFA });
    const pushed = await push(params);
    expect(pushed.statusCode, pushed.body).toBe(201);
    const jar = new Jar();
    const login = await startSignIn(app, jar, authorizeUrl(pushed.json().request_uri));
    const afterPassword = await password(app, jar, login, u.username, u.pw);
    const unmet = await openInteraction(app, jar, afterPassword.headers.location as string);
    expect(unmet.html).toContain('A passkey is required');
    const r = await postForm(app, jar, `${unmet.url}/cancel`, { csrf: unmet.csrf });
    expect(paramsOf(r.headers.location as string)).toEqual({
      error: 'unmet_authentication_requirements',
      error_description: expect.any(String),
      state: 'st',
      iss: ORIGIN,
    });
  });

  const requestObject = (claims: Record<string, unknown>) =>
    signJwt(claims, clientKey, {
      typ: 'oauth-authz-req+jwt',
      issuer: 'pushed',
      audience: ORIGIN,
      expiresIn: 300,
    });
  const essential = (values: string[]) => ({ id_token: { acr: { essential: true, values } } });

  it("a signed request object's claims (a JSON object, OIDC Core §6.1) demand the class", async () => {
    const u = await user(true);
    const { params, verifier } = query('pushed');
    const pushed = await push({ request: await requestObject({ ...params, claims: essential([MFA]) }) });
    expect(pushed.statusCode, pushed.body).toBe(201);
    const jar = new Jar();
    const back = await passwordThenPasskey(jar, authorizeUrl(pushed.json().request_uri), u);
    expect(claimsOf((await redeem('pushed', back, verifier)).id_token)).toMatchObject({
      acr: MFA,
      amr: ['pwd', 'hwk', 'mfa'],
    });

    // An essential claim naming only classes unknown here fails at once, with no sign-in page.
    const unknown = query('pushed');
    const impossible = await push({
      request: await requestObject({ ...unknown.params, claims: essential(['urn:example:gold']) }),
    });
    expect(impossible.statusCode, impossible.body).toBe(201);
    const r = await get(app, new Jar(), authorizeUrl(impossible.json().request_uri));
    expect(paramsOf(r.headers.location as string)).toMatchObject({
      error: 'unmet_authentication_requirements',
      state: 'st',
    });
  });

  it('acr_values inside a request object works the same', async () => {
    const u = await user(false);
    const { params } = query('pushed');
    const pushed = await push({ request: await requestObject({ ...params, acr_values: MFA }) });
    const jar = new Jar();
    const login = await startSignIn(app, jar, authorizeUrl(pushed.json().request_uri));
    expect(login.html).toContain('asks for two factors');
    const afterPassword = await password(app, jar, login, u.username, u.pw);
    expect(afterPassword.headers.location).toMatch(/^\/interaction\//);
    expect((await openInteraction(app, jar, afterPassword.headers.location as string)).html).toContain(
      'A passkey is required',
    );
  });
});

describe('sid and back-channel logout with passkeys', () => {
  const authorizeUrl = (clientId: string, extra: Record<string, string> = {}) => {
    const q = query(clientId, extra);
    return { url: `/authorize?${new URLSearchParams(q.params)}`, verifier: q.verifier };
  };
  const logout = (jar: Jar, idTokenHint: string) =>
    get(app, jar, `/end_session?${new URLSearchParams({ id_token_hint: idTokenHint })}`);

  it('a passkey step-up keeps the session, and its sid: logout reaches the clients from before and after', async () => {
    const u = await user(true);
    const [a, b] = [receivers.get('bcl-a'), receivers.get('bcl-b')] as [LogoutReceiver, LogoutReceiver];
    const [sentA, sentB] = [a.tokens.length, b.tokens.length];
    const jar = new Jar();
    // bcl-a: a password is enough.
    const first = authorizeUrl('bcl-a');
    const r1 = await password(app, jar, await startSignIn(app, jar, first.url), u.username, u.pw);
    const tokensA = await redeem('bcl-a', r1.headers.location as string, first.verifier);
    const idA = await verified(tokensA.id_token, 'bcl-a');
    expect(idA).toMatchObject({ acr: ONE, amr: ['pwd'] });
    const oldCookie = jar.cookies.get(SESSION_COOKIE);
    // bcl-b demands MFA (default_acr_values): the session steps up with the passkey alone.
    const second = authorizeUrl('bcl-b');
    const page = await startSignIn(app, jar, second.url);
    expect(page.html).toContain('Confirm with your passkey');
    const r2 = await passkey(app, jar, page, u.authenticator);
    const tokensB = await redeem('bcl-b', r2.headers.location as string, second.verifier);
    const idB = await verified(tokensB.id_token, 'bcl-b');
    expect(idB).toMatchObject({ acr: MFA, amr: ['pwd', 'hwk', 'mfa'], sid: idA.sid });
    // A new cookie for the stronger session; the old one no longer signs anybody in.
    expect(jar.cookies.get(SESSION_COOKIE)).not.toBe(oldCookie);
    const stale = await app.inject({
      url: authorizeUrl('bcl-a').url,
      headers: { cookie: `${SESSION_COOKIE}=${oldCookie}` },
    });
    expect(stale.headers.location).toMatch(/^\/interaction\//);

    expect((await logout(jar, tokensB.id_token)).statusCode).toBe(200);
    await Promise.all([a.got(sentA + 1), b.got(sentB + 1)]);
    await app.backchannelLogout.idle();
    for (const [clientId, receiver] of [
      ['bcl-a', a],
      ['bcl-b', b],
    ] as const) {
      const c = await verified(receiver.tokens.at(-1) as string, clientId);
      expect(c).toMatchObject({ sub: u.sub, sid: idA.sid, events: { [BACKCHANNEL_LOGOUT_EVENT]: {} } });
    }
  });

  it('a passwordless passkey session is logged out of its clients like any other', async () => {
    const u = await user(true);
    const a = receivers.get('bcl-a') as LogoutReceiver;
    const sent = a.tokens.length;
    const jar = new Jar();
    const q = authorizeUrl('bcl-a');
    const r = await passkey(app, jar, await startSignIn(app, jar, q.url), u.authenticator);
    const tokens = await redeem('bcl-a', r.headers.location as string, q.verifier);
    const id = await verified(tokens.id_token, 'bcl-a');
    expect(id).toMatchObject({ acr: MFA, amr: ['hwk', 'mfa'] });
    expect((await logout(jar, tokens.id_token)).statusCode).toBe(200);
    await a.got(sent + 1);
    expect(claimsOf(a.tokens.at(-1) as string)).toMatchObject({ sub: u.sub, sid: id.sid });
  });

  it('another user signing in on the same browser starts a new session id', async () => {
    const [u1, u2] = [await user(false), await user(false)];
    const jar = new Jar();
    const q1 = authorizeUrl('bcl-a');
    const r1 = await password(app, jar, await startSignIn(app, jar, q1.url), u1.username, u1.pw);
    const sid1 = claimsOf((await redeem('bcl-a', r1.headers.location as string, q1.verifier)).id_token).sid;
    const q2 = authorizeUrl('bcl-a', { prompt: 'login' });
    const r2 = await password(app, jar, await startSignIn(app, jar, q2.url), u2.username, u2.pw);
    const id2 = claimsOf((await redeem('bcl-a', r2.headers.location as string, q2.verifier)).id_token);
    expect(id2.sub).toBe(u2.sub);
    expect(id2.sid).not.toBe(sid1);
    // The same user again (prompt=login) keeps it.
    const q3 = authorizeUrl('bcl-a', { prompt: 'login' });
    const r3 = await password(app, jar, await startSignIn(app, jar, q3.url), u2.username, u2.pw);
    expect(claimsOf((await redeem('bcl-a', r3.headers.location as string, q3.verifier)).id_token).sid).toBe(
      id2.sid,
    );
  });
});
