/**
 * `npm run bench`: ML-DSA and SLH-DSA keygen/sign/verify per parameter set per backend, JOSE-level
 * signJwt/verifyJwt of a typical ID token per algorithm, and the same token through jose's own
 * SignJWT/jwtVerify (ES256 and WebCrypto ML-DSA-65), all in one run. Prints markdown; with
 * `--write`, replaces the marked section of docs/BENCHMARKS.md.
 *
 *   node packages/jose/dist/bench.js [--quick] [--budget <ms>] [--write] [--doc <path>]
 */
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import * as jose from 'jose';
import { algorithms, lookup } from './algorithms/registry.ts';
import { MLDSA_ALGS, type MlDsaAlg } from './backends/params.ts';
import { backends } from './backends/select.ts';
import type { BackendName } from './backends/types.ts';
import { CLIENT_ID, claimsBytes, ISSUER, typicalIdTokenClaims } from './bench/id-token.ts';
import { backendFor } from './bench/label.ts';
import { type Machine, machine } from './bench/machine.ts';
import { HEADING, mdTable, updateDoc } from './bench/markdown.ts';
import { fmtInt, fmtRatio, fmtUs, measure, type Stats } from './bench/measure.ts';
import { MIN_SAMPLES as SLH_MIN_SAMPLES, type SlhRow, slhRows, slhSection } from './bench/slh-dsa.ts';
import { signJwt, verifyJwt } from './jwt.ts';
import { PrivateKey, type PublicKey } from './keys/handles.ts';
import { generateKeyPair, importJWK } from './keys/jwk.ts';
import { mldsa } from './mldsa.ts';

const HELP = `Usage: node packages/jose/dist/bench.js [--quick] [--budget <ms>] [--write] [--doc <path>]

  --quick         150 ms per cell instead of 1000 (rough numbers, for a quick look)
  --budget <ms>   sampling time per cell (default 1000)
  --write         replace the "${HEADING}" section of docs/BENCHMARKS.md
  --doc <path>    the markdown file to write (default docs/BENCHMARKS.md at the repository root)

Markdown goes to stdout, progress to stderr.`;

// jose's WebCrypto ML-DSA is flagged experimental by Node; one warning per run is noise here.
process.removeAllListeners('warning');
process.on('warning', (w) => {
  if (w.name === 'ExperimentalWarning' && /ML-DSA/.test(w.message)) return;
  console.error(`${w.name}: ${w.message}`);
});
process.env.PQID_QUIET ??= '1';

const progress = (s: string) => process.stderr.write(`${s}\n`);

// ---- raw ML-DSA -------------------------------------------------------------------------

interface RawRow {
  alg: MlDsaAlg;
  backend: BackendName;
  unavailable?: string;
  keygen?: Stats;
  sign?: Stats;
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
      const sign = await measure(() => mldsa.sign(alg, secretKey, message, opts), { budgetMs });
      const verify = await measure(() => mldsa.verify(alg, publicKey, message, sig, opts), { budgetMs });
      rows.push({ alg, backend: b.name, keygen, sign, verify });
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

/** One algorithm at the JOSE level on each available backend (PQID_BACKEND, read per operation). */
async function joseBackendRows(alg: string, budgetMs: number): Promise<JoseRow[]> {
  const rows: JoseRow[] = [];
  const claims = typicalIdTokenClaims();
  const saved = process.env.PQID_BACKEND;
  try {
    for (const b of backends()) {
      if (!b.available) continue;
      process.env.PQID_BACKEND = b.name;
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
    if (saved === undefined) delete process.env.PQID_BACKEND;
    else process.env.PQID_BACKEND = saved;
  }
  return rows;
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
      'sign median',
      'sign p99',
      'verify median',
      'verify p99',
      'sign ops/s',
      'verify ops/s',
    ],
    rows.map((r) =>
      r.unavailable
        ? [r.alg, r.backend, 'unavailable', '-', '-', '-', '-', '-', '-', '-']
        : [
            r.alg,
            r.backend,
            fmtUs(r.keygen?.median ?? Number.NaN),
            fmtUs(r.keygen?.p99 ?? Number.NaN),
            fmtUs(r.sign?.median ?? Number.NaN),
            fmtUs(r.sign?.p99 ?? Number.NaN),
            fmtUs(r.verify?.median ?? Number.NaN),
            fmtUs(r.verify?.p99 ?? Number.NaN),
            fmtInt(r.sign?.opsPerSec ?? Number.NaN),
            fmtInt(r.verify?.opsPerSec ?? Number.NaN),
          ],
    ),
    [L, L, R, R, R, R, R, R, R, R],
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
): string {
  const claims = typicalIdTokenClaims();
  const unavailable = m.backends.filter((b) => !b.available);
  return [
    '_Generated by `packages/jose/src/bench.ts`; do not edit between the markers._',
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
    'A 1024-byte message, hedged signing, empty context. `mldsa.sign` takes the 32-byte seed, so every raw sign',
    'also expands the key (FIPS 204 KeyGen) before signing; the JOSE layer below prepares a key once and reuses it.',
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
    'checks the signature, `iss`, `aud` and `exp`. Backend: the ML-DSA backend picked automatically (composites',
    'add their traditional half through node:crypto); classical algorithms run through `jose`.',
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
  ].join('\n');
}

async function main(): Promise<number> {
  let values: { quick?: boolean; budget?: string; write?: boolean; doc?: string; help?: boolean };
  try {
    ({ values } = parseArgs({
      options: {
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
  const started = new Date();
  const m = machine();
  const t0 = process.hrtime.bigint();
  const raw = await rawRows(budgetMs);
  const slh = await slhRows(budgetMs, progress);
  const ours = await joseRows(budgetMs);
  const perBackend = await joseBackendRows('ML-DSA-65', budgetMs);
  const lib = [await joseLibRow('ES256', budgetMs), await joseLibRow('ML-DSA-65', budgetMs)];
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
  const md = report(m, budgetMs, started, seconds, raw, slh, ours, perBackend, lib);
  console.log(md);
  if (values.write) {
    const doc = values.doc ?? fileURLToPath(new URL('../../../docs/BENCHMARKS.md', import.meta.url));
    const how = updateDoc(doc, md);
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
