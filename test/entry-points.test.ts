/**
 * The entry points and the Node versions they run on. Every package declares the same
 * `engines.node`; below it, the IdP's `main`, the `pqid` CLI (also through its bin), the package
 * imported as a library, the load and fault runners, load/'s measurement scripts, `npm run bench`,
 * the test runner and the examples say in one line what is needed; on the lowest version it
 * admits, the IdP starts from the repository and issues a token that verifies, the other examples
 * start, and the example RP
 * (ML-DSA through WebCrypto, which Node 22 lacks) says it needs Node 24; `npx pqid` works
 * inside the repository; and the CLI's token commands never load node:sqlite.
 *
 * Needs the npm registry for the other Node versions (the `node` npm package); where it is
 * unreachable the suite is skipped with the reason, except under CI, where it runs and fails.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unsupportedNode } from '../idp/src/node-version.ts';
import { createRemoteJWKSet, verifyJwt } from '../packages/jose/src/index.ts';
import { freePort } from './helpers/net.ts';
import { ENGINES, ensureNode, lowestNode, NPM, npm, repo, why } from './helpers/npm.ts';

/** A version below the range: Node 20, end-of-life in April 2026 and what many systems still ship. */
const BELOW = '20.20.2';
const LOWEST = lowestNode();

const problem = (() => {
  if (!NPM) return 'npm (npm-cli.js) not found';
  const ping = npm(process.execPath, ['view', 'node@24', 'version'], repo, process.env.PATH ?? '', 30_000);
  return ping.status === 0
    ? undefined
    : `the npm registry is unreachable: ${why(ping).trim().split('\n').at(-1)}`;
})();
if (problem && !process.env.CI) console.warn(`entry-points.test.ts skipped: ${problem}`);

const pkg = (dir: string) => JSON.parse(readFileSync(join(repo, dir, 'package.json'), 'utf8'));

describe('one Node story', () => {
  it('every package, the examples and the prebuilt addon included, declares the same engines.node', () => {
    const dirs: string[] = pkg('.').workspaces;
    expect(dirs).toEqual(expect.arrayContaining(['native', 'packages/jose', 'packages/xmldsig', 'idp']));
    for (const dir of dirs) expect(pkg(dir).engines, dir).toEqual({ node: ENGINES });
    // The per-platform addon packages are published too, beside @pqid/liboqs-node.
    const platforms = readdirSync(join(repo, 'native', 'npm')).map((d) => `native/npm/${d}`);
    expect(platforms.length).toBeGreaterThan(0);
    for (const dir of platforms) expect(pkg(dir).engines, dir).toEqual({ node: ENGINES });
    expect(lowestNode()).toMatch(/^\d+\.\d+\.\d+$/);
  });

  it('the pinned Node is inside the range', () => {
    const pinned: string = pkg('.').devDependencies.node;
    expect(pinned).toBe(process.versions.node);
    for (const v of [pinned, LOWEST, '22.23.3', '26.0.0'])
      expect(unsupportedNode('pqid', v), v).toBeUndefined();
    // 23 is outside the range; 22.19 and 24.6 bind node:sqlite parameters wrongly (see README)
    for (const v of [BELOW, '22.19.0', '23.11.0', '24.6.0'])
      expect(unsupportedNode('pqid', v), v).toMatch(
        new RegExp(
          `^pqid: needs Node\\.js 22\\.20 or a later 22\\.x, or 24\\.7 or newer; this is v${v.replaceAll('.', '\\.')}\\. To fix: `,
        ),
      );
  });
});

