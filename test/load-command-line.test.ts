/**
 * The command lines of load/'s scripts: `--help` prints the usage and exits 0; a wrong option or
 * value prints one line (what was wrong, and how to get the usage) and exits 2, as the pqid CLI's
 * usage errors do; never a stack trace. Before `npm run build`, each script that needs the build
 * says so in one line (exit 2). Their refusal of an old Node is in entry-points.test.ts.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { repo, why } from './helpers/npm.ts';

/** Each script, the prefix of its messages and the command that prints its usage. */
const SCRIPTS: [script: string, program: string, help: string][] = [
  ['run.mjs', 'pqid load', 'npm run load -- --help'],
  ['faults.mjs', 'pqid faults', 'npm run faults -- --help'],
  ...['client-check', 'composite-handles', 'sign-handoff', 'sqlite-write', 'saml-work', 'profile-top'].map(
    (s): [string, string, string] => [`${s}.mjs`, `load/${s}.mjs`, `node load/${s}.mjs --help`],
  ),
];

const run = (script: string, args: string[], cwd = repo) =>
  spawnSync(process.execPath, [`load/${script}`, ...args], { cwd, encoding: 'utf8', timeout: 60_000 });

const literal = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Exit 2, nothing on stdout, one line on stderr: `<program>: <what>. Run '<help>' for usage.` */
function expectUsageError(r: ReturnType<typeof run>, program: string, help: string, what: RegExp): void {
  expect(r.status, why(r)).toBe(2);
  expect(r.stdout).toBe('');
  const lines = r.stderr.trimEnd().split('\n');
  expect(lines, r.stderr).toHaveLength(1);
  expect(lines[0]).toMatch(
    new RegExp(`^${literal(program)}: ${what.source}\\. Run '${literal(help)}' for usage\\.$`),
  );
}

describe("load/'s scripts answer their command line in one line", () => {
  it.each(SCRIPTS)(
    '%s: --help prints the usage (exit 0), a wrong option one line (exit 2)',
    (script, program, help) => {
      const usage = run(script, ['--help']);
      expect(usage.status, why(usage)).toBe(0);
      expect(usage.stderr).toBe('');
      expect(usage.stdout).toMatch(/^usage: (node load\/|npm run )/);
      expect(run(script, ['-h']).stdout).toBe(usage.stdout);
      expectUsageError(run(script, ['--bogus']), program, help, /Unknown option '--bogus'/);
    },
  );

  it('a wrong value or argument is a usage error too, checked before any measurement starts', () => {
    const cases: [string, string[], RegExp][] = [
      ['client-check.mjs', ['--n', 'many'], /--n needs a positive number, got many/],
      ['sign-handoff.mjs', ['--ms', '0'], /--ms needs a positive number, got 0/],
      [
        'composite-handles.mjs',
        ['--algs', 'ML-DSA-65'],
        /not a composite: ML-DSA-65; choose from .*ML-DSA-65-ES256.*/,
      ],
      ['sqlite-write.mjs', ['0'], /N must be a positive whole number, got 0/],
      ['sqlite-write.mjs', ['10', '20'], /one number of inserts, not 10 20/],
      ['saml-work.mjs', ['--reps'], /Option '--reps <value>' argument missing/],
      ['profile-top.mjs', [], /no profile file given/],
      ['run.mjs', ['sizez'], /unknown scenario sizez; choose from sizes, .* or all/],
      ['run.mjs', ['sizes', '--algs', 'ML-DSA-66'], /unknown algorithm\(s\) ML-DSA-66; choose from .*/],
      ['faults.mjs', ['--rate', 'x'], /--rate needs a positive number, got x/],
    ];
    for (const [script, args, what] of cases) {
      const [, program, help] = SCRIPTS.find(([s]) => s === script) ?? [];
      expectUsageError(run(script, args), program ?? '', help ?? '', what);
    }
  });

  it('a bare `npm run load` prints the usage as an error (exit 2), as a bare `pqid` does', () => {
    const r = run('run.mjs', []);
    expect(r.status, why(r)).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^usage: npm run load -- /);
  });
});

/**
 * A clone after `npm install`, before `npm run build`: load/, the tools and package.json files
 * copied, and node_modules as links to this one's packages except the workspace packages, which
 * link into the copy (without dist/). The repository's own builds are left alone.
 */
function unbuiltTree(): string {
  const root = mkdtempSync(join(tmpdir(), 'pqid-load-unbuilt-'));
  const skip = new Set(['reports', 'bin', 'node_modules']);
  cpSync(join(repo, 'load'), join(root, 'load'), {
    recursive: true,
    filter: (src) => !skip.has(src.slice(join(repo, 'load').length + 1).split('/')[0] ?? ''),
  });
  const files = ['package.json', 'scripts/node-check.mjs', 'idp/src/node-version.ts'];
  for (const dir of ['idp', 'packages/jose', 'packages/xmldsig']) files.push(`${dir}/package.json`);
  for (const file of files) cpSync(join(repo, file), join(root, file));
  mkdirSync(join(root, 'node_modules/@pqid'), { recursive: true });
  for (const name of readdirSync(join(repo, 'node_modules')))
    if (name !== '@pqid') symlinkSync(join(repo, 'node_modules', name), join(root, 'node_modules', name));
  const workspaces: [name: string, dir: string][] = [
    ['idp', 'idp'],
    ['jose', 'packages/jose'],
    ['xmldsig', 'packages/xmldsig'],
    ['load', 'load'],
  ];
  for (const [name, dir] of workspaces)
    symlinkSync(join('../..', dir), join(root, 'node_modules/@pqid', name));
  return root;
}

describe('before `npm run build`', () => {
  const root = unbuiltTree();
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it.each(SCRIPTS.filter(([script]) => script !== 'profile-top.mjs'))(
    '%s says in one line (exit 2) that pqid must be built first, and how',
    (script, program) => {
      const how = program.startsWith('pqid ')
        ? `npm run build, or npm run ${program.slice(5)}, which builds first`
        : 'npm run build';
      for (const args of [['--help'], []]) {
        const r = run(script, args, root);
        expect(r.status, why(r)).toBe(2);
        expect(r.stdout).toBe('');
        expect(r.stderr.trimEnd().split('\n')).toEqual([
          `${program}: needs pqid built first (packages/jose/dist/index.js is missing). To fix: ${how}.`,
        ]);
      }
    },
  );

  it('profile-top.mjs, which needs no build, still prints its usage', () => {
    const r = run('profile-top.mjs', ['--help'], root);
    expect(r.status, why(r)).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.stdout).toMatch(/^usage: node load\/profile-top\.mjs /);
  });
});

describe("load/'s entry", () => {
  it("drops Node's expected WebCrypto ML-KEM/ML-DSA warnings, as the IdP's executables do, and no other", () => {
    // A body that makes Node warn twice: once expectedly (ML-KEM through WebCrypto), once not.
    const body = `const { enter } = await import('./load/lib/entry.mjs');
await enter({ program: 'probe' }, async () => {
  await crypto.subtle.generateKey({ name: 'ML-KEM-768' }, false, ['encapsulateBits', 'decapsulateBits']);
  process.emitWarning('something else', 'ExperimentalWarning');
});`;
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', body], {
      cwd: repo,
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(r.status, why(r)).toBe(0);
    expect(r.stderr).not.toMatch(/ML-KEM-768 Web Crypto API algorithm/);
    expect(r.stderr).toMatch(/ExperimentalWarning: something else/);
  });
});
