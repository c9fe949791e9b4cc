/**
 * Passkeys an attacker cannot plant or keep, and interaction steps that die with their session
 * (inject, software authenticator):
 *   - the first passkey of an account needs an operator's enrolment code on top of a recent
 *     password sign-in; the code is single use, the account's own, and good for one session;
 *   - a registration challenge belongs to the session that asked for it;
 *   - removing a passkey, or a counter that goes backwards, ends the sessions it signed in and
 *     revokes the grants (refresh and access tokens) issued in them, and nothing else;
 *   - forged assertions naming a victim's credential and user handle charge the sender's address,
 *     never the victim's account: neither the victim's password nor passkey gets locked;
 *   - the consent page and the second factor refuse to go on once their session has ended;
 *   - `max_age=0` re-authenticates even within the second of the last sign-in;
 *   - a ceremony reported as cross-origin is refused, with or without `topOrigin`.
 */
import { randomBytes } from 'node:crypto';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { SESSION_COOKIE } from '../src/signin/session.ts';
import { basicAuth, DEMO_REDIRECT, form, redeemCode, startTestIdp } from './helpers.ts';
import {
  csrfOf,
  demoAuthorize,
  enrolFirstPasskey,
  enrolmentCode,
  get,
  Jar,
  ORIGIN,
  openInteraction,
  passkey,
  passkeyTokens,
  password,
  pastConsent,
  postForm,
  postJson,
  redeemEnrolment,
  registerPasskey,
  signInToAccount,
  startSignIn,
} from './passkey-helpers.ts';
import { type SoftAlg, SoftAuthenticator } from './webauthn-authenticator.ts';

const demoAuth = basicAuth('demo-client', 'demo-secret');
const PER_ACCOUNT = 3;
const PER_ADDRESS = 6;

type TestIdp = Awaited<ReturnType<typeof startTestIdp>>;
let t: TestIdp;
let app: FastifyInstance;
const logs: Array<Record<string, unknown>> = [];
let n = 0;

beforeAll(async () => {
  // Generous limits here: the lockout tests have an IdP of their own with small ones.
  t = await startTestIdp(
    { logLevel: 'info', loginLimits: { maxFailuresPerAccount: 1000, maxFailuresPerAddress: 10_000 } },
    undefined,
    { logStream: { write: (line) => void logs.push(JSON.parse(line)) } },
  );
  app = t.idp.app;
});
afterAll(() => t.close());

/** The code the last refusal was logged with. */
function lastRefusal(msg: string): string | undefined {
  for (let i = logs.length - 1; i >= 0; i--) if (logs[i]?.msg === msg) return logs[i]?.code as string;
  return undefined;
}

async function newUser(on: TestIdp = t) {
  const username = `hard${n++}`;
  const pw = `pw of ${username}`;
  const account = await on.idp.ctx.accounts.create({ username, password: pw });
  return { sub: account.sub, uid: username, username, password: pw };
}

/** A user who enrolled a first passkey of `alg` (an operator's code, then the ceremony). */
async function userWithPasskey(alg: SoftAlg = 'ML-DSA-44', on: TestIdp = t) {
  const user = await newUser(on);
  const authenticator = new SoftAuthenticator({ origin: ORIGIN });
  const r = await enrolFirstPasskey(on.idp, user, user.password, authenticator, alg);
  expect(r.headers.location, r.body).toBe('/account?done=added');
  return { user, authenticator };
}

const stored = async (accountId: string) =>
  t.idp.ctx.storage.adapter('WebAuthnCredential').listByUid(accountId);

const authorizeUrl = demoAuthorize;

const redeemAt = (location: string, verifier: string) =>
  redeemCode(app, new URL(location), DEMO_REDIRECT, { verifier, headers: { authorization: demoAuth } });

/** A passkey sign-in into the demo client with a refresh token: the session's jar and the tokens. */
const passkeySession = (authenticator: SoftAuthenticator) => passkeyTokens(app, authenticator);

/** The same with a password. */
async function passwordSession(user: { username: string; password: string }) {
  const jar = new Jar();
  const { url, verifier } = authorizeUrl({ scope: 'openid offline_access' });
  const r = await password(app, jar, await startSignIn(app, jar, url), user.username, user.password);
  const token = await redeemAt(await pastConsent(app, jar, r.headers.location as string), verifier);
  expect(token.statusCode, token.body).toBe(200);
  return { jar, tokens: token.json() as { refresh_token: string } };
}

