/**
 * `npm run bench`: ML-DSA and SLH-DSA keygen/sign/verify per parameter set per backend, JOSE-level
 * signJwt/verifyJwt of a typical ID token per algorithm, and the same token through jose's own
 * SignJWT/jwtVerify (ES256 and WebCrypto ML-DSA-65), all in one run. Prints markdown; with
 * `--write`, replaces the marked section of docs/BENCHMARKS.md. It measures the library's own
 * paths (native composites whole and split, raw backends), so like the tests it imports the
 * sources, which Node runs directly. `--jwe` runs the encryption benchmark (`jwe.ts`) instead:
 *
 *   npm run bench -- [--jwe] [--quick] [--budget <ms>] [--write] [--doc <path>]
 */
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import * as jose from 'jose';
import {
  COMPOSITES,
  type CompositeSpec,
  messageRepresentative,
  signsWhole,
} from '../src/algorithms/composite.ts';
import { lookup } from '../src/algorithms/registry.ts';
import { MLDSA_ALGS, type MlDsaAlg } from '../src/backends/params.ts';
import { chooseBackend } from '../src/backends/select.ts';
import {
  algorithms,
  type BackendName,
  backends,
  configure,
  generateKeyPair,
  importJWK,
  mldsa,
  PrivateKey,
  type PublicKey,
  preferredBackend,
  registry,
  signJwt,
  verifyJwt,
} from '../src/index.ts';
import { type CpuStats, cpuPerOp, median } from './cpu.ts';
import { CLIENT_ID, claimsBytes, ISSUER, typicalIdTokenClaims } from './id-token.ts';
import { JWE_HEADING, JWE_SECTION, jweBench } from './jwe.ts';
import { backendFor } from './label.ts';
import { type Machine, machine } from './machine.ts';
import { HEADING, mdTable, updateDoc } from './markdown.ts';
import { fmtInt, fmtRatio, fmtUs, measure, type Stats } from './measure.ts';
import { MIN_SAMPLES as SLH_MIN_SAMPLES, type SlhRow, slhRows, slhSection } from './slh-dsa.ts';

const HELP = `Usage: npm run bench -- [--jwe] [--quick] [--budget <ms>] [--write] [--doc <path>]

  --jwe           instead of signing: encrypting a signed ID token (JWE) next to signing it
  --quick         150 ms per cell instead of 1000 (rough numbers, for a quick look)
  --budget <ms>   sampling time per cell (default 1000)
  --write         replace the "${HEADING}" section of docs/BENCHMARKS.md
                  (with --jwe: the "${JWE_HEADING.replace(/^## /, '')}" section)
  --doc <path>    the markdown file to write (default docs/BENCHMARKS.md at the repository root)

Markdown goes to stdout, progress to stderr.`;

// jose's WebCrypto ML-DSA is flagged experimental by Node; one warning per run is noise here.
process.removeAllListeners('warning');
process.on('warning', (w) => {
  if (w.name === 'ExperimentalWarning' && /ML-DSA/.test(w.message)) return;
  console.error(`${w.name}: ${w.message}`);
});
// The Machine section lists the backends and why one is unavailable.
configure({ onWarning: null });

const progress = (s: string) => process.stderr.write(`${s}\n`);

// ---- raw ML-DSA -------------------------------------------------------------------------

interface RawRow {
  alg: MlDsaAlg;
  backend: BackendName;
  unavailable?: string;
  keygen?: Stats;
  /** With a prepared key (mldsa.prepareKey). */
  sign?: Stats;
  /** With the 32-byte seed: expands the key on every call. */
  signSeed?: Stats;
  verify?: Stats;
}

async function rawRows(budgetMs: number): Promise<RawRow[]> {
  const rows: RawRow[] = [];
  const message = randomBytes(1024); // about the size of an ID token's JWS signing input
  for (const alg of MLDSA_ALGS) {
    for (const b of backends()) {
      if (!b.available) {
        rows.push({ alg, backend: b.name, unavailable: b.reason ?? 'unavailable' });
        continue;
      }
      const opts = { backend: b.name };
      const { publicKey, secretKey } = await mldsa.keygen(alg, randomBytes(32), opts);
      const sig = await mldsa.sign(alg, secretKey, message, opts);
      if (!(await mldsa.verify(alg, publicKey, message, sig, opts)))
        throw new Error(`${alg} on ${b.name}: own signature did not verify`);
      progress(`raw  ${alg} ${b.name}`);
      const keygen = await measure(
        (seed) => mldsa.keygen(alg, seed, opts),
        { budgetMs },
        () => randomBytes(32),
      );
      const prepared = mldsa.prepareKey(alg, secretKey, opts);
      const sign = await measure(() => mldsa.sign(alg, prepared, message, opts), { budgetMs });
      const signSeed = await measure(() => mldsa.sign(alg, secretKey, message, opts), { budgetMs });
      const verify = await measure(() => mldsa.verify(alg, publicKey, message, sig, opts), { budgetMs });
      rows.push({ alg, backend: b.name, keygen, sign, signSeed, verify });
    }
  }
  return rows;
}

