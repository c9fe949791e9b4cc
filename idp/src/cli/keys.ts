/** `pqid keys list|rotate|remove|rekey|import`: the IdP's signing and encryption keys, in its storage. */
import type { ExternalKeyRef, ExternalRef } from '../keys/custody.ts';
import type { KeyInfo } from '../keys/key-manager.ts';
import { isKeySet, KEY_SETS, type KeySet } from '../policy/key-sets.ts';
import { mapErrors, parse } from './args.ts';
import { type Command, json, out, table, UsageError, unknownSubcommand } from './common.ts';
import { withCli } from './open.ts';

const iso = (t: number | undefined) => (t === undefined ? '-' : new Date(t * 1000).toISOString());

function render(keys: KeyInfo[], asJson: boolean): string {
  if (asJson) return json(keys);
  return table(
    ['set', 'kid', 'alg', 'status', 'signs from', 'retired', 'removed at', 'custody'],
    keys.map((k) => [
      k.set,
      k.kid,
      k.alg,
      k.status,
      iso(k.activateAt),
      iso(k.retiredAt),
      iso(k.removeAt),
      k.custody,
    ]),
  );
}

const HELP = `Usage:
  pqid keys list [--set SET] [--json] [--config file]
  pqid keys rotate [--alg ALG] [--set SET] [--now] [--json] [--config file]
  pqid keys remove KID [--set SET] [--json] [--config file]
  pqid keys rekey [--json] [--config file]
  pqid keys import --signer NAME --ref REF --alg ALG [--set SET] [--now] [--json] [--config file]

Keys come in sets by purpose: oidc (token signing, published in /jwks), saml (SAML signing,
published as certificates in the SAML metadata), root (the cold-path root: certifies the SAML
keys, signs the metadata and the signed JWKS, published in neither) and enc (the IdP's own
encryption keys, keys.encryptionAlgs: published in /jwks with use "enc", clients encrypt
request objects to them).

list     every key of every set (or of --set): next (published, not signing yet), active,
         retired (published until what it signed expires, then removed), and its custody:
         sealed:<KEK id> (which KEK sealed it) or external:<signer> (a KMS/HSM key).
rotate   publish a new key for ALG in the oidc and saml sets that have one (default: every
         algorithm with an active key there). The root is rotated only with --set root,
         the encryption keys only with --set enc or an --alg of theirs (e.g. HPKE-9; a
         retired one still decrypts until it leaves /jwks).
         A new key starts signing after keys.prepublish seconds (default 3600), so relying
         parties that cache the JWKS or metadata see it first; the old key then retires.
         The first key of an algorithm in a set has nothing to replace and signs at once.
         --now activates at once (a compromised key; what it signed stays verifiable until
         it expires). Instances sharing the store rotate under one lock: a second rotation of
         the same algorithm finds the first one's next key and is refused.
remove   delete a retired or next key now, before its retention ends (a compromised key, or
         a staged one that must not activate). The active key is refused: rotate --now first.
         Tokens the removed key signed stop verifying as soon as relying parties refetch the
         JWKS (at most its Cache-Control max-age, 300 s, or at once on an unknown kid).
rekey    re-seal every sealed key under the current key-encryption key (PQID_KEK, or the
         first line of the KEK file), in one transaction. Keys sealed under an earlier KEK need
         it in PQID_KEK_PREVIOUS (or the KEK file's later lines). See docs/KEYS.md, "Changing
         the KEK", for the order of steps with running instances.
import   register a key that lives in a KMS or HSM (keys.signers.NAME): its public key is read
         through the signer and it enters the set like a rotation (next, or active with --now).
         A composite's halves may be two keys: --ref mldsa=REF --ref traditional=REF, each
         optionally NAME:REF for another signer.

Reads the same configuration as the server (PQID_CONFIG or --config, PQID_DATA_DIR,
PQID_DATABASE_URL, ...). Everything but list needs the KEK (PQID_KEK or <dataDir>/kek.key).
Every operation writes an audit line (JSON) to stderr. A running server picks changes up within
keys.refreshInterval seconds (default 60).`;

