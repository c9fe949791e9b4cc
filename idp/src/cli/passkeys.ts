/**
 * `pqid passkeys list|remove|enrol`: an operator's view of a user's passkeys, and the recovery
 * path for a user who has only their password (a lost authenticator, or a passkey someone else
 * registered): list them, remove them — which ends the sessions and revokes the grants they
 * authenticated, on every instance — and issue a one-time enrolment code for a new first passkey
 * (signin/passkeys/enrolment.ts). Works on the server's storage, running or not.
 */
import type { Account } from '../accounts/accounts.ts';
import type { IdpContext } from '../context.ts';
import { passkeyAlgName } from '../policy/passkeys.ts';
import { passkeysOf } from '../signin/passkeys/credentials.ts';
import { Enrolments } from '../signin/passkeys/enrolment.ts';
import { mapErrors, parse } from './args.ts';
import { CliError, type Command, err, json, out, table, UsageError, unknownSubcommand } from './common.ts';
import { withCli } from './open.ts';

/** Enrolment codes last a day unless told otherwise, and at most 30 days. */
const DEFAULT_TTL = 86_400;
const MAX_TTL = 30 * 86_400;

const HELP = `Usage:
  pqid passkeys list USERNAME [--json]
  pqid passkeys remove USERNAME CREDENTIAL_ID
  pqid passkeys remove USERNAME --all
  pqid passkeys enrol USERNAME [--ttl SECONDS]
  pqid passkeys enrol USERNAME --cancel

list     the user's passkeys (credential IDs as remove takes them) and any unused enrolment code
remove   delete one passkey, or all; every session it signed in ends and every grant (refresh and
         access tokens) issued in those sessions is revoked, on every instance
enrol    print a one-time code that lets the user add a first passkey on the account page, after
         signing in with their password; valid --ttl seconds (default ${DEFAULT_TTL}, at most ${MAX_TTL}).
         A new code replaces the user's earlier ones; --cancel withdraws them. Hand it over on a
         channel you trust, once you are sure who is asking. The account must have no passkey:
         remove a lost or unknown one first.

Every command also takes --config FILE.`;

