import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { backends, configure, mldsa, preferredBackend, settings } from '@pqid/jose';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const root = fileURLToPath(new URL('../../../', import.meta.url));
const node = `${root}node_modules/.bin/node`;
const cpuHasAvx2 = (() => {
  try {
    return /\bavx2\b/.test(readFileSync('/proc/cpuinfo', 'utf8'));
  } catch {
    return false;
  }
})();

describe('backend selection', () => {
  it('reports every backend, with a reason when one is unavailable', () => {
    const all = backends();
    expect(all.map((b) => b.name)).toEqual(['native', 'node', 'noble', 'native-ref']);
    for (const b of all) if (!b.available) expect(b.reason).toMatch(/\S/);
    expect(all.find((b) => b.name === 'noble')?.available).toBe(true);
  });

  it('prefers the native backend, on AVX2 where the CPU has it (required in CI)', (ctx) => {
    const native = backends()[0];
    if (!process.env.PQID_REQUIRE_NATIVE && !native?.available) ctx.skip();
    expect(native?.available, native?.reason).toBe(true);
    expect(preferredBackend()).toBe('native');
    if (cpuHasAvx2) expect(native?.implementation).toMatch(/avx2/);
    // where the binary came from (this repository: the install script's source build), and
    // the power-on self-test that let it load
    expect(native?.implementation).toMatch(/\((dist|native-tuned), (source build|prebuilt)\)$/);
    expect(native?.selfTest).toMatchObject({ ok: true, checks: expect.any(Number) });
  });

  it('reports a self-disabled native addon as unavailable, with the reason and the fix', async (ctx) => {
    if (!process.env.PQID_REQUIRE_NATIVE && !backends()[0]?.available) ctx.skip();
    const script = `import('@pqid/jose').then(async (m) => {
  await m.mldsa.sign('ML-DSA-44', new Uint8Array(32), new Uint8Array([1]));
  console.log(JSON.stringify(m.backends()[0]));
});`;
    const { stdout, stderr } = await run(node, ['--input-type=module', '-e', script], {
      cwd: root,
      env: { ...process.env, PQID_NATIVE_SELF_TEST_CORRUPT: '1' },
    });
    const native = JSON.parse(stdout);
    expect(native.available).toBe(false);
    expect(native.reason).toContain('failed its power-on self-test');
    expect(native.fix).toContain('PQID_NATIVE_BUILD_FROM_SOURCE=1 npm rebuild @pqid/liboqs-node');
    const warning = stderr.split('\n').find((l) => l.includes('native ML-DSA backend unavailable'));
    expect(warning).toContain('To fix: ');
  });

  it('honours configure({ backend }) and refuses a backend that cannot do what is asked', async () => {
    const prev = configure({ backend: 'noble' });
    try {
      expect(preferredBackend()).toBe('noble');
      // a per-call backend still wins over the configured one
      const seed = new Uint8Array(32);
      const { publicKey } = await mldsa.keygen('ML-DSA-44', seed, { backend: 'noble' });
      const sig = await mldsa.sign('ML-DSA-44', seed, new Uint8Array(1), { deterministic: true });
      expect(await mldsa.verify('ML-DSA-44', publicKey, new Uint8Array(1), sig)).toBe(true);
    } finally {
      expect(configure(prev).backend).toBe('noble');
    }
    expect(settings().backend).toBe(prev.backend);
    const node = backends().find((b) => b.name === 'node');
    if (node?.available) {
      // OpenSSL offers no deterministic ML-DSA: asking node:crypto for it must fail loudly, not silently hedge.
      await expect(
        mldsa.sign('ML-DSA-44', new Uint8Array(32), new Uint8Array(1), {
          deterministic: true,
          backend: 'node',
        }),
      ).rejects.toMatchObject({ code: 'ERR_BACKEND_UNAVAILABLE' });
    }
    await expect(
      mldsa.sign('ML-DSA-44', new Uint8Array(32), new Uint8Array(1), { backend: 'nope' as 'noble' }),
    ).rejects.toMatchObject({ code: 'ERR_INVALID_ARGUMENT' });
  });

  it('falls back with one warning line when the native addon cannot load', async () => {
    // A resolve hook makes the addon unloadable in a child process, as on a machine without Rust.
    const hook = `import { registerHooks } from 'node:module';
registerHooks({ resolve(s, c, next) { if (s === '@pqid/liboqs-node') throw new Error('simulated: addon not built'); return next(s, c); } });`;
    const script = `import('@pqid/jose').then(async (m) => {
  const seed = new Uint8Array(32);
  const { publicKey } = await m.mldsa.keygen('ML-DSA-65', seed);
  const sig = await m.mldsa.sign('ML-DSA-65', seed, new Uint8Array([1]));
  await m.mldsa.sign('ML-DSA-65', seed, new Uint8Array([2]));
  const ok = await m.mldsa.verify('ML-DSA-65', publicKey, new Uint8Array([1]), sig);
  console.log(JSON.stringify({ ok, preferred: m.preferredBackend(), native: m.backends()[0] }));
});`;
    const { stdout, stderr } = await run(
      node,
      ['--import', `data:text/javascript,${encodeURIComponent(hook)}`, '--input-type=module', '-e', script],
      { cwd: root, env: process.env },
    );
    const out = JSON.parse(stdout);
    expect(out.ok).toBe(true);
    expect(out.preferred).not.toBe('native');
    expect(out.native.available).toBe(false);
    expect(out.native.reason).toContain('simulated: addon not built');
    const warnings = stderr.split('\n').filter((l) => l.includes('native ML-DSA backend unavailable'));
    expect(warnings).toHaveLength(1);
  });
});

