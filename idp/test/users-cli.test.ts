/**
 * `pqid users add|list|passwd|remove` against the store running servers use, on SQLite and
 * PostgreSQL: a changed password ends the user's sessions and revokes their refresh and access
 * tokens (stored and stateless) on a second instance sharing the store, clears the account's
 * lockout and keeps its passkeys; the old password is refused at the login form and the new one
 * accepted; a removed user signs in with neither password nor passkey, loses every session,
 * token, passkey and consent on both instances, and comes back under the same name as a new
 * subject; the password appears in no output; the errors are typed, with exit codes and no stack
 * trace.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createIdp, type Idp } from '../src/app.ts';
import { firstLine } from '../src/cli/password-input.ts';
import { runCli } from '../src/cli/run.ts';
import { users } from '../src/cli/users.ts';
import { passkeysOf } from '../src/signin/passkeys/credentials.ts';
import {
  basicAuth,
  captureOutput,
  DEMO_REDIRECT,
  form,
  KEK,
  redeemCode,
  tempDir,
  testConfig,
} from './helpers.ts';
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
  refreshes,
  startSignIn,
} from './passkey-helpers.ts';
import { freshStores } from './storage-pg.ts';
import { SoftAuthenticator } from './webauthn-authenticator.ts';

const cleanups: Array<() => void> = [];
const { engines, dispose } = freshStores('pqid_pw');

afterAll(async () => {
  for (const c of cleanups) c();
  await dispose();
});

const OLD = 'old password 1';
const NEW = 'new password 2';
const LIMITS = { window: 600, maxFailuresPerAccount: 3, maxFailuresPerAddress: 1000 };

/** `pqid users …` in this process, `input` on stdin (not a terminal). */
async function pqid(input: string, ...argv: string[]) {
  vi.spyOn(process, 'stdin', 'get').mockReturnValue(
    Readable.from(input ? [Buffer.from(input)] : []) as unknown as typeof process.stdin,
  );
  try {
    const { result: code, stdout, stderr } = await captureOutput(() => runCli(argv, [users]));
    return { code, stdout, stderr };
  } finally {
    vi.restoreAllMocks();
  }
}

async function instance(databaseUrl: string, accessTokenStorage: 'stored' | 'stateless'): Promise<Idp> {
  const { dir, cleanup } = tempDir();
  cleanups.push(cleanup);
  return createIdp(testConfig(dir, { databaseUrl, accessTokenStorage, loginLimits: LIMITS }), {
    env: { PQID_KEK: KEK },
    warn: () => {},
  });
}

/** A password sign-in into the demo client with `offline_access`: the session's jar and the tokens. */
async function signIn(app: FastifyInstance, username: string, pw: string) {
  const jar = new Jar();
  const { url, verifier } = demoAuthorize({ scope: 'openid offline_access' });
  const r = await password(app, jar, await startSignIn(app, jar, url), username, pw);
  if (r.statusCode !== 303) throw new Error(`sign-in: ${r.statusCode} ${r.body}`);
  const location = await pastConsent(app, jar, r.headers.location as string);
  const token = await redeemCode(app, new URL(location), DEMO_REDIRECT, {
    verifier,
    headers: { authorization: basicAuth('demo-client', 'demo-secret') },
  });
  if (token.statusCode !== 200) throw new Error(`token: ${token.statusCode} ${token.body}`);
  return { jar, tokens: token.json() as { access_token: string; refresh_token: string } };
}

/** The login form's answer to a password: 303 signed in, 401 refused, 429 locked. */
async function loginStatus(app: FastifyInstance, username: string, pw: string): Promise<number> {
  const jar = new Jar();
  return (await password(app, jar, await startSignIn(app, jar, '/account'), username, pw)).statusCode;
}

/** Sign the browser out at the end-session endpoint, as its user would. */
async function signOut(app: FastifyInstance, jar: Jar) {
  const page = await get(app, jar, '/end_session');
  const r = await postForm(app, jar, '/end_session/confirm', { csrf: csrfOf(page.body), logout: 'yes' });
  if (r.statusCode >= 400) throw new Error(`sign-out: ${r.statusCode} ${r.body}`);
}

/** The last line on stderr: the command's audit line. */
const auditLine = (stderr: string) => JSON.parse(stderr.trim().split('\n').at(-1) as string);

const userinfo = async (app: FastifyInstance, at: string) =>
  (await app.inject({ url: '/userinfo', headers: { authorization: `Bearer ${at}` } })).statusCode;

/** Signed in at /account: the page, not a redirect to sign in. */
const hasSession = async (app: FastifyInstance, jar: Jar) =>
  (await get(app, jar, '/account')).statusCode === 200;

