#!/usr/bin/env node
// Builds the native addon at install time (plain ESM, runs on Node >= 20).
// Never fails the install: on any problem it prints one warning line, records the reason in
// build-status.json (read by index.js to explain ERR_NATIVE_UNAVAILABLE) and exits 0.
// `--strict` (used by `npm run build`) exits non-zero instead, for development and CI.
import { spawnSync } from 'node:child_process';
import { copyFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const statusFile = join(root, 'build-status.json');
const strict = process.argv.includes('--strict');
const tuned = process.env.PQID_NATIVE_TUNE === 'native';
const started = Date.now();

function finish(ok, extra) {
  const status = {
    ok,
    build: tuned ? 'native-tuned' : 'dist',
    seconds: Math.round((Date.now() - started) / 100) / 10,
    at: new Date().toISOString(),
    node: process.version,
    ...extra,
  };
  writeFileSync(statusFile, `${JSON.stringify(status, null, 2)}\n`);
  if (ok) {
    console.log(`@pqid/liboqs-node: built ${status.file} (${status.build}) in ${status.seconds}s`);
    process.exit(0);
  }
  console.warn(`@pqid/liboqs-node: WARNING native addon not built: ${status.reason}`);
  process.exit(strict ? 1 : 0);
}

function tail(text, lines = 15) {
  return String(text ?? '')
    .trim()
    .split('\n')
    .slice(-lines)
    .join('\n');
}

if (process.env.PQID_NATIVE_SKIP_BUILD === '1') {
  finish(false, { reason: 'build skipped because PQID_NATIVE_SKIP_BUILD=1' });
}

const cargo = spawnSync('cargo', ['--version'], { encoding: 'utf8' });
if (cargo.error || cargo.status !== 0) {
  finish(false, {
    reason:
      'cargo (Rust toolchain) not found on PATH; install Rust (https://rustup.rs) and a C compiler, then run `npm rebuild @pqid/liboqs-node`',
  });
}

// Remove stale binaries so a failed build can never leave an old addon being loaded.
for (const f of readdirSync(root)) if (f.endsWith('.node')) rmSync(join(root, f));

const features = tuned ? ['--features', 'native-tune'] : [];
let napiBin;
try {
  const require = createRequire(join(root, 'package.json'));
  const pkgPath = require.resolve('@napi-rs/cli/package.json');
  const pkg = require(pkgPath);
  const bin = typeof pkg.bin === 'string' ? pkg.bin : pkg.bin.napi;
  napiBin = join(dirname(pkgPath), bin);
} catch {
  napiBin = undefined;
}

let result;
if (napiBin) {
  result = spawnSync(
    process.execPath,
    [napiBin, 'build', '--release', '--platform', '--no-js', '--dts', 'binding.d.ts', ...features],
    { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] },
  );
} else {
  // Consumers installing from a registry have no devDependencies: plain cargo + copy.
  result = spawnSync('cargo', ['build', '--release', ...features], {
    cwd: root,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  if (!result.error && result.status === 0) {
    const ext = process.platform === 'darwin' ? 'dylib' : process.platform === 'win32' ? 'dll' : 'so';
    const lib = `${process.platform === 'win32' ? '' : 'lib'}pqid_liboqs_node.${ext}`;
    copyFileSync(
      join(root, 'target', 'release', lib),
      join(root, `liboqs-node.${process.platform}-${process.arch}.node`),
    );
  }
}

if (result.error || result.status !== 0) {
  const why = result.error ? result.error.message : tail(result.stderr, 1) || `exit code ${result.status}`;
  writeFileSync(join(root, 'build.log'), `${result.stdout ?? ''}\n${result.stderr ?? ''}`);
  finish(false, { reason: `cargo/napi build failed (${why}); full log in native/build.log` });
}

const file = readdirSync(root).find((f) => f.startsWith('liboqs-node.') && f.endsWith('.node'));
if (!file) finish(false, { reason: 'build finished but produced no liboqs-node.*.node file' });
finish(true, { file });