describe('synchronous forms', () => {
  const seed = new Uint8Array(32).fill(7);
  const msg = new TextEncoder().encode('SignedInfo bytes');
  const context = new TextEncoder().encode('ctx');
  for (const b of backends().filter((x) => x.available)) {
    it(`signSync/verifySync agree with the async API on ${b.name}`, async () => {
      const backend = b.name;
      const { publicKey } = await mldsa.keygen('ML-DSA-65', seed, { backend });
      const det = b.capabilities.rnd ? { deterministic: true } : {};
      const s1 = mldsa.signSync('ML-DSA-65', seed, msg, { ...det, context, backend });
      expect(mldsa.verifySync('ML-DSA-65', publicKey, msg, s1, { context, backend })).toBe(true);
      expect(await mldsa.verify('ML-DSA-65', publicKey, msg, s1, { context, backend })).toBe(true);
      expect(mldsa.verifySync('ML-DSA-65', publicKey, msg, s1, { backend })).toBe(false); // context matters
      const bad = s1.slice();
      bad[10] = (bad[10] as number) ^ 1;
      expect(mldsa.verifySync('ML-DSA-65', publicKey, msg, bad, { context, backend })).toBe(false);
      if (b.capabilities.rnd) {
        const s2 = await mldsa.sign('ML-DSA-65', seed, msg, { deterministic: true, context, backend });
        expect(Buffer.from(s2).equals(Buffer.from(s1))).toBe(true);
      }
    });
  }
});

