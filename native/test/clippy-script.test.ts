/**
 * The Rust lint's script (scripts/clippy.mjs, run by `npm run lint`) on a machine without clippy:
 * one line saying native/ is not linted; it passes there, and fails under CI, which must check.
 * (With clippy present, `npm run lint` itself is the check.)
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const script = join(import.meta.dirname, '..', 'scripts', 'clippy.mjs');
// A PATH with no cargo on it.
const empty = mkdtempSync(join(tmpdir(), 'pqid-no-cargo-'));
afterAll(() => rmSync(empty, { recursive: true, force: true }));

const run = (ci: boolean) => {
  const env: Record<string, string> = { PATH: empty, HOME: empty };
  if (ci) env.CI = '1';
  return spawnSync(process.execPath, [script], { env, encoding: 'utf8' });
};

describe('scripts/clippy.mjs without clippy', () => {
  it('says so in one line and passes outside CI', () => {
    const r = run(false);
    expect(r.stdout).toBe('');
    expect(r.stderr.trimEnd().split('\n')).toEqual([
      'clippy: cargo clippy is not available, so native/src is not linted (install Rust with rustup, then: rustup component add clippy)',
    ]);
    expect(r.status).toBe(0);
  });

  it('fails under CI, with the same line saying CI requires it', () => {
    const r = run(true);
    expect(r.stderr.trimEnd().split('\n')).toEqual([expect.stringMatching(/not linted .*; CI requires it$/)]);
    expect(r.status).toBe(1);
  });
});