// ---- JOSE level -------------------------------------------------------------------------

interface JoseRow {
  alg: string;
  pq: boolean;
  backend: string;
  bytes: number;
  sign: Stats;
  verify: Stats;
}

async function joseRows(budgetMs: number): Promise<JoseRow[]> {
  const rows: JoseRow[] = [];
  const claims = typicalIdTokenClaims();
  for (const alg of algorithms()) {
    progress(`jose ${alg}`);
    const { privateJwk } = await generateKeyPair(alg);
    const key = await importJWK(privateJwk);
    if (!(key instanceof PrivateKey)) throw new Error('expected a private key');
    const pub: PublicKey = key.publicKey;
    const opts = { algorithms: [alg], issuer: ISSUER, audience: CLIENT_ID };
    const token = await signJwt(claims, key);
    await verifyJwt(token, pub, opts);
    const sign = await measure(() => signJwt(claims, key), { budgetMs });
    const verify = await measure(() => verifyJwt(token, pub, opts), { budgetMs });
    rows.push({
      alg,
      pq: lookup(alg).pq,
      backend: backendFor(alg),
      bytes: Buffer.byteLength(token),
      sign,
      verify,
    });
  }
  return rows;
}

/** One algorithm at the JOSE level on each available backend (configure({ backend }), read per operation). */
async function joseBackendRows(alg: string, budgetMs: number): Promise<JoseRow[]> {
  const rows: JoseRow[] = [];
  const claims = typicalIdTokenClaims();
  const saved = configure({});
  try {
    for (const b of backends()) {
      if (!b.available) continue;
      configure({ backend: b.name });
      progress(`jose ${alg} on ${b.name}`);
      const { privateJwk } = await generateKeyPair(alg);
      const key = await importJWK(privateJwk);
      if (!(key instanceof PrivateKey)) throw new Error('expected a private key');
      const opts = { algorithms: [alg], issuer: ISSUER, audience: CLIENT_ID };
      const token = await signJwt(claims, key);
      await verifyJwt(token, key.publicKey, opts);
      const sign = await measure(() => signJwt(claims, key), { budgetMs });
      const verify = await measure(() => verifyJwt(token, key.publicKey, opts), { budgetMs });
      rows.push({ alg, pq: lookup(alg).pq, backend: b.name, bytes: Buffer.byteLength(token), sign, verify });
    }
  } finally {
    configure(saved);
  }
  return rows;
}

// ---- library overhead and CPU per signature ------------------------------------------------

interface PairRow {
  what: string;
  /** Per-round medians of A and B (µs), and the per-round ratios A / B. */
  a: number[];
  b: number[];
  ratios: number[];
  /** The goal for the ratio, and which side of it passes. */
  goal?: { max?: number; min?: number };
  note?: string;
}

/** A and B measured in alternating order (A B, B A, …) so drift on a shared machine hits both. */
async function pairRounds(
  what: string,
  a: () => Promise<unknown>,
  b: () => Promise<unknown>,
  rounds: number,
  budgetMs: number,
  goal?: PairRow['goal'],
): Promise<PairRow> {
  const row: PairRow = { what, a: [], b: [], ratios: [], ...(goal ? { goal } : {}) };
  for (let r = 0; r < rounds; r++) {
    let sa: Stats;
    let sb: Stats;
    if (r % 2 === 0) {
      sa = await measure(a, { budgetMs });
      sb = await measure(b, { budgetMs });
    } else {
      sb = await measure(b, { budgetMs });
      sa = await measure(a, { budgetMs });
    }
    row.a.push(sa.median);
    row.b.push(sb.median);
    row.ratios.push(sa.median / sb.median);
  }
  return row;
}

interface NativeLike {
  scheme(alg: MlDsaAlg): {
    keygen(seed: Uint8Array): { secretKey: unknown };
    signAsync(sk: unknown, message: Uint8Array): Promise<Uint8Array>;
  };
}

async function privateKeyOf(alg: string): Promise<{ key: PrivateKey; priv: Uint8Array }> {
  const { privateJwk } = await generateKeyPair(alg);
  const key = await importJWK(privateJwk);
  if (!(key instanceof PrivateKey)) throw new Error('expected a private key');
  return { key, priv: new Uint8Array(Buffer.from(privateJwk.priv as string, 'base64url')) };
}

