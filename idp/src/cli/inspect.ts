import { parseArgs } from 'node:util';
import { inspectToken, PqidError, type TokenInspection } from '@pqid/jose';
import { CliError, type Command, json, out, parse, table, tokenArg, yesNo } from './common.ts';

const help = `Usage: pqid inspect [--json] [--cookie-name <name>] [--url-base <url>] [token | < token]

Decodes a compact JWS/JWT WITHOUT verifying it and shows its header, claims, the byte size
of each segment and of the whole token, and whether it fits:
  - one cookie: "<name>=<token>; Path=/; Secure; HttpOnly; SameSite=Lax" within 4096 bytes
  - one "Authorization: Bearer <token>" header line within 8190 bytes (nginx/Apache default)
  - a URL carrying it as id_token_hint: 2048 bytes (conservative) and 8000 (RFC 9110)

Options:
  --json                 print the inspectToken() result as JSON instead of the tables
  --cookie-name <name>   cookie name counted in the cookie size (default id_token)
  --url-base <url>       URL the token is appended to (default a typical logout URL)
  -h, --help`;

const TIME_CLAIMS = ['iat', 'nbf', 'exp', 'auth_time', 'updated_at'];

function relative(seconds: number): string {
  const abs = Math.abs(seconds);
  const s =
    abs < 120
      ? `${abs}s`
      : abs < 7200
        ? `${Math.round(abs / 60)}m`
        : abs < 172800
          ? `${Math.round(abs / 3600)}h`
          : `${Math.round(abs / 86400)}d`;
  return seconds >= 0 ? `in ${s}` : `${s} ago`;
}

function human(i: TokenInspection): string {
  const now = Math.floor(Date.now() / 1000);
  const parts: string[] = [];
  parts.push('Header (decoded, NOT verified)', json(i.header), '');
  parts.push('Claims (decoded, NOT verified)', i.claims ? json(i.claims) : '(payload is not a JSON object)');
  const times = TIME_CLAIMS.filter((c) => typeof i.claims?.[c] === 'number');
  if (times.length) {
    parts.push(
      '',
      table(
        ['claim', 'value', 'UTC', 'relative'],
        times.map((c) => {
          const v = i.claims?.[c] as number;
          const d = new Date(v * 1000);
          return [c, String(v), Number.isNaN(d.getTime()) ? '-' : d.toISOString(), relative(v - now)];
        }),
      ),
    );
  }
  const b = i.bytes;
  parts.push(
    '',
    'Sizes (bytes)',
    table(
      ['segment', 'base64url', 'decoded'],
      [
        ['header', b.header, Math.floor((b.header * 3) / 4)],
        ['payload', b.payload, Math.floor((b.payload * 3) / 4)],
        ['signature', b.signature, b.signatureRaw],
        ['token (with dots)', b.token, '-'],
      ],
    ),
  );
  const f = i.fits;
  parts.push(
    '',
    'Where it fits',
    table(
      ['carrier', 'bytes', 'limit', 'result'],
      [
        ['one cookie (name=value; attributes)', f.cookie.bytes, f.cookie.limit, yesNo(f.cookie.fits)],
        [
          'Authorization: Bearer header line',
          f.authorizationHeader.bytes,
          f.authorizationHeader.limit,
          yesNo(f.authorizationHeader.fits),
        ],
        [
          'URL, conservative',
          f.urlConservative.bytes,
          f.urlConservative.limit,
          yesNo(f.urlConservative.fits),
        ],
        ['URL, RFC 9110 minimum', f.url.bytes, f.url.limit, yesNo(f.url.fits)],
      ],
    ),
  );
  return parts.join('\n');
}

export const inspect: Command = {
  name: 'inspect',
  summary: 'decode a token (no verification): header, claims, sizes, where it fits',
  help,
  async run(args) {
    const { values, positionals } = parse(() =>
      parseArgs({
        args,
        options: {
          json: { type: 'boolean' },
          'cookie-name': { type: 'string' },
          'url-base': { type: 'string' },
        },
        allowPositionals: true,
        strict: true,
      }),
    );
    const token = await tokenArg(positionals);
    let result: TokenInspection;
    try {
      result = inspectToken(token, {
        ...(values['cookie-name'] !== undefined ? { cookieName: values['cookie-name'] } : {}),
        ...(values['url-base'] !== undefined ? { urlBase: values['url-base'] } : {}),
      });
    } catch (e) {
      if (e instanceof PqidError) throw e;
      // A header that is not UTF-8 JSON surfaces from JSON.parse / TextDecoder, not as a PqidError.
      throw new CliError('ERR_JWS_INVALID', `not a decodable JWS: ${(e as Error).message}`);
    }
    out(values.json ? json(result) : human(result));
  },
};