/** Whether the jar's session still gets a code without a login (prompt=none). */
async function signedIn(jar: Jar): Promise<boolean> {
  const r = await get(app, jar, authorizeUrl({ prompt: 'none' }).url);
  return new URL(r.headers.location as string).searchParams.has('code');
}

const refresh = (rt: string) =>
  app.inject({
    method: 'POST',
    url: '/token',
    ...form({ grant_type: 'refresh_token', refresh_token: rt }, { authorization: demoAuth }),
  });

const userinfo = (at: string) =>
  app.inject({ method: 'GET', url: '/userinfo', headers: { authorization: `Bearer ${at}` } });

/** A signed-in session at /account whose sign-in used `authenticator` (passwordless: acr mfa). */
async function accountWithPasskey(authenticator: SoftAuthenticator): Promise<Jar> {
  const jar = new Jar();
  const r = await passkey(app, jar, await startSignIn(app, jar, '/account'), authenticator);
  expect(r.headers.location).toBe('/account');
  return jar;
}

describe('the first passkey needs more than the password', () => {
  it('a password session sees the enrolment form; it gets no creation options and can register nothing', async () => {
    const user = await newUser();
    const jar = new Jar();
    await signInToAccount(app, jar, user.username, user.password);
    const page = await get(app, jar, '/account');
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('action="/account/enrol"');
    expect(page.body).not.toContain('data-passkey="create"');
    const csrf = csrfOf(page.body);
    const options = await postJson(app, jar, '/account/passkeys/options', { csrf });
    expect(options.statusCode).toBe(403);
    expect(options.json()).toEqual({ error: 'enrolment_required' });
    // A credential made for options of the attacker's own making is no better.
    const attacker = new SoftAuthenticator({ origin: ORIGIN });
    const credential = await attacker.create(
      {
        rp: { id: 'localhost' },
        user: { id: Buffer.from(user.sub).toString('base64url') },
        challenge: randomBytes(32).toString('base64url'),
        pubKeyCredParams: [{ alg: -48 }],
      },
      'ML-DSA-44',
    );
    const r = await postForm(app, jar, '/account/passkeys', { csrf, credential: JSON.stringify(credential) });
    expect(r.headers.location).toBe('/account');
    expect(await stored(user.sub)).toEqual([]);
  });

  it("codes: a wrong one, another account's, a second use are refused; the account's own lets this session add one passkey", async () => {
    const user = await newUser();
    const other = await newUser();
    const jar = new Jar();
    await signInToAccount(app, jar, user.username, user.password);
    const wrong = await redeemEnrolment(app, jar, 'ABCD-EFGH-JKMN-PQRS');
    expect(wrong.statusCode).toBe(400);
    expect(wrong.body).toContain('That enrolment code is not valid');
    const othersCode = await enrolmentCode(t.idp.ctx, other.sub);
    expect((await redeemEnrolment(app, jar, othersCode)).statusCode).toBe(400);
    // Typed loosely (lower case, no dashes) it is the same code.
    const code = await enrolmentCode(t.idp.ctx, user.sub);
    const ok = await redeemEnrolment(app, jar, code.toLowerCase().replaceAll('-', ''));
    expect(ok.headers.location).toBe('/account?done=enrolled');
    expect((await get(app, jar, '/account')).body).toContain('data-passkey="create"');
    // Used once: another session of the same user cannot spend it again.
    const second = new Jar();
    await signInToAccount(app, second, user.username, user.password);
    expect((await redeemEnrolment(app, second, code)).statusCode).toBe(400);
    const csrf2 = csrfOf((await get(app, second, '/account')).body);
    expect((await postJson(app, second, '/account/passkeys/options', { csrf: csrf2 })).statusCode).toBe(403);
    // The session that redeemed it adds one passkey, and no second one on the same code.
    const authenticator = new SoftAuthenticator({ origin: ORIGIN });
    expect((await registerPasskey(app, jar, authenticator, 'ES256')).headers.location).toBe(
      '/account?done=added',
    );
    const csrf = csrfOf((await get(app, jar, '/account')).body);
    expect((await postJson(app, jar, '/account/passkeys/options', { csrf })).statusCode).toBe(401);
    expect(await stored(user.sub)).toHaveLength(1);
    // The other account's code was left unused for its owner.
    const j = new Jar();
    await signInToAccount(app, j, other.username, other.password);
    expect((await redeemEnrolment(app, j, othersCode)).headers.location).toBe('/account?done=enrolled');
  });

  it('a new code replaces the older one; an expired code is refused', async () => {
    const user = await newUser();
    const old = await enrolmentCode(t.idp.ctx, user.sub);
    const fresh = await enrolmentCode(t.idp.ctx, user.sub);
    const jar = new Jar();
    await signInToAccount(app, jar, user.username, user.password);
    expect((await redeemEnrolment(app, jar, old)).statusCode).toBe(400);
    expect((await redeemEnrolment(app, jar, fresh)).headers.location).toBe('/account?done=enrolled');
    const late = await newUser();
    const expired = await enrolmentCode(t.idp.ctx, late.sub, -1);
    const j = new Jar();
    await signInToAccount(app, j, late.username, late.password);
    expect((await redeemEnrolment(app, j, expired)).statusCode).toBe(400);
  });

  it('a registration challenge belongs to the session that asked for it, not only the account', async () => {
    const { user, authenticator } = await userWithPasskey();
    const one = await accountWithPasskey(authenticator);
    const two = await accountWithPasskey(authenticator);
    const csrfOne = csrfOf((await get(app, one, '/account')).body);
    const csrfTwo = csrfOf((await get(app, two, '/account')).body);
    const options = await postJson(app, one, '/account/passkeys/options', { csrf: csrfOne });
    expect(options.statusCode).toBe(200);
    const credential = JSON.stringify(
      await new SoftAuthenticator({ origin: ORIGIN }).create(options.json(), 'EdDSA'),
    );
    const r = await postForm(app, two, '/account/passkeys', { csrf: csrfTwo, credential });
    expect(r.statusCode).toBe(400);
    expect(lastRefusal('passkey registration refused')).toBe('challenge_invalid');
    expect(await stored(user.sub)).toHaveLength(1);
  });
});