/** signJwt against the raw native signAsync of the same signing input; composites against pure. */
async function overheadRows(budgetMs: number, rounds: number): Promise<PairRow[]> {
  const rows: PairRow[] = [];
  const claims = typicalIdTokenClaims();
  let native: NativeLike | undefined;
  try {
    native = (await import('@pqid/liboqs-node' as string)) as NativeLike;
  } catch {
    native = undefined;
  }
  for (const alg of MLDSA_ALGS) {
    const { key, priv } = await privateKeyOf(alg);
    const token = await signJwt(claims, key);
    const input = new TextEncoder().encode(token.slice(0, token.lastIndexOf('.')));
    if (!native || preferredBackend() !== 'native') {
      rows.push({
        what: `\`signJwt\` ${alg} vs raw native \`signAsync\``,
        a: [],
        b: [],
        ratios: [],
        note: 'native backend not in use',
      });
      continue;
    }
    progress(`overhead ${alg}`);
    const { secretKey } = native.scheme(alg).keygen(priv);
    rows.push(
      await pairRounds(
        `\`signJwt\` ${alg} vs raw native \`signAsync\` of the same ${input.length}-byte signing input`,
        () => signJwt(claims, key),
        () => (native as NativeLike).scheme(alg).signAsync(secretKey, input),
        rounds,
        budgetMs,
        alg === 'ML-DSA-65' ? { max: 1.2 } : undefined,
      ),
    );
  }
  for (const c of registry().filter((e) => e.family === 'composite' && !e.unavailable())) {
    const pure = `ML-DSA-${c.alg.slice(7, 9)}`;
    progress(`overhead ${c.alg} vs ${pure}`);
    const ck = (await privateKeyOf(c.alg)).key;
    const pk = (await privateKeyOf(pure)).key;
    rows.push(
      await pairRounds(
        `\`signJwt\` ${c.alg} vs \`signJwt\` ${pure}`,
        () => signJwt(claims, ck),
        () => signJwt(claims, pk),
        rounds,
        budgetMs,
        c.alg === 'ML-DSA-65-Ed25519' ? { max: 1.15 } : undefined,
      ),
    );
  }
  return rows;
}

interface CpuRow {
  composite: string;
  pure: string;
  /** The path the backend takes by default (native: whole, or split where that costs less). */
  defaultPath: 'whole' | 'split';
  /** Native: the composite signed whole (one task); other backends: their only (split) path. */
  c: CpuStats[];
  /** Pure ML-DSA. */
  p: CpuStats[];
  /** Native only: split (ML-DSA half native, traditional half node:crypto on the thread pool). */
  s: CpuStats[];
  /** The traditional half alone through node:crypto (OpenSSL) on the thread pool, over an M′. */
  t: CpuStats[];
}

/** Runs `fn` with every composite signed `whole` or `split` on the native backend. */
async function withComposites<T>(compositeMode: 'whole' | 'split', fn: () => Promise<T>): Promise<T> {
  const saved = configure({ compositeMode });
  try {
    return await fn();
  } finally {
    configure(saved);
  }
}

/**
 * Every composite against its pure ML-DSA: process and event-loop CPU per token, whole and split
 * on native, and the traditional half alone through OpenSSL, interleaved round by round.
 */
async function cpuRows(budgetMs: number, rounds: number, inFlight: number): Promise<CpuRow[]> {
  const claims = typicalIdTokenClaims();
  const rows: CpuRow[] = [];
  const pureKeys = new Map<string, PrivateKey>();
  const native = preferredBackend() === 'native';
  for (const c of registry().filter((e) => e.family === 'composite' && !e.unavailable())) {
    const pure = `ML-DSA-${c.alg.slice(7, 9)}`;
    progress(`cpu ${c.alg} vs ${pure}`);
    const ck = (await privateKeyOf(c.alg)).key;
    let pk = pureKeys.get(pure);
    if (!pk) {
      pk = (await privateKeyOf(pure)).key;
      pureKeys.set(pure, pk);
    }
    const key = pk;
    const spec = COMPOSITES.find((x) => x.alg === c.alg) as CompositeSpec;
    const tradKey = spec.trad.fromRawPrivate(spec.trad.rawPrivate(spec.trad.generate().privateBytes));
    const mPrime = messageRepresentative(spec, randomBytes(900));
    const defaultPath = signsWhole(chooseBackend({ context: true }), spec) ? 'whole' : 'split';
    const row: CpuRow = { composite: c.alg, pure, defaultPath, c: [], p: [], s: [], t: [] };
    const cpu = (op: () => Promise<unknown>) => cpuPerOp(op, { budgetMs, inFlight });
    for (let r = 0; r < rounds; r++) {
      const runs = [
        async () => row.p.push(await cpu(() => signJwt(claims, key))),
        async () =>
          row.c.push(
            native
              ? await withComposites('whole', () => cpu(() => signJwt(claims, ck)))
              : await cpu(() => signJwt(claims, ck)),
          ),
        async () => row.t.push(await cpu(() => spec.trad.signAsync(tradKey, mPrime))),
        ...(native
          ? [async () => row.s.push(await withComposites('split', () => cpu(() => signJwt(claims, ck))))]
          : []),
      ];
      for (const run of r % 2 === 0 ? runs : runs.reverse()) await run();
    }
    rows.push(row);
  }
  return rows;
}

