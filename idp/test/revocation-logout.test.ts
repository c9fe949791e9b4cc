/**
 * Sessions ended without a sign-out are announced to their relying parties like a sign-out
 * (OpenID Connect Back-Channel Logout 1.0): removing a passkey, a counter that goes backwards, a
 * password change, and a SAML single logout of a session OIDC clients shared. The IdP runs in the process (inject); the relying party's logout endpoint is
 * a real server on 127.0.0.1; logout tokens are verified with the jose package.
 *
 * A change the server makes (a passkey removed at /account) is delivered at once; a change a
 * command makes (`pqid users passwd`, `pqid passkeys remove`: another process on the store) is
 * put in the shared outbox, which the server's sweep delivers.
 */
import * as jose from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IdpContext } from '../src/context.ts';
import { BACKCHANNEL_LOGOUT_EVENT } from '../src/oidc/logout/logout-token.ts';
import { outbox } from '../src/oidc/logout/outbox.ts';
import { openContext } from '../src/open-context.ts';
import { NAMEID_FORMAT } from '../src/saml/constants.ts';
import { registerSamlSp } from '../src/saml/sps.ts';
import { passkeysOf } from '../src/signin/passkeys/credentials.ts';
import { changePassword } from '../src/signin/password-change.ts';
import { basicAuth, DEMO_REDIRECT, KEK, redeemCode, startTestIdp } from './helpers.ts';
import {
  csrfOf,
  demoAuthorize,
  enrolFirstPasskey,
  get,
  Jar,
  ORIGIN,
  passkey,
  passkeyTokens,
  password,
  pastConsent,
  postForm,
  startSignIn,
} from './passkey-helpers.ts';
import { RpStub } from './rp-stub.ts';
import {
  authnRequestXml,
  formFields,
  logoutRequestXml,
  redirectParam,
  SP_ACS,
  SP_ENTITY,
} from './saml-helpers.ts';
import { SoftAuthenticator, type Tamper } from './webauthn-authenticator.ts';

type TestIdp = Awaited<ReturnType<typeof startTestIdp>>;
let t: TestIdp;
let rp: RpStub;
/** The store as a command sees it: its own context, no server, no deliveries of its own. */
let command: { ctx: IdpContext; close(): Promise<void> };
let n = 0;

beforeAll(async () => {
  t = await startTestIdp();
  rp = await new RpStub().start();
  const { ctx } = t.idp;
  // The demo client, with a back-channel logout endpoint (operator-registered: http on loopback).
  const demo = await ctx.clients.find('demo-client');
  if (!demo) throw new Error('no demo client');
  await ctx.clients.replace(demo, {
    client_id: demo.client_id,
    redirect_uris: [DEMO_REDIRECT],
    grant_types: demo.grant_types,
    scope: demo.scope,
    id_token_signed_response_alg: demo.id_token_signed_response_alg,
    backchannel_logout_uri: rp.url,
  });
  command = await openContext(ctx.config, {
    env: { PQID_KEK: KEK },
    withKeys: false,
    actor: 'cli',
    warn: () => {},
  });
});
afterAll(async () => {
  await command?.close();
  await t?.close();
  await rp?.close();
});

const claims = (jwt: string) => jose.decodeJwt(jwt);

/** The logout tokens the RP received since `from`, verified, once every delivery is done. */
async function logoutTokens(from: number, count: number) {
  await t.idp.app.backchannelLogout.idle();
  expect(rp.received.length - from).toBe(count);
  const jwks = jose.createLocalJWKSet((await t.idp.app.inject('/jwks')).json());
  const out: jose.JWTPayload[] = [];
  for (const { token } of rp.received.slice(from)) {
    const { payload } = await jose.jwtVerify(token, jwks, {
      issuer: t.idp.ctx.config.issuer,
      audience: 'demo-client',
      typ: 'logout+jwt',
      requiredClaims: ['sid', 'sub', 'events', 'jti'],
    });
    expect(payload.events).toEqual({ [BACKCHANNEL_LOGOUT_EVENT]: {} });
    out.push(payload);
  }
  return out;
}

async function userWithPasskey() {
  const username = `revoked${n++}`;
  const password = `pw of ${username}`;
  const account = await t.idp.ctx.accounts.create({ username, password });
  const authenticator = new SoftAuthenticator({ origin: ORIGIN });
  const r = await enrolFirstPasskey(
    t.idp,
    { sub: account.sub, uid: username },
    password,
    authenticator,
    'ES256',
  );
  expect(r.headers.location, r.body).toBe('/account?done=added');
  return { sub: account.sub, username, password, authenticator };
}

/** A browser session signed in with the passkey, in which the demo client got its tokens. */
async function demoSession(authenticator: SoftAuthenticator) {
  const { jar, tokens } = await passkeyTokens(t.idp.app, authenticator);
  return { jar, sid: claims(tokens.id_token).sid as string };
}

/** A passkey sign-in at the account page. */
const accountSignIn = async (jar: Jar, authenticator: SoftAuthenticator, tamper: Tamper = {}) =>
  passkey(t.idp.app, jar, await startSignIn(t.idp.app, jar, '/account'), authenticator, tamper);

