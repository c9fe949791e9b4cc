#!/usr/bin/env node
// Install script of @pqid/liboqs-node (plain ESM, Node >= 20, no dependencies).
//
// 1. A usable prebuilt binary (the per-platform optional dependency, which has this package's
//    binding ABI, loads here and passes the power-on self-test) means there is nothing to build.
// 2. Otherwise it builds from source, which needs Rust (cargo, rustc >= Cargo.toml's
//    rust-version), a C compiler and `ar`. If one is missing, or the build fails, it says so in a
//    framed block on stderr and on the terminal (npm hides a dependency's script output unless it
//    fails), records the reason in build-status.json (the loader's ERR_NATIVE_UNAVAILABLE quotes
//    it) and exits 0: the install succeeds and @pqid/jose falls back to another backend.
// `--strict` (`npm run build -w native`) always builds from source and exits non-zero on failure.
// A source build shows cargo's progress and a line every 15 s on the terminal and on stderr (npm
// shows that with --foreground-scripts, as CI does), and ends with one line naming the ML-DSA
// implementations it built (`x86_64-avx2 + ref`).
import { spawn, spawnSync } from 'node:child_process';
import {
  closeSync,
  copyFileSync,
  existsSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BINDING_ABI } from '../binding-abi.js';
import { BINARY_NAME, PACKAGE, platformTriple, prebuiltPackage } from '../platform.js';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const statusFile = join(root, 'build-status.json');
const strict = process.argv.includes('--strict');
const tuned = process.env.PQID_NATIVE_TUNE === 'native';
// Installed as a dependency (inside node_modules) rather than developed in the pqid repository,
// where the addon is always built from the sources being worked on.
const asDependency = root.split(sep).includes('node_modules');
const fromSource =
  strict ||
  tuned ||
  !asDependency ||
  process.env.PQID_NATIVE_BUILD_FROM_SOURCE === '1' ||
  process.env.npm_config_build_from_source === 'true';
const triple = platformTriple();
const REBUILD = `npm rebuild ${PACKAGE}`;
const started = Date.now();

function writeStatus(status) {
  writeFileSync(
    statusFile,
    `${JSON.stringify({ ...status, seconds: Math.round((Date.now() - started) / 100) / 10, at: new Date().toISOString(), node: process.version }, null, 2)}\n`,
  );
}

/**
 * Text for the person installing: on stderr and, when stderr is not a terminal (npm pipes a
 * dependency's install script and shows its output only if the script fails), straight on the
 * controlling terminal. `colored` is used where it reaches a terminal.
 */
function toPerson(plain, colored = plain) {
  process.stderr.write(process.stderr.isTTY ? colored : plain);
  if (process.stderr.isTTY || process.platform === 'win32') return;
  try {
    const fd = openSync('/dev/tty', 'w');
    writeSync(fd, colored);
    closeSync(fd);
  } catch {
    // no controlling terminal (CI, containers): stderr and build-status.json carry it
  }
}

/** A framed block: a title, then lines (prose wrapped at 76 columns, indented lines kept whole). */
function shout(title, lines) {
  const body = [title, '', ...lines].flatMap((l) => (l.startsWith('  ') ? [l] : wrap(l, 76)));
  const width = Math.max(...body.map((l) => l.length));
  const frame = (color) => {
    const c = (s) => (color ? `\x1b[1;33m${s}\x1b[0m` : s);
    return [
      '',
      c(`╔${'═'.repeat(width + 2)}╗`),
      ...body.map((l) => `${c('║')} ${l.padEnd(width)} ${c('║')}`),
      c(`╚${'═'.repeat(width + 2)}╝`),
      '',
      '',
    ].join('\n');
  };
  toPerson(frame(false), frame(!process.env.NO_COLOR));
}

/** Prose broken at spaces into lines of at most `width` (commands are never broken). */
function wrap(line, width) {
  const out = [];
  let rest = line;
  while (rest.length > width) {
    const cut = rest.lastIndexOf(' ', width);
    if (cut <= 0) break;
    out.push(rest.slice(0, cut));
    rest = rest.slice(cut + 1);
  }
  return [...out, rest];
}

