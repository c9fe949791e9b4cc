/**
 * Step-up and the authentication context in tokens and assertions (inject): acr_values, an acr
 * claims request, a client's default_acr_values and SAML RequestedAuthnContext all drive one
 * sign-in; a password alone never yields a token or an assertion that needs two factors; what
 * is reported (acr, amr, auth_time; AuthnContextClassRef) is what the session really did.
 */
import { createHash } from 'node:crypto';
import { createLocalJWKSet, type Jwk, verifyJwt } from '@pqid/jose';
import { verifySamlResponse } from '@pqid/xmldsig';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerClient } from '../src/app.ts';
import { ClientError } from '../src/clients/clients.ts';
import { reportedAcr, requiredAcr } from '../src/oidc/authorization/acr.ts';
import type { AuthRequest } from '../src/oidc/authorization/request.ts';
import { classRefFor, requiredClass, requiredClassFor } from '../src/saml/authn-context.ts';
import { SamlCertificates } from '../src/saml/certificates.ts';
import { AUTHN_CONTEXT, STATUS } from '../src/saml/constants.ts';
import { registerSamlSp } from '../src/saml/sps.ts';
import { ACR, authContext } from '../src/signin/auth-context.ts';
import { SESSION_COOKIE } from '../src/signin/session.ts';
import { basicAuth, DEMO_REDIRECT, form, startTestIdp } from './helpers.ts';
import {
  csrfOf,
  demoAuthorize,
  enrolFirstPasskey,
  get,
  Jar,
  ORIGIN,
  openInteraction,
  passkey,
  password,
  postForm,
  signInToAccount,
  startSignIn,
} from './passkey-helpers.ts';
import { authnRequestXml, formFields, redirectParam } from './saml-helpers.ts';
import { SoftAuthenticator } from './webauthn-authenticator.ts';

const MFA = ACR.multiFactor;
const ONE = ACR.oneFactor;
const demoAuth = basicAuth('demo-client', 'demo-secret');

let t: Awaited<ReturnType<typeof startTestIdp>>;
let app: FastifyInstance;
let n = 0;

beforeAll(async () => {
  t = await startTestIdp();
  app = t.idp.app;
});
afterAll(() => t.close());

async function user(withPasskey: boolean) {
  const username = `stepper${n++}`;
  const pw = `pw ${username}`;
  const account = await t.idp.ctx.accounts.create({
    username,
    password: pw,
    email: `${username}@example.com`,
  });
  const authenticator = new SoftAuthenticator({ origin: ORIGIN, backupEligible: false });
  if (withPasskey) {
    const r = await enrolFirstPasskey(t.idp, account, pw, authenticator, 'ML-DSA-65');
    expect(r.statusCode).toBe(303);
  }
  return { account, username, pw, authenticator };
}

const authorize = (extra: Record<string, string> = {}, clientId = 'demo-client') =>
  demoAuthorize({ client_id: clientId, ...extra });

async function tokens(location: string, verifier: string, auth = demoAuth) {
  const code = new URL(location).searchParams.get('code');
  expect(code, location).toBeTruthy();
  const r = await app.inject({
    method: 'POST',
    url: '/token',
    ...form(
      {
        grant_type: 'authorization_code',
        code: code as string,
        redirect_uri: DEMO_REDIRECT,
        code_verifier: verifier,
      },
      { authorization: auth },
    ),
  });
  expect(r.statusCode, r.body).toBe(200);
  return r.json() as { id_token: string; access_token: string; refresh_token?: string };
}

async function verified(jwt: string, alg = 'ML-DSA-65', audience = 'demo-client') {
  const jwks = await createLocalJWKSet((await app.inject('/jwks')).json() as { keys: Jwk[] });
  return (
    await verifyJwt(jwt, jwks, { algorithms: [alg], issuer: ORIGIN, ...(audience ? { audience } : {}) })
  ).claims;
}

const errorOf = (location: string) => Object.fromEntries(new URL(location).searchParams);

