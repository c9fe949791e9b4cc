#!/usr/bin/env node
// Binding benchmark (run with Node 24: `node_modules/.bin/node native/bench/binding.mjs`).
// One run reports, side by side: JS sync API vs the direct Rust harness (same C build),
// vs @noble/post-quantum, vs node:crypto ML-DSA, auto (x86_64-avx2 / aarch64-neon) vs forced `ref`, signAsync
// throughput on the thread pool vs one sync thread with event-loop delay, and (with --rss)
// RSS growth over 1,000,000 signs. Prints a markdown report (also written with --out FILE).
//
// Flags: --iters N (default 3000)  --quick  --core (only direct vs JS, auto vs ref)  --rss [--rss-signs N]  --no-direct  --out FILE
//        --threads N (UV_THREADPOOL_SIZE for the async section; default: Node's 4, what the IdP runs with)
import { spawnSync } from 'node:child_process';
import * as nodeCrypto from 'node:crypto';
import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { dirname } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';

// Worker mode (machine ceiling): N independent threads doing sync signs, no libuv pool.
if (!isMainThread) {
  const { scheme } = await import('../index.js');
  const s = scheme(workerData.alg);
  const { secretKey } = s.keygen(new Uint8Array(32).fill(42));
  const msg = new Uint8Array(256);
  for (let i = 0; i < 100; i++) s.sign(secretKey, msg);
  parentPort.postMessage('ready');
  await new Promise((r) => parentPort.once('message', r));
  const t = performance.now();
  for (let i = 0; i < workerData.n; i++) s.sign(secretKey, msg);
  parentPort.postMessage(performance.now() - t);
  process.exit(0);
}

const args = process.argv.slice(2);
const flag = (n) => args.includes(n);
const opt = (n, d) => {
  const i = args.indexOf(n);
  return i >= 0 && args[i + 1] !== undefined ? args[i + 1] : d;
};
const cores = os.availableParallelism?.() ?? os.cpus().length;
// Must be set before the libuv pool is first used (nothing above touches it).
process.env.UV_THREADPOOL_SIZE = String(opt('--threads', process.env.UV_THREADPOOL_SIZE ?? 4));

const here = dirname(fileURLToPath(import.meta.url));
const root = dirname(here);
const lib = await import('../index.js');
const { ml_dsa44, ml_dsa65, ml_dsa87 } = await import('@noble/post-quantum/ml-dsa.js');

const QUICK = flag('--quick');
const ITERS = Number(opt('--iters', QUICK ? 500 : 3000));
const MSG = Uint8Array.from({ length: 256 }, (_, i) => (i * 31 + 7) & 0xff); // same bytes as direct.rs
const ALGS = ['ML-DSA-44', 'ML-DSA-65', 'ML-DSA-87'];
const NOBLE = { 'ML-DSA-44': ml_dsa44, 'ML-DSA-65': ml_dsa65, 'ML-DSA-87': ml_dsa87 };

function stats(samples) {
  const v = Float64Array.from(samples).sort();
  const q = (p) => v[Math.round((v.length - 1) * p)];
  return { median: q(0.5), p99: q(0.99), mean: v.reduce((a, b) => a + b, 0) / v.length };
}
function time(iters, f) {
  for (let i = 0; i < Math.max(1, iters / 10); i++) f(i);
  const out = new Float64Array(iters);
  for (let i = 0; i < iters; i++) {
    const t = process.hrtime.bigint();
    f(i);
    out[i] = Number(process.hrtime.bigint() - t) / 1000;
  }
  return stats(out);
}
const f1 = (x) => (x === undefined ? 'n/a' : x.toFixed(1));
const ms = (s) => `${f1(s.median)} / ${f1(s.p99)}`;
const ratio = (a, b) => (a && b ? (a / b).toFixed(2) : 'n/a');
const pct = (a, b) => (a && b ? `${((a / b - 1) * 100).toFixed(1)}%` : 'n/a');

