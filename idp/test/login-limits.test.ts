/** Brute-force protection of the login form: per account, per address, nothing about existence. */
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryFailureStore } from '../src/security/failure-store.ts';
import {
  addressKey,
  GENERIC_LOGIN_ERROR,
  LOCKED_LOGIN_ERROR,
  LoginLimiter,
} from '../src/security/login-limiter.ts';
import { cookieHeader, DEMO_REDIRECT, pkce, startTestIdp } from './helpers.ts';
import {
  csrfOf,
  enrolFirstPasskey,
  Jar,
  ORIGIN,
  openInteraction,
  passkey,
  password,
  startSignIn,
} from './passkey-helpers.ts';
import { SoftAuthenticator, type Tamper } from './webauthn-authenticator.ts';

const limits = { window: 60, maxFailuresPerAccount: 3, maxFailuresPerAddress: 10 };

describe('LoginLimiter (unit, fake clock)', () => {
  let now = 0;
  const limiter = () => new LoginLimiter(limits, { now: () => now });
  const ok = async () => ({ sub: 'x' });
  const bad = async () => undefined;

  it('locks an account after N failures, refuses the right password while locked, unlocks after the window', async () => {
    now = 1_000_000;
    const l = limiter();
    const who = { username: 'alice', address: '192.0.2.1' };
    for (let i = 0; i < 3; i++) expect(await l.attempt(who, bad)).toMatchObject({ ok: false, locked: false });
    let called = false;
    const locked = await l.attempt(who, async () => {
      called = true;
      return { sub: 'x' };
    });
    expect(locked).toEqual({ ok: false, locked: true, message: LOCKED_LOGIN_ERROR, retryAfter: 60 });
    expect(called).toBe(false); // the password is not even checked while locked
    // Case and Unicode form do not give a fresh budget.
    expect(await l.attempt({ ...who, username: ' ALICE ' }, ok)).toMatchObject({ locked: true });
    now += 30_000;
    expect(await l.attempt(who, ok)).toMatchObject({ locked: true, retryAfter: 30 });
    now += 30_000;
    expect(await l.attempt(who, ok)).toEqual({ ok: true, account: { sub: 'x' } });
  });

  it('a success clears the account counter but not the address counter', async () => {
    now = 2_000_000;
    const l = limiter();
    const addr = '198.51.100.7';
    for (let i = 0; i < 2; i++) await l.attempt({ username: 'bob', address: addr }, bad);
    await l.attempt({ username: 'bob', address: addr }, ok);
    for (let i = 0; i < 2; i++)
      expect(await l.attempt({ username: 'bob', address: addr }, bad)).toMatchObject({ locked: false });
    // Spraying many usernames from one address trips the address limit (10).
    for (let i = 0; i < 6; i++) await l.attempt({ username: `user${i}`, address: addr }, bad);
    expect(await l.attempt({ username: 'fresh', address: addr }, ok)).toMatchObject({ locked: true });
    expect(await l.attempt({ username: 'fresh', address: '198.51.100.8' }, ok)).toMatchObject({ ok: true });
  });

  it('attempts racing each other never check more passwords than the budget', async () => {
    now = 3_000_000;
    const store = new MemoryFailureStore();
    const l = new LoginLimiter(limits, { now: () => now, store });
    let checked = 0;
    const slowBad = async () => {
      checked++;
      // The password check takes time (scrypt on the thread pool): the others arrive meanwhile.
      await new Promise((r) => setTimeout(r, 5));
      return undefined;
    };
    const results = await Promise.all(
      Array.from({ length: 20 }, () => l.attempt({ username: 'carol', address: '192.0.2.9' }, slowBad)),
    );
    // Which of them win depends on how their counts interleave; never more than the budget.
    expect(checked).toBeLessThanOrEqual(3);
    expect(results.filter((r) => !r.ok && r.locked)).toHaveLength(20 - checked);
    // Only the checked ones were counted; the refused were taken back.
    expect(await store.recent('acct:carol', now, 60_000)).toHaveLength(checked);
    now += 60_000;
    expect(await l.attempt({ username: 'carol', address: '192.0.2.9' }, ok)).toMatchObject({ ok: true });
  });

  it('successes are taken back: they spend no budget of the address or the account', async () => {
    now = 4_000_000;
    const l = limiter();
    const addr = '203.0.113.5';
    for (let i = 0; i < 25; i++)
      expect(await l.attempt({ username: `u${i % 3}`, address: addr }, ok)).toMatchObject({ ok: true });
    for (let i = 0; i < 3; i++)
      expect(await l.attempt({ username: 'dan', address: addr }, bad)).toMatchObject({ locked: false });
  });

  it('counts IPv6 clients per /64 and IPv4-mapped addresses as IPv4', () => {
    expect(addressKey('2001:db8:1:2:aaaa::1')).toBe(addressKey('2001:0db8:0001:0002:ffff:1:2:3'));
    expect(addressKey('2001:db8:1:2::1')).not.toBe(addressKey('2001:db8:1:3::1'));
    expect(addressKey('::ffff:192.0.2.1')).toBe(addressKey('192.0.2.1'));
    expect(addressKey('::1')).toBe('ip6:0:0:0:0::/64');
  });
});

