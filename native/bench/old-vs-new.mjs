#!/usr/bin/env node
// The old C core against the new one, in one process (run with Node 24):
//
//   node_modules/.bin/node native/bench/old-vs-new.mjs [--quick] [--rounds N] [--old REV]
//                                                      [--keccak avx2|portable] [--out FILE]
//
// Builds the addon twice (bench/cores.mjs) with `cargo build --release`, from the same Cargo.lock,
// into one target directory (the dependencies are compiled once): OLD is native/ at REV (default: the
// last commit that had native/liboqs, i.e. liboqs 0.13.0 with pqid's patches), NEW is native/ in
// this checkout (mldsa-native). Both raw bindings are loaded side by side and driven through the
// same calls (the N-API surface for ML-DSA is the same in both): keygen from a seed, hedged sign
// and verify of a 256-byte message, single-threaded, for ML-DSA-44/65/87, and signAsync
// throughput through the same batching queue (sign-queue.js). Each measurement runs in A-B-B-A
// rounds (old, new, new, old), so drift on a shared machine hits both alike; a round's ratio is
// old time / new time, in CPU time (what the operation costs, whoever else runs) and in wall
// time, and the table reports the median ratios with the range over rounds.
// Both builds must give identical deterministic signatures, or the run stops. The new core
// hashes with the fastest Keccak this CPU has; `--keccak avx2` makes it use the AVX2 one, as on
// a CPU without AVX-512 (the old core always runs its AVX2 Keccak).
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import { createSignQueue } from '../sign-queue.js';
import { arg, machine, median, QUICK, ROUNDS } from './common.mjs';
import { buildCores } from './cores.mjs';

const KECCAK = arg('--keccak');
const ALGS = ['ML-DSA-44', 'ML-DSA-65', 'ML-DSA-87'];
/** Per timed block: enough work for ~50-100 ms per block at the new core's speed. */
const N = QUICK
  ? { keygen: 100, sign: 60, verify: 150, async: 300 }
  : { keygen: 600, sign: 400, verify: 1000, async: 3000 };
const MSG = Uint8Array.from({ length: 256 }, (_, i) => (i * 31 + 7) & 0xff);

const { oldRev, oldAddon, newAddon } = buildCores(arg('--old'));

const require = createRequire(import.meta.url);
const cores = [
  { name: 'old', addon: require(oldAddon) },
  { name: 'new', addon: require(newAddon) },
];
for (const c of cores) {
  const st = c.addon.selfTest(false);
  if (!st.ok) throw new Error(`${c.name} core fails its self-test: ${st.error}`);
  if (c.name === 'new' && KECCAK !== undefined && !c.addon.keccakUse(KECCAK)) {
    throw new Error(`--keccak ${KECCAK}: not available here (${c.addon.keccakAvailable().join(', ')} are)`);
  }
  const i = c.addon.nativeInfo();
  c.implementation = c.addon.schemeInfo(1, false).implementation;
  c.label =
    c.name === 'old'
      ? `liboqs ${i.liboqsVersion} + patches (native/ at ${oldRev}), ${c.implementation}`
      : `mldsa-native (${i.mldsaNative}), ${c.implementation}, Keccak ${i.keccak} (XKCP from ${i.sha3})${KECCAK ? ', forced' : ''}`;
  c.queue = createSignQueue(c.addon, (e) => e);
}

// The same deterministic signature from both, or there is nothing to compare.
for (const [id, alg] of ALGS.entries()) {
  const seed = randomBytes(32);
  const [a, b] = cores.map((c) =>
    Buffer.from(c.addon.sign(id, false, c.addon.keygen(id, false, seed), MSG, undefined, undefined, true)),
  );
  if (!a.equals(b)) throw new Error(`${alg}: the old and the new core sign differently`);
}

// ---- measure ----------------------------------------------------------------------------------
/**
 * One block of work, timed twice: wall time, and the CPU time of this process (user + system,
 * every thread: for signAsync that is the JS thread and the pool). On a quiet machine the two
 * agree for the single-threaded rows; on a shared one the wall time also holds other
 * processes' time slices, which the CPU time leaves out.
 */
async function timed(work) {
  const cpu = process.cpuUsage();
  const t = process.hrtime.bigint();
  await work();
  const wall = Number(process.hrtime.bigint() - t) / 1000;
  const used = process.cpuUsage(cpu);
  return { wall, cpu: used.user + used.system };
}

