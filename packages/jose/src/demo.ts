/**
 * `npm start` for now: for every algorithm usable here, make a key, sign a typical ~600-byte
 * OpenID Connect ID token, verify it, and show what the signature does to the token's size
 * and where it can still travel. The IdP will replace this demo.
 */
import { algorithms, lookup } from './algorithms/registry.ts';
import { backends } from './backends/select.ts';
import { CLIENT_ID, claimsBytes, ISSUER, typicalIdTokenClaims } from './bench/id-token.ts';
import { backendFor } from './bench/label.ts';
import { fmtUs, measure } from './bench/measure.ts';
import { table } from './cli/common.ts';
import { PqidError } from './errors.ts';
import { signJwt, verifyJwt } from './jwt.ts';
import { PrivateKey } from './keys/handles.ts';
import { generateKeyPair, importJWK } from './keys/jwk.ts';
import { inspectToken, LIMITS } from './size.ts';

interface Row {
  alg: string;
  pq: boolean;
  backend: string;
  bytes: number;
  cookie: boolean;
  header: boolean;
  url: boolean;
  url8000: boolean;
  signUs: number;
  verifyUs: number;
  ok: boolean;
  error?: string;
}

async function run(alg: string): Promise<Row> {
  const claims = typicalIdTokenClaims();
  const base = { alg, pq: lookup(alg).pq, backend: backendFor(alg) };
  try {
    const { privateJwk, publicJwk } = await generateKeyPair(alg);
    const privateKey = await importJWK(privateJwk);
    if (!(privateKey instanceof PrivateKey)) throw new Error('generateKeyPair returned no private key');
    const publicKey = await importJWK(publicJwk);
    const token = await signJwt(claims, privateKey);
    const opts = { algorithms: [alg], issuer: ISSUER, audience: CLIENT_ID };
    const { claims: verified } = await verifyJwt(token, publicKey, opts);
    if (verified.nonce !== claims.nonce) throw new Error('verified claims differ from the signed ones');
    // A tampered copy must fail: the demo proves verification, not only signing.
    const [h, , s] = token.split('.') as [string, string, string];
    const forged = `${h}.${Buffer.from(JSON.stringify({ ...claims, sub: 'mallory' })).toString('base64url')}.${s}`;
    const forgedOk = await verifyJwt(forged, publicKey, opts).then(
      () => true,
      () => false,
    );
    if (forgedOk) throw new Error('a tampered token verified');
    // Timing: a short warm-up, then the median of a few dozen operations.
    const timing = { budgetMs: 150, warmupMs: 20, minSamples: 15 };
    const sign = await measure(() => signJwt(claims, privateKey), timing);
    const verify = await measure(() => verifyJwt(token, publicKey, opts), timing);
    const i = inspectToken(token);
    return {
      ...base,
      bytes: i.bytes.token,
      cookie: i.fits.cookie.fits,
      header: i.fits.authorizationHeader.fits,
      url: i.fits.urlConservative.fits,
      url8000: i.fits.url.fits,
      signUs: sign.median,
      verifyUs: verify.median,
      ok: true,
    };
  } catch (e) {
    const error = e instanceof PqidError ? `${e.code}: ${e.message}` : (e as Error).message;
    return {
      ...base,
      bytes: Number.NaN,
      cookie: false,
      header: false,
      url: false,
      url8000: false,
      signUs: Number.NaN,
      verifyUs: Number.NaN,
      ok: false,
      error,
    };
  }
}

const mark = (b: boolean) => (b ? 'yes' : 'NO');

function wrap(text: string, width = 92): string {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/)) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  return [...lines, line].join('\n');
}