const fmtRange = (xs: number[]) =>
  xs.length ? `${Math.min(...xs).toFixed(2)}–${Math.max(...xs).toFixed(2)}` : '-';

function goalText(r: PairRow): string {
  if (!r.goal || !r.ratios.length) return '';
  const m = median(r.ratios);
  if (r.goal.max !== undefined) return `≤ ${r.goal.max}: ${m <= r.goal.max ? 'met' : '**not met**'}`;
  if (r.goal.min !== undefined) return `≥ ${r.goal.min}: ${m >= r.goal.min ? 'met' : '**not met**'}`;
  return '';
}

function overheadSection(rows: PairRow[]): string {
  return mdTable(
    [
      'comparison (A vs B)',
      'A median µs',
      'B median µs',
      'A / B (median of rounds)',
      'min–max of rounds',
      'goal',
    ],
    rows.map((r) =>
      r.note
        ? [r.what, '-', '-', '-', '-', r.note]
        : [
            r.what,
            fmtUs(median(r.a)),
            fmtUs(median(r.b)),
            `${median(r.ratios).toFixed(2)}×`,
            fmtRange(r.ratios),
            goalText(r),
          ],
    ),
    [L, R, R, R, R, L],
  );
}

function cpuSection(rows: CpuRow[]): string {
  const m = (xs: CpuStats[], f: (s: CpuStats) => number) => (xs.length ? fmtInt(median(xs.map(f))) : '-');
  const mu = (xs: CpuStats[], f: (s: CpuStats) => number) => (xs.length ? fmtUs(median(xs.map(f))) : '-');
  /** Median of per-round ratios x / pure, and its range. */
  const ratio = (r: CpuRow, xs: CpuStats[], f: (s: CpuStats) => number) => {
    const q = xs.map((x, i) => f(x) / f(r.p[i] as CpuStats));
    return q.length ? `${median(q).toFixed(2)} (${fmtRange(q)})` : '-';
  };
  const core = (s: CpuStats) => s.perCoreSecond;
  const main = (s: CpuStats) => s.mainUs;
  const byDefault = (r: CpuRow) => (r.defaultPath === 'split' && r.s.length ? r.s : r.c);
  const cheaper = (r: CpuRow) => {
    if (!r.s.length) return '-';
    const whole = median(r.c.map(core));
    const split = median(r.s.map(core));
    return whole >= split ? 'whole' : 'split';
  };
  const goal = (r: CpuRow) => {
    const q = median(byDefault(r).map((x, i) => core(x) / core(r.p[i] as CpuStats)));
    return `${ratio(r, byDefault(r), core)}${q >= 0.87 ? '' : ' **not met**'}`;
  };
  return mdTable(
    [
      'composite',
      'vs',
      'default path (cheaper in this run)',
      'tokens per core-s: whole / split / pure',
      'default ÷ pure (goal ≥ 0.87)',
      'whole ÷ pure',
      'split ÷ pure',
      'main-thread µs per token: whole / split / pure',
      'default ÷ pure (goal ≤ 1.00)',
      'tokens/s wall: whole / split / pure',
    ],
    rows.map((r) => [
      r.composite,
      r.pure,
      `${r.defaultPath} (${cheaper(r)})`,
      `${m(r.c, core)} / ${m(r.s, core)} / ${m(r.p, core)}`,
      goal(r),
      ratio(r, r.c, core),
      ratio(r, r.s, core),
      `${mu(r.c, main)} / ${mu(r.s, main)} / ${mu(r.p, main)}`,
      ratio(r, byDefault(r), main),
      `${m(r.c, (s) => s.perWallSecond)} / ${m(r.s, (s) => s.perWallSecond)} / ${m(r.p, (s) => s.perWallSecond)}`,
    ]),
    [L, L, L, R, R, R, R, R, R, R],
  );
}

/**
 * Where each composite's CPU per token goes: pure ML-DSA, what the traditional half adds on each
 * path (whole − pure, split − pure, per round), and the half alone through OpenSSL. The floor
 * is pure ÷ (pure + the cheapest traditional half measured here): no path can do better.
 */
