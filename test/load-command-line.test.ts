/**
 * The command lines of load/'s scripts: `--help` prints the usage and exits 0; a wrong option or
 * value prints one line (what was wrong, and how to get the usage) and exits 2, as the pqid CLI's
 * usage errors do; never a stack trace. Their refusal of an old Node is in entry-points.test.ts.
 */
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { repo, why } from './helpers/npm.ts';

/** Each script, the prefix of its messages and the command that prints its usage. */
const SCRIPTS: [script: string, program: string, help: string][] = [
  ['run.mjs', 'pqid load', 'npm run load -- --help'],
  ['faults.mjs', 'pqid faults', 'npm run faults -- --help'],
  ...['client-check', 'composite-handles', 'sign-handoff', 'sqlite-write', 'saml-work', 'profile-top'].map(
    (s): [string, string, string] => [`${s}.mjs`, `load/${s}.mjs`, `node load/${s}.mjs --help`],
  ),
];

const run = (script: string, args: string[]) =>
  spawnSync(process.execPath, [`load/${script}`, ...args], { cwd: repo, encoding: 'utf8', timeout: 60_000 });

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
