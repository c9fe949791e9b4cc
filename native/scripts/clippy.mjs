#!/usr/bin/env node
// Lints native/'s Rust with clippy (part of `npm run lint`): every warning is an error, and
// functions over clippy.toml's 80 lines too, as Biome holds the TypeScript to. Without clippy
// it says so in one line and passes, except under CI, which must check.
//
// --release and the host's --target put its work in the directory `napi build --release` uses
// (native/target/<triple>/release), so after a build it reuses the C core's and AWS-LC's
// compiled build-script output; clippy writes only check metadata there, never the .node.
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const run = (cmd, args, opts = {}) => spawnSync(cmd, args, { cwd: root, encoding: 'utf8', ...opts });

const version = run('cargo', ['clippy', '--version']);
if (version.error || version.status !== 0) {
  const ci = Boolean(process.env.CI);
  console.error(
    `clippy: cargo clippy is not available, so native/src is not linted (install Rust with rustup, then: rustup component add clippy)${ci ? '; CI requires it' : ''}`,
  );
  process.exit(ci ? 1 : 0);
}
const host = /^host: (\S+)$/m.exec(run('rustc', ['-vV']).stdout ?? '')?.[1];
const args = ['clippy', '--release', '--locked', '--all-targets', ...(host ? ['--target', host] : [])];
const lints = ['-D', 'warnings', '-D', 'clippy::too_many_lines'];
const result = run('cargo', [...args, '--', ...lints], { stdio: 'inherit' });
process.exit(result.status ?? 1);
