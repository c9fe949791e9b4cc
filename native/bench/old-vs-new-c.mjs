#!/usr/bin/env node
// ML-DSA signing in the old C core against the new one, in C alone (run with Node 24):
//
//   node_modules/.bin/node native/bench/old-vs-new-c.mjs [--quick] [--rounds N] [--old REV]
//                                                        [--keccak avx2|portable|avx512vl]
//                                                        [--callgrind] [--out FILE]
//
// Builds both cores as old-vs-new.mjs does (bench/cores.mjs), then compiles
// bench/old-vs-new-c.c against each core's static C library: no N-API, V8 or thread pool, only the C signing
// function, so what is left is the cores' own difference. Each binary signs the same messages
// with the same counter-derived rnd (deterministic, so both do the same rejected attempts; the
// signatures must hash the same or the run stops). Rounds run A-B-B-A in separate processes; a
// round's ratio is old CPU time / new CPU time. `--keccak avx2` runs the new core on the AVX2
// Keccak, as on a CPU without AVX-512 (the old core always runs its AVX2 Keccak).
// `--callgrind` adds, per core, valgrind's instruction count per signature, total and for the
// functions that count most (inlined code counts in the function it was inlined into).
import { execFileSync, spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { arg, machine, median, QUICK, ROUNDS } from './common.mjs';
import { buildCores, native } from './cores.mjs';

const KECCAK = arg('--keccak');
const COUNT = QUICK ? 60 : 300; // signatures per block
const BLOCKS = 3; // blocks per run; a run's time is the median block
const LEVELS = [44, 65, 87];

const { oldRev, oldLib, newLib, work } = buildCores(arg('--old'));
const cc = process.env.CC ?? 'cc';
const driver = join(native, 'bench', 'old-vs-new-c.c');
const compile = (out, lib, defines) => {
  execFileSync(cc, ['-O2', ...defines, driver, lib, '-lpthread', '-o', out], { stdio: 'inherit' });
  return out;
};
const bins = {
  old: compile(join(work, 'old-vs-new-c-old'), oldLib, ['-DPQID_OLD_CORE']),
  new: compile(join(work, 'old-vs-new-c-new'), newLib, []),
};
const argsFor = (core, level, count, blocks) => [
  String(level),
  String(count),
  String(blocks),
  ...(core === 'new' && KECCAK ? [KECCAK] : []),
];

/** One run: the signatures' hash and the CPU µs per signature (median block). */
function run(core, level) {
  const r = spawnSync(bins[core], argsFor(core, level, COUNT, BLOCKS), { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`${core} core, ML-DSA-${level}: ${r.stderr.trim()}`);
  const [, hash, ...times] = r.stdout.trim().split(' ');
  return { hash, us: median(times.map(Number)) };
}

const rows = [];
for (const level of LEVELS) {
  const first = { old: run('old', level), new: run('new', level) };
  if (first.old.hash !== first.new.hash) throw new Error(`ML-DSA-${level}: the two cores sign differently`);
  const per = { old: [], new: [] };
  const ratios = [];
  for (let r = 0; r < ROUNDS; r++) {
    const a1 = run('old', level).us;
    const b1 = run('new', level).us;
    const b2 = run('new', level).us;
    const a2 = run('old', level).us;
    per.old.push((a1 + a2) / 2);
    per.new.push((b1 + b2) / 2);
    ratios.push((a1 + a2) / (b1 + b2));
  }
  const row = {
    alg: `ML-DSA-${level}`,
    old: median(per.old),
    new: median(per.new),
    ratio: median(ratios),
    lo: Math.min(...ratios),
    hi: Math.max(...ratios),
  };
  rows.push(row);
  console.error(
    `${row.alg}: old ${row.old.toFixed(1)} µs, new ${row.new.toFixed(1)} µs, ×${row.ratio.toFixed(3)}`,
  );
}

/** valgrind's instructions per signature for one core: total and the top functions. */
function instructions(core, level) {
  const count = 50;
  const out = join(work, `callgrind-${core}-${level}.out`);
  const v = spawnSync(
    'valgrind',
    ['--tool=callgrind', `--callgrind-out-file=${out}`, bins[core], ...argsFor(core, level, count, 1)],
    { encoding: 'utf8' },
  );
  if (v.status !== 0) throw new Error(`valgrind failed: ${v.stderr.trim().split('\n').at(-1)}`);
  const text = execFileSync('callgrind_annotate', ['--auto=no', '--threshold=100', out], {
    encoding: 'utf8',
  });
  const signatures = 2 * count; // the hashed pass and one timed block
  const fns = [];
  let total = 0;
  for (const line of text.split('\n')) {
    const m = /^\s*([\d,]+) \([^)]*\)\s+(.*)$/.exec(line);
    if (!m) continue;
    const ir = Number(m[1].replaceAll(',', '')) / signatures;
    if (m[2].startsWith('PROGRAM TOTALS')) total = ir;
    else fns.push({ ir, name: m[2].replace(/ \[.*\]$/, '').replace(/^.*:/, '') });
  }
  return { total, top: fns.slice(0, 12) };
}

const m = machine();
const f = (x) => (x >= 100 ? x.toFixed(0) : x.toFixed(1));
const L = [
  `CPU: ${m.model} (${m.flags}), ${m.cores} cores; ${cc} ${execFileSync(cc, ['-dumpfullversion'], { encoding: 'utf8' }).trim()} -O2 driver; load average at the end ${os
    .loadavg()
    .map((x) => x.toFixed(1))
    .join(' ')}.`,
  `Old: liboqs 0.13.0 + patches (native/ at ${oldRev}), avx2. New: mldsa-native, x86_64-avx2, Keccak ${KECCAK ?? 'as detected'}.`,
  `${ROUNDS} A-B-B-A rounds per row, each run a separate process; per run ${BLOCKS} blocks of ${COUNT} deterministic signatures of a 256-byte message, empty context (the median block counts). \`${['node_modules/.bin/node native/bench/old-vs-new-c.mjs', ...process.argv.slice(2)].join(' ')}\``,
  '',
  '| alg | old CPU µs / sign | new CPU µs / sign | old / new (median) | range over rounds |',
  '|---|---:|---:|---:|---|',
  ...rows.map(
    (r) =>
      `| ${r.alg} | ${f(r.old)} | ${f(r.new)} | **${r.ratio.toFixed(3)}×** | ${r.lo.toFixed(3)}–${r.hi.toFixed(3)} |`,
  ),
];
if (process.argv.includes('--callgrind')) {
  for (const level of LEVELS) {
    const c = { old: instructions('old', level), new: instructions('new', level) };
    L.push(
      '',
      `ML-DSA-${level}, valgrind instructions per signature: old ${Math.round(c.old.total)}, new ${Math.round(c.new.total)} (old / new ${(c.old.total / c.new.total).toFixed(3)}).`,
      '',
      '| old: function | instructions | new: function | instructions |',
      '|---|---:|---|---:|',
      ...c.old.top.map(
        (o, i) =>
          `| ${o.name} | ${Math.round(o.ir)} | ${c.new.top[i]?.name ?? ''} | ${c.new.top[i] ? Math.round(c.new.top[i].ir) : ''} |`,
      ),
    );
  }
}
const out = L.join('\n');
console.log(out);
if (arg('--out')) writeFileSync(arg('--out'), `${out}\n`);