function floorSection(rows: CpuRow[]): string {
  const cpu = (s: CpuStats) => s.cpuUs;
  const minus = (xs: CpuStats[], r: CpuRow) => xs.map((x, i) => cpu(x) - cpu(r.p[i] as CpuStats));
  const us = (xs: number[]) => (xs.length ? fmtUs(median(xs)) : '-');
  return mdTable(
    [
      'composite',
      'pure ML-DSA µs per token',
      'whole − pure µs (native half in the same task)',
      'split − pure µs (OpenSSL half on the pool, and its scheduling)',
      'OpenSSL half alone µs (node:crypto on the pool)',
      'floor: pure ÷ (pure + cheapest half)',
    ],
    rows.map((r) => {
      const pure = median(r.p.map(cpu));
      const halves = [
        median(minus(r.c, r)),
        ...(r.s.length ? [median(minus(r.s, r))] : []),
        median(r.t.map(cpu)),
      ];
      const cheapest = Math.min(...halves.filter((h) => Number.isFinite(h)));
      return [
        r.composite,
        fmtUs(pure),
        us(minus(r.c, r)),
        us(minus(r.s, r)),
        us(r.t.map(cpu)),
        (pure / (pure + Math.max(cheapest, 0))).toFixed(2),
      ];
    }),
    [L, R, R, R, R, R],
  );
}

// ---- jose's own SignJWT, for comparison ---------------------------------------------------

interface JoseLibRow {
  alg: string;
  bytes: number;
  sign: Stats;
  verify: Stats;
  unavailable?: string;
}

async function joseLibRow(alg: 'ES256' | 'ML-DSA-65', budgetMs: number): Promise<JoseLibRow> {
  const claims = typicalIdTokenClaims();
  let keys: jose.GenerateKeyPairResult;
  try {
    keys = await jose.generateKeyPair(alg);
  } catch (e) {
    const none = measureNone();
    return { alg, bytes: Number.NaN, sign: none, verify: none, unavailable: (e as Error).message };
  }
  progress(`jose-lib ${alg}`);
  // An RFC 7638 thumbprint kid, as pqid uses, so the token sizes compare like for like.
  const kid = await jose.calculateJwkThumbprint(await jose.exportJWK(keys.publicKey));
  const sign = () =>
    new jose.SignJWT(claims).setProtectedHeader({ alg, typ: 'JWT', kid }).sign(keys.privateKey);
  const token = await sign();
  const vopts = { algorithms: [alg], issuer: ISSUER, audience: CLIENT_ID };
  await jose.jwtVerify(token, keys.publicKey, vopts);
  return {
    alg,
    bytes: Buffer.byteLength(token),
    sign: await measure(sign, { budgetMs }),
    verify: await measure(() => jose.jwtVerify(token, keys.publicKey, vopts), { budgetMs }),
  };
}

const measureNone = (): Stats => ({
  samples: 0,
  median: Number.NaN,
  p99: Number.NaN,
  mean: Number.NaN,
  min: Number.NaN,
  opsPerSec: Number.NaN,
});

// ---- report -------------------------------------------------------------------------------

const R = 'r' as const;
const L = 'l' as const;

function machineSection(m: Machine, budgetMs: number, started: Date, seconds: number): string {
  const rows: [string, string][] = [
    ['CPU', `${m.cpu} (${m.cores} logical cores available)`],
    ['CPU flags', m.cpuFlags],
    ['Memory', `${m.memoryGiB} GiB`],
    ['OS', m.os],
    ['Node.js', `${m.node} (V8 ${m.v8})`],
    ['OpenSSL', m.openssl],
    ['jose / @noble/post-quantum', `${m.packages.jose} / ${m.packages['@noble/post-quantum']}`],
    ['Load average at start', m.loadavg.join(' / ')],
    ...m.backends.map((b): [string, string] => [
      `Backend \`${b.name}\``,
      b.available ? `${b.implementation ?? 'available'}` : `**unavailable**: ${b.reason ?? 'unknown reason'}`,
    ]),
    [
      'Run',
      `${started.toISOString().replace(/\.\d+Z$/, 'Z')}, ${budgetMs} ms sampling per cell after warm-up, ${Math.round(seconds)} s in all`,
    ],
  ];
  return mdTable(['', ''], rows);
}

function rawSection(rows: RawRow[]): string {
  return mdTable(
    [
      'alg',
      'backend',
      'keygen median',
      'keygen p99',
      'sign median (prepared key)',
      'sign p99',
      'sign median (seed)',
      'verify median',
      'verify p99',
      'sign ops/s',
      'verify ops/s',
    ],
    rows.map((r) =>
      r.unavailable
        ? [r.alg, r.backend, 'unavailable', '-', '-', '-', '-', '-', '-', '-', '-']
        : [
            r.alg,
            r.backend,
            fmtUs(r.keygen?.median ?? Number.NaN),
            fmtUs(r.keygen?.p99 ?? Number.NaN),
            fmtUs(r.sign?.median ?? Number.NaN),
            fmtUs(r.sign?.p99 ?? Number.NaN),
            fmtUs(r.signSeed?.median ?? Number.NaN),
            fmtUs(r.verify?.median ?? Number.NaN),
            fmtUs(r.verify?.p99 ?? Number.NaN),
            fmtInt(r.sign?.opsPerSec ?? Number.NaN),
            fmtInt(r.verify?.opsPerSec ?? Number.NaN),
          ],
    ),
    [L, L, R, R, R, R, R, R, R, R, R],
  );
}