function machine() {
  let model = os.cpus()[0]?.model ?? 'unknown';
  try {
    const m = /model name\s*:\s*(.*)/.exec(readFileSync('/proc/cpuinfo', 'utf8'));
    if (m) model = m[1];
  } catch {}
  const i = lib.info();
  return {
    cpu: model,
    cores,
    memGiB: (os.totalmem() / 2 ** 30).toFixed(1),
    node: process.version,
    openssl: process.versions.openssl,
    core: `mldsa-native (${i.mldsaNative}), Keccak ${i.keccak} (XKCP from ${i.sha3})`,
    build: i.build,
    cpuFlags: Object.entries(i.cpu)
      .filter(([, v]) => v)
      .map(([k]) => k)
      .join(' '),
    implementations: i.implementations,
  };
}

function direct(impl) {
  if (flag('--no-direct')) return undefined;
  const features = lib.info().build === 'native-tuned' ? ['--features', 'native-tune'] : [];
  const r = spawnSync(
    'cargo',
    [
      'run',
      '--quiet',
      '--release',
      ...features,
      '--example',
      'direct',
      '--',
      '--json',
      '--iters',
      String(ITERS),
      '--impl',
      impl,
    ],
    { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] },
  );
  if (r.status !== 0) {
    console.error(`direct harness unavailable: ${r.error?.message ?? r.stderr.trim().split('\n').pop()}`);
    return undefined;
  }
  const out = JSON.parse(r.stdout.trim().split('\n').pop());
  return Object.fromEntries(out.results.map((x) => [x.alg, x]));
}

function jsSync(impl) {
  const res = {};
  for (const alg of ALGS) {
    const s = lib.scheme(alg, { implementation: impl });
    const seeds = Array.from({ length: 64 }, () => randomBytes(32));
    const keygen = time(Math.min(ITERS, 1000), (i) => s.keygen(seeds[i & 63]).secretKey.free());
    const { publicKey, secretKey } = s.keygen(Buffer.alloc(32, 42));
    const sign = time(ITERS, () => s.sign(secretKey, MSG));
    const signDet = time(ITERS, () => s.sign(secretKey, MSG, { deterministic: true }));
    const sig = s.sign(secretKey, MSG);
    const verify = time(ITERS, () => s.verify(publicKey, MSG, sig));
    res[alg] = { implementation: s.implementation, keygen, sign, signDet, verify };
  }
  return res;
}

function noble() {
  const n = QUICK ? 50 : 300;
  const res = {};
  for (const alg of ALGS) {
    const impl = NOBLE[alg];
    const { publicKey, secretKey } = impl.keygen(Buffer.alloc(32, 42));
    const sign = time(n, () => impl.sign(MSG, secretKey));
    const sig = impl.sign(MSG, secretKey);
    const verify = time(n, () => impl.verify(sig, MSG, publicKey));
    res[alg] = { sign, verify };
  }
  return res;
}

function nodeCryptoBench() {
  const res = {};
  const b64 = (b) => Buffer.from(b).toString('base64url');
  for (const alg of ALGS) {
    try {
      const seed = Buffer.alloc(32, 42);
      const { publicKey } = lib.scheme(alg).keygen(seed);
      const priv = nodeCrypto.createPrivateKey({
        key: { kty: 'AKP', alg, pub: b64(publicKey), priv: b64(seed) },
        format: 'jwk',
      });
      const pub = nodeCrypto.createPublicKey({
        key: { kty: 'AKP', alg, pub: b64(publicKey) },
        format: 'jwk',
      });
      const sign = time(ITERS, () => nodeCrypto.sign(null, MSG, priv));
      const sig = nodeCrypto.sign(null, MSG, priv);
      if (!lib.scheme(alg).verify(publicKey, MSG, sig))
        throw new Error('node:crypto signature did not verify with the native backend');
      const verify = time(ITERS, () => nodeCrypto.verify(null, MSG, pub, sig));
      res[alg] = { sign, verify };
    } catch (e) {
      res[alg] = { error: String(e.message ?? e) };
    }
  }
  return res;
}

