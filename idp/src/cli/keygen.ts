import { parseArgs } from 'node:util';
import { generateKeyPair, registry, SLHDSA_PARAMS } from '@pqid/jose';
import { type Command, json, out, parse, parseHex, required, UsageError, writeNewFile } from './common.ts';

const help = `Usage: pqid keygen --alg <alg> [--seed <hex>] [--traditional-secret <hex>]
                   [--public-out <file>] [--out <file>]

Generates a key pair. Both JWKs carry "alg" and "kid" (the RFC 7638 thumbprint).

Output contract:
  stdout                 the PRIVATE JWK, one JSON object (keep it secret; it also holds
                         the public members). Nothing else is printed on stdout.
  --out <file>           write the private JWK to <file> (mode 0600) instead of stdout.
  --public-out <file>    also write the PUBLIC JWK to <file>: what you publish or pass to
                         'pqid verify --jwks'.
  Files are never overwritten: an existing file is an error.

Options:
  --alg <alg>                   algorithm, see 'pqid algorithms' (required)
  --seed <hex>                  32-byte ML-DSA seed (ML-DSA and composites), or the 48-byte
                                SLH-DSA seed SK.seed||SK.prf||PK.seed: same seed, same key.
                                Omit for a random key.
  --traditional-secret <hex>    composites only: the traditional component's raw private
                                key (ECDSA d or EdDSA seed); with --seed, fully deterministic.
  -h, --help

Example:
  pqid keygen --alg ML-DSA-65 --public-out pub.jwk.json --out priv.jwk.json`;

export const keygen: Command = {
  name: 'keygen',
  summary: 'generate a key pair (private JWK on stdout, public JWK to --public-out)',
  help,
  async run(args) {
    const { values } = parse(() =>
      parseArgs({
        args,
        options: {
          alg: { type: 'string' },
          seed: { type: 'string' },
          'traditional-secret': { type: 'string' },
          'public-out': { type: 'string' },
          out: { type: 'string' },
        },
        strict: true,
      }),
    );
    const alg = required(values.alg, '--alg', "see 'pqid algorithms'");
    const entry = registry().find((e) => e.alg === alg);
    if (!entry)
      throw new UsageError(
        `unknown algorithm ${JSON.stringify(alg)}; choose one of ${registry()
          .map((e) => e.alg)
          .join(', ')} (pqid algorithms describes them)`,
      );
    if (values.seed !== undefined && entry.family === 'classical') {
      throw new UsageError(`--seed applies to ML-DSA, composite and SLH-DSA algorithms, not ${alg}`);
    }
    if (values['traditional-secret'] !== undefined && entry.family !== 'composite') {
      throw new UsageError('--traditional-secret applies to composite algorithms only');
    }
    // ML-DSA: the 32-byte FIPS 204 seed; SLH-DSA: SK.seed‖SK.prf‖PK.seed, 3n bytes (FIPS 205).
    const slh = SLHDSA_PARAMS[alg as keyof typeof SLHDSA_PARAMS];
    const seedBytes = slh ? 3 * slh.n : 32;
    const seed = values.seed !== undefined ? parseHex(values.seed, '--seed', seedBytes) : undefined;
    const traditionalSecret =
      values['traditional-secret'] !== undefined
        ? parseHex(values['traditional-secret'], '--traditional-secret')
        : undefined;
    const { privateJwk, publicJwk } = await generateKeyPair(alg, {
      ...(seed ? { seed } : {}),
      ...(traditionalSecret ? { traditionalSecret } : {}),
    });
    // The private key first: if its file cannot be written, no orphan public key is left behind.
    if (values.out !== undefined) await writeNewFile(values.out, `${json(privateJwk)}\n`, 0o600);
    if (values['public-out'] !== undefined)
      await writeNewFile(values['public-out'], `${json(publicJwk)}\n`, 0o644);
    if (values.out === undefined) out(json(privateJwk));
  },
};
