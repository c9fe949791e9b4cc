#!/usr/bin/env node
// Packs the per-platform package (napi-rs convention): native/npm/<triple>/ plus the addon built
// on this machine (`npm run build -w native`) and the notices of the code compiled into it, as
// an npm tarball. The repository never holds the binary: it is staged in a temporary directory.
//
//   node native/scripts/pack-platform.mjs [--out DIR] [--binary FILE]
//
// Refuses a native-tuned build (not portable: it may crash other CPUs with SIGILL) and a binary
// that fails the power-on self-test. Prints the tarball's path. Publishing is then
// `npm publish <tarball>` before `npm publish native` (whose optionalDependencies name it).
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { PACKAGE, platformTriple, prebuiltPackage } from '../platform.js';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const { values } = parseArgs({
  options: { out: { type: 'string', default: process.cwd() }, binary: { type: 'string' } },
});
const triple = platformTriple();
const pre = prebuiltPackage(triple);
const template = join(root, 'npm', triple);

function fail(message) {
  console.error(`pack-platform: ${message}`);
  process.exit(1);
}

if (!existsSync(template)) fail(`no platform package for ${triple} (expected ${template})`);
const binary = resolve(values.binary ?? join(root, pre.file));
if (!existsSync(binary)) fail(`${binary} does not exist: build it first with \`npm run build -w native\``);

const own = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const meta = JSON.parse(readFileSync(join(template, 'package.json'), 'utf8'));
if (meta.name !== pre.name) fail(`${template}/package.json is ${meta.name}, expected ${pre.name}`);
if (meta.version !== own.version)
  fail(`${pre.name}@${meta.version} does not match ${PACKAGE}@${own.version}`);
if (own.optionalDependencies?.[pre.name] !== own.version) {
  fail(`native/package.json must list ${pre.name}@${own.version} in optionalDependencies`);
}

// The binary must be the portable (dist) build and pass its self-test on this machine.
const check = spawnSync(
  process.execPath,
  [
    '-e',
    `const a = require(process.argv[1]); const r = a.selfTest(false);
     console.log(JSON.stringify({ build: a.nativeInfo().build, ok: r.ok, error: r.error }));`,
    binary,
  ],
  { encoding: 'utf8' },
);
if (check.status !== 0) fail(`${binary} does not load: ${check.stderr.trim()}`);
const probe = JSON.parse(check.stdout);
if (probe.build !== 'dist')
  fail(`${binary} is a ${probe.build} build; only the portable dist build may be shipped`);
if (!probe.ok) fail(`${binary} fails its power-on self-test: ${probe.error}`);

const stage = mkdtempSync(join(tmpdir(), 'pqid-platform-pack-'));
try {
  cpSync(template, stage, { recursive: true });
  for (const f of readdirSync(stage)) if (f.endsWith('.node')) rmSync(join(stage, f));
  cpSync(binary, join(stage, pre.file));
  writeFileSync(join(stage, 'THIRD-PARTY-NOTICES.md'), notices());
  const glibc = newestGlibc(binary);
  if (glibc) {
    const readme = join(stage, 'README.md');
    writeFileSync(
      readme,
      `${readFileSync(readme, 'utf8').trimEnd()}\n\nThis build needs **glibc ≥ ${glibc}**.\n`,
    );
  }
  const packed = spawnSync('npm', ['pack', '--json', '--pack-destination', resolve(values.out)], {
    cwd: stage,
    encoding: 'utf8',
  });
  if (packed.status !== 0) fail(`npm pack failed: ${packed.stderr}`);
  const [{ filename }] = JSON.parse(packed.stdout);
  console.log(join(resolve(values.out), filename));
} finally {
  rmSync(stage, { recursive: true, force: true });
}