async function ceiling(alg, threads, n) {
  const ws = Array.from(
    { length: threads },
    () => new Worker(fileURLToPath(import.meta.url), { workerData: { alg, n } }),
  );
  await Promise.all(ws.map((w) => new Promise((r) => w.once('message', r))));
  const t = performance.now();
  const done = ws.map((w) => new Promise((r) => w.once('message', r)));
  for (const w of ws) w.postMessage('go');
  await Promise.all(done);
  return (threads * n) / ((performance.now() - t) / 1000);
}

/** Keeps `inflight` signAsync calls outstanding until N are done (as a busy IdP does). */
async function asyncMode(s, secretKey, N, inflight) {
  const h = monitorEventLoopDelay({ resolution: 1 });
  const lat = new Float64Array(N);
  let started = 0;
  const cpu0 = process.threadCpuUsage?.();
  const t = performance.now();
  h.enable();
  await new Promise((resolve, reject) => {
    let done = 0;
    const next = () => {
      if (started >= N) return;
      const i = started++;
      const t0 = performance.now();
      s.signAsync(secretKey, MSG).then(() => {
        lat[i] = performance.now() - t0;
        if (++done === N) resolve();
        else next();
      }, reject);
    };
    for (let i = 0; i < inflight; i++) next();
  });
  h.disable();
  const ops = N / ((performance.now() - t) / 1000);
  const cpu = cpu0 && process.threadCpuUsage(cpu0);
  lat.sort();
  return {
    ops,
    latP50ms: lat[Math.round((N - 1) * 0.5)],
    latP99ms: lat[Math.round((N - 1) * 0.99)],
    mainCpuUs: cpu ? (cpu.user + cpu.system) / N : Number.NaN,
    loopDelayP99ms: h.percentile(99) / 1e6,
    loopDelayMaxms: h.max / 1e6,
  };
}

async function asyncRound(s, secretKey, N) {
  const t = performance.now();
  for (let i = 0; i < N; i++) s.sign(secretKey, MSG);
  const syncOps = N / ((performance.now() - t) / 1000);
  const pool = Number(process.env.UV_THREADPOOL_SIZE);
  const inflight = Number(process.env.PQID_BENCH_INFLIGHT ?? 8 * pool);
  const defaults = lib.configureAsyncSigning();
  // One pool task per signature, every pool thread used: signAsync before batching.
  lib.configureAsyncSigning({ slots: pool, maxBatch: 1 });
  const single = await asyncMode(s, secretKey, N, inflight);
  lib.configureAsyncSigning({ slots: defaults.slots, maxBatch: defaults.maxBatch });
  const batched = await asyncMode(s, secretKey, N, inflight);
  const ceilingOps = await ceiling(s.algorithm, cores, Math.ceil(N / cores));
  return { inflight, syncOps, ceilingOps, single, batched, settings: defaults };
}

async function asyncThroughput(alg = 'ML-DSA-65') {
  const s = lib.scheme(alg);
  const { secretKey } = s.keygen(Buffer.alloc(32, 42));
  const N = QUICK ? 2000 : 6000;
  for (let i = 0; i < 200; i++) await s.signAsync(secretKey, MSG); // warm the pool
  const rounds = [];
  for (let r = 0; r < (QUICK ? 1 : 3); r++) rounds.push(await asyncRound(s, secretKey, N));
  return { alg, n: N, threads: Number(process.env.UV_THREADPOOL_SIZE), rounds };
}