describe('login form under brute force (inject)', () => {
  let t: Awaited<ReturnType<typeof startTestIdp>>;
  beforeAll(async () => {
    t = await startTestIdp({
      loginLimits: { window: 1, maxFailuresPerAccount: 3, maxFailuresPerAddress: 100 },
    });
  });
  afterAll(async () => t?.close());

  /** Start a sign-in and return a function that posts credentials to its login form. */
  async function loginForm(app = t.idp.app) {
    const { challenge } = pkce();
    const q = new URLSearchParams({
      client_id: 'demo-client',
      redirect_uri: DEMO_REDIRECT,
      response_type: 'code',
      scope: 'openid',
      code_challenge: challenge,
      code_challenge_method: 'S256',
    });
    const r1 = await app.inject({ method: 'GET', url: `/authorize?${q}` });
    const loginUrl = r1.headers.location as string;
    const cookie = cookieHeader(r1.cookies);
    const page = await app.inject({ method: 'GET', url: loginUrl, headers: { cookie } });
    const csrf = /name="csrf" value="([^"]+)"/.exec(page.body)?.[1] as string;
    return (username: string, password: string) =>
      app.inject({
        method: 'POST',
        url: `${loginUrl}/login`,
        headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({ csrf, username, password }).toString(),
      });
  }

  const summary = (r: { statusCode: number; body: string; headers: Record<string, unknown> }) => ({
    status: r.statusCode,
    generic: r.body.includes(GENERIC_LOGIN_ERROR.replace(/'/g, '&#39;')),
    locked: r.body.includes(LOCKED_LOGIN_ERROR),
    retryAfter: r.headers['retry-after'],
  });

  it('N failures lock the account with a generic message, the right password is refused, the lock ends', async () => {
    const post = await loginForm();
    for (let i = 0; i < 3; i++)
      expect(summary(await post('demo', 'wrong'))).toEqual({
        status: 401,
        generic: true,
        locked: false,
        retryAfter: undefined,
      });
    const refused = await post('demo', 'demo');
    expect(summary(refused)).toEqual({ status: 429, generic: false, locked: true, retryAfter: '1' });
    expect(refused.body).not.toMatch(/demo@example|exists|unknown user/i);

    await new Promise((r) => setTimeout(r, 1100));
    const ok = await post('demo', 'demo');
    expect(ok.statusCode).toBe(303);
  });

  it('wrong passwords sent all at once: at most the budget of them is checked, the rest are refused unchecked', async () => {
    // A window no burst outlasts, however loaded the machine: failures must not age out mid-burst.
    const long = await startTestIdp({
      loginLimits: { window: 600, maxFailuresPerAccount: 3, maxFailuresPerAddress: 100 },
    });
    try {
      const post = await loginForm(long.idp.app);
      const answers = await Promise.all(Array.from({ length: 12 }, () => post('demo', 'wrong')));
      const checked = answers.filter((r) => r.statusCode === 401).length;
      expect(checked).toBeLessThanOrEqual(3);
      expect(answers.filter((r) => r.statusCode === 429)).toHaveLength(12 - checked);
    } finally {
      await long.close();
    }
  });

  it('an unknown username goes through exactly the same answers (no account enumeration)', async () => {
    await new Promise((r) => setTimeout(r, 1100));
    const known = await loginForm();
    const unknown = await loginForm();
    const a: unknown[] = [];
    const b: unknown[] = [];
    for (let i = 0; i < 4; i++) {
      a.push(summary(await known('demo', 'nope')));
      b.push(summary(await unknown('no-such-user', 'nope')));
    }
    expect(b).toEqual(a);
  });
});