function joseSection(rows: JoseRow[]): string {
  return mdTable(
    [
      'alg',
      'PQ',
      'backend',
      'token bytes',
      'signJwt median',
      'signJwt p99',
      'sign ops/s',
      'verifyJwt median',
      'verifyJwt p99',
      'verify ops/s',
    ],
    rows.map((r) => [
      r.alg,
      r.pq ? 'yes' : 'no',
      r.backend,
      r.bytes,
      fmtUs(r.sign.median),
      fmtUs(r.sign.p99),
      fmtInt(r.sign.opsPerSec),
      fmtUs(r.verify.median),
      fmtUs(r.verify.p99),
      fmtInt(r.verify.opsPerSec),
    ]),
    [L, L, L, R, R, R, R, R, R, R],
  );
}

function comparisonSection(
  ours: JoseRow[],
  perBackend: JoseRow[],
  lib: JoseLibRow[],
  joseVersion: string,
): string {
  const pick = (alg: string) => ours.find((r) => r.alg === alg);
  const entries: { impl: string; alg: string; bytes: number; sign: Stats; verify: Stats; note?: string }[] =
    [];
  for (const l of lib) {
    entries.push({
      impl: `jose ${joseVersion} \`SignJWT\` / \`jwtVerify\`${l.alg.startsWith('ML-DSA') ? ' (WebCrypto, OpenSSL)' : ''}`,
      alg: l.alg,
      bytes: l.bytes,
      sign: l.sign,
      verify: l.verify,
      ...(l.unavailable ? { note: `unavailable: ${l.unavailable}` } : {}),
    });
  }
  const es = pick('ES256');
  if (es)
    entries.push({
      impl: `pqid \`signJwt\` / \`verifyJwt\` (${es.backend})`,
      alg: 'ES256',
      bytes: es.bytes,
      sign: es.sign,
      verify: es.verify,
    });
  for (const o of perBackend) {
    entries.push({
      impl: `pqid \`signJwt\` / \`verifyJwt\`, \`${o.backend}\` backend`,
      alg: o.alg,
      bytes: o.bytes,
      sign: o.sign,
      verify: o.verify,
    });
  }
  return mdTable(
    ['implementation', 'alg', 'token bytes', 'sign median', 'sign p99', 'verify median', 'verify p99'],
    entries.map((e) =>
      e.note
        ? [e.impl, e.alg, e.note, '', '', '', '']
        : [
            e.impl,
            e.alg,
            e.bytes,
            fmtUs(e.sign.median),
            fmtUs(e.sign.p99),
            fmtUs(e.verify.median),
            fmtUs(e.verify.p99),
          ],
    ),
    [L, L, R, R, R, R, R],
  );
}

function ratioSection(raw: RawRow[], ours: JoseRow[], perBackend: JoseRow[], lib: JoseLibRow[]): string {
  const o = (alg: string) => ours.find((r) => r.alg === alg);
  const j = (alg: string) => lib.find((r) => r.alg === alg && !r.unavailable);
  const rows: (string | number)[][] = [];
  const ratio = (a?: Stats, b?: Stats) => fmtRatio((a?.median ?? Number.NaN) / (b?.median ?? Number.NaN));
  const add = (
    what: string,
    a?: { sign?: Stats; verify?: Stats; keygen?: Stats },
    b?: { sign?: Stats; verify?: Stats; keygen?: Stats },
  ) => rows.push([what, ratio(a?.keygen, b?.keygen), ratio(a?.sign, b?.sign), ratio(a?.verify, b?.verify)]);
  add('pqid ML-DSA-65 vs jose ES256', o('ML-DSA-65'), j('ES256'));
  add('pqid ML-DSA-65 vs pqid ES256', o('ML-DSA-65'), o('ES256'));
  add('pqid ML-DSA-65 vs jose ML-DSA-65 (WebCrypto)', o('ML-DSA-65'), j('ML-DSA-65'));
  const pb = (b: string) => perBackend.find((x) => x.backend === b);
  add('pqid ML-DSA-65 on `node` vs jose ML-DSA-65 (both OpenSSL)', pb('node'), j('ML-DSA-65'));
  add('pqid ML-DSA-65 JOSE level: noble vs native', pb('noble'), pb('native'));
  add('pqid ML-DSA-65 JOSE level: node vs native', pb('node'), pb('native'));
  add('pqid ML-DSA-65 JOSE level: noble vs node', pb('noble'), pb('node'));
  add('pqid ES256 vs jose ES256 (pqid layer overhead)', o('ES256'), j('ES256'));
  add('pqid ML-DSA-65-ES256 composite vs pqid ML-DSA-65', o('ML-DSA-65-ES256'), o('ML-DSA-65'));
  const r = (alg: MlDsaAlg, b: BackendName) =>
    raw.find((x) => x.alg === alg && x.backend === b && !x.unavailable);
  for (const alg of MLDSA_ALGS) {
    add(`raw ${alg}: noble vs native`, r(alg, 'noble'), r(alg, 'native'));
    add(`raw ${alg}: node vs native`, r(alg, 'node'), r(alg, 'native'));
    add(`raw ${alg}: noble vs node`, r(alg, 'noble'), r(alg, 'node'));
  }
  const es = o('ES256');
  const ml = o('ML-DSA-65');
  const table = mdTable(['comparison (A vs B = median A / median B)', 'keygen', 'sign', 'verify'], rows, [
    L,
    R,
    R,
    R,
  ]);
  const size =
    es && ml
      ? `\n\nToken size: pqid ML-DSA-65 ${ml.bytes} bytes vs ES256 ${es.bytes} bytes, ${fmtRatio(ml.bytes / es.bytes)}.`
      : '';
  return `${table}${size}`;
}

