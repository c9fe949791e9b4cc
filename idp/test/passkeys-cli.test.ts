/**
 * `pqid passkeys …`, the operator's recovery path for a user who has only a password, against
 * the storage a running server uses: list a user's passkeys, remove one (its sessions end and
 * its grants are revoked on the server at once), issue an enrolment code with which the user adds
 * a new first passkey on the account page.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createIdp, type Idp } from '../src/app.ts';
import { passkeys } from '../src/cli/passkeys.ts';
import { runCli } from '../src/cli/run.ts';
import { captureOutput, KEK, tempDir, testConfig } from './helpers.ts';
import {
  get,
  Jar,
  ORIGIN,
  passkey,
  passkeyTokens,
  redeemEnrolment,
  refreshes,
  registerPasskey,
  signInToAccount,
  startSignIn,
} from './passkey-helpers.ts';
import { SoftAuthenticator } from './webauthn-authenticator.ts';

async function pqid(...argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const { result: code, stdout, stderr } = await captureOutput(() => runCli(argv, [passkeys]));
  return { code, stdout, stderr };
}

describe('pqid passkeys (list, remove, enrol)', () => {
  const t = tempDir();
  const saved = { ...process.env };
  let idp: Idp;
  let app: FastifyInstance;
  beforeAll(async () => {
    process.env.PQID_DATA_DIR = t.dir;
    process.env.PQID_KEK = KEK;
    delete process.env.PQID_CONFIG;
    delete process.env.PQID_DATABASE_URL;
    idp = await createIdp(testConfig(t.dir), { env: { PQID_KEK: KEK }, warn: () => {} });
    app = idp.app;
    await idp.ctx.accounts.create({ username: 'alice', password: 'pw alice' });
  });
  afterAll(async () => {
    await idp?.close();
    process.env = saved;
    t.cleanup();
  });

  /** The code `pqid passkeys enrol` prints on stdout. */
  async function enrol(username: string, ...flags: string[]): Promise<string> {
    const r = await pqid('passkeys', 'enrol', username, ...flags);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(`sign in at ${ORIGIN}/account and enter it`);
    const code = r.stdout.trim();
    expect(code).toMatch(/^[0-9A-HJKMNP-TV-Z]{4}(-[0-9A-HJKMNP-TV-Z]{4}){3}$/);
    return code;
  }

  /** The user's password, the code, the ceremony: a first passkey. */
  async function addFirst(code: string): Promise<SoftAuthenticator> {
    const jar = new Jar();
    await signInToAccount(app, jar, 'alice', 'pw alice');
    const authenticator = new SoftAuthenticator({ origin: ORIGIN });
    const r = await registerPasskey(app, jar, authenticator, 'ML-DSA-65', {}, { enrolment: code });
    expect(r.headers.location).toBe('/account?done=added');
    return authenticator;
  }

  /** A passwordless sign-in with a refresh token: the session's jar and the refresh token. */
  async function signInWith(authenticator: SoftAuthenticator) {
    const { jar, tokens } = await passkeyTokens(app, authenticator);
    return { jar, refreshToken: tokens.refresh_token };
  }

  it('enrol, list, remove (the server ends what the passkey signed in), enrol again', async () => {
    expect((await pqid('passkeys', 'list', 'alice')).stdout).toContain('alice has no passkeys');
    const code = await enrol('alice', '--ttl', '3600');
    const pending = JSON.parse((await pqid('passkeys', 'list', 'alice', '--json')).stdout);
    expect(pending.passkeys).toEqual([]);
    expect(Date.parse(pending.enrolment.expiresAt)).toBeGreaterThan(Date.now() + 3500_000);

    const lost = await addFirst(code);
    const listed = JSON.parse((await pqid('passkeys', 'list', 'alice', '--json')).stdout);
    expect(listed.enrolment).toBeNull();
    expect(listed.passkeys).toHaveLength(1);
    expect(listed.passkeys[0]).toMatchObject({ id: lost.credential().b64, algorithm: 'ML-DSA-65' });
    expect((await pqid('passkeys', 'list', 'alice')).stdout).toContain(lost.credential().b64);
    // An account with a passkey gets no code: a lost one is removed first.
    const refused = await pqid('passkeys', 'enrol', 'alice');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('ERR_HAS_PASSKEY');

    // Someone holds the passkey, and sessions and refresh tokens made with it (which work).
    const earlier = await signInWith(lost);
    expect(await refreshes(app, earlier.refreshToken)).toBe(true);
    const fresh = await signInWith(lost);

    const removed = await pqid('passkeys', 'remove', 'alice', '--', lost.credential().b64);
    expect(removed.code, removed.stderr).toBe(0);
    expect(removed.stdout).toMatch(
      /removed 1 passkey\(s\) of alice; ended [1-9]\d* session\(s\), revoked [1-9]\d* grant\(s\)/,
    );
    // The running server no longer honours them: no session, no refresh, no passkey.
    expect((await get(app, fresh.jar, '/account')).statusCode).toBe(303);
    expect(await refreshes(app, fresh.refreshToken)).toBe(false);
    const j = new Jar();
    expect((await passkey(app, j, await startSignIn(app, j, '/account'), lost)).statusCode).toBe(401);

    // The user, with only the password, gets a new code and a new first passkey.
    const again = await enrol('alice');
    const mine = await addFirst(again);
    expect(JSON.parse((await pqid('passkeys', 'list', 'alice', '--json')).stdout).passkeys[0].id).toBe(
      mine.credential().b64,
    );
  });

  it('remove --all, enrol --cancel, and the errors', async () => {
    await idp.ctx.accounts.create({ username: 'bob', password: 'pw bob' });
    const code = await enrol('bob');
    const cancelled = await pqid('passkeys', 'enrol', 'bob', '--cancel');
    expect(cancelled.stdout).toContain('withdrew 1 enrolment code(s) of bob');
    const jar = new Jar();
    await signInToAccount(app, jar, 'bob', 'pw bob');
    expect((await redeemEnrolment(app, jar, code)).statusCode).toBe(400);
    expect((await pqid('passkeys', 'remove', 'bob', '--all')).stdout).toContain(
      'removed 0 passkey(s) of bob',
    );

    const unknown = await pqid('passkeys', 'list', 'nobody');
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('ERR_NO_SUCH_USER');
    const missing = await pqid('passkeys', 'remove', 'bob', 'AAAA');
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('ERR_NO_SUCH_PASSKEY');
    expect((await pqid('passkeys', 'remove', 'bob')).code).toBe(2);
    expect((await pqid('passkeys', 'remove', 'bob', 'AAAA', '--all')).code).toBe(2);
    expect((await pqid('passkeys', 'enrol', 'bob', '--ttl', '10')).code).toBe(2);
    expect((await pqid('passkeys', 'enrol', 'bob', '--ttl', '3600', '--cancel')).code).toBe(2);
    expect((await pqid('passkeys', 'frobnicate')).code).toBe(2);
  });
});