describe('LoginLimiter: the steps of a multi-step ceremony', () => {
  it('admit spends the same budgets as attempt until succeeded takes it back; no username means the address only', async () => {
    let now = 5_000_000;
    const l = new LoginLimiter(limits, { now: () => now });
    const who = { username: 'carol', address: '192.0.2.9' };
    expect(await l.admit(who)).toMatchObject({ ok: true });
    await l.attempt(who, async () => undefined);
    expect(await l.lockedFor(who)).toBe(0);
    expect(await l.admit(who)).toMatchObject({ ok: true });
    expect(await l.lockedFor(who)).toBe(60);
    expect(await l.attempt(who, async () => ({ sub: 'c' }))).toMatchObject({ locked: true });
    expect(await l.admit(who)).toEqual({ ok: false, retryAfter: 60 });
    // Without a username only the address counts: an unknown credential locks nobody's account.
    for (let i = 0; i < 10; i++)
      expect(await l.admit({ address: '198.51.100.9' })).toMatchObject({ ok: true });
    expect(await l.lockedFor({ address: '198.51.100.9' })).toBe(60);
    expect(await l.lockedFor({ username: 'dave', address: '198.51.100.10' })).toBe(0);
    now += 60_000;
    expect(await l.lockedFor(who)).toBe(0);
    for (let i = 0; i < 2; i++) await l.admit(who);
    const right = await l.admit(who);
    if (!right.ok) throw new Error('admitted expected');
    await right.succeeded();
    expect(await l.lockedFor(who)).toBe(0);
    // The address keeps its two failures (a success clears the username's count only).
    for (let i = 0; i < 8; i++) expect(await l.admit({ address: '192.0.2.9' })).toMatchObject({ ok: true });
    expect(await l.admit({ address: '192.0.2.9' })).toMatchObject({ ok: false });
  });

  it('admissions racing each other never let more than the budget through', async () => {
    const now = 6_000_000;
    const store = new MemoryFailureStore();
    const l = new LoginLimiter(limits, { now: () => now, store });
    const results = await Promise.all(Array.from({ length: 25 }, () => l.admit({ address: '192.0.2.44' })));
    expect(results.filter((r) => r.ok).length).toBeLessThanOrEqual(10);
    expect(await store.recent(addressKey('192.0.2.44'), now, 60_000)).toHaveLength(
      results.filter((r) => r.ok).length,
    );
  });
});

