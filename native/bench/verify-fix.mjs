#!/usr/bin/env node
// What the two FIPS 204 fixes (native/liboqs/PATCHES.md) cost the AVX2 ML-DSA verifier:
// the current addon against the same crate built with the patches reversed (liboqs 0.13.0 as
// shipped), both loaded in this one process and timed in interleaved rounds, so machine load
// hits both alike. The "before" addon is built once into native/target/bench-unpatched/ (about
// a minute; needs `patch`, cargo and a C compiler, no cmake or libclang).
//
//   node_modules/.bin/node native/bench/verify-fix.mjs [--rounds 21] [--per-round 2000] [--write]
//
// --write puts the table into docs/BENCHMARKS.md between the verify-fix markers.
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const { values: args } = parseArgs({
  options: {
    rounds: { type: 'string', default: '21' },
    'per-round': { type: 'string', default: '2000' },
    write: { type: 'boolean', default: false },
    rebuild: { type: 'boolean', default: false },
  },
});
const native = dirname(dirname(fileURLToPath(import.meta.url)));
const repo = dirname(native);
const require = createRequire(import.meta.url);
const side = join(native, 'target', 'bench-unpatched');
const beforeFile = join(side, 'liboqs-node-unpatched.node');
const VERIFY_FIXES = /^000[12]-.*\.patch$/;

function buildBefore() {
  const crate = join(side, 'crate');
  rmSync(crate, { recursive: true, force: true });
  mkdirSync(crate, { recursive: true });
  for (const f of ['Cargo.toml', 'Cargo.lock', 'build.rs', 'src', 'liboqs', 'selftest', 'bench']) {
    cpSync(join(native, f), join(crate, f), { recursive: true });
  }
  // Only the two verification fixes are reversed; the later patches (seeded keypair, external μ)
  // add entry points the binding calls, and do not touch verification.
  const patches = readdirSync(join(crate, 'liboqs', 'patches')).filter((f) => VERIFY_FIXES.test(f));
  if (patches.length !== 2)
    throw new Error(`expected the two verify-fix patches, found ${patches.join(', ')}`);
  for (const p of patches.reverse()) {
    execFileSync('patch', [
      '-s',
      '-R',
      '-p1',
      '-d',
      join(crate, 'liboqs'),
      '-i',
      join(crate, 'liboqs', 'patches', p),
    ]);
  }
  console.error(`building the unpatched addon in ${crate} …`);
  execFileSync('cargo', ['build', '--release', '--lib'], {
    cwd: crate,
    env: { ...process.env, CARGO_TARGET_DIR: join(side, 'target') },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  cpSync(join(side, 'target', 'release', 'libpqid_liboqs_node.so'), beforeFile);
}

if (args.rebuild || !existsSync(beforeFile)) buildBefore();
const status = JSON.parse(readFileSync(join(native, 'build-status.json'), 'utf8'));
const after = require(join(native, status.file));
const before = require(beforeFile);
// The unpatched build must fail the power-on self-test (its AVX2 verifier accepts the
// known-bad signature); the current one must pass it. Otherwise we are not comparing the fix.
const stBefore = before.selfTest(false);
const stAfter = after.selfTest(false);
if (stAfter.ok !== true) throw new Error(`current addon fails its self-test: ${stAfter.error}`);
const cpuFlags = after.nativeInfo().cpu;
if (!cpuFlags.avx2) throw new Error('this CPU has no AVX2: the fixes are in the AVX2 code only');

const ROUNDS = Number(args.rounds);
const PER = Number(args['per-round']);
const ALGS = ['ML-DSA-44', 'ML-DSA-65', 'ML-DSA-87'];
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[s.length >> 1];
};

function timeRound(addon, id, forceRef, pk, msg, sig) {
  const t = process.hrtime.bigint();
  for (let i = 0; i < PER; i++)
    if (!addon.verify(id, forceRef, pk, msg, sig, undefined)) throw new Error('verify failed');
  return Number(process.hrtime.bigint() - t) / PER / 1000; // µs per verify
}

const rows = [];
for (const [id, alg] of ALGS.entries()) {
  const h = after.keygen(id, false, new Uint8Array(32).fill(id + 1));
  const pk = h.takePublicKey();
  const msg = new TextEncoder().encode('x'.repeat(606)); // an ID-token-sized signing input
  const sig = after.sign(id, false, h, msg, undefined, undefined, true);
  for (const addon of [before, after]) timeRound(addon, id, false, pk, msg, sig); // warm-up
  const t = { before: [], after: [], ref: [] };
  for (let r = 0; r < ROUNDS; r++) {
    // Alternate which goes first, so neither always gets the warmer cache or the quieter moment.
    const order = r % 2 ? ['after', 'before'] : ['before', 'after'];
    for (const k of order) t[k].push(timeRound(k === 'before' ? before : after, id, false, pk, msg, sig));
    if (r % 4 === 0) t.ref.push(timeRound(after, id, true, pk, msg, sig));
  }
  const ratios = t.after.map((a, i) => a / t.before[i]);
  rows.push({
    alg,
    before: median(t.before),
    after: median(t.after),
    ratio: median(ratios),
    spread: [Math.min(...ratios), Math.max(...ratios)],
    ref: median(t.ref),
  });
}

const f = (x, d = 1) => x.toFixed(d);
const load = os
  .loadavg()
  .map((x) => x.toFixed(2))
  .join(' / ');
const md = [
  `_Generated by \`native/bench/verify-fix.mjs\` (${ROUNDS} interleaved rounds of ${PER} verifications per addon and parameter set); do not edit between the markers._`,
  '',
  `CPU: ${os.cpus()[0]?.model ?? '?'} (${os.cpus().length} logical cores), flags avx2=${cpuFlags.avx2} popcnt=${cpuFlags.popcnt} bmi2=${cpuFlags.bmi2}; ${os.type()} ${os.release()}; Node ${process.version}; load average at the end ${load}. ${process.env.PQID_BENCH_NOTE ?? ''}`.trim(),
  '',
  `Self-test of the unpatched addon: ${stBefore.ok ? 'passed (unexpected)' : `failed as expected: ${stBefore.error}`}.`,
  '',
  '| parameter set | AVX2 verify before (µs) | AVX2 verify after (µs) | after / before (median of rounds) | min–max of round ratios | portable ref verify (µs) |',
  '|---|---:|---:|---:|---:|---:|',
  ...rows.map(
    (r) =>
      `| ${r.alg} | ${f(r.before)} | ${f(r.after)} | ${f(r.ratio, 3)} | ${f(r.spread[0], 3)}–${f(r.spread[1], 3)} | ${f(r.ref)} |`,
  ),
].join('\n');
console.log(md);

if (args.write) {
  const file = join(repo, 'docs', 'BENCHMARKS.md');
  const doc = readFileSync(file, 'utf8');
  const start = '<!-- bench:verify-fix:start -->';
  const end = '<!-- bench:verify-fix:end -->';
  const i = doc.indexOf(start);
  const j = doc.indexOf(end);
  if (i < 0 || j < i) throw new Error(`docs/BENCHMARKS.md has no ${start} … ${end} section`);
  writeFileSync(file, `${doc.slice(0, i + start.length)}\n${md}\n${doc.slice(j)}`);
  console.error('wrote docs/BENCHMARKS.md');
}
