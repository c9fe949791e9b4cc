// The power-on self-test (src/selftest.rs) runs when the addon loads; a failure disables it.
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { info } from '../index.js';

const run = promisify(execFile);
const root = fileURLToPath(new URL('../../', import.meta.url));

describe('power-on self-test', () => {
  it('passed at load, on ref and (where chosen) AVX2 for every parameter set', () => {
    const st = info().selfTest;
    expect(st.ok).toBe(true);
    const avx2 = info().implementations['ML-DSA-65'] === 'avx2';
    expect(st.checks).toBe(avx2 ? 6 : 3);
    expect(info().liboqsPatches).toEqual([
      '0001-avx2-verify-check-z-norm',
      '0002-avx2-use-hint-r0-zero',
      '0003-mldsa-keypair-from-seed',
      '0004-mldsa-sign-external-mu',
    ]);
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
