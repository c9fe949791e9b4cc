/**
 * What encrypting an ID token costs, next to signing it: for each JWE `alg`/`enc` (and HPKE
 * backend), the median time and the process CPU per token to encrypt a signed ML-DSA-65 ID token
 * and to decrypt it, against signJwt alone; and the size of the result against the cookie,
 * header and URL limits. All measured side by side in one run. `main.ts` runs it with `--jwe`
 * and, with `--write`, replaces the JWE section of docs/BENCHMARKS.md:
 *
 *   npm run bench -- --jwe [--quick] [--budget <ms>] [--write] [--doc <path>]
 */
import {
  type DecryptionKey,
  decryptCompact,
  type EncryptionKey,
  encryptJwt,
  generateEncryptionKeyPair,
  generateKeyPair,
  getJweAlgorithm,
  type HpkeBackend,
  importEncryptionKey,
  importJWK,
  inspectJwe,
  inspectToken,
  type PrivateKey,
  preferredBackend,
  signJwt,
} from '../src/index.ts';
import { cpuPerOp } from './cpu.ts';
import { typicalIdTokenClaims } from './id-token.ts';
import { machine } from './machine.ts';
import { type DocSection, mdTable } from './markdown.ts';
import { fmtInt, fmtRatio, fmtUs, measure } from './measure.ts';

export const JWE_HEADING = '## Encrypted ID tokens: JWE cost and size next to signing';
/** The section of docs/BENCHMARKS.md that `--jwe --write` owns. */
export const JWE_SECTION: DocSection = {
  start: '<!-- bench:jwe:start -->',
  end: '<!-- bench:jwe:end -->',
  intro: `${JWE_HEADING}\n\nRegenerate with \`npm run bench -- --jwe --write\` (\`--quick\` for a rough run).\n`,
};

const progress = (s: string) => process.stderr.write(`${s}\n`);

/** The JWE configurations measured: every PQ and PQ/T suite, a classical HPKE suite, jose's. */
const CONFIGS: { alg: string; enc?: string; backend?: HpkeBackend }[] = [
  { alg: 'HPKE-9', backend: 'node' },
  { alg: 'HPKE-9', backend: 'noble' },
  { alg: 'HPKE-9-KE', enc: 'A128CBC-HS256', backend: 'node' },
  { alg: 'HPKE-8', backend: 'node' },
  { alg: 'HPKE-10', backend: 'node' },
  { alg: 'HPKE-12', backend: 'node' },
  { alg: 'HPKE-12', backend: 'noble' },
  { alg: 'HPKE-13', backend: 'node' },
  { alg: 'HPKE-0', backend: 'node' },
  { alg: 'HPKE-3', backend: 'node' },
  { alg: 'RSA-OAEP-256', enc: 'A128CBC-HS256' },
  { alg: 'ECDH-ES', enc: 'A128CBC-HS256' },
  { alg: 'ECDH-ES+A128KW', enc: 'A128CBC-HS256' },
];

interface Row {
  label: string;
  pq: string;
  encUs: number;
  decUs: number;
  encCpu: number;
  decCpu: number;
  bytes: number;
  fits: string;
}

const fitsOf = (f: ReturnType<typeof inspectToken>['fits']) =>
  [f.cookie.fits ? 'cookie' : '', f.authorizationHeader.fits ? 'header' : '', f.url.fits ? 'URL' : '']
    .filter(Boolean)
    .join(', ') || 'body only';

async function keys(alg: string): Promise<{ priv: DecryptionKey; pub: EncryptionKey }> {
  const { privateJwk, publicJwk } = await generateEncryptionKeyPair(alg);
  return {
    priv: (await importEncryptionKey(privateJwk)) as DecryptionKey,
    pub: (await importEncryptionKey(publicJwk)) as EncryptionKey,
  };
}

