/**
 * A normal start of `idp/dist/main.js`, as `npm start` runs it: the banner is one block on
 * stdout before any log line, each key in it marked `new` or `reused` (a second start with a
 * new default algorithm reuses every key but one), and nothing on stderr is a Node
 * ExperimentalWarning — not at start, and not when the login page (which decides whether to
 * offer ML-DSA passkeys) and the landing page are shown.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from './helpers/net.ts';

const repo = fileURLToPath(new URL('..', import.meta.url));
const MAIN = join(repo, 'idp', 'dist', 'main.js');
const dataDir = mkdtempSync(join(tmpdir(), 'pqid-start-up-'));
const children: ChildProcess[] = [];

afterAll(() => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
});

interface Run {
  stdout: string;
  stderr: string;
}

/** Starts main.js, waits for the banner, runs `visit`, stops it with SIGTERM; its whole output. */
async function start(env: Record<string, string>, visit: (base: string) => Promise<void>): Promise<Run> {
  const port = await freePort();
  const child = spawn(process.execPath, [MAIN], {
    cwd: repo,
    env: {
      PATH: process.env.PATH ?? '',
      PQID_PORT: String(port),
      PQID_HOST: '127.0.0.1',
      PQID_ISSUER: `http://127.0.0.1:${port}`,
      PQID_DATA_DIR: dataDir,
      PQID_DEMO: 'true',
      // stopped by SIGTERM: no balancer to leave, so no shutdown delay
      PQID_SHUTDOWN_DELAY_MS: '0',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  const out: Run = { stdout: '', stderr: '' };
  child.stdout?.on('data', (d) => {
    out.stdout += d;
  });
  child.stderr?.on('data', (d) => {
    out.stderr += d;
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const t0 = Date.now();
  while (!out.stdout.includes('demo credentials are for local use only')) {
    if (child.exitCode !== null || Date.now() - t0 > 60_000)
      throw new Error(`main.js did not print its banner: ${out.stdout}${out.stderr}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  await visit(`http://127.0.0.1:${port}`);
  child.kill('SIGTERM');
  await exited;
  return out;
}

/** The banner's key lines: set and algorithm → `new` or `reused`. */
function keyMarks(stdout: string): Map<string, string> {
  const marks = new Map<string, string>();
  for (const m of stdout.matchAll(/^(?: {2}keys: {8}| {15})(\w+ [\w-]+) +\S{12}… {2}(new|reused)$/gm))
    marks.set(m[1] as string, m[2] as string);
  return marks;
}

/** The banner must be the first thing on stdout and contain no log line. */
function expectBannerFirst(stdout: string): void {
  const lines = stdout.split('\n');
  const end = lines.findIndex((l) => l.includes('demo credentials are for local use only'));
  expect(
    lines.slice(0, end + 1).filter((l) => l.startsWith('{')),
    stdout,
  ).toEqual([]);
  expect(lines[1]).toMatch(/^pqid OpenID Provider listening on http:\/\/127\.0\.0\.1:\d+$/);
  // The log lines follow: the key audit trail and fastify's listening line among them.
  const logs = lines.slice(end + 1).filter((l) => l.startsWith('{'));
  expect(logs.some((l) => l.includes('"op":"key.create"'))).toBe(true);
  expect(logs.some((l) => l.includes('Server listening at'))).toBe(true);
}

describe('npm start', () => {
  it('prints the banner as one block, every key new, and no ExperimentalWarning', async () => {
    const run = await start({}, async (base) => {
      const authorize = new URL('/authorize', base);
      authorize.search = new URLSearchParams({
        client_id: 'demo-client',
        redirect_uri: 'http://localhost:3001/callback',
        response_type: 'code',
        scope: 'openid',
        code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
        code_challenge_method: 'S256',
      }).toString();
      const sent = await fetch(authorize, { redirect: 'manual' });
      const cookie = sent.headers
        .getSetCookie()
        .map((c) => c.split(';')[0])
        .join('; ');
      const login = await fetch(new URL(sent.headers.get('location') as string, base), {
        headers: { cookie },
      });
      expect(await login.text()).toContain('name="password"');
      expect((await fetch(base, { headers: { accept: 'text/html' } })).status).toBe(200);
    });
    expectBannerFirst(run.stdout);
    const marks = keyMarks(run.stdout);
    expect(marks.size).toBeGreaterThanOrEqual(2);
    expect(
      [...marks.values()].every((m) => m === 'new'),
      run.stdout,
    ).toBe(true);
    expect(run.stderr).not.toContain('ExperimentalWarning');
  });

  it('on a restart with a new default algorithm, marks only that key new', async () => {
    const run = await start({ PQID_DEFAULT_SIGNING_ALG: 'ML-DSA-44' }, async () => {});
    expectBannerFirst(run.stdout);
    const marks = keyMarks(run.stdout);
    expect(marks.get('oidc ML-DSA-44'), run.stdout).toBe('new');
    expect(marks.get('oidc ML-DSA-65')).toBe('reused');
    expect([...marks.values()].filter((m) => m === 'new')).toHaveLength(1);
    expect(run.stderr).not.toContain('ExperimentalWarning');
  });

  it('on a port already in use, says so in one line with what to do, and no stack trace', async () => {
    const taken = createServer();
    const port = await freePort();
    await new Promise<void>((r) => taken.listen(port, '127.0.0.1', r));
    try {
      const r = spawnSync(process.execPath, [MAIN], {
        cwd: repo,
        env: {
          PATH: process.env.PATH ?? '',
          PQID_PORT: String(port),
          PQID_DATA_DIR: dataDir,
          PQID_LOG_LEVEL: 'silent',
        },
        encoding: 'utf8',
        timeout: 60_000,
      });
      expect(r.status, r.stderr).toBe(1);
      expect(r.stderr.trim().split('\n')).toEqual([
        `pqid: cannot listen on 127.0.0.1:${port}: the port is in use (another pqid, or another server): stop what listens there, or set PQID_PORT (or "port" in the configuration file) to another port`,
      ]);
    } finally {
      await new Promise((r) => taken.close(r));
    }
  });
});