function finish(ok, status) {
  writeStatus({ ok, build: tuned ? 'native-tuned' : 'dist', ...status });
  if (ok) {
    const what = `ML-DSA ${status.compiled.join(' + ')}, this CPU runs ${status.implementation} with the ${status.keccak} Keccak`;
    if (status.source === 'prebuilt')
      console.log(`${PACKAGE}: using the prebuilt ${status.package} (${what})`);
    // A build's last line, on the terminal too: npm hides a dependency's install output.
    else
      toPerson(
        `${PACKAGE}: built ${status.file} in ${duration(Date.now() - started)} (${tuned ? 'native-tuned' : 'dist'}; ${what})\n`,
      );
  }
  process.exit(ok || !strict ? 0 : 1);
}

/** `2 min 5 s`, `45 s`. */
function duration(ms) {
  const s = Math.round(ms / 1000);
  return s >= 60 ? `${Math.floor(s / 60)} min ${s % 60} s` : `${s} s`;
}

/**
 * Loads `file` in a child process (a crash cannot take npm with it) and checks that it has this
 * package's binding ABI and passes its power-on self-test. Returns the ML-DSA implementations
 * it was built with, the one this CPU runs and its Keccak, or why it is not usable.
 */
function probe(file) {
  const r = spawnSync(
    process.execPath,
    [
      '-e',
      [
        'const a = require(process.argv[1]);',
        "const abi = typeof a.bindingAbi === 'function' ? a.bindingAbi() : 'none';",
        'if (abi !== Number(process.argv[2])) {',
        "  console.error('a stale binary: binding ABI ' + abi + ', this package needs ' + process.argv[2]);",
        '  process.exit(4);',
        '}',
        'const r = a.selfTest(false); if (!r.ok) { console.error(r.error); process.exit(3); }',
        'const i = a.nativeInfo();',
        'console.log(JSON.stringify({ compiled: i.compiled, implementation: a.schemeInfo(1, false).implementation, keccak: i.keccak }));',
      ].join('\n'),
      file,
      String(BINDING_ABI),
    ],
    { encoding: 'utf8', timeout: 60_000 },
  );
  if (r.status === 0) return JSON.parse(r.stdout);
  return { problem: tail(r.stderr, 1) || r.error?.message || `exit ${r.status ?? r.signal}` };
}

if (process.env.PQID_NATIVE_SKIP_BUILD === '1') {
  finish(false, {
    source: 'none',
    reason: 'build skipped because PQID_NATIVE_SKIP_BUILD=1',
    fix: `unset PQID_NATIVE_SKIP_BUILD and run \`${REBUILD}\``,
  });
}

// 1. The prebuilt binary, checked in a child process so that a crash cannot take npm with it.
const pre = prebuiltPackage(triple);
let prebuiltProblem;
{
  const require = createRequire(join(root, 'package.json'));
  let pkgJson;
  try {
    pkgJson = require.resolve(`${pre.name}/package.json`);
  } catch {
    prebuiltProblem = `the prebuilt binary for ${triple} (${pre.name}) is not installed`;
  }
  if (pkgJson && !fromSource) {
    const own = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).version;
    const { version } = JSON.parse(readFileSync(pkgJson, 'utf8'));
    const file = join(dirname(pkgJson), pre.file);
    if (version !== own) prebuiltProblem = `${pre.name}@${version} does not match ${PACKAGE}@${own}`;
    else {
      const p = probe(file);
      if (!p.problem) finish(true, { source: 'prebuilt', package: pre.name, version, ...p });
      prebuiltProblem = `the prebuilt ${pre.name} does not work here (${p.problem})`;
    }
  }
}

function tail(text, lines = 15) {
  return String(text ?? '')
    .trim()
    .split('\n')
    .slice(-lines)
    .join('\n');
}

/** What a cold source build takes on 2 cores, idle to busy, for the message before it starts (README). */
const BUILD_MINUTES = 'three to six';

/**
 * Runs a build command with cargo's own progress lines (`Compiling aws-lc-sys v0.47.0`, one per
 * crate) and, while one crate takes long, `still compiling… 45 s` every 15 s, shown to the
 * person installing. Resolves with the exit status and the whole output (for build.log).
 */
