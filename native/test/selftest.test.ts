// The power-on self-test (src/selftest.rs) runs when the addon loads; a failure disables it.
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { info } from '../index.js';
import { keccakImplementations } from '../internal.js';
import { expectedNative } from './helpers.ts';

const run = promisify(execFile);
const root = fileURLToPath(new URL('../../', import.meta.url));

describe('power-on self-test', () => {
  it('passed at load: every Keccak this CPU runs, then ref and (where chosen) the native back end for every parameter set', () => {
    const st = info().selfTest;
    expect(st.ok).toBe(true);
    const native = expectedNative();
    for (const impl of Object.values(info().implementations)) expect(impl).toBe(native);
    expect(st.checks).toBe(keccakImplementations().length + (native === 'ref' ? 3 : 6));
  });

  it("the Keccak known answer in src/selftest.rs is node:crypto's SHAKE of the same work", () => {
    const src = readFileSync(new URL('../src/selftest.rs', import.meta.url), 'utf8');
    const kat = /const KECCAK_KAT: &str = "([0-9a-f]{64})";/.exec(src)?.[1];
    const input = Uint8Array.from({ length: 800 }, (_, i) => (i * 7 + 1) & 0xff);
    const shake = (alg: 'shake128' | 'shake256', m: Uint8Array, n: number) =>
      createHash(alg, { outputLength: n }).update(m).digest();
    const x4 = (alg: 'shake128' | 'shake256', inlen: number, n: number) =>
      [0, 1, 2, 3].map((j) => shake(alg, input.subarray(j * inlen, (j + 1) * inlen), n));
    const work = Buffer.concat([
      shake('shake256', input.subarray(0, 300), 300),
      shake('shake128', input.subarray(0, 200), 400),
      ...x4('shake128', 34, 2 * 168),
      ...x4('shake256', 66, 2 * 136),
      ...x4('shake256', 200, 136),
    ]);
    expect(kat).toBe(shake('shake256', work, 32).toString('hex'));
  });

  it('info() names the vendored code vendor.sh pins, and the builds in this binary', () => {
    const sums = readFileSync(new URL('../vendor/UPSTREAM.sha256', import.meta.url), 'utf8');
    const crates = new Set(
      sums
        .trim()
        .split('\n')
        .map((l) => l.split('  ')[1]?.split('/')[0]),
    );
    expect(crates).toEqual(new Set(['aws-lc-sys-0.47.0', 'oqs-sys-0.11.0+liboqs-0.13.0']));
    expect(info().mldsaNative).toBe('aws-lc-sys 0.47.0');
    expect(info().sha3).toBe('liboqs 0.13.0');
    const native = { x64: 'x86_64-avx2', arm64: 'aarch64-neon' }[process.arch as string];
    expect(info().compiled).toEqual(native ? [native, 'ref'] : ['ref']);
  });

  it('a failing self-test disables the addon, and @pqid/jose reports why', async () => {
    const script = `import('@pqid/liboqs-node').then(() => console.log('loaded'), (e) => console.log(e.code, e.message))
  .then(() => import('@pqid/jose')).then((m) => console.log(JSON.stringify(m.backends().filter((b) => b.name.startsWith('native')))));`;
    const { stdout } = await run(`${root}node_modules/.bin/node`, ['--input-type=module', '-e', script], {
      cwd: root,
      env: { ...process.env, PQID_NATIVE_SELF_TEST_CORRUPT: '1', PQID_QUIET: '1', PQID_BACKEND: '' },
    });
    const [first, second] = stdout.trim().split('\n');
    expect(first).toMatch(
      /^ERR_NATIVE_UNAVAILABLE .*failed its power-on self-test.*known-answer signature differs/,
    );
    const native = JSON.parse(second as string) as { name: string; available: boolean; reason: string }[];
    expect(native.map((b) => b.available)).toEqual([false, false]);
    for (const b of native) expect(b.reason).toContain('power-on self-test');
  });
});