describe('what a passkey signed in ends with it', () => {
  it('removing it ends its sessions and revokes their refresh and access tokens; a password session lives on', async () => {
    const { user, authenticator } = await userWithPasskey();
    const a = await passkeySession(authenticator);
    const manager = await accountWithPasskey(authenticator);
    const pw = await passwordSession(user);
    expect(await signedIn(a.jar)).toBe(true);
    expect((await userinfo(a.tokens.access_token)).statusCode).toBe(200);

    const csrf = csrfOf((await get(app, manager, '/account')).body);
    const removed = await postForm(app, manager, '/account/passkeys/remove', {
      csrf,
      id: authenticator.credential().b64,
    });
    expect(removed.headers.location).toBe('/account?done=removed');

    expect(await signedIn(a.jar)).toBe(false);
    const r = await refresh(a.tokens.refresh_token);
    expect(r.statusCode).toBe(400);
    expect(r.json().error).toBe('invalid_grant');
    expect((await userinfo(a.tokens.access_token)).statusCode).toBe(401);
    // The session that removed it had signed in with it as well.
    expect((await get(app, manager, '/account')).statusCode).toBe(303);
    // Nothing the passkey did not authenticate is touched.
    expect(await signedIn(pw.jar)).toBe(true);
    expect((await refresh(pw.tokens.refresh_token)).statusCode).toBe(200);
  });

  it('a counter that goes backwards ends its sessions and revokes their tokens too', async () => {
    const { authenticator } = await userWithPasskey('ES256');
    const a = await passkeySession(authenticator);
    const jar = new Jar();
    // A copy of the key with an older counter signs (the signature is good).
    const r = await passkey(app, jar, await startSignIn(app, jar, authorizeUrl().url), authenticator, {
      counter: 1,
    });
    expect(r.statusCode).toBe(401);
    expect(lastRefusal('passkey sign-in refused')).toBe('counter_regression');
    expect(await signedIn(a.jar)).toBe(false);
    expect((await refresh(a.tokens.refresh_token)).statusCode).toBe(400);
    expect((await userinfo(a.tokens.access_token)).statusCode).toBe(401);
  });

  it('a code issued in a session whose passkey is removed before redemption is worthless', async () => {
    const { authenticator } = await userWithPasskey();
    const jar = new Jar();
    const { url, verifier } = authorizeUrl();
    const r = await passkey(app, jar, await startSignIn(app, jar, url), authenticator);
    const location = r.headers.location as string;
    const removal = await accountWithPasskey(authenticator);
    const csrf = csrfOf((await get(app, removal, '/account')).body);
    await postForm(app, removal, '/account/passkeys/remove', { csrf, id: authenticator.credential().b64 });
    const token = await redeemAt(location, verifier);
    expect(token.statusCode).toBe(400);
    expect(token.json().error).toBe('invalid_grant');
  });
});