/** Per core and algorithm: a key, its public key and a signature. */
function fixtures(c, id) {
  const key = c.addon.keygen(id, false, Buffer.alloc(32, 42));
  const pk = key.takePublicKey();
  return { key, pk, sig: c.addon.sign(id, false, key, MSG, undefined, undefined, false) };
}

const ops = {
  keygen(c, id, n) {
    const seed = Buffer.alloc(32, 7);
    for (let i = 0; i < n; i++) {
      seed.writeUInt32LE(i);
      c.addon.keygen(id, false, seed).free();
    }
  },
  sign(c, id, n, f) {
    for (let i = 0; i < n; i++) c.addon.sign(id, false, f.key, MSG, undefined, undefined, false);
  },
  verify(c, id, n, f) {
    for (let i = 0; i < n; i++)
      if (!c.addon.verify(id, false, f.pk, MSG, f.sig, undefined)) throw new Error('verify');
  },
  signAsync(c, id, n, f) {
    return Promise.all(
      Array.from({ length: n }, () => c.queue.sign(id, false, f.key, MSG, undefined, undefined, false)),
    );
  },
};

const rows = [];
for (const [id, alg] of ALGS.entries()) {
  const fx = cores.map((c) => fixtures(c, id));
  for (const op of ['keygen', 'sign', 'verify', 'signAsync']) {
    const n = N[op === 'signAsync' ? 'async' : op];
    const run = (k) => timed(() => ops[op](cores[k], id, n, fx[k]));
    await run(0); // warm-up, both
    await run(1);
    const per = { old: [], new: [] };
    const ratios = { cpu: [], wall: [] };
    for (let r = 0; r < ROUNDS; r++) {
      const a1 = await run(0);
      const b1 = await run(1);
      const b2 = await run(1);
      const a2 = await run(0);
      per.old.push((a1.cpu + a2.cpu) / (2 * n));
      per.new.push((b1.cpu + b2.cpu) / (2 * n));
      ratios.cpu.push((a1.cpu + a2.cpu) / (b1.cpu + b2.cpu));
      ratios.wall.push((a1.wall + a2.wall) / (b1.wall + b2.wall));
    }
    const row = {
      alg,
      op,
      old: median(per.old),
      new: median(per.new),
      ratio: median(ratios.cpu),
      lo: Math.min(...ratios.cpu),
      hi: Math.max(...ratios.cpu),
      wall: median(ratios.wall),
    };
    rows.push(row);
    console.error(
      `${alg} ${op}: old ${row.old.toFixed(1)} µs, new ${row.new.toFixed(1)} µs CPU, ×${row.ratio.toFixed(2)} (wall ×${row.wall.toFixed(2)})`,
    );
  }
}

// ---- report -----------------------------------------------------------------------------------
const m = machine();
const f = (x) => (x >= 100 ? x.toFixed(0) : x.toFixed(1));
const L = [
  `CPU: ${m.model} (${m.flags}), ${m.cores} cores; Node.js ${process.version}; load average at the end ${os
    .loadavg()
    .map((x) => x.toFixed(1))
    .join(' ')}.`,
  `Old: ${cores[0].label}. New: ${cores[1].label}.`,
  `${ROUNDS} A-B-B-A rounds per row; per block ${N.keygen} keygens, ${N.sign} signs, ${N.verify} verifies, ${N.async} signAsync; 256-byte message, empty context, hedged signing. \`${['node_modules/.bin/node native/bench/old-vs-new.mjs', ...process.argv.slice(2)].join(' ')}\``,
  '',
  'Times are CPU µs per operation (user + system, all threads of the process); the last column is the same ratio in wall time.',
  '',
  '| alg | operation | old µs | new µs | old / new (median) | range over rounds | wall-time ratio |',
  '|---|---|---:|---:|---:|---|---:|',
  ...rows.map(
    (r) =>
      `| ${r.alg} | ${r.op === 'signAsync' ? 'signAsync, batched (CPU µs per signature)' : r.op} | ${f(r.old)} | ${f(r.new)} | **${r.ratio.toFixed(2)}×** | ${r.lo.toFixed(2)}–${r.hi.toFixed(2)} | ${r.wall.toFixed(2)}× |`,
  ),
];
const out = L.join('\n');
console.log(out);
if (arg('--out')) writeFileSync(arg('--out'), `${out}\n`);
