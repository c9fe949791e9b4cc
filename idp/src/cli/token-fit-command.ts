/**
 * `pqid token-fit`: how big a typical ID token of a signing algorithm is, signed only and
 * encrypted with each chosen JWE `alg`/`enc`, and where each fits (one cookie, one header line,
 * a URL). Everything is produced here with throw-away keys and measured, not estimated.
 */
import { parseArgs } from 'node:util';
import { defaultHpkeBackend, inspectToken, registry, type TokenInspection } from '@pqid/jose';
import { machineLine } from '../machine.ts';
import { mldsaBackendReport } from '../mldsa-backend.ts';
import { type Command, json, out, parse, table, UsageError, yesNo } from './common.ts';
import {
  type EncryptedFit,
  encryptedFit,
  encryptionLabel,
  parseEncryptions,
  quantumSafety,
  throwAwayEncryptionKeys,
} from './encrypted-fit.ts';
import { type CostCase, type TokenCost, type TokenCpu, tokenCost, tokenCpu } from './token-cost.ts';
import { signTypical, throwAwaySigningKey, typicalIdTokenClaims } from './token-fit.ts';

const help = `Usage: pqid token-fit [--alg ALG] [--encrypt ALG[:ENC],...] [--iss URL] [--aud CLIENT_ID]
                      [--cpu-ms MS | --no-cpu] [--json]

Signs a typical ID token (iss, sub, aud, iat, exp, auth_time, nonce) with a throw-away key of
--alg, encrypts it (sign then encrypt, "cty": "JWT") to a throw-away key of each --encrypt
configuration, and shows the bytes of each next to the signed-only token, against:
  - one cookie: "id_token=<token>; Path=/; Secure; HttpOnly; SameSite=Lax" within 4096 bytes
  - one "Authorization: Bearer <token>" header line within 8190 bytes (nginx/Apache default)
  - a logout URL carrying it as id_token_hint: 2048 bytes (conservative) and 8000 (RFC 9110)
Then measures, in this process, the CPU time per token of signing alone, of signing then
encrypting with each configuration (the IdP's cost) and of decrypting (the relying party's), and
each one's ratio to signing alone, on the CPU it names. The machine's other work shows in the
numbers: the spread column says how steady they were.

Options:
  --alg ALG                  signing algorithm (default ML-DSA-65); see 'pqid algorithms'
  --encrypt ALG[:ENC],...    JWE configurations (default HPKE-9,HPKE-8,HPKE-10,
                             ECDH-ES+A256KW:A256GCM,RSA-OAEP-256:A256GCM). ENC defaults to
                             A256GCM; HPKE-0 … HPKE-13 (Integrated Encryption) take none.
                             HPKE-9 = X-Wing (ML-KEM-768 + X25519), HPKE-8 = ML-KEM-768 + P-256,
                             HPKE-10 = ML-KEM-1024 + P-384, HPKE-12/13 = ML-KEM-768/1024 alone
  --iss URL                  issuer in the token (default https://idp.example.com)
  --aud CLIENT_ID            audience in the token (default client-1)
  --cpu-ms MS                time given to the CPU measurement, all rounds together (default
                             2000); longer is steadier
  --no-cpu                   sizes only, no CPU measurement
  --json                     sizes, limits, CPU per token and the produced tokens as JSON
  -h, --help`;

/** One row of `--json`: the signed token first, then one per JWE configuration. */
export interface TokenFitRow {
  token: string;
  alg: string;
  enc: string | null;
  /** The HPKE KEM (e.g. MLKEM768-X25519 for X-Wing); null for the signed token and classical algs. */
  kem: string | null;
  quantumSafe: string;
  bytes: number;
  /** Bytes the encryption adds to the signed token. */
  overhead: number;
  fits: TokenInspection['fits'];
  /** CPU per token, absent with --no-cpu. */
  cpu?: TokenCpu;
}