describe('sessions ended without a sign-out tell their relying parties', () => {
  it('removing a passkey at /account: a logout token for each session it signed in, at once', async () => {
    const user = await userWithPasskey();
    const [one, two] = [await demoSession(user.authenticator), await demoSession(user.authenticator)];
    expect(one.sid).not.toBe(two.sid);
    const manager = new Jar();
    expect((await accountSignIn(manager, user.authenticator)).headers.location).toBe('/account');

    const before = rp.received.length;
    const csrf = csrfOf((await get(t.idp.app, manager, '/account')).body);
    const removed = await postForm(t.idp.app, manager, '/account/passkeys/remove', {
      csrf,
      id: user.authenticator.credential().b64,
    });
    expect(removed.headers.location).toBe('/account?done=removed');
    const tokens = await logoutTokens(before, 2);
    // The two sessions the demo client was in; the /account session got no code, so no notice.
    expect(tokens.map((c) => c.sid).sort()).toEqual([one.sid, two.sid].sort());
    expect(tokens.every((c) => c.sub === user.sub)).toBe(true);
  });

  it('a counter that goes backwards: its sessions are announced as ended too', async () => {
    const user = await userWithPasskey();
    const session = await demoSession(user.authenticator);
    const before = rp.received.length;
    // A copy of the key with an older counter signs (the signature is good); the sign-in fails.
    const jar = new Jar();
    const r = await accountSignIn(jar, user.authenticator, { counter: 1 });
    expect(r.statusCode).toBe(401);
    const [token] = await logoutTokens(before, 1);
    expect(token).toMatchObject({ sid: session.sid, sub: user.sub });
  });

  /** What a command does to `user`'s sessions is announced once the server sweeps the outbox. */
  async function announcedAfterCommand(
    act: (user: Awaited<ReturnType<typeof userWithPasskey>>) => Promise<void>,
  ) {
    const user = await userWithPasskey();
    const session = await demoSession(user.authenticator);
    const before = rp.received.length;
    await act(user);
    // Written by the command, which delivers nothing itself.
    const pending = (await outbox(command.ctx).list()).map((r) => r.payload);
    expect(pending).toContainEqual(
      expect.objectContaining({ sid: session.sid, sub: user.sub, clientId: 'demo-client' }),
    );
    expect(rp.received.length).toBe(before);
    await t.idp.app.backchannelLogout.sweep();
    const [token] = await logoutTokens(before, 1);
    expect(token).toMatchObject({ sid: session.sid, sub: user.sub });
  }

  it('a password change by a command (pqid users passwd): delivered from the outbox by the server', () =>
    announcedAfterCommand(async (user) => {
      const change = await changePassword(command.ctx, user.username, 'a new password of some length');
      expect(change.sessions).toBeGreaterThanOrEqual(1);
    }));

  it('a passkey removed by a command (pqid passkeys remove): the same', () =>
    announcedAfterCommand(async (user) => {
      expect((await passkeysOf(command.ctx).removeAll(user.sub)).removed).toBe(1);
    }));
});

describe('SAML single logout tells the OIDC clients of the session', () => {
  it('a LogoutRequest bound to the session ends it, and the demo client gets a logout token for its sid', async () => {
    await registerSamlSp(t.idp.ctx, {
      entityId: SP_ENTITY,
      acsUrls: [SP_ACS],
      sloUrl: 'https://sp.example.test/slo',
      signatureAlgorithm: 'ML-DSA-65',
    });
    // One browser: signed in for the demo client (OIDC), then for the SP (SAML) on that session.
    const jar = new Jar();
    const { url, verifier } = demoAuthorize();
    const signedIn = await password(t.idp.app, jar, await startSignIn(t.idp.app, jar, url), 'demo', 'demo');
    const back = new URL(await pastConsent(t.idp.app, jar, signedIn.headers.location as string));
    const token = await redeemCode(t.idp.app, back, DEMO_REDIRECT, {
      verifier,
      headers: { authorization: basicAuth('demo-client', 'demo-secret') },
    });
    const sid = claims(token.json().id_token).sid as string;
    const sso = await get(
      t.idp.app,
      jar,
      `/saml/sso?${new URLSearchParams({ SAMLRequest: redirectParam(authnRequestXml()) })}`,
    );
    const response = Buffer.from(formFields(sso.body).fields.SAMLResponse as string, 'base64').toString();
    const nameId = /<saml:NameID[^>]*>([^<]+)</.exec(response)?.[1] as string;
    const sessionIndex = /SessionIndex="([^"]+)"/.exec(response)?.[1] as string;

    const before = rp.received.length;
    const xml = logoutRequestXml({ nameId, format: NAMEID_FORMAT.persistent, sessionIndex });
    const out = await get(
      t.idp.app,
      jar,
      `/saml/slo?${new URLSearchParams({ SAMLRequest: redirectParam(xml) })}`,
    );
    expect(formFields(out.body).action).toBe('https://sp.example.test/slo');
    const [notice] = await logoutTokens(before, 1);
    expect(notice).toMatchObject({ sid });
    // The session is over at the IdP too.
    expect((await get(t.idp.app, jar, '/account')).statusCode).not.toBe(200);
  });
});
