// Builds the old C core and the new one for the benchmarks that compare them (old-vs-new.mjs,
// old-vs-new-c.mjs), and describes the machine they ran on.
//
// OLD is native/ at a git revision (default: the last commit that had native/liboqs, i.e.
// liboqs 0.13.0 with pqid's patches), NEW is native/ in this checkout (mldsa-native). Both are
// built with `cargo build --release` from the same Cargo.lock into one target directory
// (native/target/old-vs-new), so the dependencies are compiled once.
import { execFileSync, spawnSync } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const native = dirname(dirname(fileURLToPath(import.meta.url)));
const repo = dirname(native);
const work = join(native, 'target', 'old-vs-new');
const target = join(work, 'target');

const git = (...a) => execFileSync('git', ['-C', repo, ...a], { encoding: 'utf8' }).trim();

/**
 * `cargo build --release` of a native/ directory whose package is `pkg`; returns the addon copied
 * to `out`. The two cores share the target directory, so the old one is built under another
 * package name: with the same name cargo would take the two build scripts for one.
 */
function build(dir, pkg, out, label) {
  console.error(`building ${label} (${dir})…`);
  const r = spawnSync('cargo', ['build', '--release', '--lib', '--locked'], {
    cwd: dir,
    env: { ...process.env, CARGO_TARGET_DIR: target },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  if (r.status !== 0) throw new Error(`cargo build of ${label} failed`);
  copyFileSync(join(target, 'release', `lib${pkg.replaceAll('-', '_')}.so`), out);
  return out;
}

/** The C core's static library that build.rs made for `pkg` (the newest, if several). */
function staticLib(pkg, file) {
  const dir = join(target, 'release', 'build');
  const found = readdirSync(dir)
    .filter((d) => d.startsWith(`${pkg}-`) && /^[0-9a-f]+$/.test(d.slice(pkg.length + 1)))
    .map((d) => join(dir, d, 'out', file))
    .filter((p) => existsSync(p))
    .sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs);
  if (found.length === 0) throw new Error(`no ${file} under ${dir}`);
  return found[0];
}

/**
 * Builds both cores; returns the old revision, each addon (`.node`) and each core's static C
 * library (the old build's liboqs, the new build's mldsa-native with pqid's sponge).
 */
export function buildCores(oldRef) {
  const oldRev = git(
    'rev-parse',
    '--short',
    oldRef ?? `${git('rev-list', '-1', 'HEAD', '--', 'native/liboqs/vendor.sh')}^`,
  );
  mkdirSync(work, { recursive: true });
  const oldDir = join(work, `old-${oldRev}`);
  const oldAddon = join(work, `old-${oldRev}.node`);
  if (!existsSync(oldAddon)) {
    rmSync(oldDir, { recursive: true, force: true });
    mkdirSync(oldDir, { recursive: true });
    execFileSync('sh', ['-c', `git -C "${repo}" archive ${oldRev} native | tar -x -C "${oldDir}"`]);
    for (const f of ['Cargo.toml', 'Cargo.lock']) {
      const p = join(oldDir, 'native', f);
      writeFileSync(
        p,
        readFileSync(p, 'utf8').replace('name = "pqid-liboqs-node"', 'name = "pqid-liboqs-node-old"'),
      );
    }
    build(join(oldDir, 'native'), 'pqid-liboqs-node-old', oldAddon, `the old core (native/ at ${oldRev})`);
  }
  const newAddon = build(
    native,
    'pqid-liboqs-node',
    join(work, 'new.node'),
    'the new core (native/ in this checkout)',
  );
  return {
    oldRev,
    oldAddon,
    newAddon,
    oldLib: staticLib('pqid-liboqs-node-old', 'libpqid_liboqs.a'),
    newLib: staticLib('pqid-liboqs-node', 'libpqid_mldsa.a'),
    work,
  };
}