describe('OIDC: discovery and the plain password sign-in', () => {
  it('discovery lists the classes, weakest first, and the claims parameter', async () => {
    const d = (await app.inject('/.well-known/openid-configuration')).json();
    expect(d.acr_values_supported).toEqual(['0', ONE, MFA]);
    expect(d.claims_parameter_supported).toBe(true);
    expect(d.claims_supported).toEqual(expect.arrayContaining(['acr', 'amr', 'auth_time']));
  });

  it('a password sign-in: acr 1fa, amr [pwd], the real auth_time', async () => {
    const u = await user(false);
    const jar = new Jar();
    const { url, verifier } = authorize();
    const before = Math.floor(Date.now() / 1000);
    const r = await password(app, jar, await startSignIn(app, jar, url), u.username, u.pw);
    const claims = await verified((await tokens(r.headers.location as string, verifier)).id_token);
    expect(claims).toMatchObject({ sub: u.account.sub, acr: ONE, amr: ['pwd'] });
    expect(claims.auth_time).toBeGreaterThanOrEqual(before);
  });
});

describe('OIDC: a client that demands MFA', () => {
  it('acr_values=mfa: password, then the passkey, then the code; the token says so', async () => {
    const u = await user(true);
    const jar = new Jar();
    const { url, verifier } = authorize({ acr_values: MFA });
    const login = await startSignIn(app, jar, url);
    expect(login.html).toContain('asks for two factors');
    const afterPassword = await password(app, jar, login, u.username, u.pw);
    expect(afterPassword.headers.location).toMatch(/^\/interaction\//); // not the client
    const second = await openInteraction(app, jar, afterPassword.headers.location as string);
    expect(second.html).toContain('Confirm with your passkey');
    const r = await passkey(app, jar, second, u.authenticator);
    const { id_token, access_token } = await tokens(r.headers.location as string, verifier);
    const claims = await verified(id_token);
    expect(claims).toMatchObject({ sub: u.account.sub, acr: MFA, amr: ['pwd', 'hwk', 'mfa'] });
    // userinfo works with the access token as ever.
    const info = await app.inject({ url: '/userinfo', headers: { authorization: `Bearer ${access_token}` } });
    expect(info.json().sub).toBe(u.account.sub);
  });

  it('a signed-in 1fa session steps up with the passkey only, and auth_time moves to the step-up', async () => {
    const u = await user(true);
    const jar = new Jar();
    const first = authorize();
    const r1 = await password(app, jar, await startSignIn(app, jar, first.url), u.username, u.pw);
    const c1 = await verified((await tokens(r1.headers.location as string, first.verifier)).id_token);
    expect(c1.acr).toBe(ONE);
    const { url, verifier } = authorize({ acr_values: MFA });
    const second = await startSignIn(app, jar, url);
    expect(second.html).toContain('Confirm with your passkey');
    expect(second.html).not.toContain('name="password"');
    const r2 = await passkey(app, jar, second, u.authenticator);
    const c2 = await verified((await tokens(r2.headers.location as string, verifier)).id_token);
    expect(c2).toMatchObject({ acr: MFA, amr: ['pwd', 'hwk', 'mfa'] });
    expect(c2.auth_time as number).toBeGreaterThanOrEqual(c1.auth_time as number);
    // The stepped-up session now answers mfa requests without asking again.
    const again = authorize({ acr_values: MFA });
    const r3 = await get(app, jar, again.url);
    expect(r3.headers.location).toMatch(/^http:\/\/localhost:3001\/callback\?code=/);
  });

  it('a user without a passkey cannot: the unmet page, then unmet_authentication_requirements, no code', async () => {
    const u = await user(false);
    const jar = new Jar();
    const { url } = authorize({ acr_values: MFA });
    const afterPassword = await password(app, jar, await startSignIn(app, jar, url), u.username, u.pw);
    const unmet = await openInteraction(app, jar, afterPassword.headers.location as string);
    expect(unmet.html).toContain('A passkey is required');
    expect(unmet.html).toContain('href="/account"');
    const r = await postForm(app, jar, `${unmet.url}/cancel`, { csrf: unmet.csrf });
    expect(errorOf(r.headers.location as string)).toMatchObject({
      error: 'unmet_authentication_requirements',
      state: 'st',
      iss: ORIGIN,
    });
    expect(new URL(r.headers.location as string).searchParams.has('code')).toBe(false);
    // The cancel is single use and needs the page's CSRF token.
    expect((await postForm(app, jar, `${unmet.url}/cancel`, { csrf: unmet.csrf })).statusCode).toBe(400);
  });

  it('the second-factor page can be given up too: the same error', async () => {
    const u = await user(true);
    const jar = new Jar();
    const { url } = authorize({ acr_values: MFA });
    const afterPassword = await password(app, jar, await startSignIn(app, jar, url), u.username, u.pw);
    const second = await openInteraction(app, jar, afterPassword.headers.location as string);
    expect((await postForm(app, jar, `${second.url}/cancel`, { csrf: 'wrong' })).statusCode).toBe(403);
    const r = await postForm(app, jar, `${second.url}/cancel`, { csrf: second.csrf });
    expect(errorOf(r.headers.location as string).error).toBe('unmet_authentication_requirements');
  });

  it('prompt=none with a session below the class: login_required, no page', async () => {
    const u = await user(true);
    const jar = new Jar();
    const first = authorize();
    await password(app, jar, await startSignIn(app, jar, first.url), u.username, u.pw);
    const r = await get(app, jar, authorize({ acr_values: MFA, prompt: 'none' }).url);
    expect(errorOf(r.headers.location as string)).toMatchObject({ error: 'login_required', state: 'st' });
  });

  it('passwordless with a passkey meets mfa directly: no second step', async () => {
    const u = await user(true);
    const jar = new Jar();
    const { url, verifier } = authorize({ acr_values: MFA });
    const r = await passkey(app, jar, await startSignIn(app, jar, url), u.authenticator);
    const claims = await verified((await tokens(r.headers.location as string, verifier)).id_token);
    expect(claims).toMatchObject({ acr: MFA, amr: ['hwk', 'mfa'] });
  });

  it('an essential acr claim: classes unknown here fail at once; known ones are reported as asked', async () => {
    const claims = (values: string[]) => JSON.stringify({ id_token: { acr: { essential: true, values } } });
    const jar = new Jar();
    const r = await get(app, jar, authorize({ claims: claims(['urn:example:gold']) }).url);
    expect(errorOf(r.headers.location as string).error).toBe('unmet_authentication_requirements');

    const u = await user(true);
    const { url, verifier } = authorize({ claims: claims([ONE]) });
    const r2 = await passkey(app, jar, await startSignIn(app, jar, url), u.authenticator);
    const c = await verified((await tokens(r2.headers.location as string, verifier)).id_token);
    // An mfa sign-in meets 1fa; an essential claim must be one of the values asked (§5.5.1.1).
    expect(c).toMatchObject({ acr: ONE, amr: ['hwk', 'mfa'] });

    const bad = await get(app, new Jar(), authorize({ claims: '{"id_token":' }).url);
    expect(errorOf(bad.headers.location as string).error).toBe('invalid_request');
  });

  it('acr_values naming only unknown classes ask for nothing (voluntary); the real class is reported', async () => {
    const u = await user(false);
    const jar = new Jar();
    const { url, verifier } = authorize({ acr_values: 'urn:example:gold' });
    const r = await password(app, jar, await startSignIn(app, jar, url), u.username, u.pw);
    expect((await verified((await tokens(r.headers.location as string, verifier)).id_token)).acr).toBe(ONE);
  });

  it("a client's default_acr_values is its minimum; unknown classes cannot be registered", async () => {
    await expect(
      registerClient(t.idp.ctx, { redirect_uris: [DEMO_REDIRECT], default_acr_values: ['urn:example:gold'] }),
    ).rejects.toThrow(ClientError);
    const { client, clientSecret } = await registerClient(t.idp.ctx, {
      client_id: 'mfa-client',
      redirect_uris: [DEMO_REDIRECT],
      default_acr_values: [MFA],
      access_token_format: 'jwt',
    });
    expect(client.default_acr_values).toEqual([MFA]);
    const auth = basicAuth('mfa-client', clientSecret as string);
    const u = await user(true);
    for (const extra of [{}, { acr_values: ONE }] as Array<Record<string, string>>) {
      const jar = new Jar();
      const { url, verifier } = authorize(extra, 'mfa-client');
      const afterPassword = await password(app, jar, await startSignIn(app, jar, url), u.username, u.pw);
      expect(afterPassword.headers.location).toMatch(/^\/interaction\//);
      const r = await passkey(
        app,
        jar,
        await openInteraction(app, jar, afterPassword.headers.location as string),
        u.authenticator,
      );
      const tk = await tokens(r.headers.location as string, verifier, auth);
      expect(await verified(tk.id_token, 'ML-DSA-65', 'mfa-client')).toMatchObject({ acr: MFA });
      // JWT access tokens carry the context too (RFC 9068 §2.2.1), for step-up at resource servers.
      expect(await verified(tk.access_token, 'ML-DSA-65', '')).toMatchObject({
        acr: MFA,
        amr: ['pwd', 'hwk', 'mfa'],
      });
    }
  });

  it('refreshed ID tokens report the original sign-in, not the refresh', async () => {
    const u = await user(true);
    const jar = new Jar();
    const { url, verifier } = authorize({
      acr_values: MFA,
      scope: 'openid offline_access',
      prompt: 'consent',
    });
    const afterPassword = await password(app, jar, await startSignIn(app, jar, url), u.username, u.pw);
    const second = await openInteraction(app, jar, afterPassword.headers.location as string);
    const consentAt = (await passkey(app, jar, second, u.authenticator)).headers.location as string;
    const consent = await openInteraction(app, jar, consentAt);
    const r = await postForm(app, jar, `${consent.url}/consent`, { csrf: consent.csrf, decision: 'allow' });
    const first = await tokens(r.headers.location as string, verifier);
    const c1 = await verified(first.id_token);
    const refreshed = await app.inject({
      method: 'POST',
      url: '/token',
      ...form(
        { grant_type: 'refresh_token', refresh_token: first.refresh_token as string },
        { authorization: demoAuth },
      ),
    });
    const c2 = await verified(refreshed.json().id_token);
    expect(c2).toMatchObject({ acr: MFA, amr: ['pwd', 'hwk', 'mfa'], auth_time: c1.auth_time });
  });

  it('no code below the class, whatever path reaches the end (a consent parked with a weaker sign-in)', async () => {
    const u = await user(false);
    const { url } = authorize({ acr_values: MFA });
    const request = {
      clientId: 'demo-client',
      redirectUri: DEMO_REDIRECT,
      scope: 'openid',
      prompt: [],
      state: 'st',
      codeChallenge: new URL(url, ORIGIN).searchParams.get('code_challenge'),
      requiredAcr: MFA,
    };
    // A live password session for the user, and a consent parked in it by hand.
    const jar = new Jar();
    await signInToAccount(app, jar, u.username, u.pw);
    const session = createHash('sha256')
      .update(jar.cookies.get(SESSION_COOKIE) as string)
      .digest('base64url');
    const uid = 'forged-consent-uid';
    await t.idp.ctx.storage.adapter('Interaction').upsert(
      uid,
      {
        stage: 'consent',
        csrf: 'c',
        clientName: 'x',
        formTargets: [],
        next: { resume: 'oidc', state: request },
        auth: authContext(u.account.sub, Math.floor(Date.now() / 1000), ['pwd'], undefined, { session }),
        scopes: ['openid'],
      },
      600,
    );
    const r = await app.inject({
      method: 'POST',
      url: `/interaction/${uid}/consent`,
      ...form({ csrf: 'c', decision: 'allow' }, { cookie: `pqid_interaction=${uid}; ${jar.header}` }),
    });
    expect(errorOf(r.headers.location as string).error).toBe('unmet_authentication_requirements');
  });
});

describe('OIDC: requiredAcr and reportedAcr', () => {
  const req = (o: Partial<AuthRequest>) =>
    ({ clientId: 'c', redirectUri: 'x', scope: 'openid', prompt: [], ...o }) as AuthRequest;
  const client = (defaults?: string[]) => ({ default_acr_values: defaults }) as never;
  it('the weakest known class asked, raised to the client minimum', () => {
    expect(requiredAcr(req({}), client())).toBeUndefined();
    expect(requiredAcr(req({ acrValues: [MFA, ONE] }), client())).toBe(ONE);
    expect(requiredAcr(req({ acrValues: ['urn:x'] }), client())).toBeUndefined();
    expect(requiredAcr(req({ acrValues: [ONE] }), client([MFA]))).toBe(MFA);
    expect(requiredAcr(req({}), client([ONE, MFA]))).toBe(ONE);
    expect(requiredAcr(req({ acrClaim: { essential: true, values: ['urn:x'] } }), client())).toBe(
      'impossible',
    );
    expect(requiredAcr(req({ acrClaim: { essential: false, values: ['urn:x'] } }), client())).toBeUndefined();
    // The claims request wins over acr_values (it is the more specific form).
    expect(
      requiredAcr(req({ acrValues: [ONE], acrClaim: { essential: true, values: [MFA] } }), client()),
    ).toBe(MFA);
  });
  it('reports the strongest requested value the session meets, else what it achieved', () => {
    const mfa = authContext('a', 1, ['pwd', 'hwk', 'mfa']);
    const pwd = authContext('a', 1, ['pwd']);
    expect(reportedAcr(req({}), mfa)).toBe(MFA);
    expect(reportedAcr(req({ acrValues: [ONE] }), mfa)).toBe(MFA);
    expect(reportedAcr(req({ acrClaim: { essential: true, values: [ONE, MFA] } }), mfa)).toBe(MFA);
    expect(reportedAcr(req({ acrClaim: { essential: true, values: ['0', ONE] } }), mfa)).toBe(ONE);
    expect(reportedAcr(req({ acrClaim: { essential: false, values: [MFA] } }), pwd)).toBe(ONE);
  });
});

describe('SAML: RequestedAuthnContext and AuthnContextClassRef', () => {
  const SP = 'https://stepup-sp.example.test/metadata';
  const ACS = 'https://stepup-sp.example.test/acs';
  let certs: string[];
  beforeAll(async () => {
    await registerSamlSp(t.idp.ctx, { entityId: SP, acsUrls: [ACS], signatureAlgorithm: 'ML-DSA-65' });
    certs = [(await new SamlCertificates(t.idp.ctx).signer('ML-DSA-65')).certificate];
  });

  const sso = (o: Parameters<typeof authnRequestXml>[0] = {}) =>
    `/saml/sso?SAMLRequest=${encodeURIComponent(redirectParam(authnRequestXml({ issuer: SP, acs: ACS, ...o })))}`;

  /** The verified Response of a form page: status and class reference. */
  function response(html: string) {
    const { fields } = formFields(html);
    const xml = Buffer.from(fields.SAMLResponse as string, 'base64').toString('utf8');
    const status = /<samlp:StatusCode Value="([^"]+)"(?:>\s*<samlp:StatusCode Value="([^"]+)")?/.exec(xml);
    if (status?.[1] === STATUS.success)
      verifySamlResponse(xml, { trustedCertificates: certs, allowedAlgorithms: ['ML-DSA-65'] });
    return {
      status: status?.[1],
      subStatus: status?.[2],
      classRef: /<saml:AuthnContextClassRef>([^<]+)</.exec(xml)?.[1],
    };
  }

  /** GET /saml/continue/... after a sign-in, or the form page if it answered at once. */
  async function finish(jar: Jar, r: { statusCode: number; headers: Record<string, unknown>; body: string }) {
    let res = r;
    while (res.statusCode === 303) res = await get(app, jar, res.headers.location as string);
    return response(res.body);
  }

  it('without a request: the class the sign-in reached (Password on plain http; REFEDS MFA)', async () => {
    const u = await user(true);
    const jar = new Jar();
    const r = await password(app, jar, await startSignIn(app, jar, sso()), u.username, u.pw);
    expect(await finish(jar, r)).toMatchObject({ status: STATUS.success, classRef: AUTHN_CONTEXT.password });
    const jar2 = new Jar();
    const r2 = await passkey(app, jar2, await startSignIn(app, jar2, sso()), u.authenticator);
    expect(await finish(jar2, r2)).toMatchObject({
      status: STATUS.success,
      classRef: AUTHN_CONTEXT.refedsMfa,
    });
  });

  it('minimum REFEDS MFA: a password sign-in steps up with the passkey, and says REFEDS MFA', async () => {
    const u = await user(true);
    const jar = new Jar();
    const login = await startSignIn(
      app,
      jar,
      sso({ authnContext: { classRefs: [AUTHN_CONTEXT.refedsMfa], comparison: 'minimum' } }),
    );
    const afterPassword = await password(app, jar, login, u.username, u.pw);
    const second = await openInteraction(app, jar, afterPassword.headers.location as string);
    expect(second.html).toContain('Confirm with your passkey');
    const r = await passkey(app, jar, second, u.authenticator);
    expect(await finish(jar, r)).toMatchObject({ status: STATUS.success, classRef: AUTHN_CONTEXT.refedsMfa });
  });

  it('a user who cannot step up: the SP gets Responder/NoAuthnContext, not an assertion', async () => {
    const u = await user(false);
    const jar = new Jar();
    const login = await startSignIn(
      app,
      jar,
      sso({ authnContext: { classRefs: [AUTHN_CONTEXT.refedsMfa] } }),
    );
    const afterPassword = await password(app, jar, login, u.username, u.pw);
    const unmet = await openInteraction(app, jar, afterPassword.headers.location as string);
    expect(unmet.html).toContain('A passkey is required');
    const r = await postForm(app, jar, `${unmet.url}/cancel`, { csrf: unmet.csrf });
    expect(await finish(jar, r)).toEqual({
      status: STATUS.responder,
      subStatus: STATUS.noAuthnContext,
      classRef: undefined,
    });
    // Nor does a session that already exists (the password one) get it without the passkey.
    const again = await get(
      app,
      jar,
      sso({ authnContext: { classRefs: [AUTHN_CONTEXT.refedsMfa] }, isPassive: true }),
    );
    expect(response(again.body)).toMatchObject({ status: STATUS.responder, subStatus: STATUS.noPassive });
  });

  it("the SP's registered minimum: a request for less, or none, still needs the passkey; the floor holds for a session too", async () => {
    const FLOOR_SP = 'https://mfa-only-sp.example.test/metadata';
    const FLOOR_ACS = 'https://mfa-only-sp.example.test/acs';
    await registerSamlSp(t.idp.ctx, {
      entityId: FLOOR_SP,
      acsUrls: [FLOOR_ACS],
      signatureAlgorithm: 'ML-DSA-65',
      minimumAuthnContext: AUTHN_CONTEXT.refedsMfa,
    });
    const floorSso = (o: Parameters<typeof authnRequestXml>[0] = {}) =>
      `/saml/sso?SAMLRequest=${encodeURIComponent(redirectParam(authnRequestXml({ issuer: FLOOR_SP, acs: FLOOR_ACS, ...o })))}`;
    const u = await user(true);
    for (const asked of [
      undefined,
      { classRefs: [AUTHN_CONTEXT.password], comparison: 'minimum' as const },
    ]) {
      const jar = new Jar();
      const login = await startSignIn(app, jar, floorSso(asked ? { authnContext: asked } : {}));
      const afterPassword = await password(app, jar, login, u.username, u.pw);
      const second = await openInteraction(app, jar, afterPassword.headers.location as string);
      expect(second.html).toContain('Confirm with your passkey');
      const r = await passkey(app, jar, second, u.authenticator);
      expect(await finish(jar, r)).toMatchObject({
        status: STATUS.success,
        classRef: AUTHN_CONTEXT.refedsMfa,
      });
    }
    // A password session that serves the plain SP at once gets nothing from this one without the passkey.
    const jar = new Jar();
    const r = await password(app, jar, await startSignIn(app, jar, sso()), u.username, u.pw);
    expect(await finish(jar, r)).toMatchObject({ status: STATUS.success });
    const passive = await get(app, jar, floorSso({ isPassive: true }));
    expect(response(passive.body)).toMatchObject({ status: STATUS.responder, subStatus: STATUS.noPassive });
    // A floor this IdP cannot reach is refused at registration.
    await expect(
      registerSamlSp(t.idp.ctx, {
        entityId: 'https://kerberos-sp.example.test/metadata',
        acsUrls: [FLOOR_ACS],
        minimumAuthnContext: 'urn:oasis:names:tc:SAML:2.0:ac:classes:Kerberos',
      }),
    ).rejects.toThrow(/minimumAuthnContext must be a class this IdP can reach/);
  });

  it('classes this IdP does not know: NoAuthnContext at once, without a login page', async () => {
    const r = await get(
      app,
      new Jar(),
      sso({ authnContext: { classRefs: ['urn:oasis:names:tc:SAML:2.0:ac:classes:Kerberos'] } }),
    );
    expect(r.statusCode).toBe(200);
    expect(response(r.body)).toMatchObject({ status: STATUS.responder, subStatus: STATUS.noAuthnContext });
    const bad = await get(
      app,
      new Jar(),
      sso({ authnContext: { classRefs: [AUTHN_CONTEXT.password], comparison: 'sideways' } }),
    );
    expect(bad.statusCode).toBe(400);
  });

  it('exact PasswordProtectedTransport on a plain-http issuer cannot be told truthfully: NoAuthnContext', async () => {
    const u = await user(false);
    const jar = new Jar();
    const login = await startSignIn(
      app,
      jar,
      sso({ authnContext: { classRefs: [AUTHN_CONTEXT.passwordProtectedTransport] } }),
    );
    const r = await password(app, jar, login, u.username, u.pw);
    expect(await finish(jar, r)).toMatchObject({
      status: STATUS.responder,
      subStatus: STATUS.noAuthnContext,
    });
    // exact Password is true, and reported as asked.
    const r2 = await get(app, jar, sso({ authnContext: { classRefs: [AUTHN_CONTEXT.password] } }));
    expect(response(r2.body)).toMatchObject({ status: STATUS.success, classRef: AUTHN_CONTEXT.password });
  });

  it('the class mapping, comparison by comparison', () => {
    const pwd = authContext('a', 1, ['pwd']);
    const mfa = authContext('a', 1, ['pwd', 'swk', 'mfa']);
    const passkeyOnly = authContext('a', 1, ['hwk', 'mfa']);
    const rac = (comparison: 'exact' | 'minimum' | 'maximum' | 'better', ...classRefs: string[]) => ({
      comparison,
      classRefs,
    });
    const {
      password: P,
      passwordProtectedTransport: PPT,
      refedsMfa: RM,
      refedsSfa: RS,
      unspecified: U,
    } = AUTHN_CONTEXT;
    expect(classRefFor(pwd, undefined, true)).toBe(PPT);
    expect(classRefFor(pwd, undefined, false)).toBe(P);
    expect(classRefFor(mfa, undefined, true)).toBe(RM);
    expect(classRefFor(authContext('a', 1, []), undefined, true)).toBe(U);
    // exact: one of the requested classes that describes the sign-in.
    expect(classRefFor(mfa, rac('exact', PPT), true)).toBe(PPT);
    expect(classRefFor(passkeyOnly, rac('exact', PPT), true)).toBeUndefined();
    expect(classRefFor(pwd, rac('exact', RM), true)).toBeUndefined();
    expect(classRefFor(mfa, rac('exact', RS), true)).toBe(RS); // MFA satisfies REFEDS SFA
    // minimum: the sign-in's own class, at least one requested.
    expect(classRefFor(mfa, rac('minimum', PPT), true)).toBe(RM);
    expect(classRefFor(pwd, rac('minimum', RM), true)).toBeUndefined();
    // maximum: the strongest requested that describes it, never more.
    expect(classRefFor(mfa, rac('maximum', PPT, RM), true)).toBe(RM);
    expect(classRefFor(mfa, rac('maximum', PPT), true)).toBe(PPT);
    // better: stronger than one requested.
    expect(classRefFor(mfa, rac('better', PPT), true)).toBe(RM);
    expect(classRefFor(pwd, rac('better', PPT), true)).toBeUndefined();
    expect(requiredClass(rac('better', RM))).toBe('impossible');
    expect(requiredClass(rac('better', P))).toBe(MFA);
    expect(requiredClass(rac('minimum', 'urn:x', P))).toBe(ONE);
    // An SP's floor raises what a request asks, never lowers it; an impossible request stays so.
    expect(requiredClassFor(undefined, RM)).toBe(MFA);
    expect(requiredClassFor(rac('minimum', P), RM)).toBe(MFA);
    expect(requiredClassFor(rac('minimum', RM), P)).toBe(MFA);
    expect(requiredClassFor(rac('exact', 'urn:x'), RM)).toBe('impossible');
    expect(requiredClassFor(undefined, undefined)).toBeUndefined();
    expect(requiredClass(rac('exact', 'urn:x'))).toBe('impossible');
    // pqid's own URNs may be asked for by name.
    expect(classRefFor(mfa, rac('exact', MFA), true)).toBe(MFA);
  });
});

describe('the session cookie is what steps up', () => {
  it('a step-up replaces the session: the new one is mfa, the cookie changes', async () => {
    const u = await user(true);
    const jar = new Jar();
    await password(app, jar, await startSignIn(app, jar, authorize().url), u.username, u.pw);
    const before = jar.cookies.get(SESSION_COOKIE);
    await passkey(app, jar, await startSignIn(app, jar, authorize({ acr_values: MFA }).url), u.authenticator);
    expect(jar.cookies.get(SESSION_COOKIE)).not.toBe(before);
    const account = await get(app, jar, '/account');
    expect(account.statusCode).toBe(200);
    expect(csrfOf(account.body)).toBeTruthy();
  });
});