async function run(budgetMs: number) {
  const claims = typicalIdTokenClaims();
  const signer = (await importJWK((await generateKeyPair('ML-DSA-65')).privateJwk)) as PrivateKey;
  const jws = await signJwt(claims, signer);
  progress('sign ML-DSA-65');
  const sign = {
    us: (await measure(() => signJwt(claims, signer), { budgetMs })).median,
    cpu: (await cpuPerOp(() => signJwt(claims, signer), { budgetMs })).cpuUs,
    bytes: Buffer.byteLength(jws),
    fits: fitsOf(inspectToken(jws).fits),
  };
  const rows: Row[] = [];
  for (const c of CONFIGS) {
    const label = `${c.alg}${c.enc ? ` / ${c.enc}` : ''}${c.backend ? ` (${c.backend})` : ''}`;
    progress(label);
    const entry = getJweAlgorithm(c.alg);
    const { priv, pub } = await keys(c.alg);
    const opts = { ...(c.enc ? { enc: c.enc } : {}), ...(c.backend ? { backend: c.backend } : {}) };
    const dopts = {
      keyManagementAlgorithms: [c.alg],
      contentEncryptionAlgorithms: c.enc ? [c.enc] : [],
      ...(c.backend ? { backend: c.backend } : {}),
    };
    const jwe = await encryptJwt(jws, pub, opts);
    await decryptCompact(jwe, priv, dopts);
    const info = inspectJwe(jwe);
    rows.push({
      label,
      pq: entry.hybrid ? 'PQ/T' : entry.pq ? 'PQ' : '—',
      encUs: (await measure(() => encryptJwt(jws, pub, opts), { budgetMs })).median,
      decUs: (await measure(() => decryptCompact(jwe, priv, dopts), { budgetMs })).median,
      encCpu: (await cpuPerOp(() => encryptJwt(jws, pub, opts), { budgetMs })).cpuUs,
      decCpu: (await cpuPerOp(() => decryptCompact(jwe, priv, dopts), { budgetMs })).cpuUs,
      bytes: info.bytes.token,
      fits: fitsOf(info.fits),
    });
  }
  return { sign, rows };
}

function report(budgetMs: number, seconds: number, r: Awaited<ReturnType<typeof run>>): string {
  const m = machine();
  const head = [
    'JWE (`alg` / `enc`, backend)',
    'quantum-safe',
    'encrypt µs',
    'decrypt µs',
    'encrypt CPU µs',
    'decrypt CPU µs',
    'sign + encrypt vs sign (CPU)',
    'JWE bytes',
    'fits',
  ];
  const rows = r.rows.map((x) => [
    x.label,
    x.pq,
    fmtUs(x.encUs),
    fmtUs(x.decUs),
    fmtUs(x.encCpu),
    fmtUs(x.decCpu),
    fmtRatio((r.sign.cpu + x.encCpu) / r.sign.cpu),
    fmtInt(x.bytes),
    x.fits,
  ]);
  return [
    `Machine: ${m.cpu} (${m.cores} logical cores), flags ${m.cpuFlags}; ${m.os}; Node ${m.node}, OpenSSL ${m.openssl}; load ${m.loadavg.join(' ')}.`,
    `${budgetMs} ms sampling per cell after warm-up, ${Math.round(seconds)} s in all; ML-DSA signing on the \`${preferredBackend()}\` backend.`,
    '',
    `The token: a typical ID token (${fmtInt(Buffer.byteLength(JSON.stringify(typicalIdTokenClaims())))} bytes of claims) signed with ML-DSA-65,`,
    `${fmtInt(r.sign.bytes)} bytes (fits: ${r.sign.fits}); signJwt takes ${fmtUs(r.sign.us)} µs median, ${fmtUs(r.sign.cpu)} µs of process CPU per token.`,
    'Each JWE row encrypts that signed token (`encryptJwt`, `cty: "JWT"`) and decrypts it (`decryptCompact`).',
    'µs = median latency of one call; CPU µs = process CPU per token with 16 calls in flight (`process.cpuUsage`,',
    'event loop and libuv pool). "fits" = one cookie (4096), one Authorization header line (8190), a URL (8000).',
    '',
    mdTable(head, rows, ['l', 'l', 'r', 'r', 'r', 'r', 'r', 'r', 'l']),
  ].join('\n');
}

/** Runs the JWE benchmark and returns its markdown. */
export async function jweBench(budgetMs: number): Promise<string> {
  const t0 = process.hrtime.bigint();
  const results = await run(budgetMs);
  return report(budgetMs, Number(process.hrtime.bigint() - t0) / 1e9, results);
}