function rows(
  signed: TokenInspection,
  signedJwt: string,
  alg: string,
  encrypted: EncryptedFit[],
  cpu: TokenCpu[] | undefined,
): TokenFitRow[] {
  const base = signed.bytes.token;
  const withCpu = (i: number) => (cpu?.[i] ? { cpu: cpu[i] } : {});
  return [
    {
      token: signedJwt,
      alg,
      enc: null,
      kem: null,
      quantumSafe: 'signed only',
      bytes: base,
      overhead: 0,
      fits: signed.fits,
      ...withCpu(0),
    },
    ...encrypted.map((e, i) => ({
      token: e.token,
      alg: e.encryption.alg,
      enc: e.encryption.enc ?? null,
      kem: e.entry.hpke?.kem.name ?? null,
      quantumSafe: quantumSafety(e.entry),
      bytes: e.inspection.bytes.token,
      overhead: e.inspection.bytes.token - base,
      fits: e.inspection.fits,
      ...withCpu(i + 1),
    })),
  ];
}

const rowLabel = (r: TokenFitRow, i: number): string =>
  i === 0
    ? `${r.alg} JWS`
    : `in ${encryptionLabel({ alg: r.alg, ...(r.enc ? { enc: r.enc } : {}) })}${r.kem ? ` (${r.kem})` : ''}`;

const sizeTable = (signAlg: string, rs: TokenFitRow[]): string =>
  [
    `A typical ${signAlg} ID token, signed only and encrypted (throw-away keys; bytes on the wire):`,
    '',
    table(
      ['token', 'PQ', 'bytes', '+ bytes', 'cookie 4096', 'header 8190', 'URL 2048', 'URL 8000'],
      rs.map((r, i) => [
        rowLabel(r, i),
        r.quantumSafe,
        r.bytes.toLocaleString('en-US'),
        i === 0 ? '-' : r.overhead.toLocaleString('en-US'),
        yesNo(r.fits.cookie.fits),
        yesNo(r.fits.authorizationHeader.fits),
        yesNo(r.fits.urlConservative.fits),
        yesNo(r.fits.url.fits),
      ]),
    ),
    '',
    'PQ: PQ/T = post-quantum/traditional hybrid KEM, PQ = ML-KEM alone, no = classical only (readable',
    'by a future quantum computer from recorded traffic). A token that fits no cookie can be kept in a',
    'server-side session or split with chunkCookie; logout can be sent as POST.',
  ].join('\n');

/** Where the CPU figures came from: the machine and what signed and encrypted. */
export interface CpuSource {
  machine: string;
  /** The ML-DSA backend and its implementation, when the alg is ML-DSA (or a composite of it). */
  mldsa: string | null;
  hpkeBackend: string;
  rounds: number;
  budgetMs: number;
}

function cpuSource(alg: string, cost: TokenCost): CpuSource {
  const r = mldsaBackendReport();
  return {
    machine: machineLine(),
    mldsa: alg.includes('ML-DSA') && r.backend ? `${r.backend} backend, ${r.implementation}` : null,
    hpkeBackend: defaultHpkeBackend(),
    rounds: cost.rounds,
    budgetMs: cost.budgetMs,
  };
}

const us = (n: number): string => Math.round(n).toLocaleString('en-US');
const times = (n: number): string => `${n.toFixed(2)}×`;

const cpuTable = (signAlg: string, rs: TokenFitRow[], src: CpuSource): string =>
  [
    `CPU per token, measured here: process CPU time, median of ${src.rounds} rounds in ${(src.budgetMs / 1000).toFixed(1)} s.`,
    `Machine: ${src.machine}.`,
    `${src.mldsa ? `ML-DSA: ${src.mldsa}; ` : ''}HPKE: ${src.hpkeBackend} backend.`,
    '',
    table(
      ['token', 'IdP µs', '× sign', 'RP decrypt µs', '× sign', 'spread'],
      rs.map((r, i) => [
        rowLabel(r, i),
        r.cpu ? us(r.cpu.us) : '-',
        r.cpu ? times(r.cpu.ratio) : '-',
        r.cpu?.decryptUs != null ? us(r.cpu.decryptUs) : '-',
        r.cpu?.decryptRatio != null ? times(r.cpu.decryptRatio) : '-',
        r.cpu ? `${Math.round(r.cpu.spread * 100)}%` : '-',
      ]),
    ),
    '',
    `IdP µs: signing alone with ${signAlg}, or signing then encrypting (what each encrypted ID token`,
    'costs the IdP). RP decrypt µs: decrypting the JWE (the relying party then verifies the signature',
    'inside, as it would the signed token). × sign: divided by signing alone in this run. spread: how',
    'far apart the middle half of the rounds were, as a share of the median; above 20% the machine was',
    'busy: run again, or with a longer --cpu-ms. Figures from a quiet machine: npm run load -- sizes.',
  ].join('\n');

