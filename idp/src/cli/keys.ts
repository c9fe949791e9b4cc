/** `pqid keys list|rotate`: the IdP's signing keys, read from and written to its storage. */
import { type Command, json, out, table, UsageError } from '@pqid/jose/cli';
import type { KeyInfo } from '../keys/key-manager.ts';
import { mapErrors, parse } from './args.ts';
import { withCli } from './open.ts';

const iso = (t: number | undefined) => (t === undefined ? '-' : new Date(t * 1000).toISOString());

function render(keys: KeyInfo[], asJson: boolean): string {
  if (asJson) return json(keys);
  return table(
    ['kid', 'alg', 'status', 'signs from', 'retired', 'removed at'],
    keys.map((k) => [k.kid, k.alg, k.status, iso(k.activateAt), iso(k.retiredAt), iso(k.removeAt)]),
  );
}

const HELP = `Usage:
  pqid keys list [--json] [--config file]
  pqid keys rotate [--alg ALG] [--now] [--json] [--config file]

list     every published key: next (published, not signing yet), active, retired (published
         until the tokens it signed expire, then removed).
rotate   publish a new key for ALG (default: every algorithm with an active key). It starts
         signing after keys.prepublish seconds (default 3600), so relying parties that cache
         the JWKS see it first; the old key then retires. --now activates at once (a
         compromised key; tokens it signed stay verifiable until they expire).

Reads the same configuration as the server (PQID_CONFIG or --config, PQID_DATA_DIR,
PQID_DATABASE_URL, ...). rotate needs the key-encryption key (PQID_KEK or <dataDir>/kek.key).
A running server picks a rotation up within keys.refreshInterval seconds (default 60).`;

export const keys: Command = {
  name: 'keys',
  summary: "list or rotate the IdP's signing keys",
  help: HELP,
  async run(args) {
    const [sub, ...rest] = args;
    const { values } = parse({
      args: rest,
      options: {
        alg: { type: 'string' },
        now: { type: 'boolean', default: false },
        json: { type: 'boolean', default: false },
        config: { type: 'string' },
      },
      strict: true,
    });
    if (sub === 'list') {
      if (values.alg || values.now) throw new UsageError('keys list takes no --alg or --now');
      const list = await mapErrors(() =>
        withCli({ configFile: values.config, withKeys: false }, async (ctx) => ctx.keys.list()),
      );
      out(render(list, values.json));
      return;
    }
    if (sub === 'rotate') {
      const rotated = await mapErrors(() =>
        withCli({ configFile: values.config, withKeys: true }, (ctx) =>
          ctx.keys.rotate(values.alg, { immediate: values.now }),
        ),
      );
      out(render(rotated, values.json));
      return;
    }
    throw new UsageError(
      sub === undefined ? 'keys needs list or rotate' : `unknown keys command ${JSON.stringify(sub)}`,
    );
  },
};
