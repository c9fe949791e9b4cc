// Without a built addon, importing the package throws LiboqsError ERR_NATIVE_UNAVAILABLE
// carrying the reason the install script recorded.
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const dir = mkdtempSync(join(tmpdir(), 'liboqs-node-missing-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('missing native addon', () => {
  it('throws ERR_NATIVE_UNAVAILABLE with the recorded reason', async () => {
    const src = new URL('..', import.meta.url);
    // Every JS module the package publishes, without the addon or its build status.
    const pkg = JSON.parse(readFileSync(new URL('package.json', src), 'utf8')) as { files: string[] };
    for (const f of pkg.files.filter((f) => f.endsWith('.js'))) copyFileSync(new URL(f, src), join(dir, f));
    writeFileSync(join(dir, 'package.json'), '{"type":"module"}');
    writeFileSync(
      join(dir, 'build-status.json'),
      JSON.stringify({ ok: false, reason: 'cargo (Rust toolchain) not found on PATH' }),
    );
    const err = await import(/* @vite-ignore */ pathToFileURL(join(dir, 'index.js')).href).then(
      () => undefined,
      (e: unknown) => e,
    );
    const { LiboqsError } = await import(/* @vite-ignore */ pathToFileURL(join(dir, 'errors.js')).href);
    expect(err).toBeInstanceOf(LiboqsError);
    expect((err as { code: string }).code).toBe('ERR_NATIVE_UNAVAILABLE');
    expect((err as Error).message).toContain('cargo (Rust toolchain) not found on PATH');
  });
});