interface Extra {
  overhead: PairRow[];
  cpu: CpuRow[];
  rounds: number;
  inFlight: number;
}

/** The library's overhead over the raw signature, and the CPU each composite costs. */
function costSections(extra: Extra): string {
  return [
    '### Library overhead',
    '',
    `Median latency of one operation at a time, A and B measured alternately in ${extra.rounds} rounds (A B, B A, …);`,
    'the ratio is the median of the per-round ratios, with their range. `signJwt` builds the header, serialises',
    'and encodes the claims and signs; the raw native `signAsync` signs the bytes `signJwt` produced, with the',
    'same key.',
    '',
    overheadSection(extra.overhead),
    '',
    '### CPU per token: every composite against its pure ML-DSA',
    '',
    `\`signJwt\` of the same claims with ${extra.inFlight} signatures in flight (as on a loaded server, so the native`,
    'queue batches). "Whole": the composite signed in one native call (`configure({ compositeMode: \'whole\' })`);',
    '"split": the same key with `compositeMode: \'split\'`, the ML-DSA half on the native backend and the traditional',
    'half through node:crypto on the thread pool; "pure": the ML-DSA alone. "Default" is the path the `native`',
    'backend takes by default (`auto`: whole, except where the split path costs less CPU: see',
    '`SPLIT_BY_DEFAULT` in `packages/jose/src/backends/native.ts`); the column says which path was cheaper in this',
    "run. The paths alternate in each round. Tokens per core-second = 10⁶ ÷ the process's CPU µs per token",
    '(`process.cpuUsage`: event loop and libuv pool); main-thread µs = `process.threadCpuUsage` of the event',
    'loop per token. Ratios are medians of the per-round ratios, with their range.',
    '',
    cpuSection(extra.cpu),
    '',
    '#### Where the CPU goes, and the floor',
    '',
    'Process CPU µs per token from the same rounds: what the traditional half adds on each path, and the half',
    'alone (node:crypto `sign` with a callback over an M′, in the same rounds). The floor is what the composite',
    'would keep of its pure ML-DSA if its traditional half cost only the cheapest implementation measured here.',
    '',
    floorSection(extra.cpu),
  ].join('\n');
}