describe.skipIf(problem && !process.env.CI)('the entry points on other Node versions', () => {
  let below: string;
  let lowest: string;
  const temps: string[] = [];
  const children: ChildProcess[] = [];

  beforeAll(() => {
    if (problem) throw new Error(problem); // under CI only: outside it, the suite is skipped
    below = ensureNode(BELOW);
    lowest = ensureNode(LOWEST);
  }, 600_000);
  afterAll(() => {
    for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
    for (const d of temps) rmSync(d, { recursive: true, force: true });
  });

  /** One line on stderr naming the versions needed and what to do, exit 1, nothing on stdout. */
  function expectRefusal(r: ReturnType<typeof spawnSync>): void {
    expect(r.status, why(r)).toBe(1);
    expect(r.stdout).toBe('');
    const lines = String(r.stderr).trimEnd().split('\n');
    expect(lines, String(r.stderr)).toHaveLength(1);
    expect(lines[0]).toMatch(
      /needs Node\.js \d+\.\d+.*; this is v20\.20\.2\. To fix: .*node_modules\/\.bin\/node/,
    );
    expect(String(r.stderr)).not.toMatch(/^\s+at |ERR_UNKNOWN_BUILTIN_MODULE/m);
  }

  it(`below the range (Node ${BELOW}) the IdP, the CLI, the load runners and scripts, the bench and the test runner each say so in one line`, () => {
    const env = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/' };
    const run = (args: string[]) =>
      spawnSync(below, args, { cwd: repo, env, encoding: 'utf8', timeout: 60_000 });
    expectRefusal(run(['idp/dist/main.js']));
    expectRefusal(run(['idp/dist/cli.js', 'keygen', '--alg', 'ML-DSA-65']));
    expectRefusal(run(['idp/bin/pqid.js', 'keygen', '--alg', 'ML-DSA-65']));
    // @pqid/idp imported as a library: its entry checks before node:sqlite or undici can fail.
    expectRefusal(run(['--input-type=module', '-e', "await import('@pqid/idp')"]));
    // npm run load and npm run faults: their IdP needs node:sqlite too.
    expectRefusal(run(['load/run.mjs', 'sizes', '--smoke']));
    expectRefusal(run(['load/faults.mjs']));
    // The measurement scripts, `--help` included: the check comes before their command line.
    for (const script of [
      'client-check',
      'composite-handles',
      'sign-handoff',
      'sqlite-write',
      'saml-work',
      'profile-top',
    ])
      expectRefusal(run([`load/${script}.mjs`, '--help']));
    // npm run bench: a launcher checks before Node meets the benchmark's TypeScript.
    expect(pkg('.').scripts.bench).toBe('node scripts/bench.mjs');
    expectRefusal(run(['scripts/bench.mjs', '--quick']));
    const tests = run(['node_modules/vitest/vitest.mjs', 'run', '--project', 'jose']);
    expect(tests.status, why(tests)).toBe(1);
    expect(tests.stderr.trimEnd().split('\n')).toEqual([
      expect.stringMatching(/^pqid's tests run on Node 24, this is v20/),
    ]);
  });

  it(`below the range (Node ${BELOW}) each example says in one line which Node to use and how to start it`, async () => {
    // The port is free and nothing will listen: an example must stop before it waits for an IdP.
    const idp = `http://127.0.0.1:${await freePort()}`;
    const env = {
      PATH: process.env.PATH ?? '',
      RP_ISSUER: idp,
      RS_ISSUER: idp,
      RS_URL: idp,
      IDP_URL: idp,
      CALL_CLIENT_SECRET: 'secret',
      RP_WAIT_SECONDS: '0',
      RS_WAIT_SECONDS: '0',
      SP_WAIT_SECONDS: '0',
    };
    const examples: [script: string, label: string, how: string][] = [
      ['examples/oidc-rp/server.js', 'example RP', 'npm run example:rp'],
      ['examples/resource-server/server.js', 'example resource server', 'npm run example:resource-server'],
      ['examples/resource-server/call.js', 'call', 'npm run call -w examples/resource-server'],
      ['examples/saml-sp/server.js', 'example SAML SP', 'npm run example:saml-sp'],
    ];
    for (const [script, label, how] of examples) {
      const r = spawnSync(below, [script], { cwd: repo, env, encoding: 'utf8', timeout: 30_000 });
      expect(r.status, why(r)).toBe(1);
      expect(r.stdout, script).toBe('');
      expect(r.stderr.trimEnd().split('\n'), script).toEqual([
        `${label}: needs Node.js 22.20 or a later 22.x, or 24.7 or newer; this is v${BELOW}. To fix: ${how}, which runs on the Node 24 that npm install put in node_modules/.bin`,
      ]);
    }
  });

  it(`on the lowest Node (${LOWEST}) the resource server, call.js and the SAML SP pass the check and look for their IdP`, async () => {
    const idp = `http://127.0.0.1:${await freePort()}`; // nothing listens
    const env = { PATH: process.env.PATH ?? '', RS_ISSUER: idp, RS_URL: idp, IDP_URL: idp };
    const examples = [
      [
        'examples/resource-server/server.js',
        /^example resource server: the IdP at .* did not answer within 0 s/,
      ],
      ['examples/resource-server/call.js', /^call: cannot reach the IdP at .* \(connection refused\)/],
      ['examples/saml-sp/server.js', /^example SAML SP: the IdP at .* did not answer within 0 s/],
    ] as const;
    for (const [script, line] of examples) {
      const r = spawnSync(lowest, [script], {
        cwd: repo,
        env: { ...env, CALL_CLIENT_SECRET: 'secret', RS_WAIT_SECONDS: '0', SP_WAIT_SECONDS: '0' },
        encoding: 'utf8',
        timeout: 30_000,
      });
      expect(r.status, why(r)).toBe(1);
      expect(r.stderr.trimEnd().split('\n'), script).toEqual([expect.stringMatching(line)]);
    }
  });

  it('unbuilt, the bench launcher and a load script still answer in one line: which Node, or the usage', () => {
    // The tools, the IdP's check as source only (no idp/dist) and the root package.json.
    const root = mkdtempSync(join(tmpdir(), 'pqid-unbuilt-'));
    temps.push(root);
    for (const file of [
      'package.json',
      'scripts/bench.mjs',
      'scripts/node-check.mjs',
      'load/lib/args.mjs',
      'load/profile-top.mjs',
      'idp/package.json',
      'idp/src/node-version.ts',
    ])
      cpSync(join(repo, file), join(root, file));
    const run = (node: string, args: string[]) =>
      spawnSync(node, args, { cwd: root, encoding: 'utf8', timeout: 60_000 });
    for (const [args, program] of [
      [['scripts/bench.mjs'], 'npm run bench'],
      [['load/profile-top.mjs', '--help'], 'load/profile-top.mjs'],
    ] as const) {
      const r = run(below, [...args]);
      expect(r.status, why(r)).toBe(1);
      expect(r.stdout).toBe('');
      expect(r.stderr.trimEnd().split('\n')).toEqual([
        `${program}: needs Node.js ${ENGINES}; this is v${BELOW}. To fix: run it through npm or with node_modules/.bin/node, the Node 24 that npm install put there.`,
      ]);
    }
    // On a Node that strips types, the check comes from the IdP's source: a supported Node passes.
    const help = run(process.execPath, ['load/profile-top.mjs', '--help']);
    expect(help.status, why(help)).toBe(0);
    expect(help.stdout).toMatch(/^usage: node load\/profile-top\.mjs /);
  });

  it(`on the lowest Node (${LOWEST}) the example RP, which verifies ML-DSA through WebCrypto, says in one line that it needs Node 24`, async () => {
    // The port is free and nothing will listen: the RP must stop before it waits for an IdP.
    const idp = `http://127.0.0.1:${await freePort()}`;
    const r = spawnSync(lowest, ['examples/oidc-rp/server.js'], {
      cwd: repo,
      env: { PATH: process.env.PATH ?? '', RP_ISSUER: idp, RP_WAIT_SECONDS: '0' },
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(r.status, why(r)).toBe(1);
    expect(r.stderr.trimEnd().split('\n')).toEqual([
      expect.stringMatching(
        /^example RP: openid-client verifies ML-DSA-65 ID tokens through WebCrypto, which Node v22\.\d+\.\d+ does not have \(Node 24\.7 and newer do\)\. To fix: npm run example:rp/,
      ),
    ]);
  });

  it(`on the lowest Node the range admits (${LOWEST}), the IdP starts and issues a token that verifies`, async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'pqid-lowest-node-'));
    temps.push(dataDir);
    const port = await freePort();
    const issuer = `http://127.0.0.1:${port}`;
    const env = {
      PATH: process.env.PATH ?? '',
      PQID_PORT: String(port),
      PQID_HOST: '127.0.0.1',
      PQID_ISSUER: issuer,
      PQID_DATA_DIR: dataDir,
      PQID_DEMO: 'true',
      PQID_LOG_LEVEL: 'warn',
    };
    // The CLI first (storage and keys on node:sqlite), then the server on the same database.
    const keygen = spawnSync(lowest, ['idp/dist/cli.js', 'keygen', '--alg', 'ML-DSA-44'], {
      cwd: repo,
      env,
      encoding: 'utf8',
    });
    expect(keygen.status, why(keygen)).toBe(0);
    expect(JSON.parse(keygen.stdout)).toMatchObject({ kty: 'AKP', alg: 'ML-DSA-44' });
    const child = spawn(lowest, ['idp/dist/main.js'], { cwd: repo, env, stdio: ['ignore', 'pipe', 'pipe'] });
    children.push(child);
    let out = '';
    child.stdout?.on('data', (d) => {
      out += d;
    });
    child.stderr?.on('data', (d) => {
      out += d;
    });
    const t0 = Date.now();
    let ready = false;
    while (!ready && Date.now() - t0 < 60_000) {
      if (child.exitCode !== null) throw new Error(`main.js exited with ${child.exitCode}: ${out}`);
      ready = await fetch(`${issuer}/healthz`).then(
        (r) => r.status === 200,
        () => false,
      );
      if (!ready) await new Promise((r) => setTimeout(r, 200));
    }
    expect(ready, out).toBe(true);
    // A machine client registered by the CLI into the running server's database, with JWT access tokens.
    const add = spawnSync(
      lowest,
      [
        'idp/dist/cli.js',
        'clients',
        'add',
        '--id',
        'm2m',
        '--grant',
        'client_credentials',
        '--scope',
        'api',
        '--access-token-format',
        'jwt',
      ],
      { cwd: repo, env, encoding: 'utf8' },
    );
    expect(add.status, why(add)).toBe(0);
    const { client_secret } = JSON.parse(add.stdout) as { client_secret: string };
    const token = await fetch(`${issuer}/token`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: `Basic ${Buffer.from(`m2m:${client_secret}`).toString('base64')}`,
      },
      body: 'grant_type=client_credentials&scope=api',
    });
    expect(token.status, await token.clone().text()).toBe(200);
    const { access_token } = (await token.json()) as { access_token: string };
    const jwks = createRemoteJWKSet(new URL(`${issuer}/jwks`));
    const { claims, protectedHeader } = await verifyJwt(access_token, jwks, {
      algorithms: ['ML-DSA-65'],
      issuer,
      typ: 'at+jwt',
    });
    expect(protectedHeader.alg).toBe('ML-DSA-65');
    expect(claims).toMatchObject({ client_id: 'm2m', scope: 'api' });
  }, 120_000);
});