function build(cmd, args, options) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    let pending = '';
    let crate = '';
    let shown = Date.now();
    const show = (line) => {
      toPerson(`  ${line}\n`);
      shown = Date.now();
    };
    const read = (chunk) => {
      output += chunk;
      const lines = (pending + chunk).split(/\r?\n/);
      pending = lines.pop() ?? '';
      for (const line of lines) {
        const m = /^\s*(Compiling|Finished|error)\b(.*)$/.exec(line);
        if (!m) continue;
        if (m[1] === 'Compiling') crate = m[2].trim().split(' ')[0] ?? '';
        show(`${m[1]}${m[2]}`.trim());
      }
    };
    child.stdout.setEncoding('utf8').on('data', read);
    child.stderr.setEncoding('utf8').on('data', read);
    const timer = setInterval(() => {
      if (Date.now() - shown >= 14_000)
        show(`still compiling… ${Math.round((Date.now() - started) / 1000)} s${crate ? ` (${crate})` : ''}`);
    }, 15_000);
    let error;
    child.on('error', (e) => {
      error = e;
    });
    child.on('close', (status) => {
      clearInterval(timer);
      resolve({ status, output: output + pending, error });
    });
  });
}

// 2. A source build: check the tools first, so that a missing one is named, not guessed at
// from a compiler error.
function onPath(cmd) {
  const exts = process.platform === 'win32' ? (process.env.PATHEXT ?? '.EXE;.CMD').split(';') : [''];
  for (const d of (process.env.PATH ?? '').split(delimiter)) {
    for (const e of exts) {
      const p = join(d, cmd + e);
      try {
        if (d && statSync(p).isFile()) return p;
      } catch {
        // not here
      }
    }
  }
  return undefined;
}
const runs = (cmd, args) => {
  const r = spawnSync(cmd, args, { encoding: 'utf8', timeout: 30_000 });
  return r.error || r.status !== 0 ? undefined : `${r.stdout}`.trim();
};
const cargoToml = readFileSync(join(root, 'Cargo.toml'), 'utf8');
const msrv = /^rust-version\s*=\s*"([\d.]+)"/m.exec(cargoToml)?.[1] ?? '1.88';
const older = (a, b) => {
  const [x, y] = [a, b].map((v) => v.split('.').map(Number));
  for (let i = 0; i < 3; i++) if ((x[i] ?? 0) !== (y[i] ?? 0)) return (x[i] ?? 0) < (y[i] ?? 0);
  return false;
};

/** @type {{ kind: 'rust' | 'rust-old' | 'cc', name: string, detail: string }[]} */
const missing = [];
const cargo = runs('cargo', ['--version']);
const rustc = cargo && /(\d+\.\d+\.\d+)/.exec(runs('rustc', ['--version']) ?? '')?.[1];
const rust = `Rust >= ${msrv}`;
if (!cargo) missing.push({ kind: 'rust', name: rust, detail: 'cargo is not on PATH' });
else if (!rustc) missing.push({ kind: 'rust', name: rust, detail: 'rustc is not on PATH' });
else if (older(rustc, msrv)) missing.push({ kind: 'rust-old', name: rust, detail: `this is Rust ${rustc}` });
if (process.platform === 'darwin') {
  if (!runs('xcode-select', ['-p'])) {
    missing.push({
      kind: 'cc',
      name: 'a C compiler',
      detail: 'the Xcode Command Line Tools are not installed',
    });
  }
} else if (process.platform !== 'win32') {
  // rustc links with `cc`; the cc crate compiles with $CC (default cc) and archives with $AR (ar).
  for (const c of new Set(['cc', process.env.CC].filter(Boolean))) {
    if (!runs(c, ['--version']))
      missing.push({ kind: 'cc', name: 'a C compiler', detail: `${c} is not on PATH` });
  }
  const ar = process.env.AR ?? 'ar';
  if (!onPath(ar)) missing.push({ kind: 'cc', name: 'binutils', detail: `${ar} is not on PATH` });
}

const RUSTUP = "curl --proto '=https' --tlsv1.2 -sSf https://sh.rustup.rs | sh";
/** The commands that install what is missing, per system. */
function fixLines(kinds) {
  const lines = [];
  if (kinds.has('cc')) {
    lines.push(
      '  Debian/Ubuntu:  sudo apt-get install build-essential',
      '  Fedora:         sudo dnf install gcc',
      '  macOS:          xcode-select --install',
    );
  }
  if (kinds.has('rust')) lines.push(`  Rust, anywhere: ${RUSTUP}`);
  else if (kinds.has('rust-old'))
    lines.push(`  Rust, anywhere: ${onPath('rustup') ? 'rustup update' : RUSTUP}`);
  return lines;
}
const fallbackNote = [
  'The install succeeded anyway: ML-DSA runs on a slower fallback (node:crypto on Node >= 24.7, else @noble/post-quantum).',
];
const why = asDependency
  ? (prebuiltProblem ?? 'a source build was requested')
  : 'this is a development checkout of pqid, which always builds from source';