function rssGrowth(alg = 'ML-DSA-65') {
  const total = Number(opt('--rss-signs', 1_000_000));
  const s = lib.scheme(alg);
  const { publicKey, secretKey } = s.keygen(Buffer.alloc(32, 42));
  for (let i = 0; i < 10_000; i++) s.sign(secretKey, MSG);
  globalThis.gc?.();
  const before = process.memoryUsage().rss;
  let peak = before;
  const t = performance.now();
  for (let i = 1; i <= total; i++) {
    const sig = s.sign(secretKey, MSG);
    if (i % 100_000 === 0) {
      peak = Math.max(peak, process.memoryUsage().rss);
      if (!s.verify(publicKey, MSG, sig)) throw new Error('verify failed');
      process.stderr.write(`  rss: ${i} signs, ${(process.memoryUsage().rss / 2 ** 20).toFixed(1)} MiB\n`);
    }
  }
  globalThis.gc?.();
  const after = process.memoryUsage().rss;
  return {
    alg,
    signs: total,
    seconds: (performance.now() - t) / 1000,
    beforeMiB: before / 2 ** 20,
    afterMiB: after / 2 ** 20,
    peakMiB: Math.max(peak, after) / 2 ** 20,
    growthMiB: (after - before) / 2 ** 20,
  };
}

// ---- run -------------------------------------------------------------------------------
const m = machine();
console.error(`machine: ${m.cpu}, ${m.cores} cores, node ${m.node}, ${m.core} (${m.build})`);
console.error('direct harness (auto, ref)…');
const dAuto = direct('auto');
const dRef = direct('ref');
console.error('JS sync (auto, ref)…');
const jAuto = jsSync('auto');
const jRef = jsSync('ref');
const CORE = flag('--core');
if (!CORE) console.error('@noble/post-quantum…');
const nb = CORE ? undefined : noble();
if (!CORE) console.error('node:crypto…');
const nc = CORE ? undefined : nodeCryptoBench();
if (!CORE) console.error('signAsync throughput…');
const at = CORE ? undefined : await asyncThroughput();
if (flag('--rss')) console.error('RSS over many signs…');
const rss = flag('--rss') ? rssGrowth() : undefined;

const L = [];
L.push(`### Machine`, '');
L.push(`| | |`, `|---|---|`);
L.push(`| CPU | ${m.cpu} (${m.cpuFlags}) |`, `| cores | ${m.cores} |`, `| memory | ${m.memGiB} GiB |`);
L.push(`| Node.js | ${m.node} (OpenSSL ${m.openssl}) |`, `| C core | ${m.core}, ${m.build} build |`);
L.push(
  `| implementation | ${Object.entries(m.implementations)
    .map(([a, i]) => `${a}: ${i}`)
    .join(', ')} |`,
);
L.push(`| iterations | ${ITERS} per op (noble: ${QUICK ? 50 : 300}); 256-byte message, empty context |`, '');

L.push('### JS sync API vs direct Rust harness (µs, median / p99)', '');
L.push(
  'sign = hedged (OS rnd, default); sign det = deterministic (fixed work per call, isolates binding overhead). Overhead = JS median / direct median − 1 (goal: sign ≤ 5 %, verify ≤ 10 %).',
  '',
);
L.push(
  '| alg | impl | op | direct | JS sync | overhead (median) | overhead (mean) |',
  '|---|---|---|---|---|---|---|',
);
for (const [label, d, j] of [
  ['auto', dAuto, jAuto],
  ['ref', dRef, jRef],
]) {
  for (const alg of ALGS) {
    for (const op of ['keygen', 'sign', 'signDet', 'verify']) {
      const a = d?.[alg]?.[op];
      const b = j[alg][op];
      L.push(
        `| ${alg} | ${j[alg].implementation} | ${op === 'signDet' ? 'sign det' : op} | ${a ? ms(a) : 'n/a'} | ${ms(b)} | ${pct(b.median, a?.median)} | ${pct(b.mean, a?.mean)} |`,
      );
    }
  }
  if (label === 'auto') L.push('| | | | | | | |');
}
L.push('');