for (const [engine, fresh] of engines) {
  for (const storage of ['stored', 'stateless'] as const) {
    describe.skipIf(!fresh)(`pqid users passwd (${engine}, ${storage} access tokens)`, () => {
      const saved = { ...process.env };
      let a: Idp;
      let b: Idp;
      beforeAll(async () => {
        const url = (fresh as () => string)();
        a = await instance(url, storage);
        b = await instance(url, storage);
        // The CLI opens the store the servers use, as an operator's shell would.
        process.env.PQID_DATABASE_URL = url;
        process.env.PQID_KEK = KEK;
        delete process.env.PQID_CONFIG;
      });
      afterAll(async () => {
        await a?.close();
        await b?.close();
        process.env = saved;
      });
      afterEach(() => vi.restoreAllMocks());

      it('add, list; passwd ends sessions and tokens on the other instance, the old password no longer signs in', async () => {
        const added = await pqid(
          `${OLD}\n`,
          'users',
          'add',
          'carol',
          '--name',
          'Carol',
          '--email',
          'c@example.com',
        );
        expect(added.code, added.stderr).toBe(0);
        expect(added.stdout).toMatch(/^added carol \(sub [\w-]+\)\n$/);
        const listed = JSON.parse((await pqid('', 'users', 'list', '--json')).stdout);
        expect(listed.users).toContainEqual(
          expect.objectContaining({
            username: 'carol',
            name: 'Carol',
            email: 'c@example.com',
            emailVerified: false,
          }),
        );

        // Two browsers signed in on instance a, with refresh and access tokens; the tokens work on b.
        const one = await signIn(a.app, 'carol', OLD);
        const two = await signIn(a.app, 'carol', OLD);
        expect(await hasSession(b.app, one.jar)).toBe(true);
        expect(await refreshes(b.app, one.tokens.refresh_token)).toBe(true);
        expect(await userinfo(b.app, two.tokens.access_token)).toBe(200);
        // Someone else's session and tokens are not touched.
        const demo = await signIn(a.app, 'demo', 'demo');
        // A session signed out before the change is not counted as ended by it, nor a grant its
        // client revoked before (RFC 7009).
        const gone = await signIn(a.app, 'carol', OLD);
        await signOut(a.app, gone.jar);
        const revoked = await a.app.inject({
          method: 'POST',
          url: '/revoke',
          ...form(
            { token: gone.tokens.refresh_token },
            { authorization: basicAuth('demo-client', 'demo-secret') },
          ),
        });
        expect(revoked.statusCode).toBe(200);
        expect(await refreshes(b.app, gone.tokens.refresh_token)).toBe(false);

        const r = await pqid(`${NEW}\n`, 'users', 'passwd', 'carol');
        expect(r.code, r.stderr).toBe(0);
        expect(r.stdout).toMatch(
          /changed the password of carol; ended 2 session\(s\), revoked 2 grant\(s\); kept 0 passkey/,
        );
        expect(auditLine(r.stderr)).toMatchObject({
          audit: 'accounts',
          op: 'account.password',
          username: 'carol',
          sessions: 2,
          grants: 2,
        });
        for (const out of [added.stdout, added.stderr, r.stdout, r.stderr]) {
          expect(out).not.toContain(OLD);
          expect(out).not.toContain(NEW);
        }

        for (const app of [b.app, a.app]) {
          expect(await hasSession(app, one.jar)).toBe(false);
          expect(await hasSession(app, two.jar)).toBe(false);
          expect(await refreshes(app, two.tokens.refresh_token)).toBe(false);
          expect(await userinfo(app, two.tokens.access_token)).toBe(401);
        }
        expect(await hasSession(b.app, demo.jar)).toBe(true);
        expect(await refreshes(b.app, demo.tokens.refresh_token)).toBe(true);

        expect(await loginStatus(b.app, 'carol', OLD)).toBe(401);
        expect(await loginStatus(b.app, 'carol', NEW)).toBe(303);
        // New sign-ins (the one just above, and this flow) are recorded too: the next change ends them.
        const three = await signIn(b.app, 'carol', NEW);
        const again = await pqid(`${OLD}\n`, 'users', 'passwd', 'carol', '--json');
        expect(again.code, again.stderr).toBe(0);
        expect(JSON.parse(again.stdout)).toMatchObject({
          username: 'carol',
          sessions: 2,
          grants: 1,
          passkeys: 0,
        });
        expect(await refreshes(a.app, three.tokens.refresh_token)).toBe(false);
      });

      it('remove: no more sign-ins; sessions, tokens, passkeys and consents end on the other instance; the name comes back as a new subject', async () => {
        expect((await pqid(`${OLD}\n`, 'users', 'add', 'frank')).code).toBe(0);
        const account = await a.ctx.accounts.findByUsername('frank');
        if (!account) throw new Error('frank was not added');
        const byPassword = await signIn(a.app, 'frank', OLD);
        const authenticator = new SoftAuthenticator({ origin: ORIGIN });
        const enrolled = await enrolFirstPasskey(a, account, OLD, authenticator, 'ML-DSA-65');
        expect(enrolled.headers.location).toBe('/account?done=added');
        const byPasskey = await passkeyTokens(b.app, authenticator);
        expect(await userinfo(a.app, byPasskey.tokens.access_token)).toBe(200);
        const demo = await signIn(a.app, 'demo', 'demo');

        const r = await pqid('', 'users', 'remove', 'frank', '--json');
        expect(r.code, r.stderr).toBe(0);
        // Three sessions (the client's, the account page's, the passkey's), two grants, one
        // passkey, the one consent to offline_access for the demo client.
        expect(JSON.parse(r.stdout)).toEqual({
          username: 'frank',
          sub: account.sub,
          sessions: 3,
          grants: 2,
          passkeys: 1,
          consents: 1,
        });
        expect(auditLine(r.stderr)).toMatchObject({
          audit: 'accounts',
          op: 'account.remove',
          username: 'frank',
          passkeys: 1,
        });

        for (const app of [b.app, a.app]) {
          for (const { jar, tokens } of [byPassword, byPasskey]) {
            expect(await hasSession(app, jar)).toBe(false);
            expect(await refreshes(app, tokens.refresh_token)).toBe(false);
            expect(await userinfo(app, tokens.access_token)).toBe(401);
          }
          expect(await loginStatus(app, 'frank', OLD)).toBe(401);
          const jar = new Jar();
          const { url } = demoAuthorize();
          expect(
            (await passkey(app, jar, await startSignIn(app, jar, url), authenticator)).statusCode,
          ).not.toBe(303);
        }
        expect(await passkeysOf(a.ctx).list(account.sub)).toEqual([]);
        expect(await hasSession(b.app, demo.jar)).toBe(true);
        expect(await refreshes(b.app, demo.tokens.refresh_token)).toBe(true);

        // The name again: a new subject, asked for consent afresh, with a working password.
        expect((await pqid(`${NEW}\n`, 'users', 'add', 'frank')).code).toBe(0);
        const again = await b.ctx.accounts.findByUsername('frank');
        expect(again?.sub).toBeDefined();
        expect(again?.sub).not.toBe(account.sub);
        expect(await loginStatus(b.app, 'frank', NEW)).toBe(303);
        expect((await pqid('', 'users', 'remove', 'nobody')).stderr).toContain('ERR_NO_SUCH_USER');
      });

      it('clears the sign-in lockout', async () => {
        expect((await pqid(`${OLD}\n`, 'users', 'add', 'dave')).code).toBe(0);
        for (let i = 0; i < LIMITS.maxFailuresPerAccount; i++)
          expect(await loginStatus(a.app, 'dave', 'wrong')).toBe(401);
        expect(await loginStatus(b.app, 'dave', OLD)).toBe(429);
        expect((await pqid(`${NEW}\n`, 'users', 'passwd', 'dave')).code).toBe(0);
        expect(await loginStatus(b.app, 'dave', NEW)).toBe(303);
      });
    });
  }
}