if (missing.length > 0) {
  const kinds = new Set(missing.map((m) => m.kind));
  const names = [...new Set(missing.map((m) => m.name))];
  shout(`${PACKAGE}: the fast native ML-DSA backend is NOT installed`, [
    `Why: ${why}, and building it from source needs what this machine lacks:`,
    ...missing.map((m) => `  - ${m.name} (${m.detail})`),
    '',
    'To fix it, install them:',
    ...fixLines(kinds),
    `then run:  ${REBUILD}`,
    '',
    ...fallbackNote,
  ]);
  finish(false, {
    source: 'none',
    missing: missing.map((m) => `${m.name} (${m.detail})`),
    reason: `${why}; building from source needs ${missing.map((m) => `${m.name} (${m.detail})`).join(', ')}`,
    fix: `install ${names.join(' and ')} (Rust from https://rustup.rs; a C compiler from build-essential, gcc or the Xcode Command Line Tools), then run \`${REBUILD}\``,
  });
}

// Remove stale binaries so a failed build can never leave an old addon being loaded.
for (const f of readdirSync(root)) if (f.endsWith('.node')) rmSync(join(root, f));

toPerson(
  `${PACKAGE}: ${why}; building it from source with Rust ${rustc}: about ${BUILD_MINUTES} minutes on 2 cores, cargo's progress follows\n`,
);
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
let targetDir;
if (napiBin && !asDependency) {
  result = await build(
    process.execPath,
    [napiBin, 'build', '--release', '--platform', '--no-js', '--dts', 'binding.d.ts', ...features],
    { cwd: root },
  );
} else {
  // As a dependency: plain cargo with the shipped Cargo.lock, in a temporary target directory
  // (about 120 MB of intermediate files that node_modules should not keep).
  targetDir = process.env.CARGO_TARGET_DIR ?? mkdtempSync(join(tmpdir(), 'pqid-liboqs-node-build-'));
  result = await build('cargo', ['build', '--release', ...(asDependency ? ['--locked'] : []), ...features], {
    cwd: root,
    env: { ...process.env, CARGO_TARGET_DIR: targetDir },
  });
  if (!result.error && result.status === 0) {
    const ext = process.platform === 'darwin' ? 'dylib' : process.platform === 'win32' ? 'dll' : 'so';
    const lib = `${process.platform === 'win32' ? '' : 'lib'}pqid_liboqs_node.${ext}`;
    copyFileSync(join(targetDir, 'release', lib), join(root, `${BINARY_NAME}.${triple}.node`));
  }
  if (!process.env.CARGO_TARGET_DIR) rmSync(targetDir, { recursive: true, force: true });
}

if (result.error || result.status !== 0) {
  const log = join(root, 'build.log');
  writeFileSync(log, result.output);
  const last = result.error
    ? result.error.message
    : (tail(result.output, 40)
        .split('\n')
        .find((l) => /^error/.test(l)) ??
        tail(result.output, 1)) ||
      `exit code ${result.status}`;
  shout(`${PACKAGE}: building the fast native ML-DSA backend FAILED`, [
    `Why: ${why}, and the source build failed with:`,
    `  ${last.slice(0, 100)}`,
    `  (full log: ${log})`,
    '',
    'The build downloads Rust crates from crates.io, so it needs network access.',
    `After fixing the cause, run:  ${REBUILD}`,
    '',
    ...fallbackNote,
  ]);
  finish(false, {
    source: 'none',
    reason: `${why}, and the source build failed (${last}); full log in ${log}`,
    fix: `read ${log}, fix the cause, then run \`${REBUILD}\``,
  });
}

const file = readdirSync(root).find((f) => f.startsWith(`${BINARY_NAME}.`) && f.endsWith('.node'));
if (!file || !existsSync(join(root, file))) {
  finish(false, {
    source: 'none',
    reason: `build finished but produced no ${BINARY_NAME}.*.node file`,
    fix: `run \`${REBUILD}\``,
  });
}
const built = probe(join(root, file));
if (built.problem) {
  finish(false, {
    source: 'none',
    reason: `the source build produced ${file}, which does not work here (${built.problem})`,
    fix: `report it; run \`${REBUILD}\` after fixing the cause`,
  });
}
finish(true, { source: 'source', file, ...built });