describe('lockout cannot be aimed at someone else', () => {
  let small: TestIdp;
  let lapp: FastifyInstance;
  beforeAll(async () => {
    small = await startTestIdp(
      {
        logLevel: 'info',
        loginLimits: { window: 600, maxFailuresPerAccount: PER_ACCOUNT, maxFailuresPerAddress: PER_ADDRESS },
      },
      undefined,
      { logStream: { write: (line) => void logs.push(JSON.parse(line)) } },
    );
    lapp = small.idp.app;
  });
  afterAll(() => small?.close());
  const from = (address: string) =>
    ({
      inject: (o: InjectOptions) => lapp.inject({ ...o, remoteAddress: address }),
    }) as unknown as FastifyInstance;

  it("forged assertions with the victim's credential ID and user handle charge the sender's address, not the victim", async () => {
    const { user, authenticator } = await userWithPasskey('ML-DSA-44', small);
    const victimId = authenticator.credential().b64;
    const handle = Buffer.from(user.sub).toString('base64url');
    const forger = new SoftAuthenticator({ origin: ORIGIN });
    await forger.create(
      { rp: { id: 'localhost' }, user: { id: handle }, challenge: 'AAAA', pubKeyCredParams: [{ alg: -48 }] },
      'ML-DSA-44',
    );
    const attacker = from('203.0.113.66');
    let last = 0;
    for (let i = 0; i < PER_ADDRESS + 1; i++) {
      const jar = new Jar();
      const page = await startSignIn(attacker, jar, authorizeUrl().url);
      // The forger's own key signs, the victim's credential ID and user handle are reported.
      const r = await passkey(attacker, jar, page, forger, { id: victimId, userHandle: handle });
      last = r.statusCode;
      if (i < PER_ADDRESS) {
        expect(r.statusCode).toBe(401);
        expect(lastRefusal('passkey sign-in refused')).toBe('verification_failed');
      }
    }
    // The sender spent its own budget…
    expect(last).toBe(429);
    // …and the victim, elsewhere, still signs in with the passkey and with the password.
    const jar = new Jar();
    const withKey = await passkey(lapp, jar, await startSignIn(lapp, jar, authorizeUrl().url), authenticator);
    expect(withKey.statusCode).toBe(303);
    const j = new Jar();
    const withPw = await password(
      lapp,
      j,
      await startSignIn(lapp, j, authorizeUrl().url),
      user.username,
      user.password,
    );
    expect(withPw.statusCode).toBe(303);
  });

  it("failed passwords lock the account's password, not its passkey", async () => {
    const { user, authenticator } = await userWithPasskey('ML-DSA-44', small);
    const guesser = from('198.51.100.23');
    for (let i = 0; i < PER_ACCOUNT; i++) {
      const j = new Jar();
      const r = await password(
        guesser,
        j,
        await startSignIn(guesser, j, authorizeUrl().url),
        user.username,
        'x',
      );
      expect(r.statusCode).toBe(401);
    }
    const j = new Jar();
    const pw = await password(
      lapp,
      j,
      await startSignIn(lapp, j, authorizeUrl().url),
      user.username,
      user.password,
    );
    expect(pw.statusCode).toBe(429);
    const jar = new Jar();
    expect(
      (await passkey(lapp, jar, await startSignIn(lapp, jar, authorizeUrl().url), authenticator)).statusCode,
    ).toBe(303);
  });
});