/** The newest GLIBC_x.y symbol version the binary needs (Linux; from binutils' objdump). */
function newestGlibc(file) {
  if (process.platform !== 'linux') return undefined;
  const dump = spawnSync('objdump', ['-T', file], { encoding: 'utf8', maxBuffer: 16 << 20 });
  if (dump.status !== 0)
    fail(`objdump -T ${file} failed (binutils is needed to state the glibc requirement)`);
  const versions = [...new Set(dump.stdout.match(/GLIBC_[\d.]+/g) ?? [])].map((v) => v.slice(6));
  const key = (v) => v.split('.').map(Number);
  versions.sort((a, b) => {
    const [x, y] = [key(a), key(b)];
    for (let i = 0; i < 3; i++) if ((x[i] ?? 0) !== (y[i] ?? 0)) return (x[i] ?? 0) - (y[i] ?? 0);
    return 0;
  });
  return versions.at(-1);
}

/**
 * The licences of what the binary contains: the vendored C code (native/vendor) and every Rust
 * crate linked into it (normal dependencies for this target, from `cargo metadata`), with their
 * licence texts, identical texts printed once.
 */
function notices() {
  const host = /host: (\S+)/.exec(spawnSync('rustc', ['-vV'], { encoding: 'utf8' }).stdout ?? '')?.[1];
  const args = ['metadata', '--format-version', '1', '--locked', '--offline'];
  const m = spawnSync('cargo', host ? [...args, '--filter-platform', host] : args, {
    cwd: root,
    encoding: 'utf8',
    maxBuffer: 64 << 20,
  });
  if (m.status !== 0) fail(`cargo metadata failed (needed for the notices): ${m.stderr}`);
  const meta = JSON.parse(m.stdout);
  const byId = new Map(meta.packages.map((p) => [p.id, p]));
  const nodes = new Map(meta.resolve.nodes.map((n) => [n.id, n]));
  const linked = new Set();
  // Proc-macro crates (and what only they use) run in the compiler: none of their code is linked.
  const procMacro = (id) => byId.get(id)?.targets.some((t) => t.kind.includes('proc-macro'));
  const walk = (id) => {
    if (linked.has(id) || procMacro(id)) return;
    linked.add(id);
    for (const d of nodes.get(id)?.deps ?? []) {
      if (d.dep_kinds.some((k) => k.kind === null)) walk(d.pkg);
    }
  };
  walk(meta.resolve.root);
  linked.delete(meta.resolve.root);
  const crates = [...linked].map((id) => byId.get(id)).sort((a, b) => a.name.localeCompare(b.name));
  const texts = new Map();
  for (const c of crates) {
    const dir = dirname(c.manifest_path);
    for (const f of readdirSync(dir)
      .filter((f) => /^(licen[cs]e|copying|notice)/i.test(f))
      .sort()) {
      const text = readFileSync(join(dir, f), 'utf8').trim();
      const users = texts.get(text) ?? [];
      users.push(`${c.name} ${c.version} (${f})`);
      texts.set(text, users);
    }
  }
  const vendored = (f) => readFileSync(join(root, 'vendor', f), 'utf8').trim();
  return [
    `# Third-party notices for ${pre.name}`,
    '',
    `\`${pre.file}\` is pqid's code (Apache-2.0, see LICENSE) statically linked with:`,
    '',
    '- **mldsa-native** (Apache-2.0 OR ISC OR MIT), as vendored from the crate aws-lc-sys 0.47.0',
    '  in `native/vendor/mldsa-native`, with the s2n-bignum assembler headers its assembly',
    "  includes (Apache-2.0 OR ISC OR MIT-0); both notices are in AWS-LC's licence file below.",
    '- **liboqs 0.13.0** (Open Quantum Safe, MIT): its Keccak code and CPU detection, vendored in `native/vendor/liboqs`,',
    "  with XKCP's Keccak (CC0-1.0) and the CRYPTOGAMS AVX2 Keccak permutation (its licence is in",
    '  the file header, reproduced by liboqs).',
    ...crates.map((c) => `- **${c.name} ${c.version}** (${c.license ?? c.license_file ?? 'see below'})`),
    '',
    '## mldsa-native and s2n-bignum (AWS-LC licence file, `native/vendor/aws-lc/LICENSE`)',
    '',
    '```text',
    vendored('aws-lc/LICENSE'),
    '```',
    '',
    '## liboqs',
    '',
    '```text',
    vendored('liboqs/LICENSE.txt'),
    '```',
    '',
    ...[...texts].flatMap(([text, users]) => [`## ${users.join(', ')}`, '', '```text', text, '```', '']),
  ].join('\n');
}
