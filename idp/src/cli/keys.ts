/** `pqid keys list|rotate`: the IdP's signing keys, read from and written to its storage. */
import { type Command, json, out, table, UsageError } from '@pqid/jose/cli';
import type { KeyInfo } from '../keys/key-manager.ts';
import { isKeySet, KEY_SETS, type KeySet } from '../keys/key-sets.ts';
import { mapErrors, parse } from './args.ts';
import { withCli } from './open.ts';

const iso = (t: number | undefined) => (t === undefined ? '-' : new Date(t * 1000).toISOString());

function render(keys: KeyInfo[], asJson: boolean): string {
  if (asJson) return json(keys);
  return table(
    ['set', 'kid', 'alg', 'status', 'signs from', 'retired', 'removed at'],
    keys.map((k) => [k.set, k.kid, k.alg, k.status, iso(k.activateAt), iso(k.retiredAt), iso(k.removeAt)]),
  );
}

const HELP = `Usage:
  pqid keys list [--set SET] [--json] [--config file]
  pqid keys rotate [--alg ALG] [--set SET] [--now] [--json] [--config file]

Keys come in sets by purpose: oidc (token signing, published in /jwks), saml (SAML signing,
published as certificates in the SAML metadata) and root (the SAML root: certifies the SAML
keys and signs the metadata, published in neither).

list     every key of every set (or of --set): next (published, not signing yet), active,
         retired (published until what it signed expires, then removed).
rotate   publish a new key for ALG in the oidc and saml sets that have one (default: every
         algorithm with an active key there). The root is rotated only with --set root.
         A new key starts signing after keys.prepublish seconds (default 3600), so relying
         parties that cache the JWKS or metadata see it first; the old key then retires.
         --now activates at once (a compromised key; what it signed stays verifiable until
         it expires).

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
        set: { type: 'string' },
        now: { type: 'boolean', default: false },
        json: { type: 'boolean', default: false },
        config: { type: 'string' },
      },
      strict: true,
    });
    let set: KeySet | undefined;
    if (values.set !== undefined) {
      if (!isKeySet(values.set)) throw new UsageError(`--set must be one of ${KEY_SETS.join(', ')}`);
      set = values.set;
    }
    if (sub === 'list') {
      if (values.alg || values.now) throw new UsageError('keys list takes no --alg or --now');
      const list = await mapErrors(() =>
        withCli({ configFile: values.config, withKeys: false }, async (ctx) => ctx.keys.list(set)),
      );
      out(render(list, values.json));
      return;
    }
    if (sub === 'rotate') {
      const rotated = await mapErrors(() =>
        withCli({ configFile: values.config, withKeys: true }, (ctx) =>
          ctx.keys.rotate(values.alg, { immediate: values.now, ...(set ? { set } : {}) }),
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