if (nb) {
  L.push(
    '### native binding vs @noble/post-quantum vs node:crypto (µs median / p99; speedup = other / native)',
    '',
  );
  L.push(
    '| alg | op | native (auto) | native (ref) | assembly gain (ref/auto) | @noble/post-quantum | ×noble | node:crypto | ×node:crypto |',
    '|---|---|---|---|---|---|---|---|---|',
  );
  for (const alg of ALGS) {
    for (const op of ['sign', 'verify']) {
      const a = jAuto[alg][op];
      const r = jRef[alg][op];
      const n = nb[alg][op];
      const c = nc[alg].error ? undefined : nc[alg][op];
      L.push(
        `| ${alg} | ${op} | ${ms(a)} | ${ms(r)} | ${ratio(r.median, a.median)}× | ${ms(n)} | ${ratio(n.median, a.median)}× | ${c ? ms(c) : nc[alg].error} | ${c ? `${ratio(c.median, a.median)}×` : 'n/a'} |`,
      );
    }
  }
  L.push('');
}

if (at) {
  const st = at.rounds[0].settings;
  L.push(
    `### signAsync on the libuv pool vs one sync thread (${at.alg}, ${at.n} hedged signs per round, pool = ${at.threads} threads, ${at.rounds[0].inflight} in flight)`,
    '',
    `"one task per sign" = every signAsync its own pool task on all ${at.threads} pool threads (maxBatch 1, as before batching). ` +
      `"batched" = the default admission: ${st.slots} pool tasks in flight, calls that arrive while all are busy signed ${st.maxBatch} to a task. ` +
      `"ceiling" = the same signs on ${cores} worker_threads (one per core) calling the sync API (no pool, no promises): what this machine gives in parallel at that moment. ` +
      'Latency is from the call to the resolved promise; main-thread CPU is process.threadCpuUsage() per signature.',
    '',
  );
  L.push(
    '| round | mode | ops/s | × sync (goal ≥ 1.8) | × ceiling | latency p50 / p99 ms | main-thread CPU µs/sign | event-loop delay p99 / max ms (goal p99 < 2) |',
    '|---|---|---|---|---|---|---|---|',
  );
  at.rounds.forEach((r, i) => {
    L.push(
      `| ${i + 1} | sync, one thread | ${r.syncOps.toFixed(0)} | 1.00× | ${(r.syncOps / r.ceilingOps).toFixed(2)} | | | |`,
    );
    for (const [name, m] of [
      ['signAsync, one task per sign', r.single],
      ['signAsync, batched (default)', r.batched],
    ]) {
      L.push(
        `| ${i + 1} | ${name} | ${m.ops.toFixed(0)} | ${(m.ops / r.syncOps).toFixed(2)}× | ${(m.ops / r.ceilingOps).toFixed(2)} | ${m.latP50ms.toFixed(2)} / ${m.latP99ms.toFixed(2)} | ${m.mainCpuUs.toFixed(1)} | ${m.loopDelayP99ms.toFixed(2)} / ${m.loopDelayMaxms.toFixed(2)} |`,
      );
    }
    L.push(
      `| ${i + 1} | worker ceiling | ${r.ceilingOps.toFixed(0)} | ${(r.ceilingOps / r.syncOps).toFixed(2)}× | 1.00 | | | |`,
    );
  });
  L.push('');
}

if (rss) {
  L.push(`### RSS over ${rss.signs.toLocaleString('en')} sync signs (${rss.alg})`, '');
  L.push('| before MiB | after MiB | peak MiB | growth MiB (goal < 20) | seconds |', '|---|---|---|---|---|');
  L.push(
    `| ${rss.beforeMiB.toFixed(1)} | ${rss.afterMiB.toFixed(1)} | ${rss.peakMiB.toFixed(1)} | ${rss.growthMiB.toFixed(1)} | ${rss.seconds.toFixed(0)} |`,
    '',
  );
}

const report = L.join('\n');
console.log(report);
const out = opt('--out');
if (out) writeFileSync(out, `${report}\n`);
const jsonOut = opt('--json-out');
if (jsonOut)
  writeFileSync(jsonOut, JSON.stringify({ machine: m, dAuto, dRef, jAuto, jRef, nb, nc, at, rss }, null, 2));