describe('pqid users: errors', () => {
  const t = tempDir();
  const saved = { ...process.env };
  beforeAll(async () => {
    process.env.PQID_DATA_DIR = t.dir;
    process.env.PQID_KEK = KEK;
    delete process.env.PQID_CONFIG;
    delete process.env.PQID_DATABASE_URL;
    const idp = await createIdp(testConfig(t.dir), { env: { PQID_KEK: KEK }, warn: () => {} });
    await idp.ctx.accounts.create({ username: 'erin', password: OLD });
    await idp.close();
  });
  afterAll(() => {
    process.env = saved;
    t.cleanup();
  });
  afterEach(() => vi.restoreAllMocks());

  const NO_STACK = /^\s+at /m;

  it('an unknown user, a password the policy refuses, a duplicate user: exit 1, typed, nothing changed', async () => {
    const unknown = await pqid(`${NEW}\n`, 'users', 'passwd', 'nobody');
    expect(unknown).toMatchObject({ code: 1, stdout: '' });
    expect(unknown.stderr).toBe('pqid users: ERR_NO_SUCH_USER: no user "nobody"\n');
    for (const [pw, why] of [
      ['short', 'at least 8 characters'],
      ['erin', 'at least 8'],
      ['tab\there xx', 'control characters'],
      ['ERIN', 'at least'],
    ]) {
      const r = await pqid(`${pw}\n`, 'users', 'passwd', 'erin');
      expect(r.code).toBe(1);
      expect(r.stderr).toContain('ERR_PASSWORD_POLICY');
      expect(r.stderr).toContain(why);
      expect(r.stderr).not.toContain(pw);
      expect(r.stderr).not.toMatch(NO_STACK);
    }
    const named = await pqid('erin-erin\n', 'users', 'add', 'erin-erin');
    expect(named.stderr).toContain('must not be the username');
    const dup = await pqid(`${NEW}\n`, 'users', 'add', 'erin');
    expect(dup.code).toBe(1);
    expect(dup.stderr).toContain('ERR_USER_EXISTS');
    // Nothing changed: the old password still signs in.
    const idp = await createIdp(testConfig(t.dir), { env: { PQID_KEK: KEK }, warn: () => {} });
    try {
      expect(await idp.ctx.accounts.authenticate('erin', OLD)).toBeDefined();
      expect(await idp.ctx.accounts.findByUsername('erin-erin')).toBeUndefined();
    } finally {
      await idp.close();
    }
  });

  it('a code issued before its user was removed is refused at the token endpoint', async () => {
    const idp = await createIdp(testConfig(t.dir), { env: { PQID_KEK: KEK }, warn: () => {} });
    try {
      const account = await idp.ctx.accounts.create({ username: 'gina', password: OLD });
      const jar = new Jar();
      const { url, verifier } = demoAuthorize();
      const r = await password(idp.app, jar, await startSignIn(idp.app, jar, url), 'gina', OLD);
      const location = new URL(await pastConsent(idp.app, jar, r.headers.location as string));
      expect(location.searchParams.get('code')).toBeTruthy();
      // The account alone, as a removal that found no record of this sign-in would leave it.
      await idp.ctx.accounts.remove(account.sub);
      const token = await redeemCode(idp.app, location, DEMO_REDIRECT, {
        verifier,
        headers: { authorization: basicAuth('demo-client', 'demo-secret') },
      });
      expect(token.statusCode).toBe(400);
      expect(token.json()).toMatchObject({
        error: 'invalid_grant',
        error_description: 'the account no longer exists',
      });
    } finally {
      await idp.close();
    }
  });

  it('usage: no password on stdin, a password as an argument, unknown subcommands (exit 2)', async () => {
    const empty = await pqid('', 'users', 'passwd', 'erin');
    expect(empty.code).toBe(2);
    expect(empty.stderr).toContain('no password on stdin');
    const argv = await pqid('', 'users', 'passwd', 'erin', NEW);
    expect(argv.code).toBe(2);
    expect(argv.stderr).toContain('users passwd takes one USERNAME');
    expect(argv.stderr).not.toContain(NEW);
    expect((await pqid('', 'users', 'rename')).code).toBe(2);
    expect((await pqid('', 'users', 'remove')).code).toBe(2);
    expect((await pqid('', 'users', 'remove', 'erin', 'more')).code).toBe(2);
    expect((await pqid('', 'users', 'passwd', 'erin', '--password', NEW)).code).toBe(2);
    const help = await pqid('', 'users', '--help');
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('pqid users passwd USERNAME');
  });

  it('the pqid binary: the password from a real pipe, no stack trace, no password in any output', async () => {
    const root = fileURLToPath(new URL('../../', import.meta.url));
    const cli = join(root, 'idp/dist/cli.js');
    if (!existsSync(cli)) throw new Error(`${cli} is missing: run \`tsc -b\` first (npm test does)`);
    const run = (input: string, ...args: string[]) =>
      new Promise<{ code: number; out: string }>((resolve) => {
        const child = execFile(
          join(root, 'node_modules/.bin/node'),
          [cli, 'users', ...args],
          { env: { ...process.env, PQID_DEBUG: '' } },
          (e, stdout, stderr) =>
            resolve({ code: e ? (typeof e.code === 'number' ? e.code : 1) : 0, out: stdout + stderr }),
        );
        child.stdin?.end(input);
      });
    const results = [
      await run(`${OLD}\n`, 'add', 'zed'),
      await run('zed\n', 'passwd', 'zed'),
      await run(`${NEW}\nsecond line\n`, 'passwd', 'zed'),
    ];
    expect(results.map((r) => r.code)).toEqual([0, 1, 0]);
    expect(results[1]?.out).toContain('ERR_PASSWORD_POLICY');
    for (const r of results) {
      expect(r.out).not.toMatch(NO_STACK);
      for (const secret of [OLD, NEW, 'second line']) expect(r.out).not.toContain(secret);
    }
    const idp = await createIdp(testConfig(t.dir), { env: { PQID_KEK: KEK }, warn: () => {} });
    try {
      expect(await idp.ctx.accounts.authenticate('zed', NEW)).toBeDefined();
    } finally {
      await idp.close();
    }
  });

  it("stdin's first line is the password, without its line break", () => {
    expect(firstLine('secret one\r\nignored')).toBe('secret one');
    expect(firstLine('secret one\n')).toBe('secret one');
    expect(firstLine('no newline')).toBe('no newline');
    expect(firstLine(' spaces kept \n')).toBe(' spaces kept ');
  });
});