describe('configure', () => {
  it('validates what it is given and changes nothing when it refuses', () => {
    const before = settings();
    expect(() => configure({ backend: 'nope' as 'noble' })).toThrow(
      expect.objectContaining({
        code: 'ERR_INVALID_ARGUMENT',
        message: expect.stringContaining('native, node, noble, native-ref'),
      }),
    );
    expect(() => configure({ compositeMode: 'off' as 'split' })).toThrow(
      expect.objectContaining({
        code: 'ERR_INVALID_ARGUMENT',
        message: expect.stringContaining('auto, whole, split'),
      }),
    );
    expect(() => configure({ onWarning: 'stderr' as unknown as null })).toThrow(
      expect.objectContaining({ code: 'ERR_INVALID_ARGUMENT' }),
    );
    for (const nativeSigning of [{ slots: 0 }, { maxBatch: 1.5 }, { slots: '3' }, { batch: 2 }, 4])
      expect(() => configure({ nativeSigning } as never)).toThrow(
        expect.objectContaining({
          code: 'ERR_INVALID_ARGUMENT',
          message: expect.stringContaining('nativeSigning'),
        }),
      );
    expect(() => configure({ quiet: true } as never)).toThrow(
      expect.objectContaining({ code: 'ERR_INVALID_ARGUMENT', message: expect.stringContaining('"quiet"') }),
    );
    expect(settings()).toBe(before);
  });

  it('returns the previous settings, and a member given as undefined goes back to its default', () => {
    const defaults = settings();
    expect(defaults).toMatchObject({ backend: undefined, compositeMode: 'auto' });
    expect(typeof defaults.onWarning).toBe('function');
    const prev = configure({ backend: 'noble', compositeMode: 'split', onWarning: null });
    try {
      expect(prev).toBe(defaults);
      expect(settings()).toEqual({
        backend: 'noble',
        compositeMode: 'split',
        nativeSigning: {},
        onWarning: null,
      });
      configure({ backend: undefined, compositeMode: undefined, onWarning: undefined });
      expect(settings()).toEqual(defaults);
    } finally {
      configure(prev);
    }
  });

  it("nativeSigning tunes the native addon's sign queue; a member left out keeps the addon's default", async (ctx) => {
    if (!process.env.PQID_REQUIRE_NATIVE && !backends()[0]?.available) ctx.skip();
    const { configureAsyncSigning } = await import('@pqid/liboqs-node');
    const addon = configureAsyncSigning();
    const prev = configure({ nativeSigning: { slots: addon.slots + 3, maxBatch: 2 } });
    try {
      expect(configureAsyncSigning()).toMatchObject({ slots: addon.slots + 3, maxBatch: 2 });
      configure({ nativeSigning: { maxBatch: 5 } });
      expect(configureAsyncSigning()).toMatchObject({ slots: addon.slots, maxBatch: 5 });
    } finally {
      configure(prev);
    }
    expect(configureAsyncSigning()).toMatchObject({ slots: addon.slots, maxBatch: addon.maxBatch });
  });

  it('reads no environment: PQID_BACKEND in the environment changes nothing', async () => {
    const script = `import('@pqid/jose').then((m) => console.log(JSON.stringify({ preferred: m.preferredBackend(), settings: m.settings() })));`;
    const { stdout } = await run(node, ['--input-type=module', '-e', script], {
      cwd: root,
      env: {
        ...process.env,
        PQID_BACKEND: 'noble',
        PQID_NATIVE_COMPOSITES: 'off',
        PQID_QUIET: '1',
        PQID_SIGN_SLOTS: '3',
      },
    });
    const out = JSON.parse(stdout);
    expect(out.settings).toEqual({ compositeMode: 'auto', nativeSigning: {} });
    expect(out.preferred).toBe(preferredBackend());
  });

  it('sends the fallback warning to onWarning instead of a process warning', async () => {
    const hook = `import { registerHooks } from 'node:module';
registerHooks({ resolve(s, c, next) { if (s === '@pqid/liboqs-node') throw new Error('simulated: addon not built'); return next(s, c); } });`;
    const script = `import('@pqid/jose').then(async (m) => {
  const seen = [];
  m.configure({ onWarning: (w) => seen.push(w) });
  await m.mldsa.sign('ML-DSA-65', new Uint8Array(32), new Uint8Array([1]));
  await m.mldsa.sign('ML-DSA-65', new Uint8Array(32), new Uint8Array([2]));
  console.log(JSON.stringify(seen));
});`;
    const { stdout, stderr } = await run(
      node,
      ['--import', `data:text/javascript,${encodeURIComponent(hook)}`, '--input-type=module', '-e', script],
      { cwd: root, env: process.env },
    );
    const seen = JSON.parse(stdout) as { code: string; message: string }[];
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ code: 'PQID_NATIVE_UNAVAILABLE' });
    expect(seen[0]?.message).toContain('simulated: addon not built');
    expect(stderr).not.toContain('native ML-DSA backend unavailable');
  });
});
