// scripts/install.mjs and the loader, as a dependency sees them: the package copied into a
// node_modules of a temporary project, run with a PATH that lacks build tools (symlinks to every
// other command) or has stubs in front. Each case checks what a person is told, what
// build-status.json records, that the install still succeeds, and what importing then does.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  chmodSync,
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUILD_TOOLS, hasScript, pathWithout } from '../../test/helpers/toolchain.ts';
import { BINDING_ABI } from '../binding-abi.js';
import { native as addon } from '../internal.js';
import { platformTriple, prebuiltPackage } from '../platform.js';

const native = fileURLToPath(new URL('..', import.meta.url));
const pkg = JSON.parse(readFileSync(join(native, 'package.json'), 'utf8')) as {
  version: string;
  files: string[];
};
const pre = prebuiltPackage();
const built = join(native, pre.file);
const temps: string[] = [];
let noTools: string;

beforeAll(() => {
  noTools = pathWithout(BUILD_TOOLS);
  temps.push(noTools);
});
afterAll(() => {
  for (const d of temps) rmSync(d, { recursive: true, force: true });
});

/** The package as npm would install it (JS, manifest, install script; no Rust/C sources needed here). */
function installed(): { project: string; dir: string } {
  const project = mkdtempSync(join(tmpdir(), 'pqid-install-script-'));
  temps.push(project);
  const dir = join(project, 'node_modules', '@pqid', 'liboqs-node');
  mkdirSync(join(dir, 'scripts'), { recursive: true });
  for (const f of [...pkg.files.filter((f) => f.endsWith('.js')), 'package.json', 'Cargo.toml']) {
    copyFileSync(join(native, f), join(dir, f));
  }
  copyFileSync(join(native, 'scripts', 'install.mjs'), join(dir, 'scripts', 'install.mjs'));
  writeFileSync(join(project, 'package.json'), '{"type":"module","private":true}');
  return { project, dir };
}

/** The per-platform package next to it, holding `binary` (default: this repository's build). */
function withPrebuilt(project: string, version = pkg.version, binary?: Buffer): string {
  const dir = join(project, 'node_modules', pre.name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: pre.name, version, main: pre.file }));
  if (binary) writeFileSync(join(dir, pre.file), binary);
  else copyFileSync(built, join(dir, pre.file));
  return join(dir, pre.file);
}

/** Stub commands (shell scripts) in a new directory, to put in front of PATH. */
function stubs(scripts: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'pqid-stubs-'));
  temps.push(dir);
  for (const [name, body] of Object.entries(scripts)) {
    writeFileSync(join(dir, name), `#!/bin/sh\n${body}\n`);
    chmodSync(join(dir, name), 0o755);
  }
  return dir;
}

interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
  state: Record<string, unknown> & { ok: boolean; reason?: string; fix?: string; missing?: string[] };
}

function runInstall(dir: string, PATH: string, args: string[] = []): Run {
  const r = spawnSync(process.execPath, [join(dir, 'scripts', 'install.mjs'), ...args], {
    cwd: dir,
    encoding: 'utf8',
    env: { PATH, HOME: process.env.HOME ?? tmpdir(), NO_COLOR: '1' },
  });
  return {
    status: r.status,
    stdout: r.stdout,
    stderr: r.stderr,
    state: JSON.parse(readFileSync(join(dir, 'build-status.json'), 'utf8')),
  };
}