function report(
  m: Machine,
  budgetMs: number,
  started: Date,
  seconds: number,
  raw: RawRow[],
  slh: SlhRow[],
  ours: JoseRow[],
  perBackend: JoseRow[],
  lib: JoseLibRow[],
  extra: Extra,
): string {
  const claims = typicalIdTokenClaims();
  const unavailable = m.backends.filter((b) => !b.available);
  return [
    '_Generated by `npm run bench -- --write` (`packages/jose/bench/main.ts`); do not edit between the markers._',
    '',
    '**Read the ratios, not the absolute numbers.** This machine is shared with other jobs and noisy: absolute',
    'times move by tens of percent between runs, but everything below was measured side by side in one run, so',
    'the ratios between rows hold up much better. All times are microseconds per operation, one operation at a',
    'time (sequential awaits, no concurrency); ops/s is 1 / mean. p99 is nearest-rank over the samples of a cell',
    '(at least 20 per cell; with fewer than 100 samples it is the maximum). Warm-up runs are not sampled.',
    ...(unavailable.length
      ? [
          '',
          `**Not measured here:** ${unavailable.map((b) => `\`${b.name}\` backend (${b.reason ?? 'unavailable'})`).join('; ')}.`,
        ]
      : []),
    '',
    '### Machine',
    '',
    machineSection(m, budgetMs, started, seconds),
    '',
    '### Raw ML-DSA (`mldsa.keygen` / `mldsa.sign` / `mldsa.verify`), per backend',
    '',
    'A 1024-byte message, hedged signing, empty context. "Prepared key" signs with `mldsa.prepareKey(alg, seed)`,',
    'made once; "seed" passes the 32-byte seed to every `mldsa.sign`, which expands the key (FIPS 204 KeyGen) on',
    'every call. The JOSE layer below, @pqid/xmldsig and the IdP always sign with prepared keys.',
    '',
    rawSection(raw),
    '',
    '### Raw SLH-DSA (`slhdsa.generate` / `slhdsa.sign` / `slhdsa.verify`), per backend',
    '',
    'The same 1024-byte message, hedged signing (opt_rand from the backend), empty context; keygen is a fresh',
    `random key. SLH-DSA is slow by design, so these cells take at least ${SLH_MIN_SAMPLES} samples after one warm-up run,`,
    'and their p99 is the maximum. The `s` sets are the small-signature ones the drafts register; the cold path',
    'signs with them rarely (root certificates, signed metadata), never per token.',
    '',
    slhSection(slh),
    '',
    `### JOSE: \`signJwt\` / \`verifyJwt\` of a typical ID token, default backend`,
    '',
    `The same ${claimsBytes(claims)}-byte claims set (iss, sub, aud, exp, iat, auth_time, nonce, sid, at_hash, acr, amr,`,
    'profile, email, locale, picture URL) for every algorithm, `typ: JWT` and `kid` in the header; verification',
    'checks the signature, `iss`, `aud` and `exp`. Backend: the ML-DSA backend picked automatically (on `native`',
    'a composite is one native call, both halves, except where its split path costs less CPU, Ed448; elsewhere',
    'the traditional half goes through node:crypto); classical algorithms run through `jose`.',
    '',
    joseSection(ours),
    '',
    '### Side by side with `jose`',
    '',
    "The same claims (and a thumbprint `kid`) signed by `jose`'s own `SignJWT` and verified by `jwtVerify` with the",
    "same checks, next to pqid's ES256 and pqid's ML-DSA-65 on each available backend (prepared key, as in the",
    "table above). jose's ML-DSA goes through WebCrypto, i.e. the same OpenSSL as pqid's `node` backend.",
    '',
    comparisonSection(ours, perBackend, lib, m.packages.jose ?? ''),
    '',
    '### Ratios',
    '',
    'Above 1× means A is slower than B. A `-` means one side was not measured (backend unavailable).',
    '',
    ratioSection(raw, ours, perBackend, lib),
    '',
    costSections(extra),
  ].join('\n');
}

/** The signing benchmark: every table but the JWE one, as markdown. */
async function signingBench(budgetMs: number, quick: boolean): Promise<string> {
  const started = new Date();
  const m = machine();
  const t0 = process.hrtime.bigint();
  const raw = await rawRows(budgetMs);
  const slh = await slhRows(budgetMs, progress);
  const ours = await joseRows(budgetMs);
  const perBackend = await joseBackendRows('ML-DSA-65', budgetMs);
  const lib = [await joseLibRow('ES256', budgetMs), await joseLibRow('ML-DSA-65', budgetMs)];
  const rounds = quick ? 2 : 4;
  const inFlight = 16;
  const overhead = await overheadRows(budgetMs, rounds);
  const cpu = await cpuRows(budgetMs, rounds, inFlight);
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
  return report(m, budgetMs, started, seconds, raw, slh, ours, perBackend, lib, {
    overhead,
    cpu,
    rounds,
    inFlight,
  });
}

async function main(): Promise<number> {
  let values: {
    jwe?: boolean;
    quick?: boolean;
    budget?: string;
    write?: boolean;
    doc?: string;
    help?: boolean;
  };
  try {
    ({ values } = parseArgs({
      options: {
        jwe: { type: 'boolean' },
        quick: { type: 'boolean' },
        budget: { type: 'string' },
        write: { type: 'boolean' },
        doc: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
    }));
  } catch (e) {
    console.error(`bench: ${(e as Error).message}\n\n${HELP}`);
    return 2;
  }
  if (values.help) {
    console.log(HELP);
    return 0;
  }
  const budgetMs = values.budget !== undefined ? Number(values.budget) : values.quick ? 150 : 1000;
  if (!Number.isFinite(budgetMs) || budgetMs <= 0) {
    console.error('bench: --budget must be a positive number of milliseconds');
    return 2;
  }
  const md = values.jwe ? await jweBench(budgetMs) : await signingBench(budgetMs, values.quick === true);
  console.log(md);
  if (values.write) {
    const doc = values.doc ?? fileURLToPath(new URL('../../../docs/BENCHMARKS.md', import.meta.url));
    const how = values.jwe ? updateDoc(doc, md, JWE_SECTION) : updateDoc(doc, md);
    progress(`\n${how} ${doc}`);
  }
  return 0;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (e: unknown) => {
    console.error(`bench failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
    process.exitCode = 1;
  },
);
