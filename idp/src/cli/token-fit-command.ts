/**
 * `pqid token-fit`: how big a typical ID token of a signing algorithm is, signed only and
 * encrypted with each chosen JWE `alg`/`enc`, and where each fits (one cookie, one header line,
 * a URL). Everything is produced here with throw-away keys and measured, not estimated.
 */
import { parseArgs } from 'node:util';
import { inspectToken, registry, type TokenInspection } from '@pqid/jose';
import { type Command, json, out, parse, table, UsageError, yesNo } from './common.ts';
import {
  type EncryptedFit,
  encryptedFit,
  encryptionLabel,
  parseEncryptions,
  quantumSafety,
} from './encrypted-fit.ts';
import { typicalIdToken } from './token-fit.ts';

const help = `Usage: pqid token-fit [--alg ALG] [--encrypt ALG[:ENC],...] [--iss URL] [--aud CLIENT_ID] [--json]

Signs a typical ID token (iss, sub, aud, iat, exp, auth_time, nonce) with a throw-away key of
--alg, encrypts it (sign then encrypt, "cty": "JWT") to a throw-away key of each --encrypt
configuration, and shows the bytes of each next to the signed-only token, against:
  - one cookie: "id_token=<token>; Path=/; Secure; HttpOnly; SameSite=Lax" within 4096 bytes
  - one "Authorization: Bearer <token>" header line within 8190 bytes (nginx/Apache default)
  - a logout URL carrying it as id_token_hint: 2048 bytes (conservative) and 8000 (RFC 9110)

Options:
  --alg ALG                  signing algorithm (default ML-DSA-65); see 'pqid algorithms'
  --encrypt ALG[:ENC],...    JWE configurations (default HPKE-9,HPKE-8,HPKE-10,
                             ECDH-ES+A256KW:A256GCM,RSA-OAEP-256:A256GCM). ENC defaults to
                             A256GCM; HPKE-0 … HPKE-13 (Integrated Encryption) take none.
                             HPKE-9 = X-Wing (ML-KEM-768 + X25519), HPKE-8 = ML-KEM-768 + P-256,
                             HPKE-10 = ML-KEM-1024 + P-384, HPKE-12/13 = ML-KEM-768/1024 alone
  --iss URL                  issuer in the token (default https://idp.example.com)
  --aud CLIENT_ID            audience in the token (default client-1)
  --json                     sizes, limits and the produced tokens as JSON
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
}

function rows(
  signed: TokenInspection,
  signedJwt: string,
  alg: string,
  encrypted: EncryptedFit[],
): TokenFitRow[] {
  const base = signed.bytes.token;
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
    },
    ...encrypted.map((e) => ({
      token: e.token,
      alg: e.encryption.alg,
      enc: e.encryption.enc ?? null,
      kem: e.entry.hpke?.kem.name ?? null,
      quantumSafe: quantumSafety(e.entry),
      bytes: e.inspection.bytes.token,
      overhead: e.inspection.bytes.token - base,
      fits: e.inspection.fits,
    })),
  ];
}

const human = (signAlg: string, rs: TokenFitRow[]): string =>
  [
    `A typical ${signAlg} ID token, signed only and encrypted (throw-away keys; bytes on the wire):`,
    '',
    table(
      ['token', 'PQ', 'bytes', '+ bytes', 'cookie 4096', 'header 8190', 'URL 2048', 'URL 8000'],
      rs.map((r, i) => [
        i === 0
          ? `${r.alg} JWS`
          : `in ${encryptionLabel({ alg: r.alg, ...(r.enc ? { enc: r.enc } : {}) })}${r.kem ? ` (${r.kem})` : ''}`,
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

export const tokenFitCommand: Command = {
  name: 'token-fit',
  summary: 'ID token sizes, signed and encrypted (JWE), against cookie, header and URL limits',
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
          json: { type: 'boolean', default: false },
        },
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
    const signedJwt = await typicalIdToken(alg, values.iss, values.aud);
    const encrypted: EncryptedFit[] = [];
    for (const e of encryptions) encrypted.push(await encryptedFit(signedJwt, e));
    const rs = rows(inspectToken(signedJwt), signedJwt, alg, encrypted);
    out(values.json ? json({ alg, rows: rs }) : human(alg, rs));
  },
};