/** Imports the installed package in a child process: what `import '@pqid/liboqs-node'` gives a user. */
function importIn(project: string, PATH: string) {
  const code = `import('@pqid/liboqs-node').then(
    (m) => console.log(JSON.stringify({ ok: true, binary: m.info().binary })),
    (e) => console.log(JSON.stringify({ ok: false, code: e.code, message: e.message, fix: e.fix })))`;
  const r = spawnSync(process.execPath, ['-e', code], { cwd: project, encoding: 'utf8', env: { PATH } });
  expect(r.status, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as {
    ok: boolean;
    code?: string;
    message?: string;
    fix?: string;
    binary?: { source: string; file: string; package?: string };
  };
}

const FRAME = /╔═+╗/;

describe('install script without a prebuilt binary', () => {
  it('names the missing Rust and C compiler, gives the fix per system, and still succeeds', () => {
    const { project, dir } = installed();
    const r = runInstall(dir, noTools);
    expect(r.status).toBe(0);
    expect(r.stderr).toMatch(FRAME);
    expect(r.stderr).toContain('the fast native ML-DSA backend is NOT installed');
    expect(r.stderr).toContain(`(${pre.name})`);
    expect(r.state.reason).toContain(
      `the prebuilt binary for ${platformTriple()} (${pre.name}) is not installed`,
    );
    expect(r.stderr).toContain('Rust >= 1.88 (cargo is not on PATH)');
    expect(r.stderr).toContain('a C compiler (cc is not on PATH)');
    expect(r.stderr).toMatch(/Debian\/Ubuntu: +sudo apt-get install build-essential/);
    expect(r.stderr).toMatch(/Fedora: +sudo dnf install gcc/);
    expect(r.stderr).toMatch(/macOS: +xcode-select --install/);
    expect(r.stderr).toContain("curl --proto '=https' --tlsv1.2 -sSf https://sh.rustup.rs | sh");
    expect(r.stderr).toContain('then run:  npm rebuild @pqid/liboqs-node');
    expect(r.state).toMatchObject({ ok: false, source: 'none' });
    expect(r.state.missing).toEqual([
      'Rust >= 1.88 (cargo is not on PATH)',
      'a C compiler (cc is not on PATH)',
    ]);

    // Importing then fails with the recorded reason and the fix, which @pqid/jose passes on.
    const got = importIn(project, noTools);
    expect(got).toMatchObject({ ok: false, code: 'ERR_NATIVE_UNAVAILABLE' });
    expect(got.message).toContain('Rust >= 1.88 (cargo is not on PATH)');
    expect(got.fix).toContain('install Rust >= 1.88 and a C compiler');
    expect(got.fix).toContain('npm rebuild @pqid/liboqs-node');
  });

  it('names a Rust older than Cargo.toml rust-version, and only what is missing', () => {
    const { dir } = installed();
    const old = stubs({
      cargo: 'echo "cargo 1.75.0 (1d8b05cdd 2023-11-20)"',
      rustc: 'echo "rustc 1.75.0 (82e1608df 2023-12-21)"',
    });
    const r = runInstall(dir, `${old}${delimiter}${process.env.PATH}`);
    expect(r.status).toBe(0);
    expect(r.state.missing).toEqual(['Rust >= 1.88 (this is Rust 1.75.0)']);
    expect(r.stderr).toContain('Rust >= 1.88 (this is Rust 1.75.0)');
    expect(r.stderr).not.toContain('build-essential'); // the C compiler is there
    expect(r.stderr).toMatch(/Rust, anywhere: /);
  });

  it('names only the C compiler when Rust is there', () => {
    const { dir } = installed();
    const rust = stubs({ cargo: 'echo "cargo 1.95.0"', rustc: 'echo "rustc 1.95.0 (59807616e 2026-04-14)"' });
    const r = runInstall(dir, `${rust}${delimiter}${noTools}`);
    expect(r.state.missing).toEqual(['a C compiler (cc is not on PATH)']);
    expect(r.stderr).toContain('sudo apt-get install build-essential');
    expect(r.stderr).not.toContain('rustup');
  });

  it('reports a failed build with its first error line and the log, exits 0 (and 1 with --strict)', () => {
    const { dir } = installed();
    const failing = stubs({
      cargo: [
        'if [ "$1" = "--version" ]; then echo "cargo 1.95.0"; exit 0; fi',
        'echo "   Compiling napi-build v2.6.0" >&2',
        'echo "error: failed to get \\`napi\\` as a dependency of package \\`pqid-liboqs-node\\`" >&2',
        'echo "Caused by: network unreachable" >&2',
        'exit 101',
      ].join('\n'),
      rustc: 'echo "rustc 1.95.0 (59807616e 2026-04-14)"',
    });
    const PATH = `${failing}${delimiter}${process.env.PATH}`;
    const r = runInstall(dir, PATH);
    expect(r.status).toBe(0);
    expect(r.stderr).toMatch(FRAME);
    expect(r.stderr).toContain('building the fast native ML-DSA backend FAILED');
    expect(r.stderr).toContain('error: failed to get `napi` as a dependency');
    // cargo's own progress was passed on as it came.
    expect(r.stderr).toContain('\n  Compiling napi-build v2.6.0\n');
    expect(r.stderr).toContain(join(dir, 'build.log'));
    expect(readFileSync(join(dir, 'build.log'), 'utf8')).toContain('network unreachable');
    expect(r.state).toMatchObject({ ok: false, source: 'none' });
    expect(r.state.reason).toContain('the source build failed (error: failed to get `napi`');
    expect(runInstall(dir, PATH, ['--strict']).status).toBe(1);
  });

  it("a source build shows cargo's progress and ends with the implementations it built", () => {
    const { dir } = installed();
    // A cargo that "builds" this repository's addon into the target directory it is given.
    const cargo = stubs({
      cargo: [
        'if [ "$1" = "--version" ]; then echo "cargo 1.95.0"; exit 0; fi',
        'echo "   Compiling aws-lc-sys v0.47.0" >&2',
        'echo "   Compiling pqid-liboqs-node v0.1.0" >&2',
        'mkdir -p "$CARGO_TARGET_DIR/release"',
        `cp "${built}" "$CARGO_TARGET_DIR/release/libpqid_liboqs_node.so"`,
        'echo "    Finished \\`release\\` profile [optimized] target(s) in 2m 05s" >&2',
      ].join('\n'),
      rustc: 'echo "rustc 1.95.0 (59807616e 2026-04-14)"',
    });
    const r = runInstall(dir, `${cargo}${delimiter}${process.env.PATH}`);
    expect(r.status).toBe(0);
    expect(r.stderr).toMatch(/building it from source with Rust 1\.95\.0: about .+ minutes on 2 cores/);
    expect(r.stderr).toContain('\n  Compiling aws-lc-sys v0.47.0\n  Compiling pqid-liboqs-node v0.1.0\n');
    expect(r.stderr).toContain('\n  Finished `release` profile');
    const compiled = addon.nativeInfo().compiled.join(' + ');
    const runs = addon.schemeInfo(1, false).implementation;
    const keccak = addon.nativeInfo().keccak;
    const last = r.stderr.trim().split('\n').at(-1);
    expect(last).toMatch(
      new RegExp(
        `^@pqid/liboqs-node: built ${pre.file} in \\d+ s \\(dist; ML-DSA ${compiled.replaceAll('+', '\\+')}, this CPU runs ${runs} with the ${keccak} Keccak\\)$`,
      ),
    );
    expect(r.state).toMatchObject({
      ok: true,
      source: 'source',
      file: pre.file,
      compiled: compiled.split(' + '),
      implementation: runs,
    });
  });

  it('writes the message to the terminal too, where npm hides a dependency script’s stderr', (ctx) => {
    if (!hasScript()) {
      if (process.env.CI) throw new Error('util-linux `script` is needed for this test');
      return ctx.skip('util-linux `script` is not installed');
    }
    const { dir } = installed();
    // stderr thrown away, as npm does with a successful dependency script; stdin/stdout a pty.
    const cmd = `'${process.execPath}' '${join(dir, 'scripts', 'install.mjs')}' 2>/dev/null`;
    const r = spawnSync('script', ['-qec', cmd, '/dev/null'], {
      cwd: dir,
      encoding: 'utf8',
      env: { PATH: noTools, HOME: process.env.HOME ?? tmpdir(), TERM: 'dumb' },
    });
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(FRAME);
    expect(r.stdout).toContain('Rust >= 1.88 (cargo is not on PATH)');
    expect(r.stdout).toContain('npm rebuild @pqid/liboqs-node');
  });
});

describe('install script and loader with the prebuilt per-platform package', () => {
  it('uses a working prebuilt binary: no build, no message, and the loader takes it', () => {
    const { project, dir } = installed();
    const file = withPrebuilt(project);
    const r = runInstall(dir, noTools);
    expect(r.status).toBe(0);
    expect(r.stderr).not.toMatch(FRAME);
    expect(r.state).toMatchObject({ ok: true, source: 'prebuilt', package: pre.name, version: pkg.version });
    const got = importIn(project, noTools);
    expect(got).toEqual({
      ok: true,
      binary: { source: 'prebuilt', package: pre.name, version: pkg.version, file },
    });
  });

  it('ignores a prebuilt binary of another version and says so', () => {
    const { project, dir } = installed();
    withPrebuilt(project, '0.0.1');
    const r = runInstall(dir, noTools);
    expect(r.state.reason).toContain(`${pre.name}@0.0.1 does not match @pqid/liboqs-node@${pkg.version}`);
    const got = importIn(project, noTools);
    expect(got).toMatchObject({ ok: false, code: 'ERR_NATIVE_UNAVAILABLE' });
    expect(got.message).toContain('does not match');
  });

  it('does not trust a prebuilt binary that fails to load: falls back to a source build, or says why', () => {
    const { project, dir } = installed();
    withPrebuilt(project, pkg.version, Buffer.from('not an ELF file'));
    const r = runInstall(dir, noTools);
    expect(r.status).toBe(0);
    expect(r.stderr).toContain(`the prebuilt ${pre.name} does not work here`);
    expect(r.state).toMatchObject({ ok: false, source: 'none' });
    const got = importIn(project, noTools);
    expect(got).toMatchObject({ ok: false, code: 'ERR_NATIVE_UNAVAILABLE' });
    expect(got.message).toContain(`${pre.name} failed to load`);
    expect(got.fix).toContain('PQID_NATIVE_BUILD_FROM_SOURCE=1 npm rebuild @pqid/liboqs-node');
  });

  it('prefers a source build this install made on purpose over the prebuilt binary', () => {
    const { project, dir } = installed();
    withPrebuilt(project);
    copyFileSync(built, join(dir, pre.file));
    writeFileSync(
      join(dir, 'build-status.json'),
      JSON.stringify({ ok: true, source: 'source', file: pre.file }),
    );
    expect(importIn(project, noTools)).toEqual({
      ok: true,
      binary: { source: 'source', file: join(dir, pre.file) },
    });
    // without that record the prebuilt binary wins over a stray local file
    rmSync(join(dir, 'build-status.json'));
    expect(importIn(project, noTools).binary?.source).toBe('prebuilt');
  });

  it('the package in this repository loads its own source build', async () => {
    const m = await import(/* @vite-ignore */ pathToFileURL(join(native, 'index.js')).href);
    expect(m.info().binary).toEqual({ source: 'source', file: built });
    expect(dirname(m.info().binary.file)).toBe(native.replace(/\/$/, ''));
  });
});

describe('stale binaries: a binding ABI other than binding-abi.js needs is refused', () => {
  /** A real N-API addon that loads and says its self-test passed, with no bindingAbi() (or `abi`'s). */
  function staleAddon(abi?: number): string {
    const out = mkdtempSync(join(tmpdir(), 'pqid-stale-addon-'));
    temps.push(out);
    const file = join(out, `stale${abi ?? ''}.node`);
    const src = join(native, 'test', 'fixtures', 'stale-addon.c');
    const r = spawnSync('cc', [...(abi ? [`-DABI=${abi}`] : []), '-shared', '-fPIC', '-o', file, src], {
      encoding: 'utf8',
    });
    expect(r.status, r.stderr || r.error?.message).toBe(0);
    return file;
  }
  let noAbi: Buffer;
  let abi1: Buffer;
  beforeAll(() => {
    noAbi = readFileSync(staleAddon());
    abi1 = readFileSync(staleAddon(1));
  });

  it('the install script does not take a stale prebuilt binary, and importing says why', () => {
    const { project, dir } = installed();
    withPrebuilt(project, pkg.version, noAbi);
    const r = runInstall(dir, noTools);
    expect(r.status).toBe(0);
    expect(r.state).toMatchObject({ ok: false, source: 'none' });
    expect(r.state.reason).toContain(
      `the prebuilt ${pre.name} does not work here (a stale binary: binding ABI none, this package needs ${BINDING_ABI})`,
    );
    const got = importIn(project, noTools);
    expect(got).toMatchObject({ ok: false, code: 'ERR_NATIVE_UNAVAILABLE' });
    expect(got.message).toContain(`${pre.name} is a stale binary: it has no binding ABI version`);
    expect(got.fix).toContain('PQID_NATIVE_BUILD_FROM_SOURCE=1 npm rebuild @pqid/liboqs-node');
  });

  it('a stale source build falls back to the prebuilt binary, a stale prebuilt to a local build', () => {
    const { project, dir } = installed();
    const prebuilt = withPrebuilt(project);
    // The recorded source build comes first, but it is stale: the loader moves on.
    writeFileSync(join(dir, pre.file), abi1);
    writeFileSync(
      join(dir, 'build-status.json'),
      JSON.stringify({ ok: true, source: 'source', file: pre.file }),
    );
    expect(importIn(project, noTools)).toEqual({
      ok: true,
      binary: { source: 'prebuilt', package: pre.name, version: pkg.version, file: prebuilt },
    });
    // And the other way round: a stale prebuilt binary, a good local build.
    writeFileSync(prebuilt, abi1);
    copyFileSync(built, join(dir, pre.file));
    expect(importIn(project, noTools)).toEqual({
      ok: true,
      binary: { source: 'source', file: join(dir, pre.file) },
    });
    // Both stale: a clear error naming each, not a TypeError at the first missing function.
    writeFileSync(join(dir, pre.file), noAbi);
    const got = importIn(project, noTools);
    expect(got).toMatchObject({ ok: false, code: 'ERR_NATIVE_UNAVAILABLE' });
    expect(got.message).toContain(`${join(dir, pre.file)} is a stale binary: it has no binding ABI version`);
    expect(got.message).toContain(
      `${pre.name} is a stale binary: binding ABI 1, this package needs ${BINDING_ABI}`,
    );
  });

  it("this repository's build reports the ABI binding-abi.js needs", () => {
    expect(addon.bindingAbi()).toBe(BINDING_ABI);
  });

  it('binding.d.ts (napi-generated) is the surface recorded for this ABI', () => {
    // When this fails, the binding's surface changed: bump BINDING_ABI in src/lib.rs and
    // binding-abi.js (so older binaries are refused) and record the new fingerprint here.
    const SURFACES: Record<number, string> = {
      2: '36dea90c0ffe36a43ce01c562353702b45b46415f433a0de029b654407a12260',
      3: 'e0f31cedf1357e9da5a4b9cdce413e953191cb0c2655d72bdc30cd1c488b53ad',
      4: '0515e71794d6c75300ebb356becd88fb67c5f605013930365251b713286d31a0',
    };
    const declarations = readFileSync(join(native, 'binding.d.ts'), 'utf8')
      .replace(/\/\*[\s\S]*?\*\//g, '')
      .replace(/\/\/.*$/gm, '')
      .split('\n')
      .map((l) => l.trim())
      .filter(Boolean)
      .join('\n');
    expect(createHash('sha256').update(declarations).digest('hex')).toBe(SURFACES[BINDING_ABI]);
  });
});
