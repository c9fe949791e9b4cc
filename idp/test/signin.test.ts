/**
 * The sign-in module: the authentication context a session carries, what a protocol's need asks
 * of it (each condition violated alone), and the guards of SignIn itself.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomToken, tokenId } from '../src/crypto/secrets.ts';
import {
  ACR,
  ACR_VALUES,
  AMR,
  type AuthContext,
  acrAtLeast,
  acrFor,
  authContext,
  combineAmr,
  unmetBy,
  weakestKnown,
} from '../src/signin/auth-context.ts';
import { SESSION_COOKIE } from '../src/signin/session.ts';
import { SignIn } from '../src/signin/sign-in.ts';
import { browserLogin, cookieHeader, DEMO_REDIRECT, pkce, startTestIdp } from './helpers.ts';

describe('authentication context', () => {
  const now = 1_800_000_000;
  const pwd: AuthContext = authContext('acct', now - 100, [AMR.password]);

  it('a password achieves the one-factor class; no known method achieves none', () => {
    expect(pwd).toEqual({ accountId: 'acct', authTime: now - 100, amr: ['pwd'], acr: ACR.oneFactor });
    expect(acrFor([])).toBe(ACR.none);
    expect(acrFor(['otp'])).toBe(ACR.none);
    expect(ACR_VALUES).toEqual([ACR.none, ACR.oneFactor, ACR.multiFactor]);
  });

  it('two factors only with a passkey: mfa is never taken from amr on its own', () => {
    expect(acrFor(['hwk'])).toBe(ACR.oneFactor); // a passkey without user verification
    expect(acrFor(['swk', 'mfa'])).toBe(ACR.multiFactor); // a passkey unlocked by PIN/biometric
    expect(acrFor(['pwd', 'hwk', 'mfa'])).toBe(ACR.multiFactor);
    expect(acrFor(['mfa'])).toBe(ACR.none);
    expect(acrFor(['pwd', 'mfa'])).toBe(ACR.oneFactor);
  });

  it('combineAmr adds mfa for a password and a passkey, not for two of one kind', () => {
    expect(combineAmr(['pwd'], ['hwk'])).toEqual(['pwd', 'hwk', 'mfa']);
    expect(combineAmr(['pwd'], ['swk', 'mfa'])).toEqual(['pwd', 'swk', 'mfa']);
    expect(combineAmr(['pwd'], ['pwd'])).toEqual(['pwd']);
    expect(combineAmr(['hwk'], ['hwk'])).toEqual(['hwk']);
    expect(combineAmr(['hwk'], ['swk', 'mfa'])).toEqual(['hwk', 'swk', 'mfa']);
  });

  it('the ladder: weakest known of a list, and at-least comparisons of known classes only', () => {
    expect(weakestKnown([ACR.multiFactor, 'urn:x', ACR.oneFactor])).toBe(ACR.oneFactor);
    expect(weakestKnown(['urn:x'])).toBeUndefined();
    expect(acrAtLeast(ACR.multiFactor, ACR.oneFactor)).toBe(true);
    expect(acrAtLeast(ACR.oneFactor, ACR.multiFactor)).toBe(false);
    expect(acrAtLeast(ACR.oneFactor, ACR.oneFactor)).toBe(true);
    expect(acrAtLeast('urn:x', ACR.none)).toBe(false);
    const mfa = authContext('acct', now, ['pwd', 'hwk', 'mfa']);
    expect(unmetBy(mfa, { acr: [ACR.oneFactor] }, now)).toBeUndefined();
    expect(unmetBy(pwd, { acr: [ACR.multiFactor] }, now)).toBe('acr');
  });

  it('an empty need is met by any session', () => {
    expect(unmetBy(pwd, {}, now)).toBeUndefined();
    expect(unmetBy(pwd, { reauthenticate: false, acr: [] }, now)).toBeUndefined();
  });

  it('reauthenticate is never met by an existing session, however fresh', () => {
    expect(unmetBy(authContext('acct', now, ['pwd']), { reauthenticate: true }, now)).toBe('reauthenticate');
  });

  it('max_age: met up to and including the limit, not one second past it', () => {
    expect(unmetBy(pwd, { maxAge: 100 }, now)).toBeUndefined();
    expect(unmetBy(pwd, { maxAge: 99 }, now)).toBe('max_age');
    // max_age=0 is prompt=login (OIDC Core §3.1.2.1): not met even within the sign-in's second.
    expect(unmetBy(authContext('acct', now, ['pwd']), { maxAge: 0 }, now)).toBe('max_age');
  });

  it('authenticatedSince: met from that second on, not before', () => {
    expect(unmetBy(pwd, { authenticatedSince: now - 100 }, now)).toBeUndefined();
    expect(unmetBy(pwd, { authenticatedSince: now - 99 }, now)).toBe('authenticated_since');
  });

  it('acr: met by the class achieved or a weaker one, never by an unknown or stronger class', () => {
    expect(unmetBy(pwd, { acr: [ACR.oneFactor] }, now)).toBeUndefined();
    expect(unmetBy(pwd, { acr: [ACR.none] }, now)).toBeUndefined();
    expect(unmetBy(pwd, { acr: ['urn:example:unknown'] }, now)).toBe('acr');
    // Any one acceptable class will do.
    expect(unmetBy(pwd, { acr: ['urn:example:unknown', ACR.oneFactor] }, now)).toBeUndefined();
    const none = authContext('acct', now, []);
    expect(unmetBy(none, { acr: [ACR.oneFactor] }, now)).toBe('acr');
  });
});

describe('SignIn (inject)', () => {
  let t: Awaited<ReturnType<typeof startTestIdp>>;
  let app: FastifyInstance;
  const sessionRequest = (id: string) => ({ cookies: { [SESSION_COOKIE]: id } }) as unknown as FastifyRequest;
  const authorizeQuery = () => ({
    client_id: 'demo-client',
    redirect_uri: DEMO_REDIRECT,
    response_type: 'code',
    scope: 'openid',
    state: 's1',
    code_challenge: pkce().challenge,
    code_challenge_method: 'S256',
  });

  beforeAll(async () => {
    t = await startTestIdp();
    app = t.idp.app;
  });
  afterAll(() => t.close());

  it('a password sign-in records amr in the session; acr is derived, not stored', async () => {
    const { sessionCookie, location } = await browserLogin(app, authorizeQuery());
    expect(location.searchParams.get('code')).toBeTruthy();
    const id = (sessionCookie as string).slice(`${SESSION_COOKIE}=`.length);
    const stored = await t.idp.ctx.storage.adapter('Session').find(tokenId(id));
    expect(stored).toMatchObject({ amr: ['pwd'] });
    expect(stored).not.toHaveProperty('acr');
    const signIn = new SignIn(t.idp.ctx);
    const check = await signIn.check(sessionRequest(id), { acr: [ACR.oneFactor], maxAge: 60 });
    expect(check).toMatchObject({ ok: true, auth: { amr: ['pwd'], acr: ACR.oneFactor } });
    expect(await signIn.check(sessionRequest(id), { acr: ['urn:example:unknown'] })).toEqual({
      ok: false,
      unmet: 'acr',
    });
    expect(await signIn.check(sessionRequest(id), { reauthenticate: true })).toEqual({
      ok: false,
      unmet: 'reauthenticate',
    });
    expect(await signIn.check(sessionRequest('no-such-session'))).toEqual({ ok: false, unmet: 'session' });
  });

  it('a session stored before amr was recorded reads as a password sign-in and still works', async () => {
    const account = await t.idp.ctx.accounts.findByUsername('demo');
    const id = randomToken();
    const authTime = Math.floor(Date.now() / 1000) - 5;
    await t.idp.ctx.storage
      .adapter('Session')
      .upsert(tokenId(id), { accountId: account?.sub, authTime }, 3600);
    const check = await new SignIn(t.idp.ctx).check(sessionRequest(id));
    expect(check).toEqual({
      ok: true,
      auth: { accountId: account?.sub, authTime, amr: ['pwd'], acr: ACR.oneFactor, session: tokenId(id) },
    });
    const r = await app.inject({
      url: `/authorize?${new URLSearchParams(authorizeQuery())}`,
      headers: { cookie: `${SESSION_COOKIE}=${id}` },
    });
    expect(r.statusCode).toBe(303);
    expect(new URL(r.headers.location as string).searchParams.get('code')).toBeTruthy();
  });

  it('an interaction parked in the shape before this module shows the expired page', async () => {
    const uid = randomToken(16);
    await t.idp.ctx.storage
      .adapter('Interaction')
      .upsert(uid, { csrf: 'c', stage: 'login', external: { returnTo: '/x', clientName: 'x' } }, 600);
    const cookie = cookieHeader([{ name: 'pqid_interaction', value: uid }]);
    const page = await app.inject({ url: `/interaction/${uid}`, headers: { cookie } });
    expect(page.statusCode).toBe(400);
    expect(page.body).toContain('interaction_expired');
  });

  it('continues only to paths on this IdP, and only through registered resumers', async () => {
    const signIn = new SignIn(t.idp.ctx);
    const reply = {} as FastifyReply;
    const req = sessionRequest('none');
    for (const returnTo of ['//evil.example/x', '/\\evil.example/x', 'https://evil.example/x', 'x'])
      await expect(signIn.begin(req, reply, { next: { returnTo }, clientName: 'x' })).rejects.toThrow(
        'returnTo must be a path on this IdP',
      );
    await expect(
      signIn.begin(req, reply, { next: { resume: 'nope', state: {} }, clientName: 'x' }),
    ).rejects.toThrow('no resumer named nope');
    const resumer = { signedIn: async (r: FastifyReply) => r };
    signIn.register('p', resumer);
    expect(() => signIn.register('p', resumer)).toThrow('already registered');
  });
});