describe('interaction steps die with their session', () => {
  async function signOut(jar: Jar) {
    const page = await get(app, jar, '/end_session');
    expect(page.body).toContain('Sign out?');
    const r = await postForm(app, jar, '/end_session/confirm', { csrf: csrfOf(page.body), logout: 'yes' });
    expect(r.statusCode).toBeLessThan(400);
    expect(jar.cookies.has(SESSION_COOKIE)).toBe(false);
  }

  it('consent reached, then a sign-out: allowing afterwards issues no code', async () => {
    const user = await newUser();
    const jar = new Jar();
    const { url } = authorizeUrl({ prompt: 'consent' });
    const r = await password(app, jar, await startSignIn(app, jar, url), user.username, user.password);
    const consent = await openInteraction(app, jar, r.headers.location as string);
    expect(consent.html).toContain('Allow access?');
    await signOut(jar);
    const allow = await postForm(app, jar, `${consent.url}/consent`, {
      csrf: consent.csrf,
      decision: 'allow',
    });
    expect(allow.statusCode).toBe(400);
    expect(allow.body).toContain('interaction_expired');
    expect(allow.headers.location).toBeUndefined();
  });

  it('consent reached, then the passkey that signed in is removed: no code either', async () => {
    const { authenticator } = await userWithPasskey();
    const jar = new Jar();
    const r = await passkey(
      app,
      jar,
      await startSignIn(app, jar, authorizeUrl({ prompt: 'consent' }).url),
      authenticator,
    );
    const consent = await openInteraction(app, jar, r.headers.location as string);
    const manager = await accountWithPasskey(authenticator);
    const csrf = csrfOf((await get(app, manager, '/account')).body);
    await postForm(app, manager, '/account/passkeys/remove', { csrf, id: authenticator.credential().b64 });
    const allow = await postForm(app, jar, `${consent.url}/consent`, {
      csrf: consent.csrf,
      decision: 'allow',
    });
    expect(allow.statusCode).toBe(400);
    expect(allow.headers.location).toBeUndefined();
  });

  it('the second factor after a password, then a sign-out: the passkey no longer completes the sign-in', async () => {
    const { user, authenticator } = await userWithPasskey();
    const jar = new Jar();
    const { url } = authorizeUrl({ acr_values: 'urn:pqid:acr:mfa' });
    const r = await password(app, jar, await startSignIn(app, jar, url), user.username, user.password);
    const second = await openInteraction(app, jar, r.headers.location as string);
    expect(second.html).toContain('Confirm with your passkey');
    await signOut(jar);
    const after = await passkey(app, jar, second, authenticator);
    expect(after.statusCode).toBe(400);
    expect(after.headers.location).toBeUndefined();
    expect(jar.cookies.has(SESSION_COOKIE)).toBe(false);
  });
});

describe('max_age=0', () => {
  afterEach(() => vi.useRealTimers());

  it('asks for the login again even within the second of the last one', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2030-01-01T00:00:00.250Z'));
    const user = await newUser();
    const jar = new Jar();
    const r = await password(
      app,
      jar,
      await startSignIn(app, jar, authorizeUrl().url),
      user.username,
      user.password,
    );
    expect(new URL(r.headers.location as string).searchParams.has('code')).toBe(true);
    // Same second, same session: max_age=1 is met, max_age=0 is not.
    expect(
      new URL(
        (await get(app, jar, authorizeUrl({ max_age: '1' }).url)).headers.location as string,
      ).searchParams.has('code'),
    ).toBe(true);
    const again = await get(app, jar, authorizeUrl({ max_age: '0' }).url);
    expect(again.statusCode).toBe(303);
    expect(again.headers.location).toMatch(/^\/interaction\//);
  });
});

describe('cross-origin ceremonies', () => {
  it('an assertion made in a cross-origin frame is refused, with or without topOrigin', async () => {
    const { authenticator } = await userWithPasskey();
    for (const tamper of [
      { crossOrigin: true },
      { crossOrigin: true, topOrigin: ORIGIN },
      { topOrigin: ORIGIN },
    ]) {
      const jar = new Jar();
      const r = await passkey(
        app,
        jar,
        await startSignIn(app, jar, authorizeUrl().url),
        authenticator,
        tamper,
      );
      expect(r.statusCode, JSON.stringify(tamper)).toBe(401);
      expect(lastRefusal('passkey sign-in refused')).toBe('cross_origin');
      expect(jar.cookies.has(SESSION_COOKIE)).toBe(false);
    }
  });

  it('so is a registration', async () => {
    const { user, authenticator } = await userWithPasskey();
    const jar = await accountWithPasskey(authenticator);
    const r = await registerPasskey(app, jar, new SoftAuthenticator({ origin: ORIGIN }), 'EdDSA', {
      crossOrigin: true,
    });
    expect(r.statusCode).toBe(400);
    expect(lastRefusal('passkey registration refused')).toBe('cross_origin');
    expect(await stored(user.sub)).toHaveLength(1);
  });
});