const iso = (t: number) => new Date(t * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');

async function accountOf(ctx: IdpContext, username: string): Promise<Account> {
  const account = await ctx.accounts.findByUsername(username);
  if (!account) throw new CliError('ERR_NO_SUCH_USER', `no user ${JSON.stringify(username)}`);
  return account;
}

function oneUser(positionals: string[], what: string, max = 1): string[] {
  if (positionals.length === 0 || positionals.length > max)
    throw new UsageError(
      `passkeys ${what} takes ${max === 1 ? 'one USERNAME' : 'a USERNAME, then a CREDENTIAL_ID or --all'}`,
    );
  return positionals;
}

async function list(rest: string[]): Promise<void> {
  const { values, positionals } = parse({
    args: rest,
    options: { json: { type: 'boolean', default: false }, config: { type: 'string' } },
    allowPositionals: true,
    strict: true,
  });
  const [username] = oneUser(positionals, 'list') as [string];
  const { passkeys, pending } = await mapErrors(() =>
    withCli({ configFile: values.config, withKeys: false }, async (ctx) => {
      const account = await accountOf(ctx, username);
      return {
        passkeys: await passkeysOf(ctx).list(account.sub),
        pending: await new Enrolments(ctx.storage.adapter('PasskeyEnrolment')).pending(account.sub),
      };
    }),
  );
  const rows = passkeys.map((p) => ({
    id: p.id,
    name: p.name,
    algorithm: passkeyAlgName(p.alg) ?? `COSE ${p.alg}`,
    synced: p.backupEligible,
    createdAt: iso(p.createdAt),
    ...(p.lastUsedAt !== undefined ? { lastUsedAt: iso(p.lastUsedAt) } : {}),
    ...(p.counterRegressionAt !== undefined ? { counterRegressionAt: iso(p.counterRegressionAt) } : {}),
  }));
  const enrolment = pending.length ? { expiresAt: iso(Math.max(...pending)) } : null;
  if (values.json) {
    out(json({ username, passkeys: rows, enrolment }));
    return;
  }
  if (rows.length === 0) out(`${username} has no passkeys`);
  else
    out(
      table(
        ['credential id', 'name', 'algorithm', 'synced', 'added', 'last used', 'warning'],
        rows.map((r) => [
          r.id,
          r.name,
          r.algorithm,
          r.synced,
          r.createdAt,
          r.lastUsedAt ?? '-',
          r.counterRegressionAt ? `counter went backwards ${r.counterRegressionAt}` : '',
        ]),
      ),
    );
  if (enrolment) out(`an unused enrolment code is valid until ${enrolment.expiresAt}`);
}

async function remove(rest: string[]): Promise<void> {
  const { values, positionals } = parse({
    args: rest,
    options: { all: { type: 'boolean', default: false }, config: { type: 'string' } },
    allowPositionals: true,
    strict: true,
  });
  const [username, id] = oneUser(positionals, 'remove', 2) as [string, string | undefined];
  if ((id === undefined) === !values.all)
    throw new UsageError('passkeys remove takes either a CREDENTIAL_ID or --all');
  const removal = await mapErrors(() =>
    withCli({ configFile: values.config, withKeys: false }, async (ctx) => {
      const account = await accountOf(ctx, username);
      const passkeys = passkeysOf(ctx);
      if (id === undefined) return passkeys.removeAll(account.sub);
      const r = await passkeys.remove(account.sub, id);
      if (!r) throw new CliError('ERR_NO_SUCH_PASSKEY', `${username} has no passkey ${JSON.stringify(id)}`);
      return r;
    }),
  );
  out(
    `removed ${removal.removed} passkey(s) of ${username}; ended ${removal.sessions} session(s), revoked ${removal.grants} grant(s)`,
  );
}

async function enrol(rest: string[]): Promise<void> {
  const { values, positionals } = parse({
    args: rest,
    options: {
      ttl: { type: 'string' },
      cancel: { type: 'boolean', default: false },
      config: { type: 'string' },
    },
    allowPositionals: true,
    strict: true,
  });
  const [username] = oneUser(positionals, 'enrol') as [string];
  if (values.cancel && values.ttl !== undefined) throw new UsageError('--cancel takes no --ttl');
  const ttl = values.ttl === undefined ? DEFAULT_TTL : Number(values.ttl);
  if (!Number.isInteger(ttl) || ttl < 60 || ttl > MAX_TTL)
    throw new UsageError(`--ttl must be a whole number of seconds, 60–${MAX_TTL}`);
  await mapErrors(() =>
    withCli({ configFile: values.config, withKeys: false }, async (ctx) => {
      const account = await accountOf(ctx, username);
      const enrolments = new Enrolments(ctx.storage.adapter('PasskeyEnrolment'));
      if (values.cancel) {
        out(`withdrew ${await enrolments.cancel(account.sub)} enrolment code(s) of ${username}`);
        return;
      }
      const existing = await passkeysOf(ctx).list(account.sub);
      if (existing.length > 0)
        throw new CliError(
          'ERR_HAS_PASSKEY',
          `${username} has ${existing.length} passkey(s): an enrolment code is for the first one. ` +
            'They can add more after signing in with one; if it is lost, remove it first (pqid passkeys remove).',
        );
      const { code, expiresAt } = await enrolments.issue(account.sub, ttl);
      out(code);
      err(
        `enrolment code for ${username}, valid once until ${iso(expiresAt)}: sign in at ${ctx.config.issuer}/account and enter it`,
      );
    }),
  );
}

export const passkeys: Command = {
  name: 'passkeys',
  summary: "list or remove a user's passkeys, or issue a code to enrol a first one",
  help: HELP,
  async run(args) {
    const [sub, ...rest] = args;
    if (sub === 'list') return list(rest);
    if (sub === 'remove') return remove(rest);
    if (sub === 'enrol') return enrol(rest);
    throw unknownSubcommand('passkeys', sub, ['list', 'remove', 'enrol']);
  },
};