const human = (signAlg: string, rs: TokenFitRow[], src: CpuSource | undefined): string =>
  src ? `${sizeTable(signAlg, rs)}\n\n${cpuTable(signAlg, rs, src)}` : sizeTable(signAlg, rs);

const ROUNDS = 9;
const DEFAULT_CPU_MS = 2000;

/** --cpu-ms: whole milliseconds, 50 to 600000. */
function parseCpuMs(value: string | undefined): number {
  if (value === undefined) return DEFAULT_CPU_MS;
  const ms = /^\d+$/.test(value) ? Number(value) : Number.NaN;
  if (!(ms >= 50 && ms <= 600_000))
    throw new UsageError(
      `--cpu-ms: expected whole milliseconds from 50 to 600000, got ${JSON.stringify(value)}`,
    );
  return ms;
}

/** Signs, encrypts with each configuration, and measures the CPU unless `budgetMs` is undefined. */
async function measure(
  alg: string,
  iss: string,
  aud: string,
  encryptions: ReturnType<typeof parseEncryptions>,
  budgetMs: number | undefined,
) {
  const signer = await throwAwaySigningKey(alg);
  const claims = typicalIdTokenClaims(iss, aud);
  const signedJwt = await signTypical(signer, claims);
  const encrypted: EncryptedFit[] = [];
  const cases: CostCase[] = [];
  for (const encryption of encryptions) {
    const keys = await throwAwayEncryptionKeys(encryption.alg);
    const fit = await encryptedFit(signedJwt, encryption, keys);
    encrypted.push(fit);
    cases.push({ encryption, keys, jwe: fit.token, signedJwt });
  }
  const cost =
    budgetMs === undefined ? undefined : await tokenCost({ signer, claims, cases, budgetMs, rounds: ROUNDS });
  const rs = rows(inspectToken(signedJwt), signedJwt, alg, encrypted, cost ? tokenCpu(cost) : undefined);
  return { rs, source: cost ? cpuSource(alg, cost) : undefined };
}

export const tokenFitCommand: Command = {
  name: 'token-fit',
  summary:
    'ID token sizes and CPU per token, signed and encrypted (JWE), against cookie, header and URL limits',
  help,
  async run(args) {
    const { values } = parse(() =>
      parseArgs({
        args,
        options: {
          alg: { type: 'string', default: 'ML-DSA-65' },
          encrypt: { type: 'string' },
          iss: { type: 'string', default: 'https://idp.example.com' },
          aud: { type: 'string', default: 'client-1' },
          cpu: { type: 'boolean', default: true },
          'cpu-ms': { type: 'string' },
          json: { type: 'boolean', default: false },
        },
        allowNegative: true,
        strict: true,
      }),
    );
    const alg = values.alg;
    if (!registry().some((e) => e.alg === alg))
      throw new UsageError(
        `--alg: unknown signing alg ${JSON.stringify(alg)}; choose one of ${registry()
          .map((e) => e.alg)
          .join(', ')}`,
      );
    const encryptions = parseEncryptions(values.encrypt);
    if (!values.cpu && values['cpu-ms'] !== undefined)
      throw new UsageError('--cpu-ms sets the CPU measurement that --no-cpu turns off: give one of them');
    const budgetMs = values.cpu ? parseCpuMs(values['cpu-ms']) : undefined;
    const { rs, source } = await measure(alg, values.iss, values.aud, encryptions, budgetMs);
    out(values.json ? json({ alg, rows: rs, cpu: source ?? null }) : human(alg, rs, source));
  },
};