/** `--ref REF`, or for composites `--ref mldsa=[NAME:]REF --ref traditional=[NAME:]REF`. */
export function parseRefs(signer: string | undefined, refs: string[] | undefined): ExternalRef {
  if (!refs?.length) throw new UsageError('keys import needs --ref');
  const named = (v: string): ExternalKeyRef => {
    const m = /^([A-Za-z0-9_.-]+):(.+)$/.exec(v);
    if (m && signer === undefined) return { signer: m[1] as string, ref: m[2] as string };
    if (signer === undefined) throw new UsageError('keys import needs --signer NAME (or NAME:REF)');
    return { signer, ref: v };
  };
  if (refs.length === 1 && !/^(mldsa|traditional)=/.test(refs[0] as string)) return named(refs[0] as string);
  const halves: Record<string, ExternalKeyRef> = {};
  for (const r of refs) {
    const m = /^(mldsa|traditional)=(.+)$/.exec(r);
    if (!m) throw new UsageError('a composite takes --ref mldsa=REF --ref traditional=REF');
    halves[m[1] as string] = named(m[2] as string);
  }
  if (!halves.mldsa || !halves.traditional)
    throw new UsageError('a composite takes both --ref mldsa=REF and --ref traditional=REF');
  return { mldsa: halves.mldsa, traditional: halves.traditional };
}

export const keys: Command = {
  name: 'keys',
  summary: "list, rotate, remove, re-seal or import the IdP's signing keys",
  help: HELP,
  async run(args) {
    const [sub, ...rest] = args;
    const { values, positionals } = parse({
      args: rest,
      options: {
        alg: { type: 'string' },
        set: { type: 'string' },
        now: { type: 'boolean', default: false },
        json: { type: 'boolean', default: false },
        config: { type: 'string' },
        signer: { type: 'string' },
        ref: { type: 'string', multiple: true },
      },
      allowPositionals: sub === 'remove',
      strict: true,
    });
    let set: KeySet | undefined;
    if (values.set !== undefined) {
      if (!isKeySet(values.set)) throw new UsageError(`--set must be one of ${KEY_SETS.join(', ')}`);
      set = values.set;
    }
    const cli = { configFile: values.config, withKeys: true };
    const none = (what: string, ...opts: Array<keyof typeof values>) => {
      for (const o of opts)
        if (values[o] !== undefined && values[o] !== false)
          throw new UsageError(`keys ${what} takes no --${o}`);
    };
    if (sub === 'list') {
      none('list', 'alg', 'now', 'signer', 'ref');
      const list = await mapErrors(() =>
        withCli({ ...cli, withKeys: false }, async (ctx) => ctx.keys.list(set)),
      );
      out(render(list, values.json));
      return;
    }
    if (sub === 'rotate') {
      none('rotate', 'signer', 'ref');
      const rotated = await mapErrors(() =>
        withCli(cli, (ctx) =>
          ctx.keys.rotate(values.alg, { immediate: values.now, ...(set ? { set } : {}) }),
        ),
      );
      out(render(rotated, values.json));
      return;
    }
    if (sub === 'remove') {
      none('remove', 'alg', 'now', 'signer', 'ref');
      const [kid, ...extra] = positionals;
      if (!kid || extra.length) throw new UsageError('keys remove takes one key id (see pqid keys list)');
      const removed = await keyErrors(() => withCli(cli, (ctx) => ctx.keys.remove(kid, set ? { set } : {})));
      if (values.json) out(json(removed));
      else {
        out(render(removed, false));
        out(
          `\nRemoved. Relying parties drop ${kid} at their next JWKS or metadata refresh (the IdP serves them with max-age 300 s);\n` +
            'from then on nothing it signed verifies — ID tokens, JWT access tokens, SAML responses — even before their expiry.\n' +
            'Reference access tokens and refresh tokens do not depend on it: revoke the affected grants to end those too.',
        );
      }
      return;
    }
    if (sub === 'rekey') {
      none('rekey', 'alg', 'now', 'signer', 'ref', 'set');
      const r = await keyErrors(() => withCli(cli, (ctx) => ctx.keys.rekey()));
      if (values.json) out(json(r));
      else
        out(
          `Re-sealed ${r.resealed} key(s) under KEK ${r.to}${r.from.length ? ` (from ${r.from.join(', ')})` : ''}; ${r.current} already were, ${r.external} external.\n` +
            'Nothing in the store is sealed under another KEK now: PQID_KEK_PREVIOUS (or the KEK file’s later lines) can go at the next restart.',
        );
      return;
    }
    if (sub === 'import') {
      if (!values.alg) throw new UsageError('keys import needs --alg');
      const ref = parseRefs(values.signer, values.ref);
      const alg = values.alg;
      const info = await keyErrors(() =>
        withCli(cli, (ctx) =>
          ctx.keys.importExternal(ref, alg, { immediate: values.now, ...(set ? { set } : {}) }),
        ),
      );
      out(render([info], values.json));
      return;
    }
    throw unknownSubcommand('keys', sub, ['list', 'rotate', 'remove', 'rekey', 'import']);
  },
};

/** The key-operation errors, each with its stable code. */
const keyErrors = mapErrors;