describe('passkey ceremonies under brute force (inject)', () => {
  let t: Awaited<ReturnType<typeof startTestIdp>>;
  beforeAll(async () => {
    t = await startTestIdp({
      loginLimits: { window: 60, maxFailuresPerAccount: 3, maxFailuresPerAddress: 8 },
    });
  });
  afterAll(async () => t?.close());

  const authorizeUrl = () =>
    `/authorize?${new URLSearchParams({
      client_id: 'demo-client',
      redirect_uri: DEMO_REDIRECT,
      response_type: 'code',
      scope: 'openid',
      code_challenge: pkce().challenge,
      code_challenge_method: 'S256',
    })}`;

  async function userWithPasskey(username: string) {
    const account = await t.idp.ctx.accounts.create({ username, password: `pw ${username}` });
    const authenticator = new SoftAuthenticator({ origin: ORIGIN });
    const r = await enrolFirstPasskey(t.idp, account, `pw ${username}`, authenticator, 'ML-DSA-44');
    expect(r.statusCode).toBe(303);
    return authenticator;
  }

  // A passkey cannot be guessed: its failures say nothing about the account, and charging the
  // account would let anyone who knows a credential ID lock its owner out (signin/passkey.ts).
  it('failed assertions count against the address only: the account, its passkey and its password stay open', async () => {
    const authenticator = await userWithPasskey('erin');
    const app = t.idp.app;
    const attempt = async (tamper: Tamper = {}) => {
      const jar = new Jar();
      return passkey(app, jar, await startSignIn(app, jar, authorizeUrl()), authenticator, tamper);
    };
    for (let i = 0; i < 3; i++) expect((await attempt({ badSignature: true })).statusCode).toBe(401);
    expect((await attempt()).statusCode).toBe(303);
    const jar = new Jar();
    const pw = await password(app, jar, await startSignIn(app, jar, authorizeUrl()), 'erin', 'pw erin');
    expect(pw.statusCode).toBe(303);
  });

  it('failed passwords lock the password, not the passkey; the second factor after a right password goes on', async () => {
    const authenticator = await userWithPasskey('frank');
    const app = t.idp.app;
    const jar = new Jar();
    const page = await startSignIn(app, jar, `${authorizeUrl()}&acr_values=urn:pqid:acr:mfa`);
    // A right password first (the second-factor stage), then three wrong ones elsewhere.
    const afterPassword = await password(app, jar, page, 'frank', 'pw frank');
    const second = await openInteraction(app, jar, afterPassword.headers.location as string);
    for (let i = 0; i < 3; i++) {
      const j = new Jar();
      expect(
        (await password(app, j, await startSignIn(app, j, authorizeUrl()), 'frank', 'wrong')).statusCode,
      ).toBe(401);
    }
    const locked = new Jar();
    const pw = await password(
      app,
      locked,
      await startSignIn(app, locked, authorizeUrl()),
      'frank',
      'pw frank',
    );
    expect(pw.statusCode).toBe(429);
    expect(Number(pw.headers['retry-after'])).toBeGreaterThan(50);
    expect(pw.body).toContain(LOCKED_LOGIN_ERROR);
    expect((await passkey(app, jar, second, authenticator)).headers.location).toMatch(/code=/);
    const j = new Jar();
    expect((await passkey(app, j, await startSignIn(app, j, authorizeUrl()), authenticator)).statusCode).toBe(
      303,
    );
  });

  /** A credential this IdP never registered (made against a throw-away options object). */
  async function stranger() {
    const authenticator = new SoftAuthenticator({ origin: ORIGIN });
    await authenticator.create(
      { rp: { id: 'localhost' }, user: { id: 'eA' }, challenge: 'AAAA', pubKeyCredParams: [{ alg: -48 }] },
      'ML-DSA-44',
    );
    return authenticator;
  }

  /**
   * A passkey sign-in from `address` up to its post: the options' status, and (when they were
   * given) the post of `authenticator`'s assertion, not yet sent.
   */
  async function prepare(address: string, authenticator: SoftAuthenticator, tamper: Tamper = {}) {
    const app = t.idp.app;
    const inject = (o: InjectOptions) => app.inject({ ...o, remoteAddress: address });
    const jar = new Jar();
    const r1 = jar.take(await inject({ method: 'GET', url: authorizeUrl() }));
    const page = jar.take(
      await inject({ method: 'GET', url: r1.headers.location as string, headers: { cookie: jar.header } }),
    );
    const uid = (r1.headers.location as string).split('/').pop();
    const csrf = csrfOf(page.body);
    const options = jar.take(
      await inject({
        method: 'POST',
        url: `/interaction/${uid}/passkey/options`,
        headers: { cookie: jar.header, 'content-type': 'application/json' },
        payload: JSON.stringify({ csrf }),
      }),
    );
    if (options.statusCode !== 200) return { status: options.statusCode };
    const credential = JSON.stringify(await authenticator.get(options.json(), tamper));
    const post = () =>
      inject({
        method: 'POST',
        url: `/interaction/${uid}/passkey`,
        headers: { cookie: jar.header, 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({ csrf, credential }).toString(),
      });
    return { status: options.statusCode, post };
  }

  it('unknown credentials from one address lock that address: no challenge, no verification', async () => {
    const authenticator = await stranger();
    let last = 0;
    for (let i = 0; i < 9; i++) {
      const attempt = await prepare('203.0.113.77', authenticator);
      last = attempt.status;
      if (!attempt.post) break;
      expect((await attempt.post()).statusCode).toBe(401);
    }
    expect(last).toBe(429);
  });

  it('assertions sent all at once: at most the address budget of them is verified, the rest are refused unverified', async () => {
    // A registered passkey with bad signatures: each is verified (on the thread pool), so the
    // others arrive while it is; twelve ceremonies with a challenge each, posted together.
    const authenticator = await userWithPasskey('gina');
    const attempts = [];
    for (let i = 0; i < 12; i++)
      attempts.push(await prepare('203.0.113.78', authenticator, { badSignature: true }));
    const answers = await Promise.all(attempts.map((a) => a.post?.()));
    const verified = answers.filter((r) => r?.statusCode === 401).length;
    expect(verified).toBeLessThanOrEqual(8);
    expect(answers.filter((r) => r?.statusCode === 429)).toHaveLength(12 - verified);
    // Only what was verified was counted: the address is locked exactly when the budget is spent.
    const next = await prepare('203.0.113.78', authenticator, { badSignature: true });
    expect(next.status).toBe(verified === 8 ? 429 : 200);
  });
});
