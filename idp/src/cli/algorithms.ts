import { parseArgs } from 'node:util';
import { registry } from '@pqid/jose';
import { type Command, json, out, parse, table } from './common.ts';

const help = `Usage: pqid algorithms [--json]

Lists every registered JOSE algorithm: family, whether it is post-quantum, JWK key type,
raw byte sizes of public key, private key and signature (ECDSA composites: the DER
maximum), and whether this runtime can use it.`;

export const algorithms: Command = {
  name: 'algorithms',
  summary: 'list the algorithms with key and signature sizes',
  help,
  async run(args) {
    const { values } = parse(() => parseArgs({ args, options: { json: { type: 'boolean' } }, strict: true }));
    const rows = registry().map((e) => ({
      alg: e.alg,
      family: e.family,
      pq: e.pq,
      kty: e.kty,
      sizes: e.sizes,
      description: e.description,
      unavailable: e.unavailable() ?? null,
    }));
    if (values.json) return out(json(rows));
    out(
      table(
        ['alg', 'family', 'pq', 'kty', 'public key', 'private key', 'signature', 'available'],
        rows.map((r) => [
          r.alg,
          r.family,
          r.pq,
          r.kty,
          r.sizes.publicKey,
          r.sizes.privateKey,
          r.sizes.signature,
          r.unavailable ? `no: ${r.unavailable}` : 'yes',
        ]),
      ),
    );
    out(
      '\nSizes in bytes, raw (before base64url). ML-DSA private keys are the 32-byte FIPS 204 seed,' +
        ' SLH-DSA ones the FIPS 205 secret key SK.seed||SK.prf||PK.seed||PK.root.',
    );
  },
};