describe('the pqid command in the repository', () => {
  it('`npx pqid` runs the IdP CLI (one bin named pqid in the workspace)', () => {
    const bins = pkg('.')
      .workspaces.map((dir: string) => pkg(dir).bin ?? {})
      .flatMap((b: Record<string, string>) => Object.keys(b));
    expect(bins.filter((b: string) => b === 'pqid')).toHaveLength(1);
    const r = spawnSync(process.execPath, [NPM as string, 'exec', '--', 'pqid', 'algorithms', '--json'], {
      cwd: repo,
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(r.status, why(r)).toBe(0);
    expect((JSON.parse(r.stdout) as { alg: string }[]).map((a) => a.alg)).toContain('ML-DSA-65');
  });

  it('a reader that stops early (`pqid algorithms | head`) ends it quietly, not with a stack trace', async () => {
    const child = spawn(process.execPath, ['idp/dist/cli.js', 'algorithms'], {
      cwd: repo,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout?.destroy(); // closed before the CLI has written anything: every write fails with EPIPE
    let stderr = '';
    child.stderr?.setEncoding('utf8').on('data', (d: string) => {
      stderr += d;
    });
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(stderr).toBe('');
    expect(code).toBe(0);
  });

  it('the token commands load no node:sqlite; the storage commands do', () => {
    const hook = `import { registerHooks } from 'node:module';
registerHooks({ resolve(s, c, next) { if (s === 'node:sqlite') throw new Error('node:sqlite loaded'); return next(s, c); } });`;
    const data = mkdtempSync(join(tmpdir(), 'pqid-no-sqlite-'));
    try {
      const run = (args: string[]) =>
        spawnSync(
          process.execPath,
          ['--import', `data:text/javascript,${encodeURIComponent(hook)}`, 'idp/dist/cli.js', ...args],
          { cwd: repo, env: { ...process.env, PQID_DATA_DIR: data }, encoding: 'utf8' },
        );
      const keygen = run(['keygen', '--alg', 'ML-DSA-65']);
      expect(keygen.status, why(keygen)).toBe(0);
      expect(JSON.parse(keygen.stdout)).toMatchObject({ alg: 'ML-DSA-65' });
      for (const cmd of [['algorithms'], ['backends']]) expect(run(cmd).status, cmd[0]).toBe(0);
      // the hook works: a command on the IdP's storage does reach node:sqlite
      const list = run(['clients', 'list']);
      expect(list.status).toBe(1);
      expect(list.stderr).toContain('node:sqlite loaded');
    } finally {
      rmSync(data, { recursive: true, force: true });
    }
  });
});