/** The closing paragraph, from this run's numbers. */
function explanation(rows: Row[]): string {
  const ok = rows.filter((r) => r.ok);
  const pq = ok.filter((r) => r.pq);
  const classical = ok.filter((r) => !r.pq);
  const range = (rs: Row[]) =>
    `${Math.min(...rs.map((r) => r.bytes))}–${Math.max(...rs.map((r) => r.bytes))}`;
  const count = (rs: Row[], f: (r: Row) => boolean) => {
    const n = rs.filter(f).length;
    return n === rs.length ? 'all' : n === 0 ? 'none' : `${n} of ${rs.length}`;
  };
  const es = ok.find((r) => r.alg === 'ES256');
  const ml = ok.find((r) => r.alg === 'ML-DSA-65');
  const slowest = Math.max(...pq.map((r) => Math.max(r.signUs, r.verifyUs)));
  const urlFits = pq.filter((r) => r.ok && r.url8000).length;
  const parts = [
    `What this showed: every algorithm signed and verified the same ID token, and a tampered copy was rejected each time${rows.length > ok.length ? ' (except the failures above)' : ''}.`,
  ];
  if (pq.length && classical.length) {
    parts.push(
      `Post-quantum signatures are large: the ML-DSA and composite tokens are ${range(pq)} bytes against ${range(classical)} for the classical ones` +
        `${es && ml ? ` (ML-DSA-65 is ${(ml.bytes / es.bytes).toFixed(1)}× ES256)` : ''}.`,
      `Of the post-quantum tokens, ${count(pq, (r) => r.cookie)} fit one ${LIMITS.cookie}-byte cookie, ${count(pq, (r) => r.url)} fit a conservative ${LIMITS.urlConservative}-byte URL, ` +
        `and ${count(pq, (r) => r.header)} fit one ${LIMITS.headerLine}-byte Authorization header line (${urlFits} of ${pq.length} fit an ${LIMITS.url}-byte URL).`,
      'So relying parties that keep ID tokens in cookies must chunk them (chunkCookie) or keep a server-side session instead, and id_token_hint on logout URLs only works where long URLs do.',
      `Speed: the slowest post-quantum sign or verify here took a median of ${fmtUs(slowest)} µs.`,
    );
  }
  parts.push(
    "Timings are medians of a few dozen runs on a possibly busy machine; 'npm run bench' measures properly.",
    "This demo is a placeholder: the pqid IdP will replace it as what 'npm start' runs.",
  );
  return parts.join(' ');
}

async function main(): Promise<number> {
  process.env.PQID_QUIET ??= '1';
  const sample = typicalIdTokenClaims();
  console.log(
    `pqid demo: one typical OpenID Connect ID token (${claimsBytes(sample)} bytes of claims JSON) per algorithm`,
  );
  console.log(
    `ML-DSA backends: ${backends()
      .map(
        (b) =>
          `${b.name} ${b.available ? `(${b.implementation ?? 'available'})` : `unavailable: ${b.reason}`}`,
      )
      .join('; ')}\n`,
  );
  const rows: Row[] = [];
  for (const alg of algorithms()) rows.push(await run(alg));
  console.log(
    table(
      [
        'alg',
        'PQ',
        'backend',
        'token bytes',
        `cookie ${LIMITS.cookie}`,
        `header ${LIMITS.headerLine}`,
        `URL ${LIMITS.urlConservative}`,
        'sign µs',
        'verify µs',
        'verified',
      ],
      rows.map((r) => [
        r.alg,
        r.pq ? 'yes' : 'no',
        r.backend,
        Number.isFinite(r.bytes) ? r.bytes : '-',
        r.ok ? mark(r.cookie) : '-',
        r.ok ? mark(r.header) : '-',
        r.ok ? mark(r.url) : '-',
        fmtUs(r.signUs),
        fmtUs(r.verifyUs),
        r.ok ? 'ok' : 'FAILED',
      ]),
    ),
  );
  const failed = rows.filter((r) => !r.ok);
  for (const r of failed) console.error(`\n${r.alg}: ${r.error}`);

  console.log(`\n${wrap(explanation(rows))}`);
  if (failed.length) {
    console.error(`\n${failed.length} algorithm(s) FAILED: ${failed.map((r) => r.alg).join(', ')}`);
    return 1;
  }
  return 0;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (e: unknown) => {
    console.error(`demo failed: ${e instanceof Error ? e.message : String(e)}`);
    process.exitCode = 1;
  },
);
