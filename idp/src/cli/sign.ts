import { parseArgs } from 'node:util';
import { importJWK, PrivateKey, signJwt } from '@pqid/jose';
import {
  CliError,
  type Command,
  out,
  parse,
  parseJsonText,
  parseSpan,
  readJsonFile,
  readStdin,
  required,
  UsageError,
} from './common.ts';

const help = `Usage: pqid sign --key <private-jwk-file> [--exp <span>] [--nbf <span>] [--iss <iss>]
                 [--aud <aud>]... [--sub <sub>] [--jti <jti>] [--typ <typ>] < claims.json

Reads the claims (a JSON object) on stdin and prints the compact JWT on stdout.
Empty stdin means no claims beyond the options. "iat" is set to now unless the claims
carry one. The algorithm and "kid" come from the key.

Options:
  --key <file>     private JWK, e.g. from 'pqid keygen' (required)
  --exp <span>     expires in: seconds, or 30s, 10m, 2h, 7d (no default: without it
                   the token has no "exp" unless the claims carry one)
  --nbf <span>     not before: now + span
  --iss, --sub, --jti <value>
  --aud <aud>      audience; repeat for several
  --typ <typ>      "typ" header (default JWT; e.g. at+jwt)
  -h, --help

The ML-DSA backend is chosen automatically (fastest available); PQID_BACKEND=native|node|noble|native-ref
overrides it.

Example:
  echo '{"sub":"alice","name":"Alice"}' | pqid sign --key priv.jwk.json --iss https://idp.example --aud app --exp 10m`;

export const sign: Command = {
  name: 'sign',
  summary: 'sign the claims JSON on stdin into a compact JWT',
  help,
  async run(args) {
    const { values } = parse(() =>
      parseArgs({
        args,
        options: {
          key: { type: 'string' },
          exp: { type: 'string' },
          nbf: { type: 'string' },
          iss: { type: 'string' },
          aud: { type: 'string', multiple: true },
          sub: { type: 'string' },
          jti: { type: 'string' },
          typ: { type: 'string' },
        },
        strict: true,
      }),
    );
    const keyFile = required(values.key, '--key', 'a private JWK file');
    const expiresIn = parseSpan(values.exp, '--exp');
    const notBefore = parseSpan(values.nbf, '--nbf');
    if (process.stdin.isTTY)
      throw new UsageError("pipe the claims JSON on stdin (use '{}' or </dev/null for none)");

    const jwk = await readJsonFile(keyFile, '--key file');
    const key = await importJWK(jwk);
    if (!(key instanceof PrivateKey))
      throw new CliError(
        'ERR_NOT_A_PRIVATE_KEY',
        `--key "${keyFile}" holds a public key; signing needs the private JWK`,
      );

    const text = (await readStdin()).trim();
    const claims = text ? parseJsonText(text, 'stdin (the claims)') : {};
    if (typeof claims !== 'object' || claims === null || Array.isArray(claims)) {
      throw new CliError('ERR_CLAIMS_INVALID', 'the claims on stdin must be a JSON object');
    }
    const aud = values.aud;
    const token = await signJwt(claims as Record<string, unknown>, key, {
      ...(values.typ !== undefined ? { typ: values.typ } : {}),
      ...(values.iss !== undefined ? { issuer: values.iss } : {}),
      ...(values.sub !== undefined ? { subject: values.sub } : {}),
      ...(values.jti !== undefined ? { jti: values.jti } : {}),
      ...(aud?.length ? { audience: aud.length === 1 ? (aud[0] as string) : aud } : {}),
      ...(expiresIn !== undefined ? { expiresIn } : {}),
      ...(notBefore !== undefined ? { notBefore } : {}),
    });
    out(token);
  },
};
