#!/usr/bin/env node
// The addon's Keccak implementations against each other, in one process (run with Node 24):
//
//   node_modules/.bin/node native/bench/keccak.mjs [--quick] [--rounds N] [--out FILE]
//
// Every Keccak this CPU runs (info().keccak names the one the addon picks: avx512vl, avx2 or
// portable) is forced in turn through the test hook, and the same work timed on each:
// ML-DSA-44/65/87 keygen from a seed, hedged sign and verify of a 256-byte message on the
// native ML-DSA build. Rounds run the implementations in a palindrome (a b c c b a), so drift on
// a shared machine hits all alike; the table gives CPU µs (user + system) per operation, the
// median over rounds, and each implementation's ratio to avx2 (the Keccak the old liboqs 0.13
// core ran), median and range over rounds.
import { readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { info, scheme } from '../index.js';
import { keccakImplementations, native } from '../internal.js';
import { arg, median, QUICK, ROUNDS } from './common.mjs';

const SCALE = QUICK ? 0.2 : 1;
const IMPLS = keccakImplementations();
const BASE = IMPLS.includes('avx2') ? 'avx2' : IMPLS.at(-1);
const MSG = Uint8Array.from({ length: 256 }, (_, i) => (i * 31 + 7) & 0xff);

/** CPU µs per call of `fn`, run `n` times. */
function cpu(n, fn) {
  const t = process.cpuUsage();
  for (let i = 0; i < n; i++) fn(i);
  const u = process.cpuUsage(t);
  return (u.user + u.system) / n;
}

const work = [];
for (const alg of ['ML-DSA-44', 'ML-DSA-65', 'ML-DSA-87']) {
  const s = scheme(alg);
  const { publicKey, secretKey } = s.keygen(new Uint8Array(32).fill(42));
  const sig = s.sign(secretKey, MSG);
  const seed = new Uint8Array(32);
  work.push(
    {
      alg,
      op: 'keygen',
      n: 600,
      fn: (i) => {
        seed[0] = i;
        seed[1] = i >> 8;
        s.keygen(seed).secretKey.free();
      },
    },
    { alg, op: 'sign', n: 400, fn: () => s.sign(secretKey, MSG) },
    { alg, op: 'verify', n: 1000, fn: () => s.verify(publicKey, MSG, sig) },
  );
}

function measure(w) {
  const n = Math.max(10, Math.round(w.n * SCALE));
  const times = Object.fromEntries(IMPLS.map((k) => [k, []]));
  const ratios = Object.fromEntries(IMPLS.map((k) => [k, []]));
  const runOn = (k) => {
    if (!native.keccakUse(k)) throw new Error(`${k}: not available`);
    try {
      return cpu(n, w.fn);
    } finally {
      native.keccakUse(undefined);
    }
  };
  for (const k of IMPLS) runOn(k); // warm-up
  for (let r = 0; r < ROUNDS; r++) {
    const round = Object.fromEntries(IMPLS.map((k) => [k, 0]));
    for (const k of [...IMPLS, ...[...IMPLS].reverse()]) round[k] += runOn(k) / 2;
    for (const k of IMPLS) {
      times[k].push(round[k]);
      ratios[k].push(round[BASE] / round[k]);
    }
  }
  const row = { ...w, n };
  for (const k of IMPLS) {
    row[k] = {
      us: median(times[k]),
      ratio: median(ratios[k]),
      lo: Math.min(...ratios[k]),
      hi: Math.max(...ratios[k]),
    };
  }
  console.error(`${w.alg} ${w.op}: ${IMPLS.map((k) => `${k} ${row[k].us.toFixed(2)} µs`).join(', ')}`);
  return row;
}

const rows = work.map(measure);

function machine() {
  let model = os.cpus()[0]?.model ?? 'unknown';
  let flags = '';
  try {
    const c = readFileSync('/proc/cpuinfo', 'utf8');
    model = /model name\s*:\s*(.*)/.exec(c)?.[1] ?? model;
    const have = new Set((/flags\s*:\s*(.*)/.exec(c)?.[1] ?? '').split(' '));
    flags = ['avx2', 'bmi2', 'avx512f', 'avx512vl', 'asimd', 'sha3'].filter((f) => have.has(f)).join(' ');
  } catch {}
  return { model, flags, cores: os.availableParallelism() };
}
const m = machine();
const i = info();
const L = [
  `CPU: ${m.model} (${m.flags}), ${m.cores} cores; Node.js ${process.version}; ML-DSA ${i.implementations['ML-DSA-65']}; the addon picks Keccak ${i.keccak}; load average at the end ${os
    .loadavg()
    .map((x) => x.toFixed(1))
    .join(' ')}.`,
  `${ROUNDS} palindromic rounds per row. \`${['node_modules/.bin/node native/bench/keccak.mjs', ...process.argv.slice(2)].join(' ')}\``,
  '',
  `CPU µs per operation (median over rounds); in brackets the ratio ${BASE} ÷ this (median, range).`,
  '',
  `| alg | operation | ${IMPLS.join(' | ')} |`,
  `|---|---|${IMPLS.map(() => '---:').join('|')}|`,
  ...rows.map(
    (r) =>
      `| ${r.alg} | ${r.op} | ${IMPLS.map((k) => `${r[k].us.toFixed(2)} (**${r[k].ratio.toFixed(2)}×** ${r[k].lo.toFixed(2)}–${r[k].hi.toFixed(2)})`).join(' | ')} |`,
  ),
];
const out = L.join('\n');
console.log(out);
if (arg('--out')) writeFileSync(arg('--out'), `${out}\n`);
