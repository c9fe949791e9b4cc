import { parseArgs } from 'node:util';
import { createLocalJWKSet, createRemoteJWKSet, type KeySet, registry, verifyJwt } from '@pqid/jose';
import {
  CliError,
  type Command,
  json,
  out,
  parse,
  parseSpan,
  readJsonFile,
  required,
  splitList,
  tokenArg,
  UsageError,
} from './common.ts';

const help = `Usage: pqid verify --jwks <file|https-url> --alg <alg[,alg…]> [--iss <iss>]... [--aud <aud>]...
                   [--sub <sub>] [--typ <typ>] [--max-age <span>] [--clock-tolerance <span>]
                   [--require <claim>]... [token | < token]

Verifies a compact JWT and prints {"header", "claims", "key"} as JSON on stdout.
On failure prints "pqid verify: <ERR_CODE>: <message>" on stderr and exits 1.

Options:
  --jwks <file|url>        a JWKS file ({"keys": [...]}) or a single public JWK file, or an
                           https:// URL of a JWKS (http:// only for localhost) (required)
  --alg <list>             allowed algorithms, comma-separated or repeated (required: pqid
                           never takes the algorithm from the token)
  --iss <iss>              required issuer (repeat to allow several)
  --aud <aud>              required audience (repeat to accept any of several)
  --sub <sub>              required subject
  --typ <typ>              required "typ" header (e.g. JWT, at+jwt)
  --max-age <span>         reject tokens whose "iat" is older (e.g. 1h)
  --clock-tolerance <span> leeway for exp/nbf/iat (e.g. 30s)
  --require <claim>        claim that must be present (repeatable)
  -h, --help

Example:
  pqid verify --jwks pub.jwk.json --alg ML-DSA-65 --iss https://idp.example --aud app "$TOKEN"`;

const PRIVATE_MEMBERS = ['priv', 'd', 'p', 'q', 'dp', 'dq', 'qi', 'oth', 'k'];

function allowedAlgorithms(values: string[] | undefined): string[] {
  const algs = splitList(values);
  if (algs.length === 0)
    throw new UsageError(
      '--alg is required: list the algorithms you accept (pqid never guesses from the token)',
    );
  const known = new Set(registry().map((e) => e.alg));
  for (const a of algs) {
    if (a.toLowerCase() === 'none') throw new UsageError('--alg none is never allowed');
    if (!known.has(a))
      throw new UsageError(
        `unknown algorithm ${JSON.stringify(a)} in --alg; choose from ${[...known].join(', ')} (pqid algorithms describes them)`,
      );
  }
  return algs;
}

function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(host);
}

async function keySet(source: string): Promise<KeySet> {
  if (/^https?:\/\//i.test(source)) {
    let url: URL;
    try {
      url = new URL(source);
    } catch {
      throw new UsageError(`--jwks ${JSON.stringify(source)} is not a valid URL`);
    }
    if (url.protocol === 'http:' && !isLoopback(url.hostname))
      throw new UsageError('--jwks URLs must be https:// (http:// only for localhost)');
    return createRemoteJWKSet(url);
  }
  const doc = await readJsonFile(source, '--jwks file');
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc))
    throw new CliError('ERR_JWKS_INVALID', `--jwks "${source}" is not a JWKS or a JWK`);
  const entries: unknown[] = Array.isArray((doc as { keys?: unknown }).keys)
    ? (doc as { keys: unknown[] }).keys
    : typeof (doc as { kty?: unknown }).kty === 'string'
      ? [doc]
      : [];
  if (entries.length === 0)
    throw new CliError(
      'ERR_JWKS_INVALID',
      `--jwks "${source}" has no keys (expected {"keys": [...]} or a JWK)`,
    );
  const privates = entries.filter(
    (k) => typeof k === 'object' && k !== null && PRIVATE_MEMBERS.some((m) => m in k),
  ).length;
  if (privates > 0) {
    throw new CliError(
      'ERR_JWKS_HAS_PRIVATE_KEY',
      `--jwks "${source}" contains private key material; pass public keys only (e.g. the --public-out file of 'pqid keygen')`,
    );
  }
  const set = await createLocalJWKSet({ keys: entries });
  if (set.keys.length === 0)
    throw new CliError(
      'ERR_JWKS_INVALID',
      `--jwks "${source}": none of its ${entries.length} key(s) is a usable public signing key`,
    );
  return set;
}

const oneOrMany = (v: string[] | undefined) =>
  v?.length ? (v.length === 1 ? (v[0] as string) : v) : undefined;

export const verify: Command = {
  name: 'verify',
  summary: 'verify a JWT against a JWKS with an explicit algorithm allow-list',
  help,
  async run(args) {
    const { values, positionals } = parse(() =>
      parseArgs({
        args,
        options: {
          jwks: { type: 'string' },
          alg: { type: 'string', multiple: true },
          iss: { type: 'string', multiple: true },
          aud: { type: 'string', multiple: true },
          sub: { type: 'string' },
          typ: { type: 'string' },
          'max-age': { type: 'string' },
          'clock-tolerance': { type: 'string' },
          require: { type: 'string', multiple: true },
        },
        allowPositionals: true,
        strict: true,
      }),
    );
    const algorithms = allowedAlgorithms(values.alg);
    const source = required(values.jwks, '--jwks', 'a JWKS file, a public JWK file or an https URL');
    const maxTokenAge = parseSpan(values['max-age'], '--max-age');
    const clockTolerance = parseSpan(values['clock-tolerance'], '--clock-tolerance');
    const issuer = oneOrMany(values.iss);
    const audience = oneOrMany(values.aud);
    const token = await tokenArg(positionals);
    const keys = await keySet(source);
    const { protectedHeader, claims, key } = await verifyJwt(token, keys, {
      algorithms,
      ...(issuer !== undefined ? { issuer } : {}),
      ...(audience !== undefined ? { audience } : {}),
      ...(values.sub !== undefined ? { subject: values.sub } : {}),
      ...(values.typ !== undefined ? { typ: values.typ } : {}),
      ...(maxTokenAge !== undefined ? { maxTokenAge } : {}),
      ...(clockTolerance !== undefined ? { clockTolerance } : {}),
      ...(values.require?.length ? { requiredClaims: values.require } : {}),
    });
    out(json({ header: protectedHeader, claims, key: { alg: key.alg, kid: key.kid } }));
  },
};
